package kcheck.cli.build;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import kcheck.cli.Main;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.codegen.docgen.manpage.ManPageGenerator;

/**
 * Run at build time (Maven's process-classes phase, see checker/pom.xml): writes what the release
 * carries besides the jar, from the same picocli model that prints {@code --help}:
 * <ul>
 * <li>{@code man/man1/kcheck*.1}: troff man pages, one per command ({@code man -l kcheck-check.1});</li>
 * <li>{@code man/adoc/*.adoc}: the same pages as AsciiDoc (picocli-codegen's ManPageGenerator);</li>
 * <li>{@code completion/kcheck.bash} and {@code completion/_kcheck} (zsh): picocli's AutoComplete;</li>
 * <li>{@code classes/kcheck/build.properties}: version and git revision ({@code --version}).</li>
 * </ul>
 * Arguments: the target directory, the project version, the repository root (for git).
 */
public final class Docs {
    private Docs() {
    }

    public static void main(String[] args) throws IOException {
        Path target = Path.of(args[0]);
        String version = args[1];
        Path repo = Path.of(args[2]);
        Path props = target.resolve("classes/kcheck/build.properties");
        Files.createDirectories(props.getParent());
        String revision = gitRevision(repo);
        Files.writeString(props, "version=" + version + "\nrevision=" + revision + "\n", StandardCharsets.UTF_8);
        String label = "kcheck " + version + (revision.isEmpty() ? "" : " (git " + revision + ")");

        CommandLine cl = Main.commandLine();
        Path man1 = target.resolve("man/man1");
        Files.createDirectories(man1);
        List<CommandSpec> specs = new ArrayList<>();
        collect(cl.getCommandSpec(), specs);
        for (CommandSpec s : specs) {
            Files.writeString(man1.resolve(s.qualifiedName("-") + ".1"), ManPage.troff(s, label), StandardCharsets.UTF_8);
        }
        Path adoc = target.resolve("man/adoc");
        Files.createDirectories(adoc);
        int rc = ManPageGenerator.generateManPage(adoc.toFile(), (File) null, new boolean[0], true, cl.getCommandSpec());
        if (rc != 0) {
            throw new IOException("ManPageGenerator failed with exit code " + rc);
        }
        Path completion = target.resolve("completion");
        Files.createDirectories(completion);
        String bash = AutoComplete.bash("kcheck", cl);
        Files.writeString(completion.resolve("kcheck.bash"), bash, StandardCharsets.UTF_8);
        Files.writeString(completion.resolve("_kcheck"), "#compdef kcheck\n# zsh: picocli's completion script runs on zsh's "
                + "bash-completion emulation\nautoload -U +X compinit && compinit\nautoload -U +X bashcompinit && bashcompinit\n"
                + bash, StandardCharsets.UTF_8);
    }

    private static void collect(CommandSpec s, List<CommandSpec> out) {
        if (s.usageMessage().hidden()) {
            return;
        }
        out.add(s);
        s.subcommands().forEach((name, sub) -> {
            if (name.equals(sub.getCommandName()) && !name.equals("help")) {
                collect(sub.getCommandSpec(), out);
            }
        });
    }

    /** The short commit id of {@code repo}'s HEAD, "+dirty" if it has uncommitted changes; "" without git. */
    static String gitRevision(Path repo) {
        String head = run(repo, "git", "rev-parse", "--short=12", "HEAD");
        if (head.isEmpty()) {
            return "";
        }
        String status = run(repo, "git", "status", "--porcelain", "--untracked-files=no");
        return head + (status.isEmpty() ? "" : "+dirty");
    }

    private static String run(Path dir, String... cmd) {
        try {
            Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(false)
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!p.waitFor(20, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                return "";
            }
            return out;
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }
}
