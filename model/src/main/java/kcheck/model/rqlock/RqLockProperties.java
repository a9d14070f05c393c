package kcheck.model.rqlock;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;

import kcheck.model.Deadlock;
import kcheck.model.Invariant;
import kcheck.model.Metric;
import kcheck.model.Progress;
import kcheck.model.Property;
import kcheck.model.StepProperty;

/** The property monitors of the rq-lock model, reading the packed state through {@link RqLockLayout}. */
final class RqLockProperties {
    private final RqLockLayout lay;
    private final RqLockProgram prog;
    private final RqLockSteps steps;
    private final int n;

    RqLockProperties(RqLockLayout lay, RqLockSteps steps) {
        this.lay = lay;
        this.prog = lay.prog;
        this.steps = steps;
        this.n = lay.n;
    }

    /** The selected properties, in catalogue order. */
    List<Property> build(Set<String> selected) {
        List<Property> out = new ArrayList<>();
        for (Property p : List.of(new MutualExclusion(), Deadlock.standard(), new HoldsBothOnReturn(),
                new ReturnContract(), new FifoEntry(), new Bypass(), new Overtake(), new LockdepSubclass(), new RqClockCleared(), new StarvationFree(),
                new WarnUnlockUnheld(), new SanityLockWord())) {
            if (selected.contains(p.id())) {
                out.add(p);
            }
        }
        return out;
    }

    String rqSet(int mask) {
        return names("rq", mask);
    }

    String cpuSet(long mask) {
        return names("cpu", mask);
    }

    /** The members of a bit mask over 0..n-1 as {prefix0, prefix2, ...}. */
    private String names(String prefix, long mask) {
        StringJoiner j = new StringJoiner(", ", "{", "}");
        for (int i = 0; i < n; i++) {
            if ((mask & (1L << i)) != 0) {
                j.add(prefix + i);
            }
        }
        return j.toString();
    }

    /** {@code mutual-exclusion}: no two CPUs hold one runqueue lock. */
    final class MutualExclusion extends Invariant {
        MutualExclusion() {
            super("mutual-exclusion", RqLockFactory.describe("mutual-exclusion"));
        }

        @Override
        public boolean holds(long[] s) {
            int seen = 0;
            for (int c = 0; c < n; c++) {
                int h = prog.held[lay.g(s, c)];
                if ((seen & h) != 0) {
                    return false;
                }
                seen |= h;
            }
            return true;
        }

        @Override
        public String explain(long[] s) {
            for (int l = 0; l < n; l++) {
                StringJoiner who = new StringJoiner(" and ");
                int count = 0;
                for (int c = 0; c < n; c++) {
                    if ((prog.held[lay.g(s, c)] & (1 << l)) != 0) {
                        who.add("CPU " + c);
                        count++;
                    }
                }
                if (count > 1) {
                    return who + " both hold rq[" + l + "]";
                }
            }
            return description();
        }
    }

    /** {@code holds-both-on-return}: on return the caller holds this_rq and busiest. */
    final class HoldsBothOnReturn extends StepProperty {
        HoldsBothOnReturn() {
            super("holds-both-on-return", RqLockFactory.describe("holds-both-on-return"));
        }

        private int need(long[] to, int actor) {
            return (1 << prog.config.lockp(actor)) | (1 << prog.config.lockp(prog.busiest[lay.g(to, actor)]));
        }

        @Override
        public boolean holds(long[] from, int actor, int action, long[] to) {
            int e = steps.edge(actor, action);
            if (e < 0 || prog.ret[e] < 0) {
                return true;
            }
            int need = need(to, actor);
            return (prog.held[lay.g(to, actor)] & need) == need;
        }

        @Override
        public String explain(long[] from, int actor, int action, long[] to) {
            return "CPU " + actor + " returns from double_lock_balance holding " + rqSet(prog.held[lay.g(to, actor)])
                    + ", not both the lock of rq" + actor + " and of rq" + prog.busiest[lay.g(to, actor)]
                    + " (" + rqSet(need(to, actor)) + ")";
        }
    }

    /** {@code return-contract}: return 0 implies this_rq was held throughout the call. */
    final class ReturnContract extends StepProperty {
        ReturnContract() {
            super("return-contract", RqLockFactory.describe("return-contract"));
        }

        @Override
        public boolean holds(long[] from, int actor, int action, long[] to) {
            int e = steps.edge(actor, action);
            return e < 0 || prog.ret[e] != 0 || !prog.dropped[lay.g(to, actor)];
        }

        @Override
        public String explain(long[] from, int actor, int action, long[] to) {
            return "CPU " + actor + " returns 0 from double_lock_balance although it released rq" + actor + " during the call";
        }
    }

    /**
     * {@code fifo-entry}: if CPU a, inside double_lock_balance, waits for lock L when CPU b
     * enters, b does not return holding L while a is still in that same wait.
     */
    final class FifoEntry extends StepProperty {
        FifoEntry() {
            super("fifo-entry", RqLockFactory.describe("fifo-entry"));
        }

        @Override
        public boolean holds(long[] from, int actor, int action, long[] to) {
            return victim(from, actor, action, to) < 0;
        }

        private int victim(long[] from, int actor, int action, long[] to) {
            int e = steps.edge(actor, action);
            if (e < 0 || prog.ret[e] < 0) {
                return -1;
            }
            long mask = lay.entryMask(from, actor);
            int heldAfter = prog.held[lay.g(to, actor)];
            for (int a = 0; a < n; a++) {
                if ((mask & (1L << a)) != 0) {
                    int l = lay.waitsFor(from, a);
                    if (l >= 0 && (heldAfter & (1 << l)) != 0) {
                        return a;
                    }
                }
            }
            return -1;
        }

        @Override
        public String explain(long[] from, int actor, int action, long[] to) {
            int a = victim(from, actor, action, to);
            int l = lay.waitsFor(from, a);
            return "CPU " + actor + " returns from double_lock_balance holding rq" + l + " while CPU " + a
                    + ", which was already waiting for rq" + l + " inside double_lock_balance when CPU " + actor
                    + " entered, still waits";
        }
    }

    /**
     * {@code lockdep-subclass}: no CPU takes an rq lock at a lockdep subclass at which it already
     * holds another rq lock (all rq locks are one lock class): what lockdep reports as "possible
     * recursive locking detected". Trylocks are not checked (lockdep does not check them either).
     */
    final class LockdepSubclass extends StepProperty {
        LockdepSubclass() {
            super("lockdep-subclass", RqLockFactory.describe("lockdep-subclass"));
        }

        @Override
        public boolean holds(long[] from, int actor, int action, long[] to) {
            int e = steps.edge(actor, action);
            return e < 0 || !prog.lockdep[e];
        }

        @Override
        public String explain(long[] from, int actor, int action, long[] to) {
            return prog.lockdepWhy[steps.edge(actor, action)];
        }
    }

    /**
     * {@code rq-clock-cleared}: when double_lock_balance returns, RQCF_UPDATED of this_rq and
     * busiest has been cleared since the CPU (re)took their locks, so the caller's
     * {@code update_rq_clock} on either does not trip WARN_DOUBLE_CLOCK (the caller itself updated
     * this_rq's clock before the call, and a lock taken with {@code raw_spin_rq_lock} keeps
     * whatever flags its previous holder left).
     */
    final class RqClockCleared extends StepProperty {
        RqClockCleared() {
            super("rq-clock-cleared", RqLockFactory.describe("rq-clock-cleared"));
        }

        @Override
        public boolean holds(long[] from, int actor, int action, long[] to) {
            int e = steps.edge(actor, action);
            return e < 0 || prog.ret[e] < 0 || !prog.clockStale[e];
        }

        @Override
        public String explain(long[] from, int actor, int action, long[] to) {
            return "CPU " + actor + " returns from double_lock_balance without clearing RQCF_UPDATED of rq" + actor + " and rq"
                    + prog.busiest[lay.g(from, actor)] + " since it took their locks: the caller's update_rq_clock() "
                    + "warns WARN_DOUBLE_CLOCK";
        }
    }


    /**
     * {@code starvation-free}: no fair run in which the watched CPU stays inside one
     * {@code spin_lock} for ever. The CPUs balance for ever ({@link RqLockLayout#forever}); the
     * watched CPU is part of the state (one initial state per CPU), so one cycle analysis covers
     * every CPU. A non-progress step is any step after which the watched CPU is still in the same
     * {@code spin_lock} it was in before. Fairness is weak fairness of the CPUs, as hardware
     * gives it: every CPU runs on every cycle (each CPU owes its class in every state and must
     * take a step of it on the cycle); a spinner whose condition is false runs its load (a spin
     * step, which changes nothing), so a lock that is only ever free at moments the spinner does
     * not look (a test-and-set lock) starves it, while a spinner whose condition holds has only
     * the step that ends its wait, which fairness forces.
     */
    final class StarvationFree extends Progress {
        StarvationFree() {
            super("starvation-free", RqLockFactory.describe("starvation-free"));
        }

        /** The instruction of the watched CPU if it is inside a spin_lock in {@code s}, else -1. */
        private int acquiring(long[] s) {
            int v = lay.victim.getInt(s);
            int g = lay.g(s, v);
            return prog.op[g] == RqLockProgram.LOCK ? g : -1;
        }

        @Override
        public boolean isProgress(long[] from, int actor, int action, long[] to) {
            int g = acquiring(from);
            return g < 0 || acquiring(to) != g;
        }

        @Override
        public boolean fair() {
            return true;
        }

        @Override
        public long owed(long[] s) {
            return (1L << n) - 1;
        }

        @Override
        public int stepClass(int actor, int action) {
            return actor;
        }
    }


    /**
     * {@code warn-unlock-unheld}: no CPU releases an rq lock it does not hold. lockdep's
     * {@code lock_release} reports it ("WARNING: bad unlock balance detected!",
     * kernel/locking/lockdep.c:5284, print_unlock_imbalance_bug) and CONFIG_DEBUG_SPINLOCK's
     * {@code debug_spin_unlock} BUGs ("already unlocked" / "wrong owner",
     * kernel/locking/spinlock_debug.c:101-102). A fact of each path of the recorded code: the held
     * set before the unlock.
     */
    final class WarnUnlockUnheld extends StepProperty {
        WarnUnlockUnheld() {
            super("warn-unlock-unheld", RqLockFactory.describe("warn-unlock-unheld"));
        }

        private boolean bad(int actor, int action) {
            int g = steps.instruction(actor, action);
            return prog.op[g] == RqLockProgram.UNLOCK && (prog.held[g] & (1 << prog.lock[g])) == 0;
        }

        @Override
        public boolean holds(long[] from, int actor, int action, long[] to) {
            return !bad(actor, action);
        }

        @Override
        public String explain(long[] from, int actor, int action, long[] to) {
            int g = steps.instruction(actor, action);
            return "CPU " + actor + " releases rq" + prog.lock[g] + " holding only " + rqSet(prog.held[g])
                    + ": lockdep's 'bad unlock balance detected', DEBUG_SPINLOCK's 'already unlocked' / 'wrong owner'";
        }
    }

    /**
     * {@code sanity-lock-word}: every rq lock's word means what its type says
     * ({@link RqSpinlock#insane}): ticket counters count the tickets taken, a qspinlock tail names a
     * queued CPU, its pending bit and locked byte have an owner.
     */
    final class SanityLockWord extends kcheck.model.Invariant {
        SanityLockWord() {
            super("sanity-lock-word", RqLockFactory.describe("sanity-lock-word"));
        }

        private String why(long[] s) {
            for (int l = 0; l < n; l++) {
                if (!prog.config.used(l)) {
                    continue;
                }
                String w = lay.spinlock.insane(view(s, l));
                if (w != null) {
                    return "rq" + l + ": " + w;
                }
            }
            return null;
        }

        private RqSpinlock.LockState view(long[] s, int l) {
            return new RqSpinlock.LockState() {
                @Override
                public int cpus() {
                    return n;
                }

                @Override
                public int word(int field) {
                    return lay.word[l][field].getInt(s);
                }

                @Override
                public int node(int cpu, int field) {
                    return lay.node[cpu][field].getInt(s);
                }

                @Override
                public int pc(int cpu) {
                    int g = lay.g(s, cpu);
                    return prog.op[g] <= RqLockProgram.UNLOCK && prog.lock[g] == l ? lay.sub[cpu].getInt(s) : -1;
                }

                @Override
                public int reg(int cpu, int field) {
                    return lay.reg[cpu][field].getInt(s);
                }

                @Override
                public boolean holds(int cpu) {
                    return (prog.held[lay.g(s, cpu)] & (1 << l)) != 0;
                }
            };
        }

        @Override
        public boolean holds(long[] s) {
            return why(s) == null;
        }

        @Override
        public String explain(long[] s) {
            String w = why(s);
            return w == null ? description() : w;
        }
    }

    /**
     * {@code bypass}: per CPU, the number of double_lock_balance returns by other CPUs while it
     * is inside its own call.
     */
    final class Bypass extends Metric {
        Bypass() {
            super("bypass", RqLockFactory.describe("bypass"));
        }

        @Override
        public int components() {
            return n;
        }

        @Override
        public String componentName(int c) {
            return "CPU " + c;
        }

        @Override
        public long value(long[] s, int c) {
            return lay.byp[c].get(s);
        }
    }

    /**
     * {@code overtake}: per CPU id, the largest number of times one of its double_lock_balance
     * waits is overtaken: a CPU that entered double_lock_balance while it was already waiting
     * returns holding the lock it still waits for (a {@code fifo-entry} violation with this CPU
     * as the victim).
     */
    final class Overtake extends Metric {
        Overtake() {
            super("overtake", RqLockFactory.describe("overtake"));
        }

        @Override
        public int components() {
            return n;
        }

        @Override
        public String componentName(int c) {
            return "CPU " + c;
        }

        @Override
        public long value(long[] s, int c) {
            return lay.ovt[c].get(s);
        }
    }
}
