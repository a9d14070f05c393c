package kcheck.cli;

import java.io.File;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Runs the CLI in a separate JVM ({@code java -cp ... kcheck.cli.Main ARGS}), for what cannot run
 * in the test's own JVM: a variant that ends or hangs the JVM, a tiny heap. A run still going after
 * two minutes is killed and reported (a hang guard, not a timing assertion).
 */
final class ChildJvm {
    final int exit;
    final String out;
    final String err;

    private ChildJvm(int exit, String out, String err) {
        this.exit = exit;
        this.out = out;
        this.err = err;
    }

    static ChildJvm run(List<String> jvmOptions, String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmOptions);
        cmd.add("-cp");
        cmd.add(classPath());
        cmd.add(Main.class.getName());
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile("kcheck-child-", ".out");
        Path err = Files.createTempFile("kcheck-child-", ".err");
        try {
            Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
                throw new AssertionError("kcheck " + String.join(" ", args) + " did not end within 120 s; stderr: "
                        + Files.readString(err, StandardCharsets.UTF_8));
            }
            return new ChildJvm(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** The CLI's class path: where kcheck's modules and its dependencies were loaded from in this JVM. */
    static String classPath() {
        Set<String> out = new LinkedHashSet<>();
        for (Class<?> c : List.of(Main.class, kcheck.model.Model.class, kcheck.trace.Trace.class, kcheck.litmus.LitmusChecker.class,
                picocli.CommandLine.class,
                com.fasterxml.jackson.databind.ObjectMapper.class, com.fasterxml.jackson.core.JsonFactory.class,
                com.fasterxml.jackson.annotation.JsonProperty.class, org.openjdk.jmh.runner.Runner.class)) {
            CodeSource cs = c.getProtectionDomain().getCodeSource();
            try {
                out.add(new File(cs.getLocation().toURI()).getPath());
            } catch (URISyntaxException e) {
                throw new IllegalStateException(e);
            }
        }
        return String.join(File.pathSeparator, out);
    }
}
