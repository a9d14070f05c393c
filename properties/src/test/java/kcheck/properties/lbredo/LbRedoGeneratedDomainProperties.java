package kcheck.properties.lbredo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import kcheck.engine.Engine;
import kcheck.engine.Options;
import kcheck.engine.RunResult;
import kcheck.engine.Verdict;
import kcheck.model.Model;
import kcheck.model.lbredo.LbDomain;
import kcheck.model.lbredo.LbEnv;
import kcheck.model.lbredo.LbRedoFactory;
import kcheck.properties.gen.Failure;
import kcheck.properties.gen.Gens;
import kcheck.properties.gen.Schedules;
import kcheck.properties.gen.Seeds;
import kcheck.properties.gen.SequenceProperty;

/**
 * lb-redo on generated domains: up to 64 CPUs, random group splits (any CPUs together, not only
 * contiguous ones), random active masks, 0 to 4 tasks per CPU outside the local group with
 * random affinity masks, 0 to 4 concurrent pulls, and random interleavings of CPU 0's
 * {@code load_balance()} steps with the pulls. Every domain comes from the printed seed.
 */
class LbRedoGeneratedDomainProperties {
    private static final LbRedoFactory F = new LbRedoFactory();

    /** A random domain: CPU 0 newly idle, at least one CPU outside its group. */
    static LbDomain domain(SplittableRandom r, int minCpus, int maxCpus, int maxPulls) {
        return domain(r, minCpus, maxCpus, maxPulls, false);
    }

    /**
     * A random domain, at least one CPU outside CPU 0's group; with {@code anyIdle}, CPU 0 balances
     * newly idle, idle or busy (one in three each), so random masks make LBF_DST_PINNED arise.
     */
    static LbDomain domain(SplittableRandom r, int minCpus, int maxCpus, int maxPulls, boolean anyIdle) {
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
    static LbDomain busyFew(int n) {
        long span = n == 64 ? -1L : (1L << n) - 1;
        int[] groupOf = LbDomain.contiguousGroups(n, 2);
        long[][] rq = new long[n][];
        for (int c = n / 2; c < n; c++) {
            rq[c] = c < n / 2 + 3 ? new long[] {span, span} : new long[] {span};
        }
        return LbDomain.custom(n, groupOf, span, rq, 2);
    }

    private static Model model(String variant, LbDomain d, String... props) {
        return F.create(variant, LbRedoFactory.implementation(variant), d, new LinkedHashSet<>(List.of(props)));
    }

    @Test
    void everyVariantTerminatesWithinTheBoundOnGeneratedDomainsUpTo64Cpus() {
        long seed = Seeds.seed("lb-redo terminates");
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < 40; i++) {
            LbDomain d = domain(r, 2, 64, 4);
            for (String variant : List.of("before", "rfc", "after")) {
                Model m = model(variant, d, "terminates");
                SequenceProperty.of("terminates " + variant + " domain " + i + " (" + d.description() + ")",
                                Gens.ints(0, 1 << 20), 20, 300)
                        .seed(seed + i).examples(20)
                        .check(choices -> Schedules.run(m, choices));
            }
        }
    }

    @Test
    void afterNeverRedoesSpuriouslyOnGeneratedDomainsUpTo64Cpus() {
        long seed = Seeds.seed("lb-redo after no-spurious-redo");
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < 40; i++) {
            LbDomain d = domain(r, 2, 64, 4);
            Model m = model("after", d, "no-spurious-redo", "all-pinned-sound");
            SequenceProperty.of("no-spurious-redo after domain " + i + " (" + d.description() + ")",
                            Gens.ints(0, 1 << 20), 20, 300)
                    .seed(seed + i).examples(30)
                    .check(choices -> Schedules.run(m, choices));
        }
    }

    @Test
    void exhaustiveSearchOnSmallGeneratedDomainsGivesTheVerdictsOfAfterForEveryIdleType() {
        long seed = Seeds.seed("lb-redo small domains exhaustive");
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < 30; i++) {
            LbDomain d = domain(r, 2, 6, 2, true);
            for (String variant : List.of("before", "rfc", "after", "v6.12")) {
                RunResult res = Engine.check(model(variant, d, "terminates", "no-spurious-redo", "all-pinned-sound",
                        "call-returns", "newidle-pulls-here", "scan-bounded"), Options.defaults());
                assertThat(res.stats().complete()).isTrue();
                for (String p : List.of("terminates", "call-returns", "newidle-pulls-here", "scan-bounded")) {
                    assertThat(res.property(p).verdict()).as("seed %d domain %d %s %s: %s", seed, i, variant, p,
                            d.description()).isEqualTo(Verdict.HOLDS);
                }
                if (variant.equals("after") || variant.equals("v6.12")) {
                    assertThat(res.property("no-spurious-redo").verdict()).as("seed %d domain %d: %s", seed, i,
                            d.description()).isEqualTo(Verdict.HOLDS);
                    assertThat(res.property("all-pinned-sound").verdict()).isEqualTo(Verdict.HOLDS);
                }
            }
        }
    }

    @Test
    void randomSchedulesFindAndMinimiseTheRaceRedoOfBefore() {
        long seed = Seeds.seed("lb-redo before race");
        int found = 0;
        List<String> shown = new ArrayList<>();
        for (int n : new int[] {4, 16, 64}) {
            LbDomain d = busyFew(n);
            Model m = model("before", d, "no-spurious-redo");
            Optional<Failure<Integer>> f = SequenceProperty.of("no-spurious-redo before race cpus=" + n,
                            Gens.ints(0, 1 << 20), 10, 200)
                    .seed(seed + n).examples(400)
                    .find(choices -> Schedules.run(m, choices));
            if (f.isPresent()) {
                found++;
                assertThat(f.get().message()).contains("no task of busiest was examined");
                if (shown.isEmpty()) {
                    shown.addAll(Schedules.labels(m, f.get().minimised()));
                    System.out.println(f.get().property() + " (seed " + f.get().seed() + "): minimised to "
                            + shown.size() + " steps:");
                    for (int i = 0; i < shown.size(); i++) {
                        System.out.println("  " + (i + 1) + ". " + shown.get(i));
                    }
                }
            }
        }
        assertThat(found).as("the race is found on every size").isEqualTo(3);
    }
}
