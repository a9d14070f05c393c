package kcheck.model.cpudl;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The workload of the post's measurement, reproducible from a seed: {@code ops} calls, 75%
 * {@code cpudl_set} (is_valid=1) and 25% removals ({@code cpudl_clear}, or
 * {@code cpudl_set(..., 0, 0)} in v4.8), each on a uniformly random CPU, deadlines
 * {@code base + } a uniform offset in {@code [0, range)}. Removals of a CPU without a deadline
 * are kept (the kernel gets those too; they store nothing).
 *
 * <p>{@link #writes} runs one sequence on a heap and counts element field stores per call:
 * the "no real swaps" claim as a number.
 */
public final class CpudlWorkload {
    /** The post's benchmark range of deadlines (cpudl-bench: {@code dl_range = 0x7fffffff}). */
    public static final long POST_RANGE = 0x7fffffffL;

    private CpudlWorkload() {
    }

    /** One call: {@code cpudl_set(cpu, dl)} or {@code cpudl_clear(cpu)}. */
    public record Op(boolean set, int cpu, long dl) {
        public static Op set(int cpu, long dl) {
            return new Op(true, cpu, dl);
        }

        public static Op clear(int cpu) {
            return new Op(false, cpu, 0);
        }

        /** Applies the call to {@code heap} on {@code cp}. */
        public void apply(CpudlHeap heap, Cpudl cp) {
            if (set) {
                heap.set(cp, cpu, dl);
            } else {
                heap.clear(cp, cpu);
            }
        }

        @Override
        public String toString() {
            return set ? "cpudl_set(cpu=" + cpu + ", dl=" + Deadlines.format(dl) + ")" : "cpudl_clear(cpu=" + cpu + ")";
        }
    }

    /** The post's mix on {@code cpus} CPUs: 75% set, 25% clear, random CPU, deadline in [base, base + range). */
    public static List<Op> generate(long seed, int cpus, int ops, long base, long range) {
        SplittableRandom r = new SplittableRandom(seed);
        List<Op> out = new ArrayList<>(ops);
        for (int i = 0; i < ops; i++) {
            int cpu = r.nextInt(cpus);
            if (r.nextInt(4) != 0) {
                out.add(Op.set(cpu, base + r.nextLong(range)));
            } else {
                out.add(Op.clear(cpu));
            }
        }
        return out;
    }

    /** Store counts of one run: per kind of call, the number of calls, total stores and the largest. */
    public record Writes(long sets, long setStores, long setMax, long clears, long clearStores, long clearMax) {
        public double setMean() {
            return sets == 0 ? 0 : (double) setStores / sets;
        }

        public double clearMean() {
            return clears == 0 ? 0 : (double) clearStores / clears;
        }

        public double mean() {
            long n = sets + clears;
            return n == 0 ? 0 : (double) (setStores + clearStores) / n;
        }

        public long max() {
            return Math.max(setMax, clearMax);
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "set %.2f (max %d), clear %.2f (max %d), all %.2f", setMean(), setMax, clearMean(),
                    clearMax, mean());
        }
    }

    /** Runs {@code ops} on a fresh heap of {@code cpus} CPUs and counts the element stores of each call. */
    public static Writes writes(CpudlHeap heap, int cpus, List<Op> ops) {
        Cpudl cp = Cpudl.init(cpus);
        long sets = 0;
        long setStores = 0;
        long setMax = 0;
        long clears = 0;
        long clearStores = 0;
        long clearMax = 0;
        for (Op op : ops) {
            cp.resetWrites();
            op.apply(heap, cp);
            long w = cp.writes();
            if (op.set()) {
                sets++;
                setStores += w;
                setMax = Math.max(setMax, w);
            } else {
                clears++;
                clearStores += w;
                clearMax = Math.max(clearMax, w);
            }
        }
        return new Writes(sets, setStores, setMax, clears, clearStores, clearMax);
    }
}
