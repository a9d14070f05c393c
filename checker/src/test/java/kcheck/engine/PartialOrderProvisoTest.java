package kcheck.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.Test;

import kcheck.model.Deadlock;
import kcheck.model.FieldSink;
import kcheck.model.Invariant;
import kcheck.model.Model;
import kcheck.model.Params;
import kcheck.model.Property;
import kcheck.model.StateSink;
import kcheck.model.StepInfo;
import kcheck.model.StepSink;

/**
 * The three conditions that keep partial-order reduction sound, each on a model of two actors
 * small enough to draw, where breaking the condition loses a reachable violation: the cycle
 * proviso (an ample set that closes a cycle must not ignore the other actors for ever), the
 * independence test (an ample step must touch nothing another actor may touch later), and the
 * visibility test (a step a property observes is never taken alone). Also: every worker expands
 * with its own fork of the model. (PIT found the proviso and the independence test unchecked by
 * the engine's tests: only the rq-lock verdict tests reached them.)
 */
class PartialOrderProvisoTest {

    private static Options oneWorker() {
        return Options.defaults().withWorkers(1);
    }

    /** Boilerplate of a small test model: two actors, no canonical form. */
    private abstract static class TwoActors implements Model {
        final List<Property> props = new java.util.ArrayList<>();

        @Override
        public String name() {
            return getClass().getSimpleName();
        }

        @Override
        public String variant() {
            return "test";
        }

        @Override
        public Params params() {
            return Params.resolve(name(), List.of(), Map.of());
        }

        @Override
        public List<Property> properties() {
            return props;
        }

        @Override
        public List<String> actors() {
            return List.of("a0", "a1");
        }

        @Override
        public StepInfo describe(int actor, int action) {
            return new StepInfo("step of a" + actor, "");
        }

        @Override
        public void decode(long[] s, FieldSink out) {
            for (int i = 0; i < s.length; i++) {
                out.field(FieldSink.SHARED, "v" + i, Long.toString(s[i]));
            }
        }

        @Override
        public boolean isFinal(long[] s) {
            return false;
        }

        @Override
        public Model fork() {
            return this;
        }

        @Override
        public boolean partialOrder() {
            return true;
        }
    }

    /**
     * State {loop, c}. Actor 0 turns {@code loop} round 0 → 1 → 2 → 0 (or a longer loop) for ever, touching nothing
     * shared and nothing a property reads (footprint 0): it is always an ample set on its own.
     * Actor 1 sets {@code c} from 0 to 1 once, a step the invariant "c is never 1" observes.
     * Without the proviso the reduced search goes round actor 0's loop and never lets actor 1
     * move.
     */
    private static final class IgnoredActor extends TwoActors {
        final boolean claimsAcyclic;
        /** States on actor 0's loop. */
        final int loop;

        IgnoredActor(boolean claimsAcyclic) {
            this(claimsAcyclic, 3);
        }

        IgnoredActor(boolean claimsAcyclic, int loop) {
            this.claimsAcyclic = claimsAcyclic;
            this.loop = loop;
        }

        IgnoredActor cIsNever1() {
            props.add(new Invariant("c-is-not-1", "c never becomes 1") {
                @Override
                public boolean holds(long[] s) {
                    return s[1] != 1;
                }
            });
            return this;
        }

        @Override
        public int width() {
            return 2;
        }

        @Override
        public void initial(StateSink out) {
            out.state(new long[] {0, 0});
        }

        @Override
        public void successors(long[] s, StepSink out) {
            out.step(0, 0, new long[] {(s[0] + 1) % loop, s[1]});
            if (s[1] == 0) {
                out.step(1, 0, new long[] {s[0], 1});
            }
        }

        @Override
        public void footprints(long[] s, long[] step, long[] future) {
            step[0] = 0;
            future[0] = 0;
            step[1] = -1L;
            future[1] = -1L;
        }

        @Override
        public boolean acyclic() {
            return claimsAcyclic;
        }
    }

    @Test
    void anAmpleSetThatClosesACycleIsExpandedFullySoNoActorIsIgnored() {
        IgnoredActor m = new IgnoredActor(false);
        m.props.add(Deadlock.standard());
        RunResult r = Engine.check(m, oneWorker());
        /* (0,0) and (1,0) take actor 0 alone; (2,0) closes the loop and is expanded fully; with c = 1
           actor 0 is the only actor left: every one of the 6 states is reached */
        assertThat(r.stats().states()).isEqualTo(6);
        assertThat(r.stats().ampleStates()).isEqualTo(3);
        assertThat(r.property("deadlock-free").verdict()).isEqualTo(Verdict.HOLDS);
    }

    @Test
    void anAmpleStepBackToTheSameStateClosesACycleToo() {
        /* a loop of length 1: actor 0's only step leads back to the state being expanded, which the
           expander recognises without asking the store; it must still count as a visited state */
        for (Options o : List.of(oneWorker(), oneWorker().withStore(StoreMode.DISK))) {
            PropertyResult p = Engine.check(new IgnoredActor(false, 1).cIsNever1(), o).property("c-is-not-1");
            assertThat(p.verdict()).as(o.store().toString()).isEqualTo(Verdict.VIOLATED);
            assertThat(p.trace().actors()).containsExactly(1);
        }
    }

    @Test
    void theIgnoredActorsViolationIsFoundWithAShortestTrace() {
        PropertyResult p = Engine.check(new IgnoredActor(false).cIsNever1(), oneWorker()).property("c-is-not-1");
        assertThat(p.verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(p.trace().length()).isEqualTo(1);
        assertThat(p.trace().actors()).containsExactly(1);
    }

    @Test
    void aModelDeclaredAcyclicIsTrustedAndTheProvisoIsSkipped() {
        /* the claim is false here, on purpose: the engine takes it at its word (AcyclicClaimTest
           checks the real models' claims against their state graphs) */
        RunResult r = Engine.check(new IgnoredActor(true).cIsNever1(), oneWorker());
        assertThat(r.stats().states()).isEqualTo(3);
        assertThat(r.property("c-is-not-1").verdict()).isEqualTo(Verdict.HOLDS);
    }

    @Test
    void aLoopLongerThanTheRamTableClosesOnAStateOnlyTheDiskHoldsAndTheIgnoredActorStillMoves() {
        /* 100,000 loop states, a RAM table of about 40,000: when the loop closes, (0,0) is in a key
           run on disk and the RAM table calls it new. The disk search must treat it as possibly
           present (every new successor is, in a cyclic model), or actor 1 is ignored for ever */
        Options small = oneWorker().withStore(StoreMode.DISK).withMemoryBytes((4L << 20) + 300_000);
        PropertyResult p = Engine.check(new IgnoredActor(false, 100_000).cIsNever1(), small).property("c-is-not-1");
        assertThat(p.verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(p.trace().length()).isEqualTo(1);
    }

    @Test
    void aLoopWhoseEveryStepCrossesPartitionsStillLetsTheIgnoredActorMove() {
        /* a partition count under which each of the loop's three steps goes to another partition:
           no partition can tell whether the successor it sends away is stored there already, so it
           must count it as possibly present, or every loop state keeps its ample set */
        int k = 2;
        while (!everyLoopStepCrosses(k)) {
            k++;
        }
        PropertyResult p = Partitioned.check(new IgnoredActor(false).cIsNever1(), oneWorker(), new InMemoryDriver(k))
                .property("c-is-not-1");
        assertThat(p.verdict()).as("%d partitions", k).isEqualTo(Verdict.VIOLATED);
        assertThat(p.trace().length()).isEqualTo(1);
    }

    private static boolean everyLoopStepCrosses(int k) {
        for (int i = 0; i < 3; i++) {
            int from = Partition.owner(Hashing.hash(new long[] {i, 0}, 0, 2), k);
            int to = Partition.owner(Hashing.hash(new long[] {(i + 1) % 3, 0}, 0, 2), k);
            if (from == to) {
                return false;
            }
        }
        return true;
    }

    /**
     * State {x, writerDone, seen} (seen = 2: not read yet). Actor 0 writes x = 1 once (shared
     * object 1, not observed by the property); actor 1 reads x into {@code seen}, a step the
     * invariant "seen is never 0" observes, and may read x at any time before. Actor 0's write is
     * invisible but not independent: actor 1's future touches x, so taking the write alone would
     * lose the order "read, then write", the one that violates.
     */
    private static final class ReadBeforeWrite extends TwoActors {
        ReadBeforeWrite() {
            props.add(new Invariant("seen-is-not-0", "actor 1 never reads x = 0") {
                @Override
                public boolean holds(long[] s) {
                    return s[2] != 0;
                }
            });
        }

        @Override
        public int width() {
            return 3;
        }

        @Override
        public void initial(StateSink out) {
            out.state(new long[] {0, 0, 2});
        }

        @Override
        public void successors(long[] s, StepSink out) {
            if (s[1] == 0) {
                out.step(0, 0, new long[] {1, 1, s[2]});
            }
            if (s[2] == 2) {
                out.step(1, 0, new long[] {s[0], s[1], s[0]});
            }
        }

        @Override
        public void footprints(long[] s, long[] step, long[] future) {
            step[0] = s[1] == 0 ? 1L : 0L;
            future[0] = s[1] == 0 ? 1L : 0L;
            step[1] = -1L;
            future[1] = s[2] == 2 ? 1L : 0L;
        }

        @Override
        public boolean acyclic() {
            return true;
        }
    }

    @Test
    void aStepOnAnObjectAnotherActorWillTouchIsNeverTakenAlone() {
        RunResult r = Engine.check(new ReadBeforeWrite(), oneWorker());
        assertThat(r.property("seen-is-not-0").verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(r.property("seen-is-not-0").trace().actors()).containsExactly(1);
    }

    /**
     * Actor 0 (visible: the invariant reads its counter) and actor 1 (private, independent of
     * everyone) each count to 2. The invariant "not (a = 2 and b = 0)" relates both counters, so
     * actor 1's steps are visible too; with both visible nothing may be reduced.
     */
    private static final class BothVisible extends TwoActors {
        final boolean actor1Visible;

        BothVisible(boolean actor1Visible) {
            this.actor1Visible = actor1Visible;
            props.add(Deadlock.standard());
            props.add(new Invariant("not-a2-b0", "a reaches 2 only after b moved") {
                @Override
                public boolean holds(long[] s) {
                    return !(s[0] == 2 && s[1] == 0);
                }
            });
        }

        @Override
        public int width() {
            return 2;
        }

        @Override
        public void initial(StateSink out) {
            out.state(new long[] {0, 0});
        }

        @Override
        public void successors(long[] s, StepSink out) {
            for (int a = 0; a < 2; a++) {
                if (s[a] < 2) {
                    long[] n = s.clone();
                    n[a]++;
                    out.step(a, 0, n);
                }
            }
        }

        @Override
        public boolean isFinal(long[] s) {
            return s[0] == 2 && s[1] == 2;
        }

        @Override
        public void footprints(long[] s, long[] step, long[] future) {
            step[0] = -1L;
            future[0] = 0;
            step[1] = actor1Visible ? -1L : 0L;
            future[1] = 0;
        }

        @Override
        public boolean acyclic() {
            return true;
        }
    }

    @Test
    void stepsAPropertyObservesAreNeverTakenAlone() {
        RunResult r = Engine.check(new BothVisible(true), oneWorker());
        assertThat(r.stats().states()).as("the full 3 x 3 grid").isEqualTo(9);
        assertThat(r.stats().ampleStates()).isZero();
        assertThat(r.property("not-a2-b0").verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(r.property("not-a2-b0").trace().actors()).containsExactly(0, 0);
    }

    @Test
    void anInvisibleIndependentActorIsTakenAloneWhereverItIsEnabled() {
        /* the same grid with actor 1 declared invisible (a wrong declaration for this property,
           on purpose): actor 1 runs first, alone, and the violating corner (2, 0) is never reached */
        RunResult r = Engine.check(new BothVisible(false), oneWorker());
        assertThat(r.stats().states()).isEqualTo(5);
        assertThat(r.stats().ampleStates()).isEqualTo(2);
        assertThat(r.property("not-a2-b0").verdict()).isEqualTo(Verdict.HOLDS);
    }

    /**
     * {@code k} actors, each counting its own counter from 0 to 2; actor a's steps touch the
     * objects {@code fp[a]} ({@code -1}: visible), and so does its future until it is done.
     * Deadlock freedom is checked (it holds), so no search stops early.
     */
    private static final class Grid extends TwoActors {
        final long[] fp;
        boolean claimsAcyclic = true;

        Grid(long... fp) {
            this.fp = fp;
            props.add(Deadlock.standard());
        }

        @Override
        public List<String> actors() {
            return java.util.stream.IntStream.range(0, fp.length).mapToObj(a -> "a" + a).toList();
        }

        @Override
        public int width() {
            return fp.length;
        }

        @Override
        public void initial(StateSink out) {
            out.state(new long[fp.length]);
        }

        @Override
        public void successors(long[] s, StepSink out) {
            for (int a = 0; a < fp.length; a++) {
                if (s[a] < 2) {
                    long[] n = s.clone();
                    n[a]++;
                    out.step(a, 0, n);
                }
            }
        }

        @Override
        public boolean isFinal(long[] s) {
            return java.util.Arrays.stream(s).allMatch(v -> v == 2);
        }

        @Override
        public void footprints(long[] s, long[] step, long[] future) {
            for (int a = 0; a < fp.length; a++) {
                step[a] = fp[a];
                future[a] = s[a] < 2 ? fp[a] : 0;
            }
        }

        @Override
        public boolean acyclic() {
            return claimsAcyclic;
        }
    }

    @Test
    void withTheProvisoOnAnAmpleSetThatReachesOnlyNewStatesIsStillTakenAlone() {
        Grid g = new Grid(1L, 2L);
        g.claimsAcyclic = false;
        RunResult r = Engine.check(g, oneWorker());
        assertThat(r.stats().states()).as("no ample successor was visited before: nothing to expand fully").isEqualTo(5);
        assertThat(r.stats().ampleStates()).isEqualTo(2);
    }

    @Test
    void aStepOnAnObjectOnlyItsOwnActorWillTouchIsTakenAlone() {
        /* actor 0 on object 1, actor 1 on object 2: each ample by itself (its own future meets its
           own footprint, nobody else's does); 0 runs first: (0,0) (1,0) (2,0) (2,1) (2,2) */
        RunResult r = Engine.check(new Grid(1L, 2L), oneWorker());
        assertThat(r.stats().states()).isEqualTo(5);
        assertThat(r.stats().ampleStates()).isEqualTo(2);
        RunResult shared = Engine.check(new Grid(1L, 1L), oneWorker());
        assertThat(shared.stats().states()).as("both on object 1: the full 3 x 3 grid").isEqualTo(9);
        assertThat(shared.stats().ampleStates()).isZero();
    }

    @Test
    void aDisabledActorIsNeverAnAmpleSet() {
        /* actors 0 and 1 visible, actor 2 invisible: it runs alone to 2, then is disabled (its slot
           in the successor batch is stale from the state before); from (0,0,2) both visible
           actors must be expanded: 2 + 9 states */
        RunResult r = Engine.check(new Grid(-1L, -1L, 0L), oneWorker());
        assertThat(r.stats().states()).isEqualTo(11);
        assertThat(r.stats().ampleStates()).isEqualTo(2);
        assertThat(r.property("deadlock-free").verdict()).isEqualTo(Verdict.HOLDS);
    }

    /** Counts to 12 on four counters, recording which threads called each instance. */
    private static final class ThreadRecording extends TwoActors {
        final Map<ThreadRecording, Set<Thread>> users;

        ThreadRecording(Map<ThreadRecording, Set<Thread>> users) {
            this.users = users;
            props.add(Deadlock.standard());
        }

        @Override
        public int width() {
            return 4;
        }

        @Override
        public void initial(StateSink out) {
            out.state(new long[4]);
        }

        @Override
        public void successors(long[] s, StepSink out) {
            users.computeIfAbsent(this, k -> ConcurrentHashMap.newKeySet()).add(Thread.currentThread());
            for (int a = 0; a < 4; a++) {
                if (s[a] < 12) {
                    long[] n = s.clone();
                    n[a]++;
                    out.step(a % 2, 0, n);
                }
            }
        }

        @Override
        public boolean isFinal(long[] s) {
            return s[0] == 12 && s[1] == 12 && s[2] == 12 && s[3] == 12;
        }

        @Override
        public boolean partialOrder() {
            return false;
        }

        @Override
        public Model fork() {
            return new ThreadRecording(users);
        }
    }

    @Test
    void eachWorkerExpandsWithItsOwnForkOfTheModel() {
        Map<ThreadRecording, Set<Thread>> users = new ConcurrentHashMap<>();
        RunResult r = Engine.check(new ThreadRecording(users), Options.defaults().withWorkers(2));
        assertThat(r.stats().states()).isEqualTo(13L * 13 * 13 * 13);
        assertThat(users.values()).as("threads that expanded with each instance").allSatisfy(t -> assertThat(t).hasSize(1));
        assertThat(users.values().stream().flatMap(Set::stream).distinct().count()).as("both workers expanded").isEqualTo(2);
    }
}
