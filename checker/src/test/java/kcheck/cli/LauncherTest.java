package kcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import javax.tools.ToolProvider;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code kcheck} launcher at the repository's root, run for real: a copy of it in a temporary
 * directory laid out like the repository (sources, no build output), with a fake {@code mvn}
 * first on the PATH that records its arguments and "builds" by copying a tiny jar whose
 * {@code kcheck.cli.Main} prints its arguments, class path and {@code -Dfake.opt}. So each test
 * sees what a new user's clone does: whether the launcher builds, says so, runs the command with
 * the user's arguments, and what it says when the build fails.
 */
class LauncherTest {
    static final Path LAUNCHER = Path.of("..", "kcheck").toAbsolutePath().normalize();
    static final String RELEASE_JAR = "checker/target/kcheck-0.1.0-SNAPSHOT.jar";
    static final String CLUSTER_JAR = "cluster/target/kcheck-cluster.jar";
    static final String BUILDING = "kcheck: building the CLI";

    /** The fake release jar (its Main prints what it was given) and a jar without a Main (the module jar, the cluster jar). */
    static Path fakeJar;
    static Path emptyJar;

    @TempDir
    Path tmp;
    Path repo;
    Path mvnLog;

    @BeforeAll
    static void buildTheFakeJars(@TempDir Path dir) throws IOException {
        Path src = Files.createDirectories(dir.resolve("src/kcheck/cli")).resolve("Main.java");
        Files.writeString(src, "package kcheck.cli;\npublic class Main {\n  public static void main(String[] a) {\n"
                + "    System.out.println(\"fake kcheck \" + String.join(\" \", a));\n"
                + "    System.out.println(\"class path \" + System.getProperty(\"java.class.path\"));\n"
                + "    System.out.println(\"fake.opt \" + System.getProperty(\"fake.opt\"));\n"
                + "    System.out.println(\"jvm \" + String.join(\" \", java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()));\n"
                + "  }\n}\n");
        Path classes = Files.createDirectories(dir.resolve("classes"));
        int javac = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", classes.toString(), src.toString());
        assertThat(javac).as("javac of the fake Main").isZero();
        fakeJar = dir.resolve("fake.jar");
        emptyJar = dir.resolve("empty.jar");
        try (JarOutputStream j = new JarOutputStream(Files.newOutputStream(fakeJar))) {
            j.putNextEntry(new JarEntry("kcheck/cli/Main.class"));
            j.write(Files.readAllBytes(classes.resolve("kcheck/cli/Main.class")));
        }
        try (OutputStream o = Files.newOutputStream(emptyJar); JarOutputStream j = new JarOutputStream(o)) {
            j.putNextEntry(new JarEntry("empty.txt"));
        }
    }

    /** A copy of the launcher in a directory laid out like the repository, every file an hour old, nothing built. */
    void cleanCopy() throws IOException {
        repo = Files.createDirectories(tmp.resolve("repo"));
        Files.copy(LAUNCHER, repo.resolve("kcheck"));
        for (String f : List.of("pom.xml", "kcheck-baseline.json", "model/src/main/java/kcheck/model/Model.java",
                "traces/src/main/java/kcheck/trace/Trace.java", "traces/corpus/rq-lock-before-fifo-entry.json",
                "litmus/src/main/java/kcheck/litmus/LitmusChecker.java", "checker/src/main/java/kcheck/cli/Main.java", "checker/src/main/resources/kcheck/help.txt",
                "cluster/src/main/java/kcheck/cluster/Worker.java")) {
            Path p = repo.resolve(f);
            Files.createDirectories(p.getParent());
            Files.writeString(p, "// " + f + "\n");
            age(p, 3600);
        }
        Path bin = Files.createDirectories(tmp.resolve("fakebin"));
        mvnLog = tmp.resolve("mvn.log");
        Files.writeString(bin.resolve("mvn"), String.join("\n", "#!/bin/sh",
                "echo \"$PWD|$*\" >> \"$FAKE_MVN_LOG\"",
                "if [ -n \"$FAKE_MVN_FAIL\" ]; then echo '[ERROR] fake mvn: COMPILATION ERROR'; exit 1; fi",
                "if [ -n \"$FAKE_MVN_BUILDS_NOTHING\" ]; then exit 0; fi",
                "mkdir -p checker/target",
                "cp \"$FAKE_EMPTY_JAR\" checker/target/kcheck-checker-0.1.0-SNAPSHOT.jar",
                "cp \"$FAKE_JAR\" " + RELEASE_JAR,
                "case \"$*\" in *'-pl cluster'*) mkdir -p cluster/target && cp \"$FAKE_EMPTY_JAR\" " + CLUSTER_JAR + " ;; esac",
                ""));
        Files.writeString(bin.resolve("java"), "#!/bin/sh\nexec '" + Path.of(System.getProperty("java.home"), "bin", "java") + "' \"$@\"\n");
        bin.resolve("mvn").toFile().setExecutable(true);
        bin.resolve("java").toFile().setExecutable(true);
    }

    /** A copy with the release jar built half an hour ago (after every source: fresh). */
    void builtCopy() throws IOException {
        cleanCopy();
        Path jar = repo.resolve(RELEASE_JAR);
        Files.createDirectories(jar.getParent());
        Files.copy(fakeJar, jar);
        age(jar, 1800);
    }

    static void age(Path p, long seconds) throws IOException {
        Files.setLastModifiedTime(p, FileTime.from(Instant.now().minusSeconds(seconds)));
    }

    record Run(int exit, String out, String err) {
    }

    /** Runs {@code script args} from {@code dir} with the fake mvn and java first on the PATH. */
    Run run(Path script, Path dir, Map<String, String> env, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(script.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
        pb.environment().put("PATH", tmp.resolve("fakebin") + ":" + System.getenv("PATH"));
        pb.environment().put("FAKE_MVN_LOG", mvnLog.toString());
        pb.environment().put("FAKE_JAR", fakeJar.toString());
        pb.environment().put("FAKE_EMPTY_JAR", emptyJar.toString());
        pb.environment().remove("KCHECK_JAVA_OPTS");
        pb.environment().putAll(env);
        Path out = tmp.resolve("out");
        Path err = tmp.resolve("err");
        Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError(cmd + " did not end within 120 s");
        }
        return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    Run run(Map<String, String> env, String... args) throws Exception {
        return run(repo.resolve("kcheck"), repo, env, args);
    }

    List<String> mvnCalls() throws IOException {
        return Files.exists(mvnLog) ? Files.readAllLines(mvnLog) : List.of();
    }

    @Test
    void aCleanCloneBuildsOnceSaysSoAndRunsTheUsersCommandFromAnyDirectoryAndThroughASymlink() throws Exception {
        cleanCopy();
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        Path link = Files.createSymbolicLink(Files.createDirectories(tmp.resolve("home/bin")).resolve("kcheck"), repo.resolve("kcheck"));

        Run first = run(link, elsewhere, Map.of(), "verify", "--quick", "two words");

        assertThat(first.exit()).as(first.err()).isZero();
        assertThat(first.err()).startsWith(BUILDING);
        assertThat(first.out()).startsWith("fake kcheck verify --quick two words\nclass path " + repo.resolve(RELEASE_JAR) + "\n");
        assertThat(mvnCalls()).containsExactly(repo + "|-B -q -DskipTests -pl checker -am package");

        Run second = run(Map.of("KCHECK_JAVA_OPTS", "-Dfake.opt=given"), "list");
        assertThat(second.exit()).as(second.err()).isZero();
        assertThat(second.err()).as("built already: nothing to say").isEmpty();
        assertThat(second.out()).startsWith("fake kcheck list\n").contains("fake.opt given");
        assertThat(mvnCalls()).as("no second build").hasSize(1);
    }

    /** The class-data-sharing archives beside the release jar. */
    List<Path> archives() throws IOException {
        try (var s = Files.list(repo.resolve("checker/target"))) {
            return s.filter(p -> p.getFileName().toString().endsWith(".jsa")).sorted().toList();
        }
    }

    @Test
    void aBuiltJarGetsOneClassDataSharingArchiveFromATrainingRunAndEveryRunUsesItQuietly() throws Exception {
        builtCopy();

        Run first = run(Map.of(), "list");
        assertThat(first.exit()).as(first.err()).isZero();
        assertThat(first.err()).as("the training run says nothing").isEmpty();
        assertThat(first.out()).startsWith("fake kcheck list\n");
        assertThat(archives()).singleElement().satisfies(a -> assertThat(a.getFileName().toString())
                .startsWith("kcheck-0.1.0-SNAPSHOT-cds-").endsWith(".jsa"));
        Path archive = archives().get(0);
        assertThat(first.out()).contains("-XX:SharedArchiveFile=" + archive, "-Xlog:cds=off");
        FileTime made = Files.getLastModifiedTime(archive);

        Run second = run(Map.of(), "list");
        assertThat(second.err()).isEmpty();
        assertThat(second.out()).contains("-XX:SharedArchiveFile=" + archive);
        assertThat(Files.getLastModifiedTime(archive)).as("not made again for the same jar").isEqualTo(made);
    }

    @Test
    void kcheckCdsZeroMakesNoArchiveAndPassesNoArchiveOption() throws Exception {
        builtCopy();
        Run r = run(Map.of("KCHECK_CDS", "0"), "list");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("fake kcheck list\n").doesNotContain("SharedArchiveFile");
        assertThat(archives()).isEmpty();
    }

    @Test
    void aFailedTrainingRunLeavesAMarkerIsNotRetriedAndTheUsersRunStillRuns() throws Exception {
        builtCopy();
        /* a jar the JVM cannot run as kcheck.cli.Main: the training run fails */
        Files.copy(emptyJar, repo.resolve(RELEASE_JAR), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        age(repo.resolve(RELEASE_JAR), 1800);

        Run r = run(Map.of(), "list");
        assertThat(r.exit()).as("the user's own run fails the same way, with the JVM's message").isNotZero();
        assertThat(archives()).isEmpty();
        try (var s = Files.list(repo.resolve("checker/target"))) {
            assertThat(s.map(p -> p.getFileName().toString()).toList()).anyMatch(n -> n.endsWith(".jsa.failed"))
                    .noneMatch(n -> n.matches(".*\\.jsa\\.[0-9]+"));
        }
    }

    @Test
    void aSourceNewerThanTheJarRebuildsAndAFreshJarDoesNot() throws Exception {
        builtCopy();
        Run fresh = run(Map.of(), "list");
        assertThat(fresh.exit()).as(fresh.err()).isZero();
        assertThat(fresh.err()).isEmpty();
        assertThat(mvnCalls()).isEmpty();

        for (String changed : List.of("model/src/main/java/kcheck/model/Model.java", "kcheck-baseline.json",
                "traces/corpus/rq-lock-before-fifo-entry.json", "litmus/src/main/java/kcheck/litmus/LitmusChecker.java",
                "checker/src/main/resources/kcheck/help.txt")) {
            age(repo.resolve(RELEASE_JAR), 1800);
            age(repo.resolve(changed), 60);
            Run stale = run(Map.of(), "list");
            assertThat(stale.exit()).as(stale.err()).isZero();
            assertThat(stale.err()).as("after a change of " + changed).startsWith(BUILDING);
            assertThat(stale.out()).startsWith("fake kcheck list\n");
            age(repo.resolve(changed), 3600);
        }
        assertThat(mvnCalls()).hasSize(5);
    }

    @Test
    void aFailedBuildIsExitTwoWithTheBuildFailedLineAndMavensOwnMessage() throws Exception {
        cleanCopy();
        Run r = run(Map.of("FAKE_MVN_FAIL", "1"), "verify");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).startsWith(BUILDING).contains("[ERROR] fake mvn: COMPILATION ERROR")
                .endsWith("kcheck: build failed (run 'mvn -B verify' in " + repo + " to see why)\n");
    }

    @Test
    void aBuildThatLeavesNoJarIsExitTwoWithALineNamingTheJar() throws Exception {
        cleanCopy();
        Run r = run(Map.of("FAKE_MVN_BUILDS_NOTHING", "1"), "verify");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).startsWith(BUILDING)
                .endsWith("kcheck: build failed: no " + repo + "/checker/target/kcheck-<version>.jar after it (run 'mvn -B verify' in "
                        + repo + " to see why)\n");
    }

    @Test
    void theClusterModuleIsBuiltWhenAskedForAndPutOnTheClassPath() throws Exception {
        cleanCopy();
        Run worker = run(Map.of(), "worker", "--port", "0");
        assertThat(worker.exit()).as(worker.err()).isZero();
        assertThat(worker.err()).startsWith(BUILDING).contains("kcheck: building the cluster module");
        assertThat(worker.out()).startsWith("fake kcheck worker --port 0\nclass path " + repo.resolve(RELEASE_JAR) + ":"
                + repo.resolve(CLUSTER_JAR) + "\n");
        assertThat(mvnCalls()).containsExactly(repo + "|-B -q -DskipTests -pl checker -am package",
                repo + "|-B -q -DskipTests -pl cluster -am package");

        Run again = run(Map.of(), "check", "rq-lock", "--cluster=127.0.0.1:2552");
        assertThat(again.err()).isEmpty();
        assertThat(mvnCalls()).hasSize(2);
    }

    @Test
    void aFailedBuildOfTheClusterModuleIsExitTwoWithItsLine() throws Exception {
        builtCopy();
        Run r = run(Map.of("FAKE_MVN_FAIL", "1"), "worker");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).startsWith("kcheck: building the cluster module").contains("[ERROR] fake mvn: COMPILATION ERROR")
                .endsWith("kcheck: build of the cluster module failed (run 'mvn -B verify' in " + repo + " to see why)\n");
    }
}
