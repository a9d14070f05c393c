package kcheck.litmus;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The LKMM's well-known answers for the classic shapes, with and without the ordering that forbids them. */
class LkmmSemanticsTest {

    private static String test(String cond, String... threads) {
        StringBuilder b = new StringBuilder("C t\n{}\n");
        for (int i = 0; i < threads.length; i++) {
            b.append("P").append(i).append("(int *x, int *y, int *z, spinlock_t *s)\n{\n\tint r0; int r1;\n")
                    .append(threads[i]).append("\n}\n");
        }
        return b.append("exists (").append(cond).append(")\n").toString();
    }

    @Test
    void messagePassingNeedsOrderingOnBothSides() {
        String c = "1:r0=1 /\\ 1:r1=0";
        assertThat(Litmus.word(test(c, "WRITE_ONCE(*x, 1); WRITE_ONCE(*y, 1);", "r0 = READ_ONCE(*y); r1 = READ_ONCE(*x);")))
                .isEqualTo("Sometimes");
        assertThat(Litmus.word(test(c, "WRITE_ONCE(*x, 1); smp_wmb(); WRITE_ONCE(*y, 1);",
                "r0 = READ_ONCE(*y); smp_rmb(); r1 = READ_ONCE(*x);"))).isEqualTo("Never");
        assertThat(Litmus.word(test(c, "WRITE_ONCE(*x, 1); smp_store_release(y, 1);",
                "r0 = smp_load_acquire(y); r1 = READ_ONCE(*x);"))).isEqualTo("Never");
        assertThat(Litmus.word(test(c, "WRITE_ONCE(*x, 1); smp_wmb(); WRITE_ONCE(*y, 1);",
                "r0 = READ_ONCE(*y); r1 = READ_ONCE(*x);"))).isEqualTo("Sometimes");
    }

    @Test
    void storeBufferingNeedsFullBarriers() {
        String c = "0:r0=0 /\\ 1:r0=0";
        assertThat(Litmus.word(test(c, "WRITE_ONCE(*x, 1); r0 = READ_ONCE(*y);", "WRITE_ONCE(*y, 1); r0 = READ_ONCE(*x);")))
                .isEqualTo("Sometimes");
        assertThat(Litmus.word(test(c, "WRITE_ONCE(*x, 1); smp_mb(); r0 = READ_ONCE(*y);",
                "WRITE_ONCE(*y, 1); smp_mb(); r0 = READ_ONCE(*x);"))).isEqualTo("Never");
        assertThat(Litmus.word(test(c, "smp_store_release(x, 1); r0 = smp_load_acquire(y);",
                "smp_store_release(y, 1); r0 = smp_load_acquire(x);"))).isEqualTo("Sometimes");
        assertThat(Litmus.word(test(c, "r1 = xchg(x, 1); r0 = READ_ONCE(*y);", "r1 = xchg(y, 1); r0 = READ_ONCE(*x);")))
                .isEqualTo("Never");
        assertThat(Litmus.word(test(c, "r1 = xchg_relaxed(x, 1); r0 = READ_ONCE(*y);",
                "r1 = xchg_relaxed(y, 1); r0 = READ_ONCE(*x);"))).isEqualTo("Sometimes");
    }

    @Test
    void loadBufferingIsForbiddenByDependenciesButNotByNothing() {
        String c = "0:r0=1 /\\ 1:r0=1";
        assertThat(Litmus.word(test(c, "r0 = READ_ONCE(*x); WRITE_ONCE(*y, 1);", "r0 = READ_ONCE(*y); WRITE_ONCE(*x, 1);")))
                .isEqualTo("Sometimes");
        assertThat(Litmus.word(test(c, "r0 = READ_ONCE(*x); WRITE_ONCE(*y, r0);", "r0 = READ_ONCE(*y); if (r0) WRITE_ONCE(*x, 1);")))
                .isEqualTo("Never");
        // a control dependency covers the arms of the if, not what follows it (explanation.txt)
        assertThat(Litmus.word(test(c, "r0 = READ_ONCE(*x); WRITE_ONCE(*y, r0);", "r0 = READ_ONCE(*y); if (r0) { } WRITE_ONCE(*x, 1);")))
                .isEqualTo("Sometimes");
    }

    @Test
    void anAddressPlusZeroComputedFromAReadCarriesAnAddressDependency() {
        String t = """
                C addr-plus-zero
                { int a = 1; }
                P0(int *a, int *b) { int r0; int r1; int r8; r0 = READ_ONCE(*b); r8 = r0 - r0; r8 = a + r8; r1 = READ_ONCE(*r8); }
                P1(int *a, int *b) { WRITE_ONCE(*a, 2); smp_wmb(); WRITE_ONCE(*b, 1); }
                exists (0:r0=1 /\\ 0:r1=1)
                """;
        assertThat(Litmus.word(t)).isEqualTo("Never");
        assertThat(Litmus.word(t.replace("r8 = a + r8;", "r8 = a;"))).isEqualTo("Sometimes");
    }

    @Test
    void aPointerPassedThroughMemoryBeforeItIsDereferencedIsFound() {
        // the read of q has no address to dereference until a later round of the value domains finds q=p
        String t = """
                C pointer-relay
                { p=dummy; }
                P0(int *d, int *p) { WRITE_ONCE(*d, 1); smp_store_release(p, d); }
                P1(int *d, int *p, int *q) { int r1; int r2; int r3; r1 = READ_ONCE(*p); WRITE_ONCE(*q, r1); r2 = READ_ONCE(*q); r3 = READ_ONCE(*r2); }
                exists (1:r1=d /\\ 1:r2=d /\\ 1:r3=0)
                """;
        LitmusResult r = Litmus.decide(t);
        assertThat(r.word()).isEqualTo("Never");
        assertThat(r.negative()).isPositive();
    }

    @Test
    void iriwNeedsFullBarriersInTheReaders() {
        String c = "2:r0=1 /\\ 2:r1=0 /\\ 3:r0=1 /\\ 3:r1=0";
        String w0 = "WRITE_ONCE(*x, 1);";
        String w1 = "WRITE_ONCE(*y, 1);";
        assertThat(Litmus.word(test(c, w0, w1, "r0 = READ_ONCE(*x); r1 = READ_ONCE(*y);", "r0 = READ_ONCE(*y); r1 = READ_ONCE(*x);")))
                .isEqualTo("Sometimes");
        assertThat(Litmus.word(test(c, w0, w1, "r0 = smp_load_acquire(x); r1 = smp_load_acquire(y);",
                "r0 = smp_load_acquire(y); r1 = smp_load_acquire(x);"))).isEqualTo("Sometimes");
        assertThat(Litmus.word(test(c, w0, w1, "r0 = READ_ONCE(*x); smp_mb(); r1 = READ_ONCE(*y);",
                "r0 = READ_ONCE(*y); smp_mb(); r1 = READ_ONCE(*x);"))).isEqualTo("Never");
    }

    @Test
    void twoPlusTwoWritesNeedsStrongFencesNotWriteBarriers() {
        String c = "x=1 /\\ y=1";
        assertThat(Litmus.word(test(c, "WRITE_ONCE(*x, 1); WRITE_ONCE(*y, 2);", "WRITE_ONCE(*y, 1); WRITE_ONCE(*x, 2);")))
                .isEqualTo("Sometimes");
        // coe ; wmb ; coe ; wmb is a cycle of no axiom: pb needs a strong fence
        assertThat(Litmus.word(test(c, "WRITE_ONCE(*x, 1); smp_wmb(); WRITE_ONCE(*y, 2);",
                "WRITE_ONCE(*y, 1); smp_wmb(); WRITE_ONCE(*x, 2);"))).isEqualTo("Sometimes");
        assertThat(Litmus.word(test(c, "WRITE_ONCE(*x, 1); smp_mb(); WRITE_ONCE(*y, 2);",
                "WRITE_ONCE(*y, 1); smp_mb(); WRITE_ONCE(*x, 2);"))).isEqualTo("Never");
    }

    @Test
    void wrcIsForbiddenByReleaseCumulativity() {
        String c = "1:r0=1 /\\ 2:r0=1 /\\ 2:r1=0";
        String p0 = "WRITE_ONCE(*x, 1);";
        String p2 = "r0 = READ_ONCE(*y); smp_rmb(); r1 = READ_ONCE(*x);";
        assertThat(Litmus.word(test(c, p0, "r0 = READ_ONCE(*x); WRITE_ONCE(*y, 1);", p2))).isEqualTo("Sometimes");
        assertThat(Litmus.word(test(c, p0, "r0 = READ_ONCE(*x); smp_store_release(y, 1);", p2))).isEqualTo("Never");
    }

    @Test
    void rcuGracePeriodOrdersAReaderAgainstAnUpdater() {
        String c = "0:r0=1 /\\ 0:r1=0";
        String reader = "rcu_read_lock(); r0 = READ_ONCE(*y); r1 = READ_ONCE(*x); rcu_read_unlock();";
        assertThat(Litmus.word(test(c, reader, "WRITE_ONCE(*x, 1); synchronize_rcu(); WRITE_ONCE(*y, 1);"))).isEqualTo("Never");
        assertThat(Litmus.word(test(c, reader, "WRITE_ONCE(*x, 1); WRITE_ONCE(*y, 1);"))).isEqualTo("Sometimes");
        String pointer = """
                C MP+rcu
                { p=y; }
                P0(int *x, int **p) { WRITE_ONCE(*x, 1); rcu_assign_pointer(*p, x); }
                P1(int *x, int **p) { int *r0; int r1; rcu_read_lock(); r0 = rcu_dereference(*p); r1 = READ_ONCE(*r0); rcu_read_unlock(); }
                exists (1:r0=x /\\ 1:r1=0)
                """;
        assertThat(Litmus.word(pointer)).isEqualTo("Never");
    }

    @Test
    void anRcuCycleIsForbiddenWhenItHasAtLeastAsManyGracePeriodsAsReaders() {
        String c = "0:r0=1 /\\ 1:r0=1 /\\ 2:r0=1";
        String[][] reader = {{"x", "y"}, {"y", "z"}, {"z", "x"}};
        java.util.function.BiFunction<Integer, Boolean, String> thread = (i, gp) -> gp
                ? "r0 = READ_ONCE(*" + reader[i][0] + "); synchronize_rcu(); WRITE_ONCE(*" + reader[i][1] + ", 1);"
                : "rcu_read_lock(); r0 = READ_ONCE(*" + reader[i][0] + "); WRITE_ONCE(*" + reader[i][1] + ", 1); rcu_read_unlock();";
        // rcu-order: a cycle with more readers than grace periods is allowed, else forbidden
        assertThat(Litmus.word(test(c, thread.apply(0, false), thread.apply(1, false), thread.apply(2, true)))).isEqualTo("Sometimes");
        assertThat(Litmus.word(test(c, thread.apply(0, false), thread.apply(1, true), thread.apply(2, true)))).isEqualTo("Never");
        assertThat(Litmus.word(test(c, thread.apply(0, true), thread.apply(1, true), thread.apply(2, false)))).isEqualTo("Never");
        assertThat(Litmus.word(test(c, thread.apply(0, false), thread.apply(1, false), thread.apply(2, false)))).isEqualTo("Sometimes");
    }

    @Test
    void criticalSectionsOfOneLockAreOrdered() {
        String c = "1:r0=1 /\\ 1:r1=0";
        assertThat(Litmus.word(test(c, "spin_lock(s); WRITE_ONCE(*x, 1); WRITE_ONCE(*y, 1); spin_unlock(s);",
                "spin_lock(s); r0 = READ_ONCE(*y); spin_unlock(s); spin_lock(s); r1 = READ_ONCE(*x); spin_unlock(s);")))
                .isEqualTo("Never");
        LitmusResult mutex = Litmus.decide(test("0:r0=0 /\\ 1:r0=0",
                "spin_lock(s); r0 = READ_ONCE(*x); WRITE_ONCE(*x, 1); spin_unlock(s);",
                "spin_lock(s); r0 = READ_ONCE(*x); WRITE_ONCE(*x, 1); spin_unlock(s);"));
        assertThat(mutex.word()).isEqualTo("Never");
        assertThat(mutex.negative()).isEqualTo(2);
    }

    @Test
    void aLockEmulatedWithXchgAcquireAndAFilterKeepsOnlyAcquisitions() {
        String t = """
                C emulated-lock
                {}
                P0(int *l, int *a, int *b) { int got; int seen; got = xchg_acquire(l, 1); WRITE_ONCE(*a, 1); seen = READ_ONCE(*b); smp_store_release(l, 0); }
                P1(int *l, int *a, int *b) { int got; int seen; got = xchg_acquire(l, 1); WRITE_ONCE(*b, 1); seen = READ_ONCE(*a); smp_store_release(l, 0); }
                filter (0:got=0 /\\ 1:got=0)
                exists (0:seen=0 /\\ 1:seen=0)
                """;
        LitmusResult r = Litmus.decide(t);
        // two executions pass the filter (one CPU takes the lock first, or the other): neither sees nothing
        assertThat(r.word() + " " + r.positive() + " " + r.negative()).isEqualTo("Never 0 2");
    }

    @Test
    void trylockFailsOnlyWhileAnotherCpuHoldsTheLock() {
        assertThat(Litmus.word(test("0:r0=0", "r0 = spin_trylock(s);"))).isEqualTo("Never");
        assertThat(Litmus.word(test("1:r0=0", "spin_lock(s); spin_unlock(s);", "r0 = spin_trylock(s);"))).isEqualTo("Sometimes");
    }

    @Test
    void plainAccessesRaceUnlessOrdered() {
        LitmusResult racy = Litmus.decide(test("1:r0=1 /\\ 1:r1=0", "*x = 1; WRITE_ONCE(*y, 1);",
                "r0 = READ_ONCE(*y); r1 = *x;"));
        assertThat(racy.dataRace()).isTrue();
        LitmusResult ordered = Litmus.decide(test("1:r0=1 /\\ 1:r1=0", "*x = 1; smp_store_release(y, 1);",
                "r0 = smp_load_acquire(y); if (r0) r1 = *x;"));
        assertThat(ordered.dataRace()).isFalse();
        assertThat(ordered.word()).isEqualTo("Never");
    }

    @Test
    void failedCmpxchgIsAnUnorderedRead() {
        String c = "0:r0=0 /\\ 1:r0=0";
        assertThat(Litmus.word(test(c, "WRITE_ONCE(*x, 1); r1 = cmpxchg(z, 1, 0); r0 = READ_ONCE(*y);",
                "WRITE_ONCE(*y, 1); r1 = cmpxchg(z, 1, 0); r0 = READ_ONCE(*x);"))).isEqualTo("Sometimes");
    }

    @Test
    void atomicIncrementsAreNotLost() {
        assertThat(Litmus.decide(test("x=1", "atomic_inc(x);", "atomic_inc(x);")).word()).isEqualTo("Never");
        assertThat(Litmus.decide(test("x=2", "atomic_inc(x);", "atomic_inc(x);")).word()).isEqualTo("Always");
        assertThat(Litmus.decide(test("x=1", "r0 = READ_ONCE(*x); WRITE_ONCE(*x, r0 + 1);",
                "r0 = READ_ONCE(*x); WRITE_ONCE(*x, r0 + 1);")).word()).isEqualTo("Sometimes");
    }

    @Test
    void srcuGracePeriodWaitsForReadersOfTheSameStruct() {
        String t = """
                C srcu
                {}
                P0(int *x, int *y, struct srcu_struct *s)
                {
                \tint r0; int r1; int idx;
                \tidx = srcu_read_lock(s);
                \tr0 = READ_ONCE(*y);
                \tr1 = READ_ONCE(*x);
                \tsrcu_read_unlock(s, idx);
                }
                P1(int *x, int *y, struct srcu_struct *s)
                {
                \tWRITE_ONCE(*x, 1);
                \tsynchronize_srcu(s);
                \tWRITE_ONCE(*y, 1);
                }
                exists (0:r0=1 /\\ 0:r1=0)
                """;
        assertThat(Litmus.word(t)).isEqualTo("Never");
    }

    @Test
    void witnessShowsEventsPerCpuAndTheRfAndCoEdges() {
        LitmusResult r = Litmus.decide(test("1:r0=1 /\\ 1:r1=0", "WRITE_ONCE(*x, 1); WRITE_ONCE(*y, 1);",
                "r0 = READ_ONCE(*y); r1 = READ_ONCE(*x);"));
        assertThat(r.witness()).contains("  | P0             | P1\n  | A: W[once] x=1 | C: R[once] y=1\n  | B: W[once] y=1 | D: R[once] x=0\n")
                .contains("B -> C").contains("init:x -> D").contains("co: ").contains("init:x -> A");
        assertThat(r.explored()).isEqualTo(4);
    }
}
