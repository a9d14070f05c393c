package kcheck.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiskBfsTest {

    private static Options disk() {
        return Options.defaults().withWorkers(1).withStore(StoreMode.DISK);
    }

    /**
     * A budget so small that the fingerprint table (after its 2 MiB of table objects, 1 MiB of sort
     * buffer and 1 MiB of bitmap headroom) holds about 40,000 states: a search of 194,481 states
     * moves it to disk several times, and from then on checks every level against the runs.
     */
    private static Options overflowing() {
        return disk().withMemoryBytes((4L << 20) + 300_000);
    }

    @Test
    void diskSearchCountsWhatTheExactSearchCounts() {
        for (Options o : List.of(disk(), disk().withWorkers(2), overflowing(), overflowing().withWorkers(2))) {
            RunResult r = Engine.check(new Counters(4, 5).deadlockFree(), o);
            assertThat(r.stats().states()).as(o.toString()).isEqualTo(1296);
            assertThat(r.stats().depth()).isEqualTo(20);
            assertThat(r.stats().complete()).isTrue();
            assertThat(r.stats().store()).isEqualTo(StoreMode.DISK);
            assertThat(r.property("deadlock-free").verdict()).isEqualTo(Verdict.HOLDS);
        }
    }

    @Test
    void statesBeyondTheRamTableAreCountedOnceAcrossRuns() {
        RunResult exact = Engine.check(new Counters(4, 20).deadlockFree(), Options.defaults().withWorkers(2));
        RunResult r = Engine.check(new Counters(4, 20).deadlockFree(), overflowing().withWorkers(2));
        assertThat(r.stats().states()).isEqualTo(exact.stats().states()).isEqualTo(21L * 21 * 21 * 21);
        assertThat(r.stats().transitions()).isEqualTo(exact.stats().transitions());
        assertThat(r.stats().depth()).isEqualTo(80);
        assertThat(r.stats().storeBytes()).as("RAM holds a part of the fingerprints").isLessThan(194_481L * 6 + (2L << 20));
        assertThat(r.stats().diskBytes()).isPositive();
        assertThat(r.stats().omission()).isPositive();
    }

    @Test
    void theLongStepsAtTheEndOfALevelAreAnnouncedWithTheirCounts() {
        List<String> phases = new java.util.ArrayList<>();
        ProgressListener l = new ProgressListener() {
            @Override
            public void progress(Progress p) {
            }

            @Override
            public void phase(String what) {
                phases.add(what);
            }
        };
        Engine.check(new Counters(4, 15).deadlockFree(), overflowing().withListener(l));
        assertThat(phases).anyMatch(p -> p.matches("depth \\d+: checking the level's [0-9,]+ new states against \\d+ key run\\(s\\) on disk"))
                .anyMatch(p -> p.matches("depth \\d+: [0-9,]+ of them seen before, [0-9,]+ new \\(\\d+ s\\)"))
                .anyMatch(p -> p.startsWith("depth ") && p.contains(": RAM table full: writing its keys to disk"));
        List<String> none = new java.util.ArrayList<>();
        Engine.check(new Counters(4, 5).deadlockFree(), disk().withListener(new ProgressListener() {
            @Override
            public void progress(Progress p) {
            }

            @Override
            public void phase(String what) {
                none.add(what);
            }
        }));
        assertThat(none).as("a search whose table never fills has no such steps").isEmpty();
    }

    @Test
    void withTwoWorkersTheRamTableTakesItsLocksAndWithOneItNeedsNone() {
        /* a race on the table is rare enough that no count here would show it; CompactStoreTest's
           concurrent inserts show what the locks are for, this that the disk search asks for them */
        for (int workers = 1; workers <= 2; workers++) {
            DiskBfs search = new DiskBfs(new Counters(3, 3).deadlockFree(), disk().withWorkers(workers));
            assertThat(search.run().stats().states()).isEqualTo(64);
            assertThat(((kcheck.engine.store.CompactStore) search.store).concurrent()).as("%d workers", workers)
                    .isEqualTo(workers > 1);
        }
    }

    @Test
    void oneWorkerOnDiskGivesTheSameShortestTraceAsInRam() {
        for (Options o : List.of(disk(), overflowing())) {
            RunResult d = Engine.check(new Counters(4, 14).sumIsNever(40).neverStepsTo(13), o);
            RunResult m = Engine.check(new Counters(4, 14).sumIsNever(40).neverStepsTo(13),
                    Options.defaults().withWorkers(1).withStore(StoreMode.FINGERPRINT));
            for (String p : List.of("sum-is-not-40", "never-13")) {
                RawTrace a = d.property(p).trace();
                RawTrace b = m.property(p).trace();
                assertThat(d.property(p).verdict()).isEqualTo(Verdict.VIOLATED);
                assertThat(a.length()).isEqualTo(b.length());
                for (int i = 0; i <= a.length(); i++) {
                    assertThat(a.states().get(i)).as(p + " step " + i).containsExactly(b.states().get(i));
                }
            }
        }
    }

    @Test
    void metricWitnessesAreShortestOnDisk() {
        RunResult r = Engine.check(new Counters(4, 9).sumMetric(Long.MAX_VALUE), overflowing().withWorkers(2));
        PropertyResult p = r.property("sum");
        assertThat(p.metric().max()).containsExactly(36);
        assertThat(p.metric().witnesses()[0].length()).isEqualTo(36);
    }

    @Test
    void limitsEndTheDiskSearchIncomplete() {
        RunResult t = Engine.check(new Counters(8, 9).deadlockFree(), disk().withTimeLimit(Duration.ofMillis(50)));
        assertThat(t.property("deadlock-free").verdict()).isEqualTo(Verdict.INCOMPLETE);
        RunResult d = Engine.check(new Counters(4, 9).deadlockFree(), disk().withMaxDepth(5));
        assertThat(d.property("deadlock-free").verdict()).isEqualTo(Verdict.INCOMPLETE);
        assertThat(d.stats().limit()).contains("depth bound");
    }

    @Test
    void theFilesOfARunWithoutCheckpointsAreRemoved(@TempDir Path dir) throws Exception {
        Engine.check(new Counters(3, 40).deadlockFree(), overflowing().withDisk(new Options.Disk(dir, false, false,
                Duration.ofMinutes(5))));
        try (var files = Files.list(dir)) {
            assertThat(files.toList()).isEmpty();
        }
    }

    @Test
    void aSearchStoppedAtACheckpointResumesToTheSameCountsAndVerdicts(@TempDir Path dir) {
        Counters model = new Counters(4, 20).sumIsNever(70).deadlockFree();
        RunResult whole = Engine.check(model, overflowing().withWorkers(2));
        ProgressListener crash = crashAfterCheckpoint(7);
        Options.Disk every = new Options.Disk(dir, true, false, Duration.ZERO);
        assertThatThrownBy(() -> Engine.check(model, overflowing().withWorkers(2).withDisk(every).withListener(crash)))
                .hasMessageContaining("crash");
        assertThat(dir.resolve("checkpoint.bin")).exists();
        RunResult resumed = Engine.check(model, overflowing().withWorkers(1)
                .withDisk(new Options.Disk(dir, true, true, Duration.ofMinutes(5))));
        assertThat(resumed.stats().states()).isEqualTo(whole.stats().states()).isEqualTo(21L * 21 * 21 * 21);
        assertThat(resumed.stats().transitions()).isEqualTo(whole.stats().transitions());
        assertThat(resumed.stats().depth()).isEqualTo(whole.stats().depth());
        for (PropertyResult p : whole.properties()) {
            PropertyResult q = resumed.property(p.id());
            assertThat(q.verdict()).as(p.id()).isEqualTo(p.verdict());
            if (p.trace() != null) {
                assertThat(q.trace().length()).isEqualTo(p.trace().length());
            }
        }
    }

    @Test
    void aCheckpointOfAnotherSearchIsRefused(@TempDir Path dir) {
        Engine.check(new Counters(3, 9).deadlockFree(), disk().withDisk(new Options.Disk(dir, true, false, Duration.ZERO)));
        assertThatThrownBy(() -> Engine.check(new Counters(4, 9).deadlockFree(),
                disk().withDisk(new Options.Disk(dir, true, true, Duration.ZERO))))
                .isInstanceOf(CheckpointException.class).hasMessageContaining("another search");
    }

    /**
     * Counter 0 wraps from its maximum back to 0, so a state is found again many levels after it
     * was first stored (the counters alone form a graded graph, where a state can only be found
     * again on its own level and a store that forgot old levels would still count right): the
     * fingerprints moved to disk runs must still be consulted, level after level.
     */
    private static Counters wrapping(int k, int max) {
        Counters c = new Counters(k, max);
        c.wrap = true;
        return c.deadlockFree();
    }

    @Test
    void statesFoundAgainLevelsLaterAreRecognisedAfterTheRamTableMovedToDisk() {
        RunResult exact = Engine.check(wrapping(4, 20), Options.defaults().withWorkers(1));
        assertThat(exact.stats().states()).isEqualTo(21L * 21 * 21 * 21);
        for (Options o : List.of(overflowing(), overflowing().withWorkers(2))) {
            RunResult r = Engine.check(wrapping(4, 20), o);
            assertThat(r.stats().states()).as(o.toString()).isEqualTo(exact.stats().states());
            assertThat(r.stats().transitions()).isEqualTo(exact.stats().transitions());
            assertThat(r.stats().depth()).isEqualTo(exact.stats().depth());
            assertThat(r.stats().diskBytes()).isPositive();
        }
    }

    @Test
    void aResumedSearchStillKnowsTheStatesItsRamTableHeldAtTheCheckpoint(@TempDir Path dir) {
        RunResult whole = Engine.check(wrapping(4, 20), Options.defaults().withWorkers(1));
        ProgressListener crash = crashAfterCheckpoint(40);
        /* a budget the whole table fits in: at the crash every state found so far is known only to the RAM table */
        assertThatThrownBy(() -> Engine.check(wrapping(4, 20), disk().withDisk(new Options.Disk(dir, true, false,
                Duration.ZERO)).withListener(crash))).hasMessageContaining("crash");
        RunResult resumed = Engine.check(wrapping(4, 20), disk()
                .withDisk(new Options.Disk(dir, true, true, Duration.ofMinutes(5))));
        assertThat(resumed.stats().states()).isEqualTo(whole.stats().states());
        assertThat(resumed.stats().transitions()).isEqualTo(whole.stats().transitions());
        assertThat(resumed.stats().depth()).isEqualTo(whole.stats().depth());
    }

    private static Counters graded(Counters c) {
        c.graded = true;
        return c;
    }

    /** The end-of-level steps a search announces. */
    private static ProgressListener phases(List<String> out) {
        return new ProgressListener() {
            @Override
            public void progress(Progress p) {
            }

            @Override
            public void phase(String what) {
                out.add(what);
            }
        };
    }

    /**
     * 8 MiB: once the table's 65,536 small tables are allocated (3.2 MiB), room for about 400,000
     * keys. The {@code Counters(4, 32)} search below has 1,185,921 states, and 22,913 on its largest level.
     */
    private static Options roomForALevel() {
        return disk().withMemoryBytes(8L << 20);
    }

    @Test
    @Tag("long")
    void aGradedModelsLevelsAreCountedWithOneLevelInRamAndNoRunsOnDisk() {
        RunResult exact = Engine.check(new Counters(4, 32).deadlockFree(), Options.defaults().withWorkers(1));
        for (Options o : List.of(roomForALevel(), roomForALevel().withWorkers(2))) {
            List<String> seen = new java.util.ArrayList<>();
            RunResult r = Engine.check(graded(new Counters(4, 32).deadlockFree()), o.withListener(phases(seen)));
            assertThat(r.stats().states()).as(o.toString()).isEqualTo(exact.stats().states()).isEqualTo(33L * 33 * 33 * 33);
            assertThat(r.stats().transitions()).isEqualTo(exact.stats().transitions());
            assertThat(r.stats().depth()).isEqualTo(128);
            assertThat(r.property("deadlock-free").verdict()).isEqualTo(Verdict.HOLDS);
            assertThat(seen).as("no level overflows the table that the whole search overflows").isEmpty();
        }
        List<String> ungraded = new java.util.ArrayList<>();
        Engine.check(graded(new Counters(4, 32).deadlockFree()),
                roomForALevel().withDisk(Options.Disk.NONE.withGraded(false)).withListener(phases(ungraded)));
        assertThat(ungraded).as("the same search not relying on the grading moves its table to disk")
                .anyMatch(p -> p.contains("RAM table full"));
    }

    /** TLC's n * (m - n) / 2^64 taken per level of {@code Counters(4, 32)}: level d holds the states that sum to d. */
    private static double omissionPerLevel() {
        long[] level = new long[4 * 32 + 1];
        long[] into = new long[4 * 32 + 1];
        for (int a = 0; a <= 32; a++) {
            for (int b = 0; b <= 32; b++) {
                for (int c = 0; c <= 32; c++) {
                    for (int d = 0; d <= 32; d++) {
                        level[a + b + c + d]++;
                        /* one step into this state from each counter that is not zero */
                        into[a + b + c + d] += Integer.signum(a) + Integer.signum(b) + Integer.signum(c) + Integer.signum(d);
                    }
                }
            }
        }
        double p = 0;
        for (int d = 0; d < level.length; d++) {
            p += (double) level[d] * Math.max(0, into[d] - level[d]) / 0x1p64;
        }
        return p;
    }

    @Test
    @Tag("long")
    void aGradedSearchEstimatesTheOmissionPerLevelSinceAStateIsComparedOnlyWithItsLevel() {
        double perLevel = omissionPerLevel();
        RunResult graded = Engine.check(graded(new Counters(4, 32).deadlockFree()), roomForALevel().withWorkers(2));
        assertThat(graded.stats().omission()).isCloseTo(perLevel, within(perLevel * 1e-9));
        RunResult whole = Engine.check(graded(new Counters(4, 32).deadlockFree()),
                roomForALevel().withDisk(Options.Disk.NONE.withGraded(false)));
        assertThat(whole.stats().omission()).as("without the grading: TLC's estimate over the whole search")
                .isEqualTo(kcheck.engine.store.FingerprintStore.omissionProbability(whole.stats().states(), whole.stats().transitions()));
        assertThat(graded.stats().omission()).isLessThan(whole.stats().omission() / 20);
    }

    @Test
    void aResumedGradedSearchEstimatesTheOmissionAsAnUninterruptedOne(@TempDir Path dir) {
        Counters model = graded(new Counters(4, 32).deadlockFree());
        Options.Disk every = new Options.Disk(dir, true, false, Duration.ZERO);
        assertThatThrownBy(() -> Engine.check(model, roomForALevel().withDisk(every).withListener(crashAfterCheckpoint(60))))
                .hasMessageContaining("crash");
        RunResult resumed = Engine.check(model, roomForALevel().withDisk(new Options.Disk(dir, true, true, Duration.ofMinutes(5))));
        assertThat(resumed.stats().states()).isEqualTo(33L * 33 * 33 * 33);
        double perLevel = omissionPerLevel();
        assertThat(resumed.stats().omission()).isCloseTo(perLevel, within(perLevel * 1e-9));
    }

    @Test
    void aGradingTheModelBreaksEndsTheSearchIncomplete() {
        Counters lying = wrapping(4, 20);
        lying.graded = true;
        RunResult r = Engine.check(lying, overflowing().withMaxDepth(500));
        assertThat(r.stats().complete()).isFalse();
        assertThat(r.property("deadlock-free").verdict()).isEqualTo(Verdict.INCOMPLETE);
        assertThat(r.stats().limit()).contains("grading is false: a state at depth 21 has rank 0, not 21");
    }

    @Test
    void initialStatesOfDifferentRanksAreSearchedWithoutTheGrading() {
        Counters c = graded(new Counters(3, 6).deadlockFree());
        c.moreInitial.add(new long[] {0, 0, 1});
        RunResult r = Engine.check(c, overflowing());
        assertThat(r.stats().complete()).isTrue();
        assertThat(r.stats().states()).isEqualTo(7L * 7 * 7);
    }

    @Test
    @Tag("long")
    void aCheckpointWrittenWithoutTheGradingResumesRelyingOnIt(@TempDir Path dir) throws Exception {
        Counters model = graded(new Counters(4, 32).sumIsNever(100).deadlockFree());
        RunResult whole = Engine.check(model, Options.defaults().withWorkers(1));
        Options.Disk every = new Options.Disk(dir, true, false, Duration.ofMillis(100), false);
        assertThatThrownBy(() -> Engine.check(model, roomForALevel().withDisk(every).withListener(crashAtACheckpointOfDepth(75))))
                .hasMessageContaining("crash");
        try (var files = Files.list(dir)) {
            assertThat(files.map(f -> f.getFileName().toString())).as("the table had overflowed before the crash")
                    .anyMatch(f -> f.matches("run-\\d+-\\w+\\.keys"));
        }
        List<String> seen = new java.util.ArrayList<>();
        RunResult resumed = Engine.check(model, roomForALevel().withListener(phases(seen))
                .withDisk(new Options.Disk(dir, true, true, Duration.ofMinutes(5))));
        assertThat(resumed.stats().states()).isEqualTo(whole.stats().states());
        assertThat(resumed.stats().transitions()).isEqualTo(whole.stats().transitions());
        assertThat(resumed.property("sum-is-not-100").trace().length()).isEqualTo(whole.property("sum-is-not-100").trace().length())
                .isEqualTo(100);
        int from = 0;
        while (from < seen.size() && !seen.get(from).matches("depth \\d+: the model is graded: .*, and from now on RAM holds one level")) {
            from++;
        }
        assertThat(from).as("announced: %s", seen).isLessThan(seen.size());
        assertThat(seen.subList(from, seen.size())).as("a level's keys fit the table").noneMatch(p -> p.contains("RAM table full"));
        assertThatThrownBy(() -> Engine.check(model, roomForALevel()
                .withDisk(new Options.Disk(dir, true, true, Duration.ofMinutes(5), false))))
                .isInstanceOf(CheckpointException.class).hasMessageContaining("relies on the model's grading");
    }

    /**
     * The grading is false only where the search did not yet rely on it: J (rank 5) is found at
     * depth 1, and found again at depth 5, after the resume, through X1..X4 whose ranks are right.
     * Only the run of the keys found before the resume tells the search that J is not new.
     */
    @Test
    void theKeysFoundBeforeTheSearchReliedOnTheGradingStayKnown(@TempDir Path dir) throws Exception {
        HandGraph g = new HandGraph(new long[] {10, 11, 12, 13, 14, 15},
                new int[][] {{0, 1, 0}, {0, 2, 0}, {2, 3, 0}, {3, 4, 0}, {4, 5, 0}, {5, 1, 0}}, null, false)
                .with(new kcheck.model.Invariant("anything", "holds everywhere") {
                    @Override
                    public boolean holds(long[] s) {
                        return true;
                    }
                });
        g.ranks = new long[] {0, 5, 1, 2, 3, 4};
        assertThatThrownBy(() -> Engine.check(g, disk().withDisk(new Options.Disk(dir, true, false, Duration.ZERO, false))
                .withListener(crashAtACheckpointOfDepth(2)))).hasMessageContaining("crash");
        RunResult resumed = Engine.check(g, disk().withDisk(new Options.Disk(dir, true, true, Duration.ZERO)));
        assertThat(resumed.stats().complete()).isTrue();
        assertThat(resumed.stats().states()).isEqualTo(6);
        assertThat(resumed.stats().depth()).isEqualTo(4);
    }

    @Test
    void anInitialStateThatViolatesIsReportedAtDepthZero() {
        Counters c = new Counters(3, 4).sumIsNever(0);
        RunResult r = Engine.check(c, disk());
        assertThat(r.property("sum-is-not-0").verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(r.property("sum-is-not-0").trace().length()).isZero();
    }

    @Test
    void initialStatesAreStoredInCanonicalFormOnDiskAsInRam() {
        Counters c = new Counters(3, 4).deadlockFree();
        c.symmetric = true;
        c.moreInitial.add(new long[] {0, 0, 1});
        c.moreInitial.add(new long[] {1, 0, 0});
        RunResult ram = Engine.check(c, Options.defaults().withWorkers(1));
        RunResult r = Engine.check(c, disk());
        assertThat(r.stats().states()).isEqualTo(ram.stats().states()).isEqualTo(35);
        assertThat(r.stats().transitions()).isEqualTo(ram.stats().transitions());
    }

    /** A listener that throws (a crash of the search) right after the first checkpoint at depth {@code d} or deeper. */
    private static ProgressListener crashAtACheckpointOfDepth(int d) {
        return new ProgressListener() {
            @Override
            public void progress(Progress p) {
            }

            @Override
            public void checkpoint(Path dir, long states, int depth, double seconds) {
                if (depth >= d) {
                    throw new IllegalStateException("crash after a checkpoint at depth " + depth);
                }
            }
        };
    }

    /** A listener that throws (a crash of the search) right after checkpoint number {@code n} is written. */
    private static ProgressListener crashAfterCheckpoint(int n) {
        int[] seen = {0};
        return new ProgressListener() {
            @Override
            public void progress(Progress p) {
            }

            @Override
            public void checkpoint(Path d, long states, int depth, double seconds) {
                if (++seen[0] == n) {
                    throw new IllegalStateException("crash after checkpoint " + n);
                }
            }
        };
    }
}
