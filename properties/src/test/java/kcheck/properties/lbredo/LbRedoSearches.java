package kcheck.properties.lbredo;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.SplittableRandom;

import kcheck.engine.Engine;
import kcheck.engine.Options;
import kcheck.engine.PropertyResult;
import kcheck.engine.RunResult;
import kcheck.engine.Verdict;
import kcheck.model.Model;
import kcheck.model.lbredo.LbDomain;
import kcheck.model.lbredo.LbEnv;
import kcheck.model.lbredo.LbRedoFactory;
import kcheck.properties.gen.InputSearch;

/**
 * The domains and searches of the lb-redo suite ({@link LbRedoGeneratedDomainProperties}), for
 * any variant: the suite runs them on before, rfc and after, the power table on every seeded
 * mutant and real-bug variant.
 */
public final class LbRedoSearches {
    public static final String MODEL = "lb-redo";
    private static final LbRedoFactory F = new LbRedoFactory();

    private LbRedoSearches() {
    }

    public static Model model(String variant, LbDomain d, String... props) {
        return F.create(variant, LbRedoFactory.implementation(variant), d, new LinkedHashSet<>(List.of(props)));
    }

    /** A random domain: CPU 0 newly idle, at least one CPU outside its group. */
    public static LbDomain domain(SplittableRandom r, int minCpus, int maxCpus, int maxPulls) {
        return domain(r, minCpus, maxCpus, maxPulls, false);
    }

    /**
     * A random domain, at least one CPU outside CPU 0's group; with {@code anyIdle}, CPU 0 balances
     * newly idle, idle or busy (one in three each), so random masks make LBF_DST_PINNED arise.
     */
    public static LbDomain domain(SplittableRandom r, int minCpus, int maxCpus, int maxPulls, boolean anyIdle) {
        int n = minCpus + r.nextInt(maxCpus - minCpus + 1);
        int groups = 2 + r.nextInt(Math.min(n, 8) - 1);
        int[] groupOf = new int[n];
        for (int c = 1; c < n; c++) {
            groupOf[c] = r.nextInt(groups);
        }
        if (Arrays.stream(groupOf).allMatch(g -> g == 0)) {
            groupOf[1 + r.nextInt(n - 1)] = 1;
        }
        long span = n == 64 ? -1L : (1L << n) - 1;
        long active = span;
        if (r.nextInt(4) == 0) {
            active = (r.nextLong() | 1L) & span;
        }
        /* how many tasks are pinned away from CPU 0: none, some, ..., all (all: long redo chains) */
        int pinnedQuarters = r.nextInt(5);
        long[][] rq = new long[n][];
        for (int c = 0; c < n; c++) {
            if (groupOf[c] == groupOf[0]) {
                continue;
            }
            rq[c] = new long[r.nextInt(5)];
            for (int i = 0; i < rq[c].length; i++) {
                boolean awayFromDst = r.nextInt(4) < pinnedQuarters;
                long mask = switch (r.nextInt(3)) {
                    case 0 -> span;                           // anywhere (but CPU 0 if pinned away)
                    case 1 -> 1L << c;                        // bound to its CPU
                    default -> r.nextLong() & span;           // anything
                };
                mask = awayFromDst ? mask & ~1L : mask | 1L;
                rq[c][i] = mask | (1L << c);                  // a task may always run where it is
            }
        }
        int pulls = r.nextInt(maxPulls + 1);
        int idle = anyIdle ? new int[] {LbEnv.CPU_NEWLY_IDLE, LbEnv.CPU_IDLE, LbEnv.CPU_NOT_IDLE}[r.nextInt(3)] : LbEnv.CPU_NEWLY_IDLE;
        return LbDomain.custom(n, groupOf, active, rq, pulls, idle);
    }

    /**
     * {@code n} CPUs in two halves; the first three CPUs of the far half run two free tasks each,
     * the others one (so a uniform random schedule still meets the race often enough).
     */
    public static LbDomain busyFew(int n) {
        long span = n == 64 ? -1L : (1L << n) - 1;
        int[] groupOf = LbDomain.contiguousGroups(n, 2);
        long[][] rq = new long[n][];
        for (int c = n / 2; c < n; c++) {
            rq[c] = c < n / 2 + 3 ? new long[] {span, span} : new long[] {span};
        }
        return LbDomain.custom(n, groupOf, span, rq, 2);
    }

    /**
     * {@code props} on generated domains of 2 to 64 CPUs (up to 4 pulls): a run takes one domain
     * from its seed and {@code examples} uniformly random schedules of 20..300 steps on it; one
     * input is a domain and one schedule.
     */
    public static InputSearch onGeneratedDomains(String variant, int examples, String... props) {
        return new InputSearch() {
            @Override
            public boolean finds(long seed) {
                LbDomain d = domain(new SplittableRandom(seed), 2, 64, 4);
                return InputSearch.uniform(model(variant, d, props), 20, 300, examples).finds(seed);
            }

            /** Ten runs' domains, a tenth of the samples each. */
            @Override
            public double perInput(long seed, int samples) {
                double sum = 0;
                for (int k = 0; k < 10; k++) {
                    LbDomain d = domain(new SplittableRandom(seed + k), 2, 64, 4);
                    sum += InputSearch.uniform(model(variant, d, props), 20, 300, 1).perInput(seed + k, Math.max(1, samples / 10));
                }
                return sum / 10;
            }

            @Override
            public String describe() {
                return "a generated domain of 2..64 CPUs, " + examples + " uniformly random schedules of 20..300 steps";
            }
        };
    }

    /**
     * Exhaustive search of {@code props} on {@code domains} generated domains of 2 to 6 CPUs (up to
     * 2 pulls, any idle type) per run; one input is one domain, searched exhaustively.
     */
    public static InputSearch exhaustiveOnSmallDomains(String variant, int domains, String... props) {
        return new InputSearch() {
            private boolean violates(LbDomain d) {
                RunResult r = Engine.check(model(variant, d, props), Options.defaults().withWorkers(1));
                return r.properties().stream().map(PropertyResult::verdict).anyMatch(v -> v == Verdict.VIOLATED);
            }

            @Override
            public boolean finds(long seed) {
                SplittableRandom r = new SplittableRandom(seed);
                for (int i = 0; i < domains; i++) {
                    if (violates(domain(r, 2, 6, 2, true))) {
                        return true;
                    }
                }
                return false;
            }

            @Override
            public double perInput(long seed, int samples) {
                SplittableRandom r = new SplittableRandom(seed);
                int hits = 0;
                for (int i = 0; i < samples; i++) {
                    hits += violates(domain(r, 2, 6, 2, true)) ? 1 : 0;
                }
                return (double) hits / samples;
            }

            @Override
            public String describe() {
                return domains + " generated domains of 2..6 CPUs (any idle type), each searched exhaustively";
            }
        };
    }

    /**
     * no-spurious-redo in the race domain of 16 CPUs ({@link #busyFew}) on {@code schedules} PCT
     * schedules of depth 2 and 200 steps: the pull must land between CPU 0's statistics pass and
     * its detach, a preemption at one of a few steps.
     */
    public static InputSearch raceSearch(String variant, int schedules) {
        return InputSearch.pct(model(variant, busyFew(16), "no-spurious-redo"), 2, 200, schedules);
    }
}
