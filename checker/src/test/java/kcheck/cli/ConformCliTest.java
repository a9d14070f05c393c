package kcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kcheck conform}: the input errors, each one line and exit 2 (no kernel tree needed). */
class ConformCliTest {
    @TempDir
    Path tmp;

    private Path fakeTree(String version, String cSource) throws Exception {
        Path sched = Files.createDirectories(tmp.resolve("kernel/sched"));
        Files.writeString(tmp.resolve("Makefile"), "VERSION = " + version.split("\\.")[0] + "\nPATCHLEVEL = " + version.split("\\.")[1]
                + "\nSUBLEVEL = 0\n");
        Files.writeString(sched.resolve("cpudeadline.c"), cSource);
        Files.writeString(sched.resolve("cpudeadline.h"), "struct cpudl { int size; };\n");
        return tmp;
    }

    @Test
    void aMissingTreeIsOneLineAndExit2() {
        Cli r = Cli.run("conform", "cpudl", "--kernel-tree", tmp.resolve("nowhere").toString());
        assertThat(r.exit).isEqualTo(2);
        assertThat(r.err.strip()).startsWith("kcheck: kernel tree").endsWith("is not a readable directory").doesNotContain("\n");
    }

    @Test
    void aModelWithoutConformanceCheckIsOneLine() {
        Cli r = Cli.run("conform", "dl-push", "--kernel-tree", tmp.toString());
        assertThat(r.exit).isEqualTo(2);
        assertThat(r.err).contains("no conformance check for model 'dl-push' (available: cpudl, lb-redo, rq-lock, rwsem-owner)");
    }

    @Test
    void lbRedoOnATreeWithoutFairCIsOneLineAndExit2() throws Exception {
        Path t = fakeTree("6.12", "int x;\n");
        Cli r = Cli.run("conform", "lb-redo", "--kernel-tree", t.toString());
        assertThat(r.exit).as(r.out + r.err).isEqualTo(2);
        assertThat(r.err.strip()).startsWith("kcheck: conform lb-redo: cannot read").doesNotContain("\n").doesNotContain("Exception");
        Cli o = Cli.run("conform", "lb-redo", "--kernel-tree", t.toString(), "--readers", "2");
        assertThat(o.exit).isEqualTo(2);
        assertThat(o.err.strip()).startsWith("kcheck: conform lb-redo: --readers is not an option of conform lb-redo").doesNotContain("\n");
    }

    @Test
    void aTreeOfAVersionWithoutPortGetsOneClearLine() throws Exception {
        Path t = fakeTree("5.15", "int x;\n");
        Cli r = Cli.run("conform", "cpudl", "--kernel-tree", t.toString());
        assertThat(r.exit).isEqualTo(2);
        assertThat(r.err.strip()).isEqualTo("kcheck: no cpudl port matches kernel 5.15.0 (conform cpudl has ports of v6.1 and v6.12; give "
                + "--kernel-version 6.12 to compare this tree with the v6.12 port anyway)");
    }

    @Test
    void aFileThatDoesNotCompileGetsTheCompilersMessage() throws Exception {
        assumeTrue(gcc(), "no gcc on the PATH (Debian's build-essential; .ci/run installs it): the compile-error path of kcheck conform "
                + "is not tested");
        Path t = fakeTree("6.12", "void cpudl_clear(struct cpudl *cp, int cpu, bool online)\n{\n\tthis is not C;\n}\n");
        Cli r = Cli.run("conform", "cpudl", "--kernel-tree", t.toString(), "--sequences", "1", "--no-walk");
        assertThat(r.exit).isEqualTo(2);
        assertThat(r.err).contains("cpudeadline.c does not compile against kcheck's shim:").contains("error");
        assertThat(r.err).doesNotContain("Exception");
    }

    /** gcc runs on this machine. */
    static boolean gcc() {
        try {
            return new ProcessBuilder("gcc", "--version").redirectErrorStream(true).start().waitFor() == 0;
        } catch (Exception e) {
            return false;
        }
    }
}
