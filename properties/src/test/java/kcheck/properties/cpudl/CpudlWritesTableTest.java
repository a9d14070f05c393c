package kcheck.properties.cpudl;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.Test;

import kcheck.model.cpudl.CpudlFactory;
import kcheck.model.cpudl.CpudlWorkload;
import kcheck.model.cpudl.CpudlWorkload.Op;
import kcheck.model.cpudl.CpudlWorkload.Writes;

/**
 * The "no real swaps" claim as a measured ratio: element field stores per call of v4.8 and v4.9
 * on the same generated sequences (the post's mix: 75% cpudl_set, 25% removals, random CPUs,
 * deadlines uniform in [2^40, 2^40 + 2^31-1), below 2^63 so v4.8 is correct), for 2 to 256 CPUs.
 * Prints the table pasted into docs/models/cpudl.md.
 */
class CpudlWritesTable {
    /** Fixed so the table in the docs can be reproduced; pass -Dkcheck.seed=S for another. */
    private static final long DEFAULT_SEED = 20160516L;
    private static final int OPS = 100_000;

    @Test
    void printsStoresPerCallBeforeVersusAfterByCpuCount() {
        String given = System.getProperty("kcheck.seed");
        long seed = given == null ? DEFAULT_SEED : Long.parseLong(given);
        System.out.println("[cpudl writes table] seed " + seed + " (repeat with -Dkcheck.seed=" + seed + "), " + OPS
                + " calls per CPU count");
        System.out.println("| CPUs | v4.8 set mean | v4.9 set mean | set ratio | v4.8 clear mean | v4.9 clear mean | clear ratio "
                + "| v4.8 all mean | v4.9 all mean | all ratio | v4.8 max | v4.9 max |");
        System.out.println("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (int n : new int[] {2, 4, 8, 16, 32, 64, 128, 256}) {
            List<Op> ops = CpudlWorkload.generate(seed + n, n, OPS, 1L << 40, CpudlWorkload.POST_RANGE);
            Writes b = CpudlWorkload.writes(CpudlFactory.implementation("before"), n, ops);
            Writes a = CpudlWorkload.writes(CpudlFactory.implementation("after"), n, ops);
            assertThat(a.sets()).isEqualTo(b.sets());
            System.out.println(String.format(Locale.ROOT,
                    "| %d | %.2f | %.2f | %.3f | %.2f | %.2f | %.3f | %.2f | %.2f | %.3f | %d | %d |", n, b.setMean(), a.setMean(),
                    a.setMean() / b.setMean(), b.clearMean(), a.clearMean(), a.clearMean() / b.clearMean(), b.mean(), a.mean(),
                    a.mean() / b.mean(), b.max(), a.max()));
        }
    }
}
