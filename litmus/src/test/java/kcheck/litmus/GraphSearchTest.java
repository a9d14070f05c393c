package kcheck.litmus;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import org.junit.jupiter.api.Test;

import kcheck.litmus.GraphSearch.Access;
import kcheck.litmus.GraphSearch.Kind;
import kcheck.litmus.GraphSearch.Next;
import kcheck.litmus.GraphSearch.Run;

/**
 * The graph search against the litmus engine on the same shapes (the kernel's own tests of these shapes
 * say Sometimes or Never, and the litmus engine matches all 47 of Linux 6.12), and its own checks: RMW
 * atomicity, a spin loop that never exits, a data race on a plain access.
 */
class GraphSearchTest {
    private static final int ONCE = GraphSearch.ONCE;

    /** A straight-line thread: writes, fences, reads (each read's value is recorded), spins and fetch-adds. */
    static final class Straight implements GraphSearch.Program {
        private final List<Object[]> ops = new ArrayList<>();

        Straight w(String loc, long v, int flags) {
            ops.add(new Object[] {"w", loc, v, flags});
            return this;
        }

        Straight r(String loc, int flags) {
            ops.add(new Object[] {"r", loc, 0L, flags});
            return this;
        }

        Straight f(String fence) {
            ops.add(new Object[] {"f", fence, 0L, 0});
            return this;
        }

        /** Spins until {@code loc} reads {@code v}. */
        Straight await(String loc, long v, int flags) {
            ops.add(new Object[] {"await", loc, v, flags});
            return this;
        }

        /** {@code atomic_inc} as a relaxed RMW. */
        Straight inc(String loc) {
            ops.add(new Object[] {"inc", loc, 0L, ONCE});
            return this;
        }

        @Override
        public Run run(long[] in) {
            List<Access> ev = new ArrayList<>();
            int next = 0;
            for (Object[] op : ops) {
                String kind = (String) op[0];
                String loc = (String) op[1];
                long v = (Long) op[2];
                int flags = (Integer) op[3];
                switch (kind) {
                    case "w" -> ev.add(new Access(Kind.WRITE, loc, v, flags, null, 0, 0, -1, "w"));
                    case "f" -> ev.add(new Access(Kind.FENCE, null, 0, 0, loc, 0, 0, -1, "f"));
                    default -> {
                        if (next == in.length) {
                            return new Run(ev, Next.READ, loc, 0);
                        }
                        long got = in[next++];
                        boolean inc = kind.equals("inc");
                        int r = ev.size();
                        ev.add(new Access(Kind.READ, loc, got, inc ? flags | GraphSearch.RMW : flags, null, 0, 0, inc ? r + 1 : -1, "r"));
                        if (inc) {
                            ev.add(new Access(Kind.WRITE, loc, got + 1, flags | GraphSearch.RMW, null, 0, 0, r, "inc"));
                        }
                        if (kind.equals("await") && got != v) {
                            return new Run(ev, Next.BLOCKED, null, 0);
                        }
                    }
                }
            }
            return new Run(ev, Next.END, null, 0);
        }
    }

    /** The values the reads of a finished run returned, in program order. */
    static List<Long> reads(Run run) {
        return run.events().stream().filter(a -> a.kind() == Kind.READ).map(Access::value).toList();
    }

    /** Whether some consistent finished execution satisfies {@code exists}. */
    static boolean sometimes(List<String> locs, List<GraphSearch.Program> threads, Predicate<List<Run>> exists) {
        Map<String, Long> init = new HashMap<>();
        locs.forEach(l -> init.put(l, 0L));
        GraphSearch.Result r = new GraphSearch(locs, init, threads, "exists", (fin, runs) -> exists.test(runs) ? "exists" : null,
                Set.of("exists"), 1_000_000, Long.MAX_VALUE / 2 + System.nanoTime()).search();
        assertThat(r.complete()).isTrue();
        return r.violations().containsKey("exists");
    }

    static String litmusWord(String text) {
        return LitmusChecker.decide(LitmusParser.parse("t.litmus", text)).word();
    }

    private static final String MP = """
            C MP
            {}
            P0(int *x, int *y)
            {
            	WRITE_ONCE(*x, 1);
            	%s
            }
            P1(int *x, int *y)
            {
            	int r0;
            	int r1;
            	%s
            	r1 = READ_ONCE(*x);
            }
            exists (1:r0=1 /\\ 1:r1=0)
            """;

    private boolean mp(int writeFlag, int readFlag, String fence0, String fence1) {
        Straight p0 = new Straight().w("x", 1, ONCE);
        if (fence0 != null) {
            p0.f(fence0);
        }
        p0.w("y", 1, writeFlag);
        Straight p1 = new Straight().r("y", readFlag);
        if (fence1 != null) {
            p1.f(fence1);
        }
        p1.r("x", ONCE);
        return sometimes(List.of("x", "y"), List.of(p0, p1), runs -> reads(runs.get(1)).equals(List.of(1L, 0L)));
    }

    @Test
    void messagePassingIsOrderedExactlyWhenTheLitmusEngineSaysNever() {
        assertThat(mp(ONCE, ONCE, null, null)).isTrue();
        assertThat(litmusWord(MP.formatted("WRITE_ONCE(*y, 1);", "r0 = READ_ONCE(*y);"))).isEqualTo("Sometimes");

        assertThat(mp(GraphSearch.RELEASE, GraphSearch.ACQUIRE, null, null)).isFalse();
        assertThat(litmusWord(MP.formatted("smp_store_release(y, 1);", "r0 = smp_load_acquire(y);"))).isEqualTo("Never");

        assertThat(mp(ONCE, ONCE, "wmb", "rmb")).isFalse();
        assertThat(litmusWord(MP.formatted("smp_wmb();\n\tWRITE_ONCE(*y, 1);", "r0 = READ_ONCE(*y);\n\tsmp_rmb();")))
                .isEqualTo("Never");

        /* release without acquire: the reader's loads may still be reordered */
        assertThat(mp(GraphSearch.RELEASE, ONCE, null, null)).isTrue();
        assertThat(litmusWord(MP.formatted("smp_store_release(y, 1);", "r0 = READ_ONCE(*y);"))).isEqualTo("Sometimes");
    }

    @Test
    void storeBufferingNeedsFullFencesOnBothSides() {
        for (String fence : new String[] {null, "mb"}) {
            Straight p0 = new Straight().w("x", 1, ONCE);
            Straight p1 = new Straight().w("y", 1, ONCE);
            if (fence != null) {
                p0.f(fence);
                p1.f(fence);
            }
            p0.r("y", ONCE);
            p1.r("x", ONCE);
            boolean both0 = sometimes(List.of("x", "y"), List.of(p0, p1),
                    runs -> reads(runs.get(0)).equals(List.of(0L)) && reads(runs.get(1)).equals(List.of(0L)));
            assertThat(both0).as("SB with fence %s", fence).isEqualTo(fence == null);
        }
    }

    @Test
    void readModifyWritesAreAtomic() {
        List<GraphSearch.Program> threads = List.of(new Straight().inc("x"), new Straight().inc("x"));
        Map<String, Long> init = Map.of("x", 0L);
        GraphSearch.Result r = new GraphSearch(List.of("x"), init, threads, "sum",
                (fin, runs) -> fin.get("x") == 2 ? null : "x = " + fin.get("x"), Set.of("sum"), 100_000, Long.MAX_VALUE / 2).search();
        assertThat(r.complete()).isTrue();
        assertThat(r.violations()).isEmpty();
        assertThat(r.executions()).isEqualTo(2);
    }

    @Test
    void aSpinLoopWhoseFlagIsNeverSetIsAHangAndOneThatIsSetIsNot() {
        Map<String, Long> init = Map.of("flag", 0L);
        GraphSearch.Result never = new GraphSearch(List.of("flag"), init, List.of(new Straight().await("flag", 1, ONCE), new Straight()),
                null, null, Set.of(GraphSearch.HANG), 1000, Long.MAX_VALUE / 2).search();
        assertThat(never.violations()).containsKey(GraphSearch.HANG);
        assertThat(never.violations().get(GraphSearch.HANG).message()).contains("spins for ever on flag");

        GraphSearch.Result set = new GraphSearch(List.of("flag"), init,
                List.of(new Straight().await("flag", 1, ONCE), new Straight().w("flag", 1, ONCE)), null, null, Set.of(GraphSearch.HANG),
                1000, Long.MAX_VALUE / 2).search();
        assertThat(set.complete()).isTrue();
        assertThat(set.violations()).isEmpty();

        /* set, then cleared again before the spinner may see it: it may spin for ever */
        GraphSearch.Result cleared = new GraphSearch(List.of("flag"), init,
                List.of(new Straight().await("flag", 1, ONCE), new Straight().w("flag", 1, ONCE).w("flag", 0, ONCE)), null, null,
                Set.of(GraphSearch.HANG), 1000, Long.MAX_VALUE / 2).search();
        assertThat(cleared.violations()).containsKey(GraphSearch.HANG);
    }

    @Test
    void aPlainStoreRacingWithAReadIsADataRaceUnlessTheReadIsOrderedAfterIt() {
        Map<String, Long> init = Map.of("x", 0L, "y", 0L);
        GraphSearch.Result racy = new GraphSearch(List.of("x", "y"), init,
                List.of(new Straight().w("x", 1, 0), new Straight().r("x", ONCE)), null, null, Set.of(GraphSearch.RACE), 1000,
                Long.MAX_VALUE / 2).search();
        assertThat(racy.violations()).containsKey(GraphSearch.RACE);

        /* the plain store is published by a release the reader spins on with acquire before it reads */
        GraphSearch.Result ordered = new GraphSearch(List.of("x", "y"), init,
                List.of(new Straight().w("x", 1, 0).w("y", 1, GraphSearch.RELEASE),
                        new Straight().await("y", 1, GraphSearch.ACQUIRE).r("x", 0)), null, null, Set.of(GraphSearch.RACE), 1000,
                Long.MAX_VALUE / 2).search();
        assertThat(ordered.complete()).isTrue();
        assertThat(ordered.violations()).isEmpty();
    }
}
