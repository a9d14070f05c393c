package kcheck.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiskFrontierTest {

    @Test
    void compressedChunksReadBackEveryRecordBitForBit(@TempDir Path dir) {
        int width = 3;
        DiskFrontier level = new DiskFrontier(dir, "L7", width);
        SplittableRandom r = new SplittableRandom(42);
        int records = 2 * DiskFrontier.RECORDS + 17; /* two full chunks and a partial one */
        long[][] states = new long[records][];
        try (DiskFrontier.Writer w = level.writer()) {
            for (int i = 0; i < records; i++) {
                states[i] = new long[] {r.nextLong(), i % 3 == 0 ? -1L : r.nextLong(1 << 20), Long.MIN_VALUE >>> (i % 64)};
                w.add(1_000_000L + i, states[i]);
            }
        }
        assertThat(level.size()).isEqualTo(records);
        int seen = 0;
        try (DiskFrontier.Reader in = level.new Reader()) {
            for (int c = 0; c < level.chunks(); c++) {
                int n = in.read(c);
                for (int k = 0; k < n; k++, seen++) {
                    int off = k * level.recordLongs();
                    assertThat(in.buf[off]).isEqualTo(1_000_000L + seen);
                    for (int x = 0; x < width; x++) {
                        assertThat(in.buf[off + 1 + x]).as("record %d word %d", seen, x).isEqualTo(states[seen][x]);
                    }
                }
            }
        }
        assertThat(seen).isEqualTo(records);
    }

    @Test
    void similarStatesTakeAFractionOfTheirRawBytes(@TempDir Path dir) {
        DiskFrontier level = new DiskFrontier(dir, "L9", 3);
        try (DiskFrontier.Writer w = level.writer()) {
            for (int i = 0; i < 4 * DiskFrontier.RECORDS; i++) {
                /* a BFS level's states: a few small fields vary, most bits are shared */
                w.add(5_000_000L + i, new long[] {0x01a2345b81f03800L | (i & 0x3f), 0x0880000000080409L ^ ((long) (i % 5) << 57), 8});
            }
        }
        long raw = level.size() * level.recordLongs() * 8;
        assertThat(level.bytes()).isPositive().isLessThan(raw / 4);
    }
}
