package kcheck.properties.cpudl;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.junit.jupiter.api.Test;

import kcheck.model.cpudl.Cpudl;
import kcheck.model.cpudl.CpudlFactory;
import kcheck.model.cpudl.CpudlHeap;
import kcheck.model.cpudl.CpudlWorkload;
import kcheck.model.cpudl.CpudlWorkload.Op;
import kcheck.model.cpudl.CpudlWorkload.Writes;

/**
 * The "no real swaps" claim as a measured ratio: element field stores per call of v4.8 and v4.9
 * on the same generated sequences (the post's mix: 75% cpudl_set, 25% removals, random CPUs,
 * deadlines uniform in [2^40, 2^40 + 2^31-1), below 2^63 so v4.8 is correct), for 2 to 256 CPUs.
 *
 * <p>What is checked, each independently of {@link CpudlWorkload#writes}'s own counting:
 * <ul>
 * <li>every call stores at least as many element fields as it visibly changes (a snapshot of the
 *     arrays before and after the call: a store the counter missed shows up as a change);</li>
 * <li>per-kind totals summed here call by call equal {@link CpudlWorkload#writes}'s totals;</li>
 * <li>after the sequence both heaps hold exactly the deadlines a plain map of the same calls
 *     holds (the two variants ran the workload, and ran it right);</li>
 * <li>at the docs' seed, the table equals the one in docs/models/cpudl.md, so the published
 *     figures are the ones this code computes.</li>
 * </ul>
 */
class CpudlWritesTableTest {
    /**
     * The seed of the table in docs/models/cpudl.md: fixed, not the build's kcheck.seed, since the
     * published table is compared; pass -Dkcheck.cpudl.writes.seed=S for another (then not compared).
     */
    private static final long DOCS_SEED = 20160516L;
    private static final int OPS = 100_000;
    private static final int[] CPUS = {2, 4, 8, 16, 32, 64, 128, 256};
    private static final String HEADER = "| CPUs | v4.8 set mean | v4.9 set mean | set ratio | v4.8 clear mean | v4.9 clear mean "
            + "| clear ratio | v4.8 all mean | v4.9 all mean | all ratio | v4.8 max | v4.9 max |";

    @Test
    void storesPerCallBeforeVersusAfterByCpuCountAreTheDocumentedOnes() throws IOException {
        String given = System.getProperty("kcheck.cpudl.writes.seed");
        long seed = given == null || given.isBlank() ? DOCS_SEED : Long.parseLong(given.trim());
        System.out.println("[cpudl writes table] seed " + seed + " (repeat with -Dkcheck.cpudl.writes.seed=" + seed + "), " + OPS
                + " calls per CPU count");
        List<String> table = new ArrayList<>();
        table.add(HEADER);
        table.add("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (int n : CPUS) {
            List<Op> ops = CpudlWorkload.generate(seed + n, n, OPS, 1L << 40, CpudlWorkload.POST_RANGE);
            Writes b = countedCallByCall("before", n, ops);
            Writes a = countedCallByCall("after", n, ops);
            table.add(String.format(Locale.ROOT,
                    "| %d | %.2f | %.2f | %.3f | %.2f | %.2f | %.3f | %.2f | %.2f | %.3f | %d | %d |", n, b.setMean(), a.setMean(),
                    a.setMean() / b.setMean(), b.clearMean(), a.clearMean(), a.clearMean() / b.clearMean(), b.mean(), a.mean(),
                    a.mean() / b.mean(), b.max(), a.max()));
        }
        table.forEach(System.out::println);
        if (seed == DOCS_SEED) {
            assertThat(table).as("the table in docs/models/cpudl.md (paste the printed one there if the workload changed)")
                    .isEqualTo(documented());
        }
    }

    /**
     * Runs {@code ops} on a fresh heap, checking after every call that the store counter is at
     * least the number of element fields that changed, and at the end that the heap holds what a
     * plain map holds; returns the totals, which must equal {@link CpudlWorkload#writes}'s.
     */
    private static Writes countedCallByCall(String variant, int n, List<Op> ops) {
        CpudlHeap heap = CpudlFactory.implementation(variant);
        Cpudl cp = Cpudl.init(n);
        PlainMap ref = new PlainMap();
        long[] sums = new long[6];
        int[] cpu = new int[n];
        long[] dl = new long[n];
        int[] idx = new int[n];
        for (int i = 0; i < ops.size(); i++) {
            Op op = ops.get(i);
            for (int k = 0; k < n; k++) {
                cpu[k] = cp.cpu(k);
                dl[k] = cp.dl(k);
                idx[k] = cp.idx(k);
            }
            cp.resetWrites();
            op.apply(heap, cp);
            long stores = cp.writes();
            int changed = 0;
            for (int k = 0; k < n; k++) {
                changed += (cpu[k] != cp.cpu(k) ? 1 : 0) + (dl[k] != cp.dl(k) ? 1 : 0) + (idx[k] != cp.idx(k) ? 1 : 0);
            }
            assertThat(stores).as("%s, %d CPUs, call %d (%s): counted stores vs changed fields", variant, n, i + 1, op)
                    .isGreaterThanOrEqualTo(changed);
            int kind = op.set() ? 0 : 3;
            sums[kind]++;
            sums[kind + 1] += stores;
            sums[kind + 2] = Math.max(sums[kind + 2], stores);
            if (op.set()) {
                ref.set(op.cpu(), op.dl());
            } else {
                ref.clear(op.cpu());
            }
        }
        assertThat(cp.size).as("%s, %d CPUs: heap size", variant, n).isEqualTo(ref.dl.size());
        for (Map.Entry<Integer, Long> e : ref.dl.entrySet()) {
            int h = cp.idx(e.getKey());
            assertThat(h).as("%s, %d CPUs: CPU %d has a slot", variant, n, e.getKey()).isBetween(0, cp.size - 1);
            assertThat(cp.cpu(h)).isEqualTo(e.getKey());
            assertThat(cp.dl(h)).as("%s, %d CPUs: deadline of CPU %d", variant, n, e.getKey()).isEqualTo(e.getValue());
        }
        Writes w = new Writes(sums[0], sums[1], sums[2], sums[3], sums[4], sums[5]);
        assertThat(CpudlWorkload.writes(CpudlFactory.implementation(variant), n, ops)).as("%s, %d CPUs", variant, n)
                .isEqualTo(w);
        return w;
    }

    /** The table of docs/models/cpudl.md: the header line and the rows after it, up to the first blank line. */
    private static List<String> documented() throws IOException {
        List<String> lines = Files.readAllLines(Path.of("..", "docs", "models", "cpudl.md"));
        int i = lines.indexOf(HEADER);
        assertThat(i).as("docs/models/cpudl.md has the writes table").isNotNegative();
        List<String> out = new ArrayList<>();
        for (int k = i; k < lines.size() && !lines.get(k).isBlank(); k++) {
            out.add(lines.get(k));
        }
        return out;
    }
}
