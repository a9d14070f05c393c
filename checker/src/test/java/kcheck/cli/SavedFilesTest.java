package kcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nothing a user saved is overwritten without {@code --force}: not by a second {@code verify
 * --trace-dir} into the same directory, and not when the file appears while the search runs (two
 * runs with the same {@code --trace-out}): the run then says so (exit 2, naming the file) and
 * never claims to have written it.
 */
class SavedFilesTest {
    private static final String MINE = "{\"saved\": \"by someone else\"}\n";

    @Test
    void verifyTraceDirDoesNotOverwriteASavedTraceWithoutForce(@TempDir Path dir) throws Exception {
        Path baseline = VerifyCommandTest.oneEntryBaseline(dir, "before", "fifo-entry", "VIOLATED");
        Path traces = dir.resolve("traces");
        Cli first = Cli.run("verify", "--baseline", baseline.toString(), "--trace-dir", traces.toString(), "--quiet");
        assertThat(first.exit).as(first.out + first.err).isZero();
        Path trace;
        try (var files = Files.list(traces)) {
            trace = files.findFirst().orElseThrow();
        }
        Files.writeString(trace, MINE);

        Cli again = Cli.run("verify", "--baseline", baseline.toString(), "--trace-dir", traces.toString(), "--quiet");
        assertThat(again.exit).isEqualTo(2);
        assertThat(again.err.lines().toList()).singleElement().asString().contains(trace.toString()).contains("--force");
        assertThat(Files.readString(trace)).isEqualTo(MINE);

        Cli forced = Cli.run("verify", "--baseline", baseline.toString(), "--trace-dir", traces.toString(), "--quiet", "--force");
        assertThat(forced.exit).as(forced.err).isZero();
        assertThat(Files.readString(trace)).contains("\"property\" : \"fifo-entry\"");
    }

    @Test
    void aTraceOutThatAppearsDuringTheSearchIsLeftAloneAndTheRunSaysSo(@TempDir Path dir) throws Exception {
        Path target = dir.resolve("t.json");
        /* the "exists?" check is done before the header: the file appears right after it, as another run's would */
        Cli r = runCreatingWhenPrinted("properties: ", target, "check", "rq-lock", "--variant", "before", "--cpus", "2",
                "--property", "fifo-entry", "--trace-out", target.toString());
        assertThat(r.exit).isEqualTo(2);
        assertThat(r.err.lines().toList()).singleElement().asString().startsWith("kcheck: --trace-out " + target
                + " appeared during the run");
        assertThat(r.out).doesNotContain("written to");
        assertThat(Files.readString(target)).isEqualTo(MINE);
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).as("no temporary file left").containsExactly("t.json");
        }
    }

    /** Runs the CLI in-process; when stdout first contains {@code marker}, writes {@link #MINE} to {@code file}. */
    private static Cli runCreatingWhenPrinted(String marker, Path file, String... args) {
        return Cli.run(captured -> new OutputStream() {
            private final ByteArrayOutputStream seen = new ByteArrayOutputStream();
            private boolean done;

            @Override
            public void write(int b) throws IOException {
                captured.write(b);
                seen.write(b);
                if (!done && b == '\n' && seen.toString(StandardCharsets.UTF_8).contains(marker)) {
                    done = true;
                    Files.writeString(file, MINE);
                }
            }
        }, args);
    }
}
