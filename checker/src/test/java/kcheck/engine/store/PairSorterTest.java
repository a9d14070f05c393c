package kcheck.engine.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The in-memory sort of (key, id) pairs on inputs quicksorts get wrong: runs, repeats, ties, tiny and odd sizes. */
class PairSorterTest {

    private static void assertSorts(long[] k, long[] v) {
        int n = k.length;
        long[][] expected = new long[n][];
        for (int i = 0; i < n; i++) {
            expected[i] = new long[] {k[i], v[i]};
        }
        Arrays.sort(expected, (a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        long[] ek = new long[n];
        long[] ev = new long[n];
        for (int i = 0; i < n; i++) {
            ek[i] = expected[i][0];
            ev[i] = expected[i][1];
        }
        PairSorter.sort(k, v, 0, n - 1);
        assertThat(k).as("keys of %d pairs", n).isEqualTo(ek);
        assertThat(v).as("ids of %d pairs", n).isEqualTo(ev);
    }

    @Test
    void sortsByKeyThenIdWhateverTheInputsShape() {
        SplittableRandom r = new SplittableRandom(8);
        int[] sizes = {0, 1, 2, 3, 24, 25, 26, 27, 40, 100, 257, 1000, 5000};
        for (int n : sizes) {
            for (int shape = 0; shape < 7; shape++) {
                long[] k = new long[n];
                long[] v = new long[n];
                for (int i = 0; i < n; i++) {
                    switch (shape) {
                        case 0 -> { k[i] = r.nextLong(); v[i] = r.nextLong(); }
                        case 1 -> { k[i] = r.nextInt(4); v[i] = r.nextInt(4); }
                        case 2 -> { k[i] = i; v[i] = n - i; }
                        case 3 -> { k[i] = n - i; v[i] = i; }
                        case 4 -> { k[i] = 7; v[i] = n - i; }
                        case 5 -> { k[i] = Math.min(i, n - i); v[i] = r.nextInt(3); }
                        default -> { k[i] = 5; v[i] = 5; }
                    }
                }
                assertSorts(k, v);
            }
        }
    }

    @Test
    void equalKeysInRamAndInASpillComeOutByIdEitherWay(@TempDir Path dir) throws Exception {
        List<long[]> out = new ArrayList<>();
        try (PairSorter s = new PairSorter(dir, 2)) {
            s.add(5, 9);
            s.add(5, 1);
            s.add(5, 4);
            s.add(5, 12);
            s.add(3, 0);
            s.finish((k, id) -> out.add(new long[] {k, id}));
        }
        assertThat(out).extracting(p -> p[0] + ":" + p[1]).containsExactly("3:0", "5:1", "5:4", "5:9", "5:12");
    }

    @Test
    void halvesSortedInTheBackgroundMergeIntoOneOrderAndTheSorterCanBeReused(@TempDir Path dir) throws Exception {
        java.util.Random rnd = new java.util.Random(19);
        try (PairSorter s = new PairSorter(dir, 64)) {
            for (int round = 0; round < 2; round++) {
                List<long[]> in = new ArrayList<>();
                for (int i = 0; i < 5_000; i++) {
                    long[] p = {rnd.nextInt(700) - 350, i};
                    in.add(p);
                    s.add(p[0], p[1]);
                }
                List<long[]> out = new ArrayList<>();
                s.finish((k, id) -> out.add(new long[] {k, id}));
                in.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
                assertThat(out).as("round %d", round).extracting(p -> p[0] + ":" + p[1])
                        .containsExactlyElementsOf(in.stream().map(p -> p[0] + ":" + p[1]).toList());
                s.close();
                try (var files = java.nio.file.Files.list(dir)) {
                    assertThat(files.toList()).as("spill files removed").isEmpty();
                }
            }
        }
    }
}
