package kcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java half of a kernel developer's flow (docs/conform.md, rwsem-owner): an edit of rwsem.c that
 * conform names, made the same way in a copy of the v6.12 port ({@code kcheck variant new}, then
 * one line changed, unchanged otherwise), is a property violation. Two edits of the handoff:
 * the unqueued trylock that ignores it (conform's W9) and a reader that steals the lock while it is
 * set (W11; its symptom was invisible until the reader's hold followed its steal rather than a copy
 * of the kernel's test in the model's annotation).
 */
class RwsemEditedPortTest {
    @TempDir
    Path tmp;

    private Cli editAndCheck(String name, String cls, String old, String replacement) throws Exception {
        Cli made = Cli.run("variant", "new", "rwsem-owner", name, "--from", "v6.12", "-o", tmp.toString());
        assertThat(made.exit).as(made.out + made.err).isZero();
        Path file = tmp.resolve(cls + ".java");
        String src = Files.readString(file, StandardCharsets.UTF_8);
        assertThat(src.split(java.util.regex.Pattern.quote(old), -1)).as("the edited text occurs once").hasSize(2);
        Files.writeString(file, src.replace(old, replacement), StandardCharsets.UTF_8);
        return Cli.run("check", "rwsem-owner", "--variant-file", file.toString(), "--param", "readers=1", "--param", "writers=2",
                "--property", "handoff");
    }

    @Test
    void anUnqueuedTrylockThatIgnoresTheHandoffBitBreaksHandoff() throws Exception {
        Cli r = editAndCheck("spin-ignores-handoff", "SpinIgnoresHandoff", "(tuCount & (RWSEM_LOCK_MASK | RWSEM_FLAG_HANDOFF)) == 0",
                "(tuCount & RWSEM_LOCK_MASK) == 0");
        assertThat(r.exit).as(r.out + r.err).isEqualTo(1);
        assertThat(r.out).containsPattern("handoff +VIOLATED");
    }

    @Test
    void aReaderThatStealsTheLockWhileTheHandoffBitIsSetBreaksHandoff() throws Exception {
        Cli r = editAndCheck("steal-on-handoff", "StealOnHandoff", "if ((rdCount & (RWSEM_WRITER_LOCKED | RWSEM_FLAG_HANDOFF)) == 0) {",
                "if ((rdCount & RWSEM_WRITER_LOCKED) == 0) {");
        assertThat(r.exit).as(r.out + r.err).isEqualTo(1);
        assertThat(r.out).containsPattern("handoff +VIOLATED");
        assertThat(Cli.run("check", "rwsem-owner", "--variant", "v6.12", "--param", "readers=1", "--param", "writers=2", "--property",
                "handoff").out).containsPattern("handoff +HOLDS");
    }
}
