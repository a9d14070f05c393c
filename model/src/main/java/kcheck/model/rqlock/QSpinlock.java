package kcheck.model.rqlock;

import kcheck.model.MemoryOrder;
import java.util.List;

import kcheck.model.Kernel;
import kcheck.model.ModelLimitException;

/**
 * The queued spinlock of v6.12 on x86 ({@code lock=qspinlock}), and with the
 * {@code virt_spin_lock()} test-and-set fallback a guest without paravirt spinlocks runs
 * ({@code lock=qspinlock-virt}). Ported from {@code include/asm-generic/qspinlock.h},
 * {@code kernel/locking/qspinlock.c} and {@code arch/x86/include/asm/qspinlock.h} of v6.12
 * (x86 with {@code NR_CPUS < 16K}: {@code _Q_PENDING_BITS == 8}, so {@code clear_pending},
 * {@code clear_pending_set_locked} and {@code xchg_tail} are byte, half-word and half-word
 * stores and exchanges; {@code queued_fetch_set_pending_acquire} is {@code lock btsl} followed by
 * a separate load).
 *
 * <p><b>Atomicity</b>: one step per atomic operation on shared memory, as the class comment of
 * {@link RqSpinlock} requires: each load, store or read-modify-write of the lock word, and each
 * load or store of an MCS node field, is its own step; the C between two of them (tests of
 * {@code val}, {@code encode_tail}, {@code node->count++}) runs inside the step before. Spin loops
 * ({@code atomic_cond_read_*}, {@code smp_cond_load_*}) are one step that happens when the loaded
 * value satisfies the condition (a load that does not changes nothing). The pending-wait loop
 * bounded by {@code _Q_PENDING_LOOPS} is one load: giving up after the bound is the same as
 * proceeding on a load that still reads {@code _Q_PENDING_VAL} (the loads in between change
 * nothing and the model is untimed).
 *
 * <p><b>Memory</b>: the lock word as {@code locked} (1 bit: only {@code _Q_LOCKED_VAL} is ever
 * stored without paravirt), {@code pending} (1 bit), {@code tail} (CPU + 1, or 0; the nesting
 * index is always 0: the model's CPUs take runqueue locks from one context, so
 * {@code node->count} is 0 on entry and {@code idx >= MAX_NODES} never happens). Each CPU's MCS
 * node {@code qnodes[0]}: {@code locked} (1 bit) and {@code next} (CPU + 1, or 0). Registers:
 * {@code val} (the C local, packed as locked | pending &lt;&lt; 1 | tail &lt;&lt; 2), {@code prev}
 * and {@code next} (CPU + 1, or 0), each kept only while the C still reads it.
 *
 * <p><b>Canonical form</b>: a node field is dead outside the part of its owner's queueing that
 * still reads it: the owner re-initialises both fields before it publishes its tail; its
 * predecessor writes {@code locked} once, before the owner's wait on it ends; a successor writes
 * {@code next} once, before the owner's {@code READ_ONCE} or its wait for it; nobody writes a node
 * after that. So {@link #canonicalize} clears dead fields (a bisimulation: no step reads them
 * before they are written again); registers are cleared by the steps that stop reading them.
 */
public class QSpinlock extends RqSpinlock {
    /* lock word fields */
    public static final int LOCKED = 0;
    public static final int PENDING = 1;
    public static final int TAIL = 2;
    /* node fields */
    public static final int N_LOCKED = 0;
    public static final int N_NEXT = 1;
    /* registers */
    public static final int VAL = 0;
    public static final int PREV = 1;
    public static final int NEXT = 2;

    /* val encoding (the C's u32, as the bits the model keeps) */
    public static final int Q_LOCKED_VAL = 1;
    public static final int Q_PENDING_VAL = 2;
    public static final int Q_LOCKED_MASK = 1;
    public static final int Q_PENDING_MASK = 2;
    public static final int Q_LOCKED_PENDING_MASK = 3;

    /* pcs */
    public static final int FAST = 0;
    public static final int VIRT_READ = 1;
    public static final int VIRT_CMPXCHG = 2;
    public static final int PENDING_WAIT = 3;
    public static final int SET_PENDING = 4;
    public static final int READ_AFTER_PENDING = 5;
    public static final int CLEAR_PENDING = 6;
    public static final int WAIT_OWNER = 7;
    public static final int CLEAR_PENDING_SET_LOCKED = 8;
    public static final int NODE_LOCKED_0 = 9;
    public static final int NODE_NEXT_NULL = 10;
    public static final int QUEUE_TRY_READ = 11;
    public static final int QUEUE_TRY_CMPXCHG = 12;
    public static final int XCHG_TAIL = 13;
    public static final int LINK_PREV = 14;
    public static final int WAIT_MCS = 15;
    public static final int READ_NEXT = 16;
    public static final int WAIT_HEAD = 17;
    public static final int HEAD_CMPXCHG = 18;
    public static final int SET_LOCKED = 19;
    public static final int WAIT_NEXT = 20;
    public static final int HANDOVER = 21;
    public static final int TRY_READ = 22;
    public static final int TRY_CMPXCHG = 23;
    public static final int UNLOCK = 24;
    public static final int PCS = 25;

    private final boolean virt;

    /** Native qspinlock ({@code virt_spin_lock_key} off). */
    public QSpinlock() {
        this(false);
    }

    /** {@code virt}: a guest without paravirt spinlocks ({@code virt_spin_lock_key} on): the test-and-set fallback. */
    public QSpinlock(boolean virt) {
        this.virt = virt;
    }

    public boolean virt() {
        return virt;
    }

    @Override
    public String name() {
        return virt ? "qspinlock-virt" : "qspinlock";
    }

    @Override
    public Shape shape(int cpus) {
        int tail = bitsFor(cpus);
        return new Shape(List.of(new Field("locked", 1), new Field("pending", 1), new Field("tail", tail)),
                List.of(new Field("mcs.locked", 1), new Field("mcs.next", tail)),
                List.of(new Field("val", 2 + tail), new Field("prev", tail), new Field("next", tail)));
    }

    @Override
    public int pcs() {
        return PCS;
    }

    @Override
    public int entry(Op op) {
        return switch (op) {
            case LOCK -> FAST;
            case TRYLOCK -> TRY_READ;
            case UNLOCK -> UNLOCK;
        };
    }

    @Override
    public Op opOf(int pc) {
        return pc < TRY_READ ? Op.LOCK : pc == UNLOCK ? Op.UNLOCK : Op.TRYLOCK;
    }

    /* ---- the lock word as the C's u32 (one atomic load or store of it) ---- */

    /** {@code atomic_read(&lock->val)}. */
    static int readVal(Memory m) {
        return m.word(LOCKED) | m.word(PENDING) << 1 | m.word(TAIL) << 2;
    }

    /** An atomic store of the whole word (the write half of a successful cmpxchg). */
    static void writeVal(Memory m, int val) {
        m.setWord(LOCKED, val & Q_LOCKED_MASK);
        m.setWord(PENDING, (val & Q_PENDING_MASK) >> 1);
        m.setWord(TAIL, val >> 2);
    }

    /** {@code encode_tail(smp_processor_id(), 0)}: CPU + 1 (index 0: never nested in the model). */
    static int myTail(Memory m) {
        return m.cpu() + 1;
    }

    @Override
    public int step(int pc, Memory m) {
        return switch (pc) {
            case FAST -> queuedSpinLock(m);
            case VIRT_READ, VIRT_CMPXCHG -> virtSpinLock(pc, m);
            case SET_PENDING, READ_AFTER_PENDING -> queuedFetchSetPendingAcquire(pc, m);
            case CLEAR_PENDING -> clearPending(m);
            case CLEAR_PENDING_SET_LOCKED -> clearPendingSetLocked(m);
            case XCHG_TAIL -> xchgTail(m);
            case SET_LOCKED -> setLocked(m);
            case QUEUE_TRY_READ, QUEUE_TRY_CMPXCHG, TRY_READ, TRY_CMPXCHG -> queuedSpinTrylock(pc, m);
            case WAIT_MCS -> archMcsSpinLockContended(m);
            case HANDOVER -> archMcsSpinUnlockContended(m);
            case UNLOCK -> queuedSpinUnlock(m);
            default -> queuedSpinLockSlowpath(pc, m);
        };
    }

    /**
     * {@code queued_spin_lock}: one {@code atomic_try_cmpxchg_acquire(&lock->val, 0, _Q_LOCKED_VAL)};
     * on failure {@code queued_spin_lock_slowpath(lock, val)} with the value it found, whose first
     * tests run here.
     */
    @Kernel(function = "queued_spin_lock", file = "include/asm-generic/qspinlock.h", version = "v6.12", line = 107)
    public int queuedSpinLock(Memory m) {
        m.order(MemoryOrder.RMW_ACQUIRE);
        int val = readVal(m);
        if (val == 0) {
            writeVal(m, Q_LOCKED_VAL);
            return DONE;
        }
        return slowpathEntry(val);
    }

    /** The tests at the top of {@code queued_spin_lock_slowpath(lock, val)} that need no memory access. */
    private int slowpathEntry(int val) {
        if (virt) {
            return VIRT_READ;
        }
        if (val == Q_PENDING_VAL) {
            return PENDING_WAIT;
        }
        return (val & ~Q_LOCKED_MASK) != 0 ? NODE_LOCKED_0 : SET_PENDING;
    }

    /**
     * {@code virt_spin_lock} with {@code virt_spin_lock_key} on: test and test-and-set. The load
     * spins while the word is not 0; then {@code atomic_try_cmpxchg(&lock->val, &val, _Q_LOCKED_VAL)},
     * and back to the load if it fails.
     */
    @Kernel(function = "virt_spin_lock", file = "arch/x86/include/asm/qspinlock.h", version = "v6.12", line = 88)
    public int virtSpinLock(int pc, Memory m) {
        m.order(pc == VIRT_READ ? MemoryOrder.ONCE : MemoryOrder.RMW_FULL);
        if (pc == VIRT_READ) {
            return readVal(m) != 0 ? BLOCKED : VIRT_CMPXCHG;
        }
        if (readVal(m) == 0) {
            writeVal(m, Q_LOCKED_VAL);
            return DONE;
        }
        return VIRT_READ;
    }

    /**
     * x86's {@code queued_fetch_set_pending_acquire}: {@code lock btsl} of the pending bit (one
     * step; the old bit goes into {@code val}), then {@code val |= atomic_read(&lock->val) &
     * ~_Q_PENDING_MASK} (a second step), and the slowpath's tests of the value.
     */
    @Kernel(function = "queued_fetch_set_pending_acquire", file = "arch/x86/include/asm/qspinlock.h", version = "v6.12", line = 14)
    public int queuedFetchSetPendingAcquire(int pc, Memory m) {
        /*
         * lock btsl: a locked instruction, fully ordered on x86; then atomic_read, which on x86 (TSO, every
         * load an acquire load) completes the _acquire the generic atomic_fetch_or_acquire gives
         */
        m.order(pc == SET_PENDING ? MemoryOrder.RMW_FULL : MemoryOrder.ACQUIRE);
        if (pc == SET_PENDING) {
            m.wholeWord(); /* btsl's operand is the 32-bit lock->val */
            int old = m.word(PENDING);
            m.setWord(PENDING, 1);
            m.setReg(VAL, old << 1);
            return READ_AFTER_PENDING;
        }
        /* atomic_read(&lock->val) & ~_Q_PENDING_MASK: the load's value without the pending byte */
        int val = m.reg(VAL) | m.word(LOCKED) | m.word(TAIL) << 2;
        m.setReg(VAL, 0);
        /* If we observe contention, there is a concurrent locker: undo PENDING if we set it, and queue. */
        if ((val & ~Q_LOCKED_MASK) != 0) {
            return (val & Q_PENDING_MASK) == 0 ? CLEAR_PENDING : NODE_LOCKED_0;
        }
        /* We're pending, wait for the owner to go away. */
        return (val & Q_LOCKED_MASK) != 0 ? WAIT_OWNER : CLEAR_PENDING_SET_LOCKED;
    }

    /** {@code clear_pending}: {@code WRITE_ONCE(lock->pending, 0)}. */
    @Kernel(function = "clear_pending", file = "kernel/locking/qspinlock.c", version = "v6.12", line = 149)
    public int clearPending(Memory m) {
        m.order(MemoryOrder.ONCE);
        m.setWord(PENDING, 0);
        return NODE_LOCKED_0;
    }

    /** {@code clear_pending_set_locked}: {@code WRITE_ONCE(lock->locked_pending, _Q_LOCKED_VAL)}. */
    @Kernel(function = "clear_pending_set_locked", file = "kernel/locking/qspinlock.c", version = "v6.12", line = 162)
    public int clearPendingSetLocked(Memory m) {
        m.order(MemoryOrder.ONCE);
        m.setWord(LOCKED, 1);
        m.setWord(PENDING, 0);
        return DONE;
    }

    /** {@code xchg_tail}: {@code xchg_relaxed(&lock->tail, tail)}; the old tail decides whether to link behind a predecessor. */
    @Kernel(function = "xchg_tail", file = "kernel/locking/qspinlock.c", version = "v6.12", line = 177)
    public int xchgTail(Memory m) {
        /* qspinlock.c:451: smp_wmb(), so that the node's initialisation is seen before the tail that publishes it */
        m.barrier("wmb");
        m.order(MemoryOrder.RMW_RELAXED);
        return exchangeTail(m);
    }

    /** {@code xchg_tail}'s exchange and the test of the old tail, after the ordering is stated. */
    protected int exchangeTail(Memory m) {
        int old = m.word(TAIL);
        m.setWord(TAIL, myTail(m));
        m.setReg(NEXT, 0);
        if (old != 0) {
            m.setReg(PREV, old);
            return LINK_PREV;
        }
        return WAIT_HEAD;
    }

    /** {@code set_locked}: {@code WRITE_ONCE(lock->locked, _Q_LOCKED_VAL)}. */
    @Kernel(function = "set_locked", file = "kernel/locking/qspinlock.c", version = "v6.12", line = 259)
    public int setLocked(Memory m) {
        m.order(MemoryOrder.ONCE);
        m.setWord(LOCKED, 1);
        return m.reg(NEXT) != 0 ? HANDOVER : WAIT_NEXT;
    }

    /**
     * {@code queued_spin_trylock}: {@code atomic_read(&lock->val)}, fail if not 0; then
     * {@code atomic_try_cmpxchg_acquire(&lock->val, &val, _Q_LOCKED_VAL)}. Two steps. Also the
     * trylock of the slowpath after initialising the node, which goes on to {@code xchg_tail} when
     * it fails.
     */
    @Kernel(function = "queued_spin_trylock", file = "include/asm-generic/qspinlock.h", version = "v6.12", line = 90)
    public int queuedSpinTrylock(int pc, Memory m) {
        boolean inSlowpath = pc == QUEUE_TRY_READ || pc == QUEUE_TRY_CMPXCHG;
        m.order(pc == QUEUE_TRY_READ || pc == TRY_READ ? MemoryOrder.ONCE : MemoryOrder.RMW_ACQUIRE);
        int failed = inSlowpath ? XCHG_TAIL : FAILED;
        if (pc == QUEUE_TRY_READ || pc == TRY_READ) {
            if (readVal(m) != 0) {
                return failed;
            }
            return inSlowpath ? QUEUE_TRY_CMPXCHG : TRY_CMPXCHG;
        }
        if (readVal(m) != 0) {
            return failed;
        }
        writeVal(m, Q_LOCKED_VAL);
        return DONE;
    }

    /** {@code arch_mcs_spin_lock_contended(&node->locked)}: {@code smp_cond_load_acquire(l, VAL)}. */
    @Kernel(function = "arch_mcs_spin_lock_contended", file = "kernel/locking/mcs_spinlock.h", version = "v6.12", line = 32)
    public int archMcsSpinLockContended(Memory m) {
        m.order(MemoryOrder.ACQUIRE);
        return m.node(m.cpu(), N_LOCKED) != 0 ? READ_NEXT : BLOCKED;
    }

    /** {@code arch_mcs_spin_unlock_contended(&next->locked)}: {@code smp_store_release(l, 1)}; the slowpath ends. */
    @Kernel(function = "arch_mcs_spin_unlock_contended", file = "kernel/locking/mcs_spinlock.h", version = "v6.12", line = 44)
    public int archMcsSpinUnlockContended(Memory m) {
        m.order(MemoryOrder.RELEASE);
        int next = m.reg(NEXT);
        m.setNode(next - 1, N_LOCKED, 1);
        m.setReg(NEXT, 0);
        return DONE;
    }

    /** {@code queued_spin_unlock}: {@code smp_store_release(&lock->locked, 0)}. */
    @Kernel(function = "queued_spin_unlock", file = "include/asm-generic/qspinlock.h", version = "v6.12", line = 123)
    public int queuedSpinUnlock(Memory m) {
        m.order(MemoryOrder.RELEASE);
        m.setWord(LOCKED, 0);
        return DONE;
    }

    /** The rest of {@code queued_spin_lock_slowpath}, one shared-memory access per step. */
    @Kernel(function = "queued_spin_lock_slowpath", file = "kernel/locking/qspinlock.c", version = "v6.12", line = 313)
    public int queuedSpinLockSlowpath(int pc, Memory m) {
        switch (pc) {
            case PENDING_WAIT: {
                /* val = atomic_cond_read_relaxed(&lock->val, (VAL != _Q_PENDING_VAL) || !cnt--); */
                m.order(MemoryOrder.ONCE);
                int val = readVal(m);
                return (val & ~Q_LOCKED_MASK) != 0 ? NODE_LOCKED_0 : SET_PENDING;
            }
            case WAIT_OWNER:
                /* smp_cond_load_acquire(&lock->locked, !VAL); */
                m.order(MemoryOrder.ACQUIRE);
                return m.word(LOCKED) == 0 ? CLEAR_PENDING_SET_LOCKED : BLOCKED;
            case NODE_LOCKED_0:
                /* queue: node = this_cpu_ptr(&qnodes[0].mcs); idx = node->count++; tail = encode_tail(cpu, idx); node->locked = 0; */
                m.order(MemoryOrder.PLAIN);
                m.setNode(m.cpu(), N_LOCKED, 0);
                return NODE_NEXT_NULL;
            case NODE_NEXT_NULL:
                /* node->next = NULL; */
                m.order(MemoryOrder.PLAIN);
                m.setNode(m.cpu(), N_NEXT, 0);
                return QUEUE_TRY_READ;
            case LINK_PREV: {
                /* prev = decode_tail(old); WRITE_ONCE(prev->next, node); */
                m.order(MemoryOrder.ONCE);
                int prev = m.reg(PREV);
                m.setNode(prev - 1, N_NEXT, myTail(m));
                m.setReg(PREV, 0);
                return WAIT_MCS;
            }
            case READ_NEXT:
                /* next = READ_ONCE(node->next); */
                m.order(MemoryOrder.ONCE);
                m.setReg(NEXT, m.node(m.cpu(), N_NEXT));
                return WAIT_HEAD;
            case WAIT_HEAD: {
                /* val = atomic_cond_read_acquire(&lock->val, !(VAL & _Q_LOCKED_PENDING_MASK)); */
                m.order(MemoryOrder.ACQUIRE);
                int val = readVal(m);
                if ((val & Q_LOCKED_PENDING_MASK) != 0) {
                    return BLOCKED;
                }
                if ((val >> 2) == myTail(m)) {
                    m.setReg(VAL, val);
                    return HEAD_CMPXCHG;
                }
                return SET_LOCKED;
            }
            case HEAD_CMPXCHG: {
                /* if (atomic_try_cmpxchg_relaxed(&lock->val, &val, _Q_LOCKED_VAL)) goto release; */
                m.order(MemoryOrder.RMW_RELAXED);
                int val = m.reg(VAL);
                m.setReg(VAL, 0);
                if (readVal(m) == val) {
                    writeVal(m, Q_LOCKED_VAL);
                    return DONE;
                }
                return SET_LOCKED;
            }
            case WAIT_NEXT: {
                /* next = smp_cond_load_relaxed(&node->next, (VAL)); */
                m.order(MemoryOrder.ONCE);
                int next = m.node(m.cpu(), N_NEXT);
                if (next == 0) {
                    return BLOCKED;
                }
                m.setReg(NEXT, next);
                return HANDOVER;
            }
            default:
                throw new IllegalArgumentException("pc " + pc);
        }
    }

    @Override
    public int[] successors(int pc) {
        return switch (pc) {
            case FAST -> virt ? to(DONE, VIRT_READ) : to(DONE, PENDING_WAIT, NODE_LOCKED_0, SET_PENDING);
            case VIRT_READ -> to(VIRT_CMPXCHG);
            case VIRT_CMPXCHG -> to(DONE, VIRT_READ);
            case PENDING_WAIT -> to(NODE_LOCKED_0, SET_PENDING);
            case SET_PENDING -> to(READ_AFTER_PENDING);
            case READ_AFTER_PENDING -> to(CLEAR_PENDING, NODE_LOCKED_0, WAIT_OWNER, CLEAR_PENDING_SET_LOCKED);
            case CLEAR_PENDING -> to(NODE_LOCKED_0);
            case WAIT_OWNER -> to(CLEAR_PENDING_SET_LOCKED);
            case CLEAR_PENDING_SET_LOCKED -> to(DONE);
            case NODE_LOCKED_0 -> to(NODE_NEXT_NULL);
            case NODE_NEXT_NULL -> to(QUEUE_TRY_READ);
            case QUEUE_TRY_READ -> to(QUEUE_TRY_CMPXCHG, XCHG_TAIL);
            case QUEUE_TRY_CMPXCHG -> to(DONE, XCHG_TAIL);
            case XCHG_TAIL -> to(LINK_PREV, WAIT_HEAD);
            case LINK_PREV -> to(WAIT_MCS);
            case WAIT_MCS -> to(READ_NEXT);
            case READ_NEXT -> to(WAIT_HEAD);
            case WAIT_HEAD -> to(HEAD_CMPXCHG, SET_LOCKED);
            case HEAD_CMPXCHG -> to(DONE, SET_LOCKED);
            case SET_LOCKED -> to(WAIT_NEXT, HANDOVER);
            case WAIT_NEXT -> to(HANDOVER);
            case HANDOVER -> to(DONE);
            case TRY_READ -> to(FAILED, TRY_CMPXCHG);
            case TRY_CMPXCHG -> to(FAILED, DONE);
            case UNLOCK -> to(DONE);
            default -> throw new IllegalArgumentException("pc " + pc);
        };
    }

    private static final long L = 1L << LOCKED;
    private static final long P = 1L << PENDING;
    private static final long T = 1L << TAIL;

    /**
     * The parts of the lock word each step reads or writes (disjoint parts commute), or the MCS
     * nodes. Initialising the own node is private: nobody reads or writes it between the end of
     * its previous use (see the canonical form) and {@code xchg_tail}, which publishes it.
     */
    @Override
    public long footprint(int pc) {
        return switch (pc) {
            case SET_PENDING, CLEAR_PENDING -> P;
            case READ_AFTER_PENDING -> L | T;
            case WAIT_OWNER, SET_LOCKED, UNLOCK -> L;
            case CLEAR_PENDING_SET_LOCKED -> L | P;
            case XCHG_TAIL -> T;
            case NODE_LOCKED_0, NODE_NEXT_NULL -> OWN_NODE;
            case LINK_PREV, WAIT_MCS, READ_NEXT, WAIT_NEXT, HANDOVER -> NODES;
            default -> L | P | T;
        };
    }

    @Override
    public boolean waiting(int pc) {
        return pc > FAST && pc < TRY_READ;
    }

    @Override
    public boolean nodesPrivateToLock() {
        return getClass() == QSpinlock.class;
    }

    @Override
    public String label(int from, int to) {
        String done = to == DONE ? " (taken)" : "";
        return switch (from) {
            case FAST -> to == DONE ? ": cmpxchg(0 -> locked)" : ": cmpxchg fails: slowpath";
            case VIRT_READ -> ": virt_spin_lock reads 0";
            case VIRT_CMPXCHG -> to == DONE ? ": virt_spin_lock cmpxchg(0 -> locked)" : ": virt_spin_lock cmpxchg fails";
            case PENDING_WAIT -> ": reads val after pending wait";
            case SET_PENDING -> ": btsl pending";
            case READ_AFTER_PENDING -> switch (to) {
                case CLEAR_PENDING -> ": reads val: contended, undo pending";
                case NODE_LOCKED_0 -> ": reads val: contended";
                case WAIT_OWNER -> ": reads val: pending, owner holds it";
                default -> ": reads val: pending, lock free";
            };
            case CLEAR_PENDING -> ": clear_pending";
            case WAIT_OWNER -> ": owner gone";
            case CLEAR_PENDING_SET_LOCKED -> ": clear_pending_set_locked" + done;
            case NODE_LOCKED_0 -> ": queue: node->locked = 0";
            case NODE_NEXT_NULL -> ": node->next = NULL";
            case QUEUE_TRY_READ -> to == XCHG_TAIL ? ": trylock reads val != 0" : ": trylock reads 0";
            case QUEUE_TRY_CMPXCHG -> to == DONE ? ": trylock cmpxchg(0 -> locked)" : ": trylock cmpxchg fails";
            case XCHG_TAIL -> to == LINK_PREV ? ": xchg_tail: queued behind prev" : ": xchg_tail: queue was empty";
            case LINK_PREV -> ": prev->next = node";
            case WAIT_MCS -> ": node->locked = 1: queue head";
            case READ_NEXT -> ": next = node->next";
            case WAIT_HEAD -> to == HEAD_CMPXCHG ? ": lock and pending clear, tail is ours" : ": lock and pending clear";
            case HEAD_CMPXCHG -> to == DONE ? ": cmpxchg(val -> locked)" + done : ": cmpxchg fails";
            case SET_LOCKED -> ": set_locked";
            case WAIT_NEXT -> ": node->next set";
            case HANDOVER -> ": next->locked = 1" + done;
            case TRY_READ -> to == FAILED ? ": reads val != 0" : ": reads 0";
            case TRY_CMPXCHG -> to == DONE ? ": cmpxchg(0 -> locked)" : ": cmpxchg fails";
            default -> "";
        };
    }

    @Override
    public String pcName(int pc, String rq, Memory m) {
        String what = switch (pc) {
            case VIRT_READ -> "spins (virt_spin_lock)";
            case VIRT_CMPXCHG -> "next: virt cmpxchg";
            case PENDING_WAIT -> "pending wait";
            case SET_PENDING -> "next: btsl pending";
            case READ_AFTER_PENDING -> "next: read val";
            case CLEAR_PENDING -> "next: clear_pending";
            case WAIT_OWNER -> "pending, waits for owner";
            case CLEAR_PENDING_SET_LOCKED -> "next: clear_pending_set_locked";
            case NODE_LOCKED_0, NODE_NEXT_NULL -> "next: init MCS node";
            case QUEUE_TRY_READ, QUEUE_TRY_CMPXCHG -> "next: trylock";
            case XCHG_TAIL -> "next: xchg_tail";
            case LINK_PREV -> "next: link behind cpu" + (m.reg(PREV) - 1);
            case WAIT_MCS -> "queued, waits for node->locked";
            case READ_NEXT -> "next: read node->next";
            case WAIT_HEAD -> "queue head, waits for lock and pending";
            case HEAD_CMPXCHG -> "next: cmpxchg(val -> locked)";
            case SET_LOCKED -> "next: set_locked";
            case WAIT_NEXT -> "locked, waits for successor to link";
            case HANDOVER -> "next: hand over to cpu" + (m.reg(NEXT) - 1);
            case TRY_CMPXCHG -> "next: trylock cmpxchg";
            default -> "pc " + pc;
        };
        return "slowpath(" + rq + "): " + what;
    }

    @Override
    public String cite(int pc) {
        String method = switch (pc) {
            case FAST -> "queuedSpinLock";
            case VIRT_READ, VIRT_CMPXCHG -> "virtSpinLock";
            case SET_PENDING, READ_AFTER_PENDING -> "queuedFetchSetPendingAcquire";
            case CLEAR_PENDING -> "clearPending";
            case CLEAR_PENDING_SET_LOCKED -> "clearPendingSetLocked";
            case XCHG_TAIL -> "xchgTail";
            case SET_LOCKED -> "setLocked";
            case QUEUE_TRY_READ, QUEUE_TRY_CMPXCHG, TRY_READ, TRY_CMPXCHG -> "queuedSpinTrylock";
            case WAIT_MCS -> "archMcsSpinLockContended";
            case HANDOVER -> "archMcsSpinUnlockContended";
            case UNLOCK -> "queuedSpinUnlock";
            default -> "queuedSpinLockSlowpath";
        };
        String c = citeOf(QSpinlock.class, method);
        boolean inSlowpath = waiting(pc) && !method.equals("queuedSpinLockSlowpath");
        return inSlowpath ? c + " \u2190 queued_spin_lock_slowpath" : c;
    }

    @Override
    public String reduction() {
        return "mcs-dead (MCS node fields cleared while their owner is not queued: never read before re-initialised)";
    }

    /** Clears the MCS node fields of CPUs that are not between initialising their node and leaving the queue. */
    @Override
    public void canonicalize(Canonical c) {
        for (int cpu = 0; cpu < c.cpus(); cpu++) {
            int pc = c.opLock(cpu) >= 0 ? c.pc(cpu) : -1;
            /* node->locked is read only by the wait for it, node->next by READ_ONCE and the wait for it */
            boolean lockedLive = pc > NODE_LOCKED_0 && pc <= WAIT_MCS;
            boolean nextLive = pc > NODE_NEXT_NULL && pc <= WAIT_NEXT;
            if (!lockedLive && c.node(cpu, N_LOCKED) != 0) {
                c.setNode(cpu, N_LOCKED, 0);
            }
            if (!nextLive && c.node(cpu, N_NEXT) != 0) {
                c.setNode(cpu, N_NEXT, 0);
            }
        }
    }

    /**
     * The lock word's meaning: the tail names a CPU queued on this lock (a live MCS node, between
     * {@code xchg_tail} and the hand-over); the pending bit belongs to a CPU in the pending path
     * that set it; the locked byte is set while a CPU holds the lock or has just set it as queue
     * head ({@code set_locked}, before the hand-over), and is set whenever a CPU holds the lock.
     */
    @Override
    public String insane(LockState v) {
        int tail = v.word(TAIL);
        if (tail != 0) {
            int t = tail - 1;
            if (t >= v.cpus() || v.pc(t) < LINK_PREV || v.pc(t) > HANDOVER) {
                return "tail names cpu" + t + ", which is not queued on this lock (its MCS node is not live)";
            }
        }
        boolean pendingOwner = false;
        boolean lockedOwner = false;
        for (int c = 0; c < v.cpus(); c++) {
            int pc = v.pc(c);
            pendingOwner |= pc == CLEAR_PENDING || pc == WAIT_OWNER || pc == CLEAR_PENDING_SET_LOCKED
                    || (pc == READ_AFTER_PENDING && (v.reg(c, VAL) & Q_PENDING_MASK) == 0);
            lockedOwner |= v.holds(c) || pc == WAIT_NEXT || pc == HANDOVER;
            if (v.holds(c) && v.word(LOCKED) == 0) {
                return "cpu" + c + " holds the lock but the locked byte is 0";
            }
        }
        if (v.word(PENDING) != 0 && !pendingOwner) {
            return "the pending bit is set but no CPU is in the pending path that set it";
        }
        if (v.word(LOCKED) != 0 && !lockedOwner) {
            return "the locked byte is set but no CPU holds the lock";
        }
        return null;
    }

    /** Thrown if a value does not fit (the model's limit, not the kernel's). */
    static ModelLimitException limit(String what) {
        return new ModelLimitException(what);
    }
}
