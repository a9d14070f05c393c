package kcheck.model.rwsem;

import static kcheck.model.rwsem.RwsemCount.NULL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayDeque;
import java.util.BitSet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import kcheck.model.ModelInputException;

/**
 * Recording reference code into program graphs. Recorded programs are shared by the tests of one
 * instance (one per class run), never across runs: mutation testing swaps the recorded code
 * between runs in the same JVM.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ProgramRecorderTest {
    private static final RwsemDomain DOM = RwsemDomain.xadd(2, 2);

    private final java.util.Map<String, TaskProgram> recorded = new java.util.HashMap<>();

    private TaskProgram writer(RwsemVariant v, int w, boolean rt) {
        return recorded.computeIfAbsent(v.getClass() + " writer " + w + " " + rt,
                k -> ProgramRecorder.record(v, "test", DOM, true, w, rt, 0));
    }

    private TaskProgram reader(RwsemVariant v) {
        return recorded.computeIfAbsent(v.getClass() + " reader", k -> ProgramRecorder.record(v, "test", DOM, false, 0, false, 0));
    }

    private static int find(TaskProgram p, String function, Op op) {
        for (int n = 0; n < p.size; n++) {
            if (p.function[n].equals(function) && p.op[n] == op) {
                return n;
            }
        }
        throw new AssertionError("no " + op + " in " + function);
    }

    private static boolean reaches(TaskProgram p, int from, int to) {
        BitSet seen = new BitSet();
        ArrayDeque<Integer> q = new ArrayDeque<>();
        for (int o = 0; o < p.slots; o++) {
            if (p.next(from, o) >= 0) {
                q.add(p.next(from, o));
            }
        }
        while (!q.isEmpty()) {
            int x = q.poll();
            if (x == to) {
                return true;
            }
            if (seen.get(x)) {
                continue;
            }
            seen.set(x);
            for (int o = 0; o < p.slots; o++) {
                if (p.next(x, o) >= 0) {
                    q.add(p.next(x, o));
                }
            }
        }
        return false;
    }

    @Test
    void theV47SpinLoopIsRecordedAsACycleThroughItsOwnerLoad() {
        TaskProgram p = writer(new RwsemV47(), 0, false);
        int top = find(p, "rwsem_optimistic_spin", Op.OWNER_READ);
        assertThat(reaches(p, top, top)).isTrue();
        assertThat(p.has(top, TaskProgram.OSQ)).isTrue();
        assertThat(p.cite[top]).startsWith("rwsem_optimistic_spin (kernel/locking/rwsem-xadd.c, v4.7)");
        int trylock = find(p, "rwsem_try_write_lock_unqueued", Op.COUNT_READ);
        assertThat(p.has(trylock, TaskProgram.IN_TRYLOCK_UNQUEUED | TaskProgram.IN_OPT_SPIN)).isTrue();
    }

    @Test
    void everyStepCitesTheKernelFunctionItRunsIn() {
        for (RwsemVariant v : new RwsemVariant[] {new RwsemV47(), new RwsemV48()}) {
            for (TaskProgram p : new TaskProgram[] {writer(v, 0, false), reader(v)}) {
                for (int n = 0; n < p.size; n++) {
                    assertThat(p.cite[n]).as(p.describe(n, DOM)).matches(".*\\((kernel/locking|include/asm-generic)/rwsem.*, v4\\.[78].*");
                }
            }
        }
    }

    @Test
    void nodeAttributesFollowTheLocksTheCodeHolds() {
        TaskProgram p = writer(new RwsemV48(), 1, false);
        int setOwner = -1;
        for (int n = 0; n < p.size; n++) {
            if (p.op[n] == Op.OWNER_WRITE && p.arg0[n] == RwsemCount.writerTask(1)) {
                assertThat(p.has(n, TaskProgram.HOLDS)).as("set_owner comes after the count step").isTrue();
                setOwner = n;
            }
            if (p.op[n] == Op.OWNER_WRITE && p.arg0[n] == NULL) {
                assertThat(p.has(n, TaskProgram.HOLDS)).as("clear_owner comes before the release").isTrue();
            }
            if (p.op[n] == Op.LIST_ADD_TAIL) {
                assertThat(p.has(n, TaskProgram.WAIT_LOCK)).isTrue();
            }
            if (p.function[n].equals("rwsem_try_write_lock_unqueued")) {
                assertThat(p.has(n, TaskProgram.OSQ | TaskProgram.PREEMPT_OFF)).isTrue();
            }
        }
        assertThat(setOwner).isNotNegative();
        int fastSetOwner = p.next(p.root, DOM.countIndex(0));
        assertThat(p.op[fastSetOwner]).isEqualTo(Op.OWNER_WRITE);
        assertThat(p.has(fastSetOwner, TaskProgram.PREEMPT_OFF)).as("preemptible between xadd and set_owner").isFalse();
    }

    @Test
    void onlyV48ReadersHaveAnOwnerStoreLeftAfterTheirCountStep() {
        TaskProgram old = reader(new RwsemV47());
        TaskProgram now = reader(new RwsemV48());
        int afterInc47 = old.next(old.root, DOM.countIndex(0));
        int afterInc48 = now.next(now.root, DOM.countIndex(0));
        assertThat(old.has(afterInc47, TaskProgram.HOLDS)).isTrue();
        assertThat(old.has(afterInc47, TaskProgram.OWNER_STORE_PENDING)).isFalse();
        assertThat(now.has(afterInc48, TaskProgram.HOLDS)).isTrue();
        assertThat(now.has(afterInc48, TaskProgram.OWNER_STORE_PENDING)).isTrue();
        assertThat(now.function[afterInc48]).isEqualTo("rwsem_set_reader_owned");
    }

    /** Keeps the loaded count in a Java local across the owner store: the recorder cannot see it. */
    static final class StackLocal extends RwsemV48 {
        @Override
        public void downWrite(RwSem sem) {
            long c = sem.atomicLongRead();
            sem.writeOwner(NULL);
            if (c == 0) {
                sem.atomicLongAdd(RwsemCount.RWSEM_ACTIVE_WRITE_BIAS);
            }
        }
    }

    /** The same code with the value in a {@link FrameLocal} field. */
    static final class FieldLocal extends RwsemV48 {
        @FrameLocal("down_write")
        long c;

        @Override
        @kcheck.model.Kernel(function = "down_write", file = "kernel/locking/rwsem.c", version = "test")
        public void downWrite(RwSem sem) {
            c = sem.atomicLongRead();
            sem.writeOwner(NULL);
            if (c == 0) {
                sem.atomicLongAdd(RwsemCount.RWSEM_ACTIVE_WRITE_BIAS);
            }
        }
    }

    @Test
    void aValueKeptOnTheJavaStackAcrossAnAtomicStepIsRejected() {
        assertThatThrownBy(() -> writer(new StackLocal(), 0, false)).isInstanceOf(ModelInputException.class)
                .hasMessageContaining("@FrameLocal");
        TaskProgram p = writer(new FieldLocal(), 0, false);
        int store = p.next(p.root, DOM.countIndex(0));
        int other = p.next(p.root, DOM.countIndex(1));
        assertThat(store).isNotEqualTo(other);
        assertThat(p.op[store]).isEqualTo(Op.OWNER_WRITE);
    }

    /** Code that catches the exception ending a recorded run and goes on would be recorded without that step. */
    @Test
    void codeThatCatchesTheEndOfARunIsRejected() {
        RwsemV48 swallows = new RwsemV48() {
            @Override
            public void upWrite(RwSem sem) {
                try {
                    sem.readOwner();
                } catch (RuntimeException e) {
                    /* the variant goes on */
                }
                super.upWrite(sem);
            }
        };
        assertThatThrownBy(() -> ProgramRecorder.record(swallows, "test", DOM, true, 0, false, 0)).isInstanceOf(ModelInputException.class)
                .hasMessageContaining("caught the exception that ends a recorded run");
    }

    @Test
    void writersWithTheSameRtFlagAreInterchangeable() {
        for (RwsemVariant v : new RwsemVariant[] {new RwsemV47(), new RwsemV48()}) {
            TaskProgram[] w = {reader(v), reader(v), writer(v, 0, false), writer(v, 1, false)};
            TaskSymmetry sym = TaskSymmetry.of(w, new boolean[] {false, false}, DOM);
            assertThat(sym.perms).hasNumberOfRows(2);
            assertThat(sym.movesReaders(2)).as("anonymous readers are sorted, not permuted").isFalse();
            TaskProgram[] mixed = {reader(v), reader(v), writer(v, 0, true), writer(v, 1, false)};
            assertThat(TaskSymmetry.of(mixed, new boolean[] {true, false}, DOM).trivial()).isTrue();
        }
    }

    @Test
    void aKernelLocalThatTakesEverNewValuesIsALimit() {
        RwsemVariant v = new RwsemV48() {
            @FrameLocal("down_write")
            int calls;

            @Override
            public void downWrite(RwSem sem) {
                calls++;                                            /* a counter kept across steps: no finite program */
                super.downWrite(sem);
            }
        };
        assertThatThrownBy(() -> ProgramRecorder.record(v, "test", DOM, true, 0, false, 0, 500))
                .isInstanceOf(kcheck.model.ModelLimitException.class).hasMessageContaining("records at most 500 program places");
    }

    @Test
    void recordedWithOrdersEachAccessKeepsItsOrderingAndTheBarrierBeforeIt() {
        RwsemDomain dom = RwsemDomain.of(RwsemVariant.Encoding.BITS, 1, 1);
        RwsemVariant fenced = new RwsemV612() {
            @Override
            protected void rwsemSetOwner(RwSem sem) {
                sem.barrier("mb");                                  /* an smp_mb() before rwsem_set_owner's store */
                super.rwsemSetOwner(sem);
            }
        };
        TaskProgram p = ProgramRecorder.recordWithOrders(fenced, "test", dom, true, 0, false, 1, false, Wakeups.WAKE_Q);
        int store = find(p, "rwsem_set_owner", Op.OWNER_WRITE);
        assertThat(p.order[store]).isEqualTo(kcheck.model.MemoryOrder.ONCE);
        assertThat(p.fence[store]).isEqualTo("mb");
        int cmpxchg = find(p, "rwsem_write_trylock", Op.COUNT_CMPXCHG);
        assertThat(p.order[cmpxchg]).isEqualTo(kcheck.model.MemoryOrder.RMW_ACQUIRE);
        assertThat(p.fence[cmpxchg]).isNull();
        /* the model's programs keep neither, and the same nodes */
        TaskProgram plain = ProgramRecorder.record(new RwsemV612(), "test", dom, true, 0, false, 1, false, Wakeups.WAKE_Q);
        assertThat(plain.order).containsOnlyNulls();
        assertThat(plain.fence).containsOnlyNulls();
        assertThat(ProgramRecorder.recordWithOrders(new RwsemV612(), "test", dom, true, 0, false, 1, false, Wakeups.WAKE_Q).size)
                .isEqualTo(plain.size);
    }
}
