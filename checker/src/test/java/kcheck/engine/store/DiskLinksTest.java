package kcheck.engine.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Disk trace links: the block index, ids that were never handed out, and the checkpoint of the index. */
class DiskLinksTest {

    @Test
    void aLinkOfABlockNeverWrittenIsAnErrorNotAnotherStatesLink(@TempDir Path dir) throws Exception {
        try (DiskLinks l = new DiskLinks(dir.resolve("links.bin"), false)) {
            DiskLinks.Writer w = l.writer();
            long id = w.add(-1, 3);
            w.close();
            assertThat(l.parent(id)).isEqualTo(-1);
            assertThatThrownBy(() -> l.parent(5L << DiskLinks.BLOCK_BITS)).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> l.parent(1024L << DiskLinks.BLOCK_BITS)).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void anIdPastTheLastOneOfItsBlockIsAnError(@TempDir Path dir) throws Exception {
        try (DiskLinks l = new DiskLinks(dir.resolve("links.bin"), false)) {
            DiskLinks.Writer w = l.writer();
            long a = w.add(-1, 1);
            long b = w.add(a, 2);
            w.close();
            assertThat(l.ordinal(b)).isEqualTo(2);
            assertThatThrownBy(() -> l.ordinal(b + 1)).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void theIndexGrowsPastItsFirst1024Blocks(@TempDir Path dir) throws Exception {
        /* each writer closed after one link takes a block of its own */
        try (DiskLinks l = new DiskLinks(dir.resolve("links.bin"), false)) {
            long[] ids = new long[1100];
            for (int i = 0; i < ids.length; i++) {
                DiskLinks.Writer w = l.writer();
                ids[i] = w.add(i - 1, i % 100);
                w.close();
            }
            for (int i = 0; i < ids.length; i++) {
                assertThat(l.parent(ids[i])).isEqualTo(i - 1);
                assertThat(l.ordinal(ids[i])).isEqualTo(i % 100);
            }
            assertThatThrownBy(() -> l.parent(1500L << DiskLinks.BLOCK_BITS)).isInstanceOf(IllegalStateException.class);
            assertThat(l.bytes()).isEqualTo(Files.size(dir.resolve("links.bin"))).isPositive();
        }
    }

    @Test
    void aCheckpointRestoresTheIndexOfEveryWrittenBlockAndNoOther(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("links.bin");
        ByteArrayOutputStream cp = new ByteArrayOutputStream();
        long a;
        long b;
        try (DiskLinks l = new DiskLinks(f, false)) {
            DiskLinks.Writer w = l.writer();
            a = w.add(-1, 4);
            b = w.add(a, 5);
            w.close();
            l.write(new DataOutputStream(cp));
        }
        try (DiskLinks r = new DiskLinks(f, true)) {
            r.read(new DataInputStream(new ByteArrayInputStream(cp.toByteArray())));
            assertThat(r.parent(a)).isEqualTo(-1);
            assertThat(r.parent(b)).isEqualTo(a);
            assertThat(r.ordinal(b)).isEqualTo(5);
            assertThatThrownBy(() -> r.parent(3L << DiskLinks.BLOCK_BITS)).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void aCheckpointWithNoLinksYetIsReadBackEmpty(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("links.bin");
        ByteArrayOutputStream cp = new ByteArrayOutputStream();
        try (DiskLinks l = new DiskLinks(f, false)) {
            l.write(new DataOutputStream(cp));
        }
        try (DiskLinks r = new DiskLinks(f, true)) {
            r.read(new DataInputStream(new ByteArrayInputStream(cp.toByteArray())));
            assertThat(r.nextBlock()).isZero();
            assertThat(r.bytes()).isZero();
        }
    }

    @Test
    void aCheckpointOfAFullIndexKeepsEveryBlock(@TempDir Path dir) throws Exception {
        /* exactly 1024 one-link blocks: the index is full, its last entry written */
        Path f = dir.resolve("links.bin");
        ByteArrayOutputStream cp = new ByteArrayOutputStream();
        long[] ids = new long[1024];
        try (DiskLinks l = new DiskLinks(f, false)) {
            for (int i = 0; i < ids.length; i++) {
                DiskLinks.Writer w = l.writer();
                ids[i] = w.add(i - 1, i % 50);
                w.close();
            }
            l.write(new DataOutputStream(cp));
        }
        try (DiskLinks r = new DiskLinks(f, true)) {
            r.read(new DataInputStream(new ByteArrayInputStream(cp.toByteArray())));
            for (int i = 0; i < ids.length; i += 31) {
                assertThat(r.parent(ids[i])).isEqualTo(i - 1);
            }
            assertThat(r.ordinal(ids[1023])).isEqualTo(1023 % 50);
        }
    }
}
