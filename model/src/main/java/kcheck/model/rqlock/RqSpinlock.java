package kcheck.model.rqlock;

import kcheck.model.MemoryOrder;

import java.util.ArrayList;
import java.util.List;

import kcheck.model.Kernel;

/**
 * The runqueue spinlock, part of the variant contract: {@code spin_lock}, {@code spin_trylock}
 * and {@code spin_unlock} written as a small machine of atomic steps, so that the model runs the
 * lock the variant brings (a ticket lock, a test-and-set lock, qspinlock, or a variant file's own,
 * broken or not) instead of trusting it.
 *
 * <p>A lock has <em>pcs</em> (positions inside one of its three operations) and a memory of
 * three kinds, declared by {@link #shape}:
 * <ul>
 * <li>the <b>lock word</b> of each runqueue lock, as named bit fields (a ticket lock's
 * {@code next} and {@code serving} counters; qspinlock's {@code locked}, {@code pending} and
 * {@code tail});
 * <li>per-CPU <b>node</b> fields that other CPUs may read and write (qspinlock's MCS node:
 * {@code locked}, {@code next});
 * <li>per-CPU private <b>registers</b> that live from one step of an operation to the next (a
 * ticket; qspinlock's {@code val}); the model clears them when an operation completes.
 * </ul>
 *
 * <p>{@link #step} performs one atomic step of the calling CPU: <b>exactly one</b> atomic
 * operation on shared memory (one load, one store, or one atomic read-modify-write such as
 * {@code xadd}, {@code xchg}, {@code cmpxchg}), plus any amount of computation on registers. It
 * returns the next pc, {@link #DONE} (the operation completed: the lock is taken, released, or
 * the trylock returns 1), {@link #FAILED} (the trylock returns 0) or {@link #BLOCKED} (a spin
 * loop whose exit condition is false: re-reading changes nothing, so the CPU stays where it is
 * until another CPU changes the memory). The model checks at run time that every step touches only
 * the fields {@link #footprint} declares and goes only where {@link #successors} says.
 *
 * <p>Built in: {@link TicketSpinlock} ({@code lock=ticket}), {@link TasSpinlock}
 * ({@code lock=tas}), {@link QSpinlock} ({@code lock=qspinlock}, {@code lock=qspinlock-virt}).
 * A variant brings its own by overriding {@link DoubleLockBalance#spinlock(String)}.
 */
public abstract class RqSpinlock {

    /** The three operations. */
    public enum Op {
        LOCK("spin_lock"), TRYLOCK("spin_trylock"), UNLOCK("spin_unlock");

        private final String function;

        Op(String function) {
            this.function = function;
        }

        /** The kernel primitive, e.g. {@code spin_lock}. */
        public String function() {
            return function;
        }
    }

    /** The operation completed: lock taken ({@code LOCK}, {@code TRYLOCK} returning 1) or released. */
    public static final int DONE = -1;
    /** {@code TRYLOCK} returns 0. */
    public static final int FAILED = -2;
    /** A spin loop whose exit condition is false: no step. */
    public static final int BLOCKED = -3;

    /** Footprint bit: the step reads or writes MCS node fields (of any CPU). */
    public static final long NODES = 1L << 62;
    /**
     * Footprint bit: the step writes only the calling CPU's own node while no other CPU can reach
     * it (before the CPU publishes it, e.g. qspinlock's {@code node->locked = 0} before
     * {@code xchg_tail}): a private step. The model checks that the node is the caller's own.
     */
    public static final long OWN_NODE = 1L << 61;

    /** One named bit field. */
    public record Field(String name, int bits) {
        public Field {
            if (bits < 1 || bits > 16) {
                throw new IllegalArgumentException(name + ": 1..16 bits, not " + bits);
            }
        }
    }

    /** The memory a lock uses for a given number of CPUs. */
    public record Shape(List<Field> lockWord, List<Field> node, List<Field> registers) {
        public Shape {
            lockWord = List.copyOf(lockWord);
            node = List.copyOf(node);
            registers = List.copyOf(registers);
            if (lockWord.isEmpty() || lockWord.size() > 8) {
                throw new IllegalArgumentException("a lock word has 1..8 fields");
            }
        }
    }

    /** What a step may read and write. Fields are indexed in {@link Shape} order. */
    public interface Memory {
        /** The calling CPU. */
        int cpu();

        /** Number of CPUs. */
        int cpus();

        /** A field of the lock word of the lock this operation is on. */
        int word(int field);

        void setWord(int field, int value);

        /** A field of CPU {@code cpu}'s node. */
        int node(int cpu, int field);

        void setNode(int cpu, int field, int value);

        /** A register of the calling CPU. */
        int reg(int field);

        void setReg(int field, int value);

        /**
         * The ordering the kernel code gives the step's one shared-memory access ({@link MemoryOrder}). A step
         * states it before its access; a sequentially consistent memory ignores it, the memory of
         * {@code --param memory-model=lkmm} turns the access into LKMM events with it.
         */
        default void order(MemoryOrder order) {
        }

        /**
         * A barrier the kernel code executes before the step's access: linux-kernel.bell's fence name
         * ({@code wmb} for {@code smp_wmb()}, {@code rmb}, {@code mb}). Ignored under sequential consistency.
         */
        default void barrier(String fence) {
        }

        /**
         * The step's access covers the whole lock word although it uses only some fields (x86's
         * {@code lock btsl} on {@code lock->val}). Without it an access covers the fields the step
         * loads and stores, as a byte or half-word access does. Ignored under sequential consistency.
         */
        default void wholeWord() {
        }
    }


    /** A name for listings and output, e.g. {@code ticket}. */
    public abstract String name();

    /** The memory this lock uses with {@code cpus} CPUs. */
    public abstract Shape shape(int cpus);

    /** Number of pcs (over all three operations). */
    public abstract int pcs();

    /** The first pc of {@code op}. */
    public abstract int entry(Op op);

    /** One atomic step of {@code m.cpu()} at {@code pc}; see the class comment. */
    public abstract int step(int pc, Memory m);

    /** Every result {@link #step} may return at {@code pc} other than {@link #BLOCKED}. */
    public abstract int[] successors(int pc);

    /**
     * The lock-word fields the step at {@code pc} may access (bit {@code i}: field {@code i}),
     * plus {@link #NODES} if it accesses node fields.
     */
    public abstract long footprint(int pc);

    /**
     * True if a CPU at {@code pc} of {@code spin_lock} is waiting for the lock (its wait began with
     * an earlier step of this {@code spin_lock}, or, for a lock without a queue, when it reached
     * the spin loop). The {@code fifo-entry} and {@code overtake} monitors read it.
     */
    public abstract boolean waiting(int pc);

    /**
     * The text the timeline shows after {@code spin_lock(rq[L])} for the step from {@code from}
     * to {@code to} (a pc, {@link #DONE} or {@link #FAILED}), e.g. {@code ": take ticket"};
     * empty for one-step operations.
     */
    public abstract String label(int from, int to);

    /** What a CPU at {@code pc} is doing, short, e.g. {@code "waits for rq0 (ticket 1)"}; {@code rq} names the lock. */
    public abstract String pcName(int pc, String rq, Memory m);

    /** The kernel function the step at {@code pc} runs in, as {@code Kernel.Cite} renders it. */
    public abstract String cite(int pc);

    /** The operation pc belongs to. */
    public abstract Op opOf(int pc);

    /**
     * Rewrites the lock state into a canonical representative (e.g. ticket counters relative to
     * the one served), or does nothing. Must map only bisimilar states together.
     */
    public void canonicalize(Canonical c) {
    }

    /** A short description of {@link #canonicalize}, or null if it does nothing. */
    public String reduction() {
        return null;
    }

    /**
     * True if partial-order reduction may attribute this lock's node accesses to the lock being
     * operated on (a CPU touches only nodes of CPUs queued on the same lock). Only locks whose
     * protocol guarantees it may say so; the default is false (then a step that touches nodes is
     * never reduced).
     */
    public boolean nodesPrivateToLock() {
        return false;
    }

    /** The lock state as {@link #canonicalize} sees it: every lock word, and every CPU's operation. */
    public interface Canonical {
        int locks();

        int cpus();

        int word(int lock, int field);

        void setWord(int lock, int field, int value);

        int node(int cpu, int field);

        void setNode(int cpu, int field, int value);

        /** The lock CPU {@code cpu}'s current operation is on, or -1 if it is not inside one. */
        int opLock(int cpu);

        /** The pc of CPU {@code cpu}'s current operation (meaningful if {@link #opLock} is not -1). */
        int pc(int cpu);

        int reg(int cpu, int field);

        void setReg(int cpu, int field, int value);
    }

    /**
     * One lock as the {@code sanity-lock-word} property sees it: its word and nodes, and for each
     * CPU whether it holds the lock and where it is in an operation on it.
     */
    public interface LockState {
        int cpus();

        int word(int field);

        int node(int cpu, int field);

        /** The pc of CPU {@code cpu}'s operation on this lock, or -1 if it is not inside one. */
        int pc(int cpu);

        int reg(int cpu, int field);

        /** True if CPU {@code cpu} holds this lock (its program says so). */
        boolean holds(int cpu);
    }

    /**
     * A reason this lock's state is one the kernel's own code never produces (a field outside its
     * meaning: a ticket count that does not match the CPUs holding tickets, a qspinlock tail that
     * names no queued CPU, a locked byte nobody owns), or null. {@code sanity-lock-word} checks it
     * on every state; the default knows nothing and returns null.
     */
    public String insane(LockState v) {
        return null;
    }

    /** Bits for values {@code 0..max}. */
    protected static int bitsFor(int max) {
        return Math.max(1, 32 - Integer.numberOfLeadingZeros(max));
    }

    /** The citation of {@code method} of {@code type} (annotated with {@link Kernel}). */
    protected static String citeOf(Class<?> type, String method) {
        for (java.lang.reflect.Method m : type.getMethods()) {
            if (m.getName().equals(method) && m.getAnnotation(Kernel.class) != null) {
                return Kernel.Cite.of(m.getAnnotation(Kernel.class));
            }
        }
        for (java.lang.reflect.Method m : type.getDeclaredMethods()) {
            if (m.getName().equals(method) && m.getAnnotation(Kernel.class) != null) {
                return Kernel.Cite.of(m.getAnnotation(Kernel.class));
            }
        }
        return "";
    }

    /** An {@code int[]} of the given results, for {@link #successors}. */
    protected static int[] to(int... results) {
        return results;
    }

    /** The pcs reachable from {@code pc} (itself included) by {@link #successors}. */
    public final List<Integer> reachable(int pc) {
        List<Integer> out = new ArrayList<>();
        boolean[] seen = new boolean[pcs()];
        List<Integer> todo = new ArrayList<>(List.of(pc));
        while (!todo.isEmpty()) {
            int p = todo.remove(todo.size() - 1);
            if (p < 0 || seen[p]) {
                continue;
            }
            seen[p] = true;
            out.add(p);
            for (int s : successors(p)) {
                todo.add(s);
            }
        }
        return out;
    }

    /** True if some pc can reach itself again by {@link #successors} (a retry loop). */
    public final boolean hasLoops() {
        for (int p = 0; p < pcs(); p++) {
            for (int s : successors(p)) {
                if (s >= 0 && reachable(s).contains(p)) {
                    return true;
                }
            }
        }
        return false;
    }
}
