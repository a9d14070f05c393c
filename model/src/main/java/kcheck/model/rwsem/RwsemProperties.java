package kcheck.model.rwsem;

import static kcheck.model.rwsem.TaskProgram.IN_CAN_SPIN;
import static kcheck.model.rwsem.TaskProgram.OSQ;
import static kcheck.model.rwsem.TaskProgram.PREEMPT_OFF;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import kcheck.model.Deadlock;
import kcheck.model.Invariant;
import kcheck.model.Metric;
import kcheck.model.Progress;
import kcheck.model.Property;
import kcheck.model.StepProperty;

/**
 * The rwsem-owner properties, each a reading of the packed state ({@link RwsemLayout}) and of the
 * monitors ({@link RwsemMonitors}). Stateless: one list shared by all forks.
 */
final class RwsemProperties {
    static final String[] COMPONENTS_WASTED = {"reader-held", "reader-held, owner stored"};
    static final String[] COMPONENTS_MISSED = {"owner NULL", "stale READER_OWNED"};

    private final RwsemLayout l;
    private final RwsemDecoder decoder;

    RwsemProperties(RwsemLayout l, RwsemDecoder decoder) {
        this.l = l;
        this.decoder = decoder;
    }

    /** The selected properties, in catalogue order. */
    List<Property> build(Set<String> selected) {
        List<Property> out = new ArrayList<>();
        for (Property p : List.of(new Faulted("count-sane"), new Faulted("owner-deref-sane"), new Faulted("warn-wait-lock-held"),
                new Faulted("warn-preemption-disabled"), new Exclusion(), new OwnerSound(), new NoSpinOnReaders(false), new NoSpinOnReaders(true),
                new NoSpinOnReadersK2(), new SpinOnRunningWriter(), new NoSpinOnPreemptedOwner(), new Handoff(), new HandoffHasWaiter(),
                new NoWriterStarvation("no-writer-starvation", false, false),
                new NoWriterStarvation("sleeping-writer-woken", true, false),
                new NoWriterStarvation("reader-stream-starvation", true, true), new WastedSpins(), new MissedSpins(),
                new NoLostWakeup(), Deadlock.standard(), new ReaderOwnedNoWriter(), new NullOwnerNoWriter())) {
            if (selected.contains(p.id())) {
                out.add(p);
            }
        }
        return out;
    }

    /**
     * The sanity and warn- properties: no task reaches a {@link Op#FAULT} node of this property's kind (the
     * recorded code met a state the kernel itself flags: a failed lockdep assertion, a count outside its meaning,
     * owner->on_cpu through a pointer that is no writer's). The run ends at a fault, so the shortest trace ends
     * with the faulting step.
     */
    final class Faulted extends Invariant {
        Faulted(String id) {
            super(id, RwsemOwnerFactory.describe(id));
        }

        @Override
        public boolean holds(long[] s) {
            return l.flagged(s, id()) < 0;
        }

        @Override
        public String explain(long[] s) {
            int t = l.flagged(s, id());
            int p = l.pc[t].getInt(s);
            Op.Fault f = l.fault(s, t);
            String what = switch (f) {
                case COUNT -> {
                    long old = l.count(s);
                    long nw = old + l.prog[t].arg1[p];
                    yield ": count " + l.dom.showCount(old) + " becomes 0x" + Long.toHexString(nw) + " (" + meaning(nw) + ")";
                }
                case COUNT_STORE -> ": cmpxchg stores count 0x" + Long.toHexString(l.prog[t].arg1[p]) + " ("
                        + meaning(l.prog[t].arg1[p]) + ")";
                case ON_CPU -> ": owner = " + l.dom.showOwner(l.ownerValue(s)) + " is dereferenced as a running writer";
                default -> "";
            };
            return decoder.actor(t) + " in " + l.prog[t].function[p] + " (" + l.prog[t].where[p] + "): " + f.text
                    .replace(" (count step adds arg1)", "").replace(" (cmpxchg stores arg1)", "") + what;
        }

        private String meaning(long c) {
            return l.dom instanceof RwsemDomain.Bits ? (c < 0 ? "reader count below 0: DEBUG_RWSEMS_WARN_ON(tmp < 0),"
                    + " kernel/locking/rwsem.c:1346 v6.12" : "a bias that no task holds, or a bit the count does not have")
                    : "an active or waiting part below 0 or above one bias per task: " + l.dom.countLimit();
        }
    }

    /**
     * {@code handoff-has-waiter}: at every point where no task holds sem->wait_lock (every change of the wait list and
     * of the handoff bit by a waiter happens under it), a set handoff bit has a waiter in the list: the bit is the
     * first waiter's claim, and a bit on an empty list is a claim nobody will honour (nor clear until the next waiter).
     */
    final class HandoffHasWaiter extends Invariant {
        HandoffHasWaiter() {
            super("handoff-has-waiter", RwsemOwnerFactory.describe("handoff-has-waiter"));
        }

        @Override
        public boolean holds(long[] s) {
            return !l.dom.handoff(l.count(s)) || l.waitLockHolder(s) >= 0 || l.queueLength(s) > 0;
        }

        @Override
        public String explain(long[] s) {
            return "the handoff bit is set with the wait list empty and sem->wait_lock free (count = "
                    + l.dom.showCount(l.count(s)) + "): no waiter will honour or clear it";
        }
    }

    /**
     * {@code no-lost-wakeup}: no reader sleeps in schedule() holding the lock it was granted with no wake-up pending and
     * on no wake queue. Such a reader is off the wait list (no later waker looks at it), its waker has finished with it,
     * and an uninterruptible sleeper is woken only by wake_up_process(): it sleeps forever holding a read lock.
     */
    final class NoLostWakeup extends Invariant {
        NoLostWakeup() {
            super("no-lost-wakeup", RwsemOwnerFactory.describe("no-lost-wakeup"));
        }

        @Override
        public boolean holds(long[] s) {
            for (int t = 0; t < l.nr; t++) {
                if (l.lostWakeup(s, t)) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public String explain(long[] s) {
            for (int t = 0; t < l.nr; t++) {
                if (l.lostWakeup(s, t)) {
                    return decoder.actor(t) + " sleeps in schedule() (" + l.prog[t].where[l.pc[t].getInt(s)] + ") although its"
                            + " waiter->task is NULL (it was granted the read lock), with no wake-up pending and on no wake_q:"
                            + " nothing will wake it";
                }
            }
            return "";
        }
    }

    /** {@code exclusion}: never a writer with readers, never two writers. */
    final class Exclusion extends Invariant {
        Exclusion() {
            super("exclusion", RwsemOwnerFactory.describe("exclusion"));
        }

        @Override
        public boolean holds(long[] s) {
            int w = l.writersHolding(s);
            return w == 0 || (w == 1 && l.readersHolding(s) == 0);
        }

        @Override
        public String explain(long[] s) {
            return "the lock is held by " + decoder.holders(s) + " at once (count = " + l.dom.showCount(l.count(s)) + ")";
        }
    }

    /** {@code owner-sound}: owner names a writer only while that writer holds the write lock. */
    final class OwnerSound extends Invariant {
        OwnerSound() {
            super("owner-sound", RwsemOwnerFactory.describe("owner-sound"));
        }

        @Override
        public boolean holds(long[] s) {
            long o = l.ownerValue(s);
            return !l.dom.ownerIsWriter(o) || l.heldBy(s, l.dom.ownerTask(o));
        }

        @Override
        public String explain(long[] s) {
            return "owner = " + l.dom.showOwner(l.ownerValue(s)) + " but that writer does not hold the write lock (held by "
                    + decoder.holders(s) + ")";
        }
    }

    /**
     * {@code no-spin-on-readers} (and {@code -strict}): a cycle of steps of the spinner (the
     * writer holding the osq) taken while readers, and no writer, hold the lock and (not
     * strict) every such reader has made its owner store, is a spinner that never stops. Where
     * the code spins on readers for a limited time (v5.3+: {@code rspin_threshold}), a read of the
     * clock that finds the deadline not passed yet is progress: time passes, so only a spinner that
     * never reads the clock, or ignores it, counts.
     */
    final class NoSpinOnReaders extends Progress {
        private final boolean strict;

        NoSpinOnReaders(boolean strict) {
            super(strict ? "no-spin-on-readers-strict" : "no-spin-on-readers",
                    RwsemOwnerFactory.describe(strict ? "no-spin-on-readers-strict" : "no-spin-on-readers"));
            this.strict = strict;
        }

        @Override
        public boolean isProgress(long[] from, int actor, int action, long[] to) {
            if (action >= l.envBase || !l.isWriter(actor) || !l.prog[actor].has(l.pc[actor].getInt(from), OSQ)) {
                return true;
            }
            if (l.readersHolding(from) == 0 || l.writersHolding(from) > 0) {
                return true;
            }
            if (clockNotYet(from, actor, action)) {
                return true;
            }
            return !strict && !l.readersSettled(from);
        }
    }

    /**
     * The step reads the clock and finds its deadline not passed yet (sched_clock() against the reader-spin
     * threshold, jiffies against a waiter's timeout): time does pass, so a cycle that keeps finding a deadline
     * unpassed is unfair to the clock, and such a read counts as progress.
     */
    private boolean clockNotYet(long[] s, int actor, int action) {
        if (action >= l.envBase) {
            return false;
        }
        Op op = l.prog[actor].op[action / l.slots];
        return (op == Op.RSPIN_PASSED || op == Op.TIMED_OUT || op == Op.FIRST_TIMED_OUT) && action % l.slots == 0;
    }

    /** The task whose step gives the lock away, {@code -1} if none: a holder off its CPU, or the handoff's first waiter. */
    private int stoppedOwner(long[] s, int actor) {
        boolean held = false;
        for (int t = 0; t < l.n; t++) {
            if (l.heldBy(s, t)) {
                held = true;
                if (t != actor && !l.onCpu(s, t)) {
                    return t;
                }
            }
        }
        if (!held && l.dom.handoff(l.count(s))) {
            int f = l.firstWaiter(s);
            if (f >= 0 && f != actor && !l.onCpu(s, f)) {
                return f;
            }
        }
        return -1;
    }

    /**
     * {@code no-spin-on-preempted-owner}: a cycle of steps of tasks that do not take the lock, each
     * taken while a task the lock waits for is off its CPU (preempted, or asleep or woken but not
     * yet running): a holder, or, when the lock is free with the handoff bit set, the first waiter
     * the bit is for. A step counts only if nothing else will stop its task: it is an RT task (the
     * owner cannot preempt it), or its need_resched is set and it runs with preemption disabled
     * (for other tasks the scheduler tick breaks the cycle); a read of the clock that finds a
     * deadline not passed yet is progress (time passes).
     */
    final class NoSpinOnPreemptedOwner extends Progress {
        NoSpinOnPreemptedOwner() {
            super("no-spin-on-preempted-owner", RwsemOwnerFactory.describe("no-spin-on-preempted-owner"));
        }

        @Override
        public boolean isProgress(long[] from, int actor, int action, long[] to) {
            if (action >= l.envBase) {
                return true;
            }
            for (int t = 0; t < l.n; t++) {
                if (!l.heldBy(from, t) && l.heldBy(to, t)) {
                    return true;
                }
            }
            boolean unstoppable = (l.isWriter(actor) && l.rt[actor - l.nr])
                    || (l.resched[actor].getInt(from) == 1 && l.prog[actor].has(l.pc[actor].getInt(from), PREEMPT_OFF));
            if (!unstoppable || clockNotYet(from, actor, action)) {
                return true;
            }
            return stoppedOwner(from, actor) < 0;
        }
    }

    /**
     * {@code handoff}: while the handoff bit is set for a waiter (the first waiter when the bit was
     * set), no other task takes the lock unless that waiter takes it in the same step (readers
     * granted together).
     */
    final class Handoff extends StepProperty {
        Handoff() {
            super("handoff", RwsemOwnerFactory.describe("handoff"));
        }

        @Override
        public boolean holds(long[] from, int actor, int action, long[] to) {
            int h = (int) l.handoffFor.get(from) - 1;
            if (h < 0 || !l.dom.handoff(l.count(from))) {
                return true;
            }
            boolean hTakes = !l.heldBy(from, h) && l.heldBy(to, h);
            for (int t = 0; t < l.n; t++) {
                if (t != h && !l.heldBy(from, t) && l.heldBy(to, t) && !hTakes) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public String explain(long[] from, int actor, int action, long[] to) {
            int h = (int) l.handoffFor.get(from) - 1;
            StringBuilder who = new StringBuilder();
            for (int t = 0; t < l.n; t++) {
                if (t != h && !l.heldBy(from, t) && l.heldBy(to, t)) {
                    who.append(who.length() == 0 ? "" : ", ").append(decoder.actor(t));
                }
            }
            return who + " takes the lock while the handoff bit is set for " + decoder.actor(h) + " (count = "
                    + l.dom.showCount(l.count(from)) + ")";
        }
    }

    /**
     * {@code no-writer-starvation}: no fair cycle in which the first waiter of the wait list stays
     * the same writer, its wait has timed out ({@code RWSEM_WAIT_TIMEOUT}) and it never takes the
     * lock. Fair: every task that is inside a lock or unlock call, or holds the lock, and can take
     * a step somewhere on the cycle takes one on it (a preempted task must run again); tasks
     * between two lock rounds may stay idle. Preemptions are progress (a preempted task cannot be
     * preempted again on a cycle without running). {@code sleeping-writer-woken} is the part of it
     * where the writer sleeps in schedule() with no wake-up pending all along: it is never even woken.
     */
    final class NoWriterStarvation extends Progress {
        /** Only cycles in which the writer sleeps throughout, no wake-up pending ({@code sleeping-writer-woken}). */
        private final boolean asleep;
        /** And the count holds at least one RWSEM_READER_BIAS throughout ({@code reader-stream-starvation}). */
        private final boolean readerBiased;

        NoWriterStarvation(String id, boolean asleep, boolean readerBiased) {
            super(id, RwsemOwnerFactory.describe(id));
            this.asleep = asleep;
            this.readerBiased = readerBiased;
        }

        private int starved(long[] s) {
            int f = l.firstWaiter(s);
            if (f < 0 || !l.isWriter(f) || l.timedOut[f].getInt(s) == 0) {
                return -1;
            }
            if (asleep && (l.prog[f].op[l.pc[f].getInt(s)] != Op.SCHEDULE || l.woken[f].getInt(s) == 1)) {
                return -1;
            }
            if (readerBiased && readerBiases(s) == 0) {
                return -1;
            }
            return f;
        }

        /** v5.3+: the RWSEM_READER_BIAS units in count (held, or added by a fast path about to fail); xadd: holding readers. */
        private long readerBiases(long[] s) {
            return l.dom instanceof RwsemDomain.Bits ? l.count(s) >>> RwsemBits.RWSEM_READER_SHIFT : l.readersHolding(s);
        }

        @Override
        public boolean isProgress(long[] from, int actor, int action, long[] to) {
            if (action == l.envBase + RwsemSteps.PREEMPT) {
                return true;
            }
            int f = starved(from);
            return f < 0 || starved(to) != f;
        }

        @Override
        public boolean fair() {
            return true;
        }

        @Override
        public long owed(long[] s) {
            long owed = 0;
            for (int t = 0; t < l.n; t++) {
                if (!l.idle(s, t) && (l.preempted[t].getInt(s) == 1 || l.enabled(s, t))) {
                    owed |= 1L << t;
                }
            }
            return owed;
        }

        @Override
        public int stepClass(int actor, int action) {
            return action < l.envBase || action == l.envBase + RwsemSteps.RUN_AGAIN ? actor : 63;
        }
    }

    /** {@code no-spin-on-readers-k2}: the counting form of no-spin-on-readers: trylock attempts on a reader-held lock, bound 2. */
    final class NoSpinOnReadersK2 extends Metric {
        NoSpinOnReadersK2() {
            super("no-spin-on-readers-k2", RwsemOwnerFactory.describe("no-spin-on-readers-k2"));
        }

        @Override
        public long value(long[] s, int c) {
            return l.k2.get(s);
        }

        @Override
        public long bound() {
            return 2;
        }

        /** The counter stops at SPIN_CAP; reaching it means the spinner's loop repeats (the no-spin-on-readers lasso). */
        @Override
        public long saturation() {
            return RwsemLayout.SPIN_CAP;
        }
    }

    /** {@code spin-on-running-writer}: a NULL owner with a running writer in its set_owner gap makes can_spin true. */
    final class SpinOnRunningWriter extends StepProperty {
        SpinOnRunningWriter() {
            super("spin-on-running-writer", RwsemOwnerFactory.describe("spin-on-running-writer"));
        }

        @Override
        public boolean holds(long[] from, int actor, int action, long[] to) {
            if (action >= l.envBase || !l.isWriter(actor)) {
                return true;
            }
            TaskProgram tp = l.prog[actor];
            int p = action / l.slots;
            int o = action % l.slots;
            int node = l.pc[actor].getInt(to);
            if (!tp.has(p, IN_CAN_SPIN) || tp.has(node, IN_CAN_SPIN) || tp.op[node] == Op.OSQ_LOCK) {
                return true;
            }
            boolean sawNull = l.obsNull[actor].getInt(from) == 1
                    || (tp.op[p] == Op.OWNER_READ && l.dom.ownerIsNull(l.dom.ownerValue(o)) && l.runningWriterWithoutOwner(from, actor));
            return !sawNull;
        }

        @Override
        public String explain(long[] from, int actor, int action, long[] to) {
            return decoder.actor(actor) + ": rwsem_can_spin_on_owner loaded owner = NULL while another writer held the"
                    + " write lock (count step done, owner not yet set) on a CPU, and returned false: it does not spin";
        }
    }

    /**
     * {@code wasted-spins}: the spinner's unqueued trylock loads of count on a lock held by
     * readers only, since the readers took it (or the spinner took the osq): all of them, and
     * those made after every such reader stored its owner marker.
     */
    final class WastedSpins extends Metric {
        WastedSpins() {
            super("wasted-spins", RwsemOwnerFactory.describe("wasted-spins"));
        }

        @Override
        public int components() {
            return 2;
        }

        @Override
        public String componentName(int c) {
            return COMPONENTS_WASTED[c];
        }

        @Override
        public long value(long[] s, int c) {
            return c == 0 ? l.wastedAll.get(s) : l.k2.get(s);
        }

        /** Both counters stop at SPIN_CAP, reached only on the spinner's repeating loop. */
        @Override
        public long saturation() {
            return RwsemLayout.SPIN_CAP;
        }
    }

    /** {@code missed-spins}: writers that declined to spin on one running writer holding the lock. */
    final class MissedSpins extends Metric {
        MissedSpins() {
            super("missed-spins", RwsemOwnerFactory.describe("missed-spins"));
        }

        @Override
        public int components() {
            return 2;
        }

        @Override
        public String componentName(int c) {
            return COMPONENTS_MISSED[c];
        }

        @Override
        public long value(long[] s, int c) {
            return c == 0 ? l.missedNull.get(s) : l.missedRo.get(s);
        }
    }

    /** The false claim {@code READER_OWNED => no writer}, kept as a documented test. */
    final class ReaderOwnedNoWriter extends Invariant {
        ReaderOwnedNoWriter() {
            super("reader-owned-no-writer", RwsemOwnerFactory.describe("reader-owned-no-writer"));
        }

        @Override
        public boolean holds(long[] s) {
            return !l.dom.ownerIsReaderOwned(l.ownerValue(s)) || l.writersHolding(s) == 0;
        }

        @Override
        public String explain(long[] s) {
            return "owner = READER_OWNED while " + decoder.holders(s) + " holds the write lock: the marker is sticky";
        }
    }

    /** The false claim {@code owner NULL => no writer}, kept as a documented test. */
    final class NullOwnerNoWriter extends Invariant {
        NullOwnerNoWriter() {
            super("null-owner-no-writer", RwsemOwnerFactory.describe("null-owner-no-writer"));
        }

        @Override
        public boolean holds(long[] s) {
            return !l.dom.ownerIsNull(l.ownerValue(s)) || l.writersHolding(s) == 0;
        }

        @Override
        public String explain(long[] s) {
            return "owner = NULL while " + decoder.holders(s) + " holds the write lock";
        }
    }
}
