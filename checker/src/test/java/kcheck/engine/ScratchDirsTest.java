package kcheck.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScratchDirsTest {

    @Test
    void releaseDeletesTheDirectoryAndItsFiles() throws Exception {
        Path d = ScratchDirs.create("kcheck-scratch-test-");
        Files.writeString(d.resolve("links.bin"), "x");
        assertThat(d.getFileName().toString()).startsWith("kcheck-scratch-test-" + ProcessHandle.current().pid() + "-");

        ScratchDirs.release(d);

        assertThat(d).doesNotExist();
    }

    @Test
    void sweepDeletesOnlyTheDirectoriesOfProcessesThatAreGone(@TempDir Path tmp) throws Exception {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        long gone = p.pid();
        Path dead = Files.createDirectory(tmp.resolve("kcheck-disk-" + gone + "-123"));
        Files.writeString(dead.resolve("L3g0-0.q"), "level");
        Path alive = Files.createDirectory(tmp.resolve("kcheck-disk-" + ProcessHandle.current().pid() + "-456"));
        Path unnamed = Files.createDirectory(tmp.resolve("kcheck-disk-789"));
        Path other = Files.createDirectory(tmp.resolve("my-" + gone + "-1"));

        ScratchDirs.sweep(tmp, "kcheck-disk-");

        assertThat(dead).doesNotExist();
        assertThat(alive).exists();
        assertThat(unnamed).exists();
        assertThat(other).exists();
    }
}
