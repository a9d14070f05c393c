package kcheck.properties.cpudl;

import java.util.List;
import java.util.SplittableRandom;

import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

import kcheck.model.cpudl.Cpudl;
import kcheck.model.cpudl.CpudlHeap;
import kcheck.model.cpudl.Cpumask;
import kcheck.model.cpudl.Deadlines;
import kcheck.properties.gen.Gens;

/**
 * One generated call on the heap: {@code cpudl_set(cpu, clock + offset)} (60%),
 * {@code cpudl_clear(cpu)} (20%) or {@code cpudl_find(clock + offset, affinity)} (20%). The
 * clock is fixed per run and may be anywhere in u64; offsets are small (below 2^32, edges mixed
 * in), so live keys always lie within one window of 2^63.
 */
record Call(int kind, int cpu, long offset, long aff) {
    static final int SET = 0;
    static final int CLEAR = 1;
    static final int FIND = 2;
    static final long OFFSET_MAX = (1L << 32) - 1;

    /** Calls on {@code cpus} CPUs; offsets uniform below 2^32, with the edges 0, 1, 2 and 2^32-1 mixed in (one in five). */
    static Gen<Call> on(int cpus) {
        return on(cpus, Generate.longRange(0, OFFSET_MAX).mix(Generate.pick(List.of(0L, 1L, 2L, OFFSET_MAX)), 20));
    }

    /** Calls on {@code cpus} CPUs with offsets uniform below 2^32 and no edge values: every offset as likely as any other. */
    static Gen<Call> uniformOn(int cpus) {
        return on(cpus, Generate.longRange(0, OFFSET_MAX));
    }

    private static Gen<Call> on(int cpus, Gen<Long> offset) {
        Gen<Integer> kind = Gens.ints(0, 9);
        Gen<Integer> cpu = Gens.ints(0, cpus - 1);
        Gen<Long> aff = Generate.longRange(Long.MIN_VALUE, Long.MAX_VALUE);
        return in -> {
            int k = kind.generate(in);
            return new Call(k < 6 ? SET : k < 8 ? CLEAR : FIND, cpu.generate(in), offset.generate(in), aff.generate(in));
        };
    }

    long dl(long clock) {
        return clock + offset;
    }

    /** The task affinity of a find: all CPUs, one CPU, all but one, or a random half (never empty). */
    Cpumask affinity(int n) {
        Cpumask m = new Cpumask(n);
        int pick = (int) Math.floorMod(aff, 4L);
        int c = (int) Math.floorMod(aff >>> 2, (long) n);
        switch (pick) {
            case 0 -> m.setAll();
            case 1 -> m.setCpu(c);
            case 2 -> {
                m.setAll();
                if (n > 1) {
                    m.clearCpu(c);
                }
            }
            default -> {
                SplittableRandom r = new SplittableRandom(aff);
                for (int x = 0; x < n; x++) {
                    if (r.nextBoolean()) {
                        m.setCpu(x);
                    }
                }
                if (m.isEmpty()) {
                    m.setCpu(c);
                }
            }
        }
        return m;
    }

    /** Runs a set or clear on {@code heap}; returns the answer of a find (or -2). */
    int apply(CpudlHeap heap, Cpudl cp, long clock, Cpumask later) {
        switch (kind) {
            case SET -> heap.set(cp, cpu, dl(clock));
            case CLEAR -> heap.clear(cp, cpu);
            default -> {
                return heap.find(cp, dl(clock), affinity(cp.nrCpus()), later);
            }
        }
        return -2;
    }

    String show(long clock, int n) {
        return switch (kind) {
            case SET -> "cpudl_set(cpu=" + cpu + ", dl=" + Deadlines.format(dl(clock)) + ")";
            case CLEAR -> "cpudl_clear(cpu=" + cpu + ")";
            default -> "cpudl_find(dl=" + Deadlines.format(dl(clock)) + ", allowed=" + affinity(n) + ")";
        };
    }
}
