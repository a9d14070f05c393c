package kcheck.engine.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeyRunTest {

    @Test
    void aRunGivesBackItsKeysAndAnswersAscendingLookups(@TempDir Path dir) throws Exception {
        SplittableRandom r = new SplittableRandom(11);
        long[] keys = new long[100_000];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = r.nextLong();
        }
        keys[5] = Long.MIN_VALUE;
        keys[6] = Long.MAX_VALUE;
        keys[7] = keys[8];
        Arrays.sort(keys);
        Path f = dir.resolve("run.keys");
        try (KeyRun.Writer w = new KeyRun.Writer(f)) {
            for (long k : keys) {
                w.add(k);
            }
            assertThat(w.count()).isEqualTo(keys.length - 1);
        }
        assertThat(Files.size(f)).as("Rice-coded: about 50 bits a key for 100,000 keys").isLessThan(keys.length * 7L);
        List<Long> back = new ArrayList<>();
        try (KeyRun.Reader rd = new KeyRun.Reader(f)) {
            assertThat(rd.count()).isEqualTo(keys.length - 1);
            rd.forEach(back::add);
        }
        assertThat(back).hasSize(keys.length - 1).isSorted().contains(Long.MIN_VALUE, Long.MAX_VALUE);
        long[] queries = new long[20_000];
        for (int i = 0; i < queries.length; i++) {
            queries[i] = i % 2 == 0 ? keys[r.nextInt(keys.length)] : r.nextLong();
        }
        Arrays.sort(queries);
        try (KeyRun.Reader rd = new KeyRun.Reader(f)) {
            for (long q : queries) {
                assertThat(rd.contains(q)).as(Long.toHexString(q)).isEqualTo(Arrays.binarySearch(keys, q) >= 0);
            }
        }
    }

    @Test
    void anEmptyRunHoldsNothing(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("empty.keys");
        new KeyRun.Writer(f).close();
        try (KeyRun.Reader rd = new KeyRun.Reader(f)) {
            assertThat(rd.count()).isZero();
            assertThat(rd.contains(42)).isFalse();
        }
    }

    @Test
    void denseAndSparseBlocksRoundTrip(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("mixed.keys");
        List<Long> in = new ArrayList<>();
        for (long k = -5000; k < 5000; k++) {
            in.add(k);
        }
        in.add(1L << 62);
        in.add((1L << 62) + 1);
        try (KeyRun.Writer w = new KeyRun.Writer(f)) {
            for (long k : in) {
                w.add(k);
            }
        }
        List<Long> back = new ArrayList<>();
        try (KeyRun.Reader rd = new KeyRun.Reader(f)) {
            rd.forEach(back::add);
        }
        assertThat(back).isEqualTo(in);
    }

    @Test
    void pairsSortByKeyThenIdAcrossSpills(@TempDir Path dir) throws Exception {
        SplittableRandom r = new SplittableRandom(5);
        int n = 50_000;
        long[][] pairs = new long[n][];
        try (PairSorter s = new PairSorter(dir, 7_000)) {
            for (int i = 0; i < n; i++) {
                pairs[i] = new long[] {r.nextInt(20_000) - 10_000L, r.nextLong()};
                s.add(pairs[i][0], pairs[i][1]);
            }
            Arrays.sort(pairs, (a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
            List<long[]> out = new ArrayList<>();
            s.finish((k, id) -> out.add(new long[] {k, id}));
            assertThat(out).hasSize(n);
            for (int i = 0; i < n; i++) {
                assertThat(out.get(i)).containsExactly(pairs[i]);
            }
        }
        try (var files = Files.list(dir)) {
            assertThat(files.count()).as("spill files removed").isZero();
        }
    }

    @Test
    void linksComeBackFromTheirBlocks(@TempDir Path dir) throws Exception {
        try (DiskLinks l = new DiskLinks(dir.resolve("links.bin"), false)) {
            DiskLinks.Writer a = l.writer();
            DiskLinks.Writer b = l.writer();
            List<long[]> added = new ArrayList<>();
            SplittableRandom r = new SplittableRandom(9);
            long parent = -1;
            for (int i = 0; i < 20_000; i++) {
                DiskLinks.Writer w = r.nextBoolean() ? a : b;
                parent = i % 7 == 0 ? r.nextLong(1L << 40) : parent + r.nextInt(3);
                int ord = r.nextInt(300);
                long id = w.add(i == 0 ? -1 : parent, ord);
                added.add(new long[] {id, i == 0 ? -1 : parent, ord});
            }
            a.close();
            b.close();
            for (long[] x : added) {
                assertThat(l.parent(x[0])).isEqualTo(x[1]);
                assertThat(l.ordinal(x[0])).isEqualTo((int) x[2]);
            }
            assertThat(l.bytes()).as("compressed").isLessThan(20_000L * 8);
        }
    }

    private static void writeRun(Path f, long... keys) throws Exception {
        try (KeyRun.Writer w = new KeyRun.Writer(f)) {
            for (long k : keys) {
                w.add(k);
            }
        }
    }

    @Test
    void theFirstKeyOfARunIsFoundByTheFirstLookup(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("run.keys");
        writeRun(f, 10, 20, 30);
        try (KeyRun.Reader rd = new KeyRun.Reader(f)) {
            assertThat(rd.contains(10)).isTrue();
            assertThat(rd.contains(25)).isFalse();
            assertThat(rd.contains(30)).isTrue();
        }
    }

    @Test
    void aRunOfMoreThan64BlocksKeepsEveryBlock(@TempDir Path dir) throws Exception {
        /* 70 blocks of 4096 keys: the block index outgrows its first 64 entries */
        Path f = dir.resolve("run.keys");
        int n = 70 * KeyRun.BLOCK;
        try (KeyRun.Writer w = new KeyRun.Writer(f)) {
            for (long k = 0; k < n; k++) {
                w.add(3 * k);
            }
        }
        try (KeyRun.Reader rd = new KeyRun.Reader(f)) {
            assertThat(rd.count()).isEqualTo(n);
            for (long k = 0; k < n; k += 997) {
                assertThat(rd.contains(3 * k)).isTrue();
                assertThat(rd.contains(3 * k + 1)).isFalse();
            }
            assertThat(rd.contains(3L * (n - 1))).isTrue();
        }
    }

    @Test
    void gapsOfAboutAThousandRoundTrip(@TempDir Path dir) throws Exception {
        /* an average gap near 2^10: a Rice parameter between 1 and 32, with remainder bits */
        SplittableRandom r = new SplittableRandom(3);
        List<Long> in = new ArrayList<>();
        long k = -1_000_000;
        for (int i = 0; i < 10_000; i++) {
            k += 1 + r.nextInt(2000);
            in.add(k);
        }
        Path f = dir.resolve("run.keys");
        writeRun(f, in.stream().mapToLong(Long::longValue).toArray());
        List<Long> back = new ArrayList<>();
        try (KeyRun.Reader rd = new KeyRun.Reader(f)) {
            rd.forEach(back::add);
        }
        assertThat(back).isEqualTo(in);
    }

    @Test
    void mergingRunsGivesEveryKeyOnceInAscendingOrder(@TempDir Path dir) throws Exception {
        /* three runs, two of them longer than a block, overlapping; one empty */
        SplittableRandom r = new SplittableRandom(4);
        java.util.TreeSet<Long> all = new java.util.TreeSet<>();
        List<Path> runs = new ArrayList<>();
        for (int j = 0; j < 4; j++) {
            java.util.TreeSet<Long> keys = new java.util.TreeSet<>();
            int size = j == 3 ? 0 : j == 2 ? 100 : 9000;
            while (keys.size() < size) {
                keys.add(1 + (long) r.nextInt(30_000));
            }
            all.addAll(keys);
            Path f = dir.resolve("run" + j + ".keys");
            writeRun(f, keys.stream().mapToLong(Long::longValue).toArray());
            runs.add(f);
        }
        Path out = dir.resolve("merged.keys");
        assertThat(KeyRun.Reader.merge(runs, out)).isEqualTo(all.size());
        List<Long> back = new ArrayList<>();
        try (KeyRun.Reader rd = new KeyRun.Reader(out)) {
            rd.forEach(back::add);
        }
        assertThat(back).isEqualTo(new ArrayList<>(all));
    }
}
