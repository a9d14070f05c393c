package kcheck.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import kcheck.cli.Main;

/**
 * The README followed literally: every {@code $ ./kcheck ...} command of every README code block
 * runs, in order, as its own process from an empty temporary directory (as a new user's first
 * session would, with nothing of the repository around it but the kcheck on the class path), and
 * its output must have the README's shape: the same lines with every number and hash masked
 * (state counts, seconds and SHA-256 vary with the machine and the sources, the lines around them
 * must not). Exit codes are checked where the README states them ({@code $ echo $?} or a
 * {@code # exit N} comment); a command shown without output must not be refused (exit 2) or stop
 * early (exit 3). {@code /tmp/patch} is a fresh directory per run.
 *
 * <p>Run with smaller bounds, to keep the build short: {@code check rq-lock --variant after --cpus 4
 * --property fifo-entry} runs at {@code --cpus 3} (4 CPUs explore about a million states; the
 * README's claim, exit 0, is the same). Not run here, and why: {@code $ ./kcheck bench} (a benchmark of about 80 s: its figures are
 * measured by running it, see Performance) and {@code $ $EDITOR} (a person edits the file). The
 * command-only blocks (no {@code $} prompt) are not run either: "Set up" ({@code ./kcheck verify},
 * {@code mvn -B verify}) and "Install the release" are what CI (.ci/run, .ci/release-smoke) runs
 * itself, as written, and {@code verify} is covered by VerifyCommandTest;
 * the {@code kcheck simulate} examples (10,000 runs each) are covered by the simulation's own tests.
 */
class ReadmeCommandsTest {
    static final Path README = Path.of("..", "README.md");
    private static final Pattern PROMPT = Pattern.compile("^\\$ (.*)$");
    private static final Pattern EXIT_COMMENT = Pattern.compile("#\\s*exit (\\d)");
    private static final List<String> NOT_RUN = List.of("./kcheck bench", "$EDITOR");
    /** README command text -> what the test runs instead (smaller bounds, same expected exit code). */
    private static final Map<String, String> SMALLER = Map.of(
            "check rq-lock --variant after --cpus 4 --property fifo-entry", "check rq-lock --variant after --cpus 3 --property fifo-entry");

    /** One README command and what the README shows after it. */
    record Command(String line, List<String> output, Integer exit) {
    }

    static List<Command> commands(List<String> readme) {
        List<Command> out = new ArrayList<>();
        boolean inBlock = false;
        boolean plain = false;
        boolean echo = false;
        String cmd = null;
        List<String> shown = new ArrayList<>();
        Integer exit = null;
        for (String l : readme) {
            if (l.startsWith("```")) {
                if (inBlock && cmd != null) {
                    out.add(new Command(cmd, shown, exit));
                }
                cmd = null;
                plain = !inBlock && l.equals("```");
                inBlock = !inBlock;
                continue;
            }
            if (!inBlock || !plain) {
                continue;
            }
            Matcher m = PROMPT.matcher(l);
            if (m.matches() && m.group(1).equals("echo $?")) {
                echo = true;
            } else if (m.matches()) {
                if (cmd != null) {
                    out.add(new Command(cmd, shown, exit));
                }
                cmd = m.group(1);
                shown = new ArrayList<>();
                Matcher e = EXIT_COMMENT.matcher(cmd);
                exit = e.find() ? Integer.valueOf(e.group(1)) : null;
                echo = false;
            } else if (cmd != null && echo) {
                exit = Integer.valueOf(l.trim());
                echo = false;
            } else if (cmd != null) {
                shown.add(l);
            }
        }
        return out;
    }

    /** A line with its numbers, hashes and the git revision masked. */
    static String shape(String line) {
        return line.replaceAll("[0-9a-f]{64}", "<hash>").replaceAll("\\(git [0-9a-f]{7,40}(\\+dirty)?\\)", "(git <revision>)").replaceAll("(?<![A-Za-z0-9.,])\\d[\\d,.]*", "#").stripTrailing();
    }

    @Test
    void everyReadmeCommandRunsFromAnEmptyDirectoryWithTheOutputTheReadmeShows(@TempDir Path dir) throws Exception {
        List<Command> cmds = commands(Files.readAllLines(README));
        assertThat(cmds).as("README commands found").hasSizeGreaterThan(8);
        Path work = Files.createDirectories(dir.resolve("work"));
        Path patch = dir.resolve("patch");
        int ran = 0;
        int smaller = 0;
        for (Command c : cmds) {
            if (NOT_RUN.stream().anyMatch(c.line()::contains)) {
                continue;
            }
            assertThat(c.line()).as("a README command runs kcheck").startsWith("./kcheck ");
            String args = c.line().replaceFirst("\\s+#.*$", "").substring("./kcheck ".length()).replace("/tmp/patch", patch.toString());
            if (SMALLER.containsKey(args)) {
                args = SMALLER.get(args);
                smaller++;
            }
            Result r = run(work, args);
            ran++;
            String what = "README: $ " + c.line() + "\n--- stdout:\n" + r.out + "\n--- stderr:\n" + r.err;
            if (c.exit() != null) {
                assertThat(r.exit).as(what).isEqualTo(c.exit());
            } else {
                assertThat(r.exit).as("not refused, not stopped early: " + what).isIn(0, 1);
            }
            if (!c.output().isEmpty()) {
                List<String> expected = c.output().stream().map(ReadmeCommandsTest::shape).toList();
                List<String> actual = r.out.replace(patch.toString(), "/tmp/patch").lines().map(ReadmeCommandsTest::shape).toList();
                assertThat(actual).as(what).containsExactlyElementsOf(expected);
            }
        }
        assertThat(ran).isGreaterThan(8);
        assertThat(smaller).as("every README command run with smaller bounds is still in the README").isEqualTo(SMALLER.size());
    }

    @Test
    void theParserReadsCommandsOutputsAndExitCodes() {
        List<Command> cmds = commands(List.of("text", "```", "$ ./kcheck a", "out 1", "$ echo $?", "1", "$ ./kcheck b   # exit 0: x",
                "```", "```java", "$ not a command", "```", "```", "./kcheck verify   # no prompt", "```"));
        assertThat(cmds).containsExactly(new Command("./kcheck a", List.of("out 1"), 1),
                new Command("./kcheck b   # exit 0: x", List.of(), 0));
        assertThat(shape("63 distinct states, 0.18 s (sha256 " + "ab".repeat(32) + ")")).isEqualTo("# distinct states, # s (sha256 <hash>)");
    }

    record Result(int exit, String out, String err) {
    }

    /** One README command as its own JVM (quick start-up flags: these runs are short) in {@code cwd}. */
    private static Result run(Path cwd, String args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx2g",
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(split(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile());
        Map<String, String> env = pb.environment();
        env.remove("COLUMNS");
        Path out = Files.createTempFile(cwd.getParent(), "out", ".txt");
        Path err = Files.createTempFile(cwd.getParent(), "err", ".txt");
        Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("README command did not finish in 120 s: " + args);
        }
        return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    /** Splits a README command line into arguments (no quoting is used in the README's kcheck commands). */
    private static List<String> split(String args) {
        List<String> out = new ArrayList<>();
        for (String a : args.trim().split("\\s+")) {
            if (!a.isEmpty()) {
                out.add(a);
            }
        }
        return out;
    }
}
