package kcheck.model.rqlock;

import java.util.List;

import kcheck.model.Layout;
import kcheck.model.ModelLimitException;
import kcheck.model.Params;

/**
 * The packed state of the rq-lock model and how to read it.
 *
 * <p>Per CPU: its program counter into its {@link RqLockProgram}, the pc of the spinlock operation
 * it is in ({@code sub}), the spinlock's registers, its round (only with {@code rounds > 1}), its
 * spinlock node fields (qspinlock's MCS node). Per runqueue lock: the spinlock's lock word fields.
 * Monitors, only when a selected property needs them: per CPU the set of CPUs that were waiting
 * inside {@code double_lock_balance} when it entered and still are in that same wait
 * ({@code fifo-entry}, {@code overtake}), its bypass count ({@code bypass}) and overtake count
 * ({@code overtake}). Monitors are reset as soon as they are dead.
 */
final class RqLockLayout {
    final RqLockProgram prog;
    final RqSpinlock spinlock;
    final RqSpinlock.Shape shape;
    final int n;
    final int rounds;
    final boolean fifo;
    final boolean bypass;
    final boolean overtake;
    /**
     * {@code starvation-free} is selected: the CPUs balance for ever (after its last pass a CPU
     * starts again), a CPU whose spin loop finds its condition false takes a spin step (a real
     * load, no change), and the state names the CPU whose starvation the cycle analysis looks for.
     */
    final boolean forever;
    /** {@code sanity-lock-word} is selected: it reads every lock word, so every lock step is visible to it. */
    final boolean sanity;

    final Layout.Field[] pc;
    final Layout.Field[] sub;
    final Layout.Field[] round;
    final Layout.Field[][] reg;
    final Layout.Field[][] word;
    final Layout.Field[][] node;
    final Layout.Field[] fifoMask;
    /**
     * {@code fifo-monitor=one} (a reduction, only for {@code fifo-entry} without {@code overtake}):
     * instead of a waiting-at-entry set per CPU, the state keeps one: that of the call the monitor
     * watches, chosen at the call ({@link #watch}: the CPU + 1, 0 for none). See {@link #entryMask}.
     */
    final boolean watchOne;
    final Layout.Field watch;
    final Layout.Field watchMask;
    final Layout.Field[] byp;
    final Layout.Field[] ovt;
    /** With {@link #forever}: the CPU the starvation-free cycle analysis watches (fixed per initial state). */
    final Layout.Field victim;
    /** The largest bypass / overtake count kept: the finite runs' bound, plus one (meaning "more") with {@link #forever}. */
    final long metricCap;
    final int width;

    RqLockLayout(RqLockProgram prog, Params params, java.util.Set<String> selected) {
        this.prog = prog;
        this.spinlock = prog.spinlock;
        this.n = prog.cpus;
        this.shape = spinlock.shape(n);
        this.rounds = params.integer("rounds");
        this.overtake = selected.contains("overtake");
        this.fifo = selected.contains("fifo-entry") || overtake;
        this.bypass = selected.contains("bypass");
        this.forever = selected.contains("starvation-free");
        this.sanity = selected.contains("sanity-lock-word");
        this.watchOne = fifo && !overtake && params.get("fifo-monitor").equals("one");
        int calls = prog.callsPerPass();

        Layout layout = new Layout();
        pc = new Layout.Field[n];
        sub = new Layout.Field[n];
        round = new Layout.Field[n];
        reg = new Layout.Field[n][];
        word = new Layout.Field[n][];
        node = new Layout.Field[n][];
        fifoMask = new Layout.Field[n];
        byp = new Layout.Field[n];
        ovt = new Layout.Field[n];
        for (int c = 0; c < n; c++) {
            pc[c] = layout.fieldFor(prog.size(c) - 1);
            round[c] = layout.fieldFor(rounds - 1);
            reg[c] = fields(layout, shape.registers());
            sub[c] = layout.fieldFor(spinlock.pcs() - 1);
        }
        for (int l = 0; l < n; l++) {
            word[l] = fields(layout, shape.lockWord());
        }
        for (int c = 0; c < n; c++) {
            node[c] = fields(layout, shape.node());
        }
        long bound = (long) rounds * calls * (n - 1) + (forever ? 1 : 0);
        metricCap = bound;
        for (int c = 0; c < n; c++) {
            fifoMask[c] = layout.field(fifo && !watchOne ? n : 0);
            /* with starvation-free the runs are infinite: one more value, the cap, stands for "more than a finite run allows" */
            byp[c] = layout.fieldFor(bypass ? bound : 0);
            ovt[c] = layout.fieldFor(overtake ? bound : 0);
        }
        /* 0: no call watched; c + 1: CPU c's call */
        watch = layout.fieldFor(watchOne ? n : 0);
        watchMask = layout.field(watchOne ? n : 0);
        victim = layout.fieldFor(forever ? n - 1 : 0);
        width = layout.words();
    }

    private static Layout.Field[] fields(Layout layout, List<RqSpinlock.Field> spec) {
        Layout.Field[] out = new Layout.Field[spec.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = layout.field(spec.get(i).bits());
        }
        return out;
    }

    /** The global instruction index of CPU {@code c} in state {@code s}. */
    int g(long[] s, int c) {
        return prog.base[c] + pc[c].getInt(s);
    }

    /**
     * The CPUs that were waiting, inside double_lock_balance, for a lock CPU {@code c}'s call can
     * return with when {@code c} entered, and still are in that same wait ({@code fifo-entry}'s
     * monitor). With {@link #watchOne} only the watched call has one; every other call's is empty.
     * That is exact: a run that breaks fifo-entry at some call is, with the same steps, a run in
     * which that call is the watched one (each call is watched or not, as the search chooses, when
     * no other call is watched; the watch ends when its set empties or the call returns), and the
     * watched set is the one the call's own monitor would hold.
     */
    long entryMask(long[] s, int c) {
        if (!watchOne) {
            return fifoMask[c].get(s);
        }
        return watch.getInt(s) == c + 1 ? watchMask.get(s) : 0;
    }

    /** Sets CPU {@code c}'s set to a subset of what it was ({@link #entryMask}); an empty watched set ends the watch. */
    void narrowEntryMask(long[] s, int c, long mask) {
        if (!watchOne) {
            fifoMask[c].set(s, mask);
        } else if (watch.getInt(s) == c + 1) {
            watchMask.set(s, mask);
            if (mask == 0) {
                watch.set(s, 0);
            }
        }
    }

    /** The lock CPU {@code c} waits for inside double_lock_balance in {@code s}, or -1. */
    int waitsFor(long[] s, int c) {
        return prog.waitsFor(g(s, c), sub[c].getInt(s));
    }

    /**
     * A view of a state array as the spinlock's memory, for one CPU's step on one lock, or for
     * canonicalisation. Checks every access against the lock's declared footprint and every
     * stored value against its field's width.
     */
    final class Memory implements RqSpinlock.Memory, RqSpinlock.Canonical {
        /** An access to the caller's own node: satisfies a declared OWN_NODE or NODES footprint. */
        static final long OWN = 1L << 60;
        /** Reads come from {@code src} until the first write copies it into {@code s} (a blocked spin copies nothing). */
        long[] s;
        private long[] src;
        private boolean copied;
        int cpu;
        int lock;
        long touched;

        /** Reads and writes on {@code state} itself. */
        Memory bind(long[] state, int cpu, int lock) {
            this.s = state;
            this.src = state;
            this.copied = true;
            this.cpu = cpu;
            this.lock = lock;
            this.touched = 0;
            return this;
        }

        /** Reads {@code from}; the first write copies it into {@code to} and goes there ({@link #commit} finishes the copy). */
        Memory bind(long[] from, long[] to, int cpu, int lock) {
            this.s = to;
            this.src = from;
            this.copied = false;
            this.cpu = cpu;
            this.lock = lock;
            this.touched = 0;
            return this;
        }

        /** Makes {@code to} the full successor state (copies {@code from} if nothing was written). */
        void commit() {
            if (!copied) {
                System.arraycopy(src, 0, s, 0, s.length);
                copied = true;
            }
        }

        private long[] w() {
            if (!copied) {
                System.arraycopy(src, 0, s, 0, s.length);
                copied = true;
            }
            return s;
        }

        private long[] r() {
            return copied ? s : src;
        }

        @Override
        public int cpu() {
            return cpu;
        }

        @Override
        public int cpus() {
            return n;
        }

        @Override
        public int word(int field) {
            touched |= 1L << field;
            return word[lock][field].getInt(r());
        }

        @Override
        public void setWord(int field, int value) {
            touched |= 1L << field;
            Layout.Field f = word[lock][field];
            if (value < 0 || value > f.max()) {
                throw tooWide(value, shape.lockWord().get(field), "the lock word of rq[" + lock + "]");
            }
            f.set(w(), value);
        }

        @Override
        public int node(int cpu, int field) {
            touched |= cpu == this.cpu ? OWN : RqSpinlock.NODES;
            checkCpu(cpu);
            return node[cpu][field].getInt(r());
        }

        @Override
        public void setNode(int cpu, int field, int value) {
            touched |= cpu == this.cpu ? OWN : RqSpinlock.NODES;
            checkCpu(cpu);
            Layout.Field f = node[cpu][field];
            if (value < 0 || value > f.max()) {
                throw tooWide(value, shape.node().get(field), "the node of CPU " + cpu);
            }
            f.set(w(), value);
        }

        @Override
        public int reg(int field) {
            return reg[cpu][field].getInt(r());
        }

        @Override
        public void setReg(int field, int value) {
            Layout.Field f = reg[cpu][field];
            if (value < 0 || value > f.max()) {
                throw tooWide(value, shape.registers().get(field), "a register of CPU " + cpu);
            }
            f.set(w(), value);
        }

        /* Canonical */

        @Override
        public int locks() {
            return n;
        }

        @Override
        public int word(int lock, int field) {
            return word[lock][field].getInt(s);
        }

        @Override
        public void setWord(int lock, int field, int value) {
            word[lock][field].set(s, value);
        }

        @Override
        public int opLock(int c) {
            int g = g(s, c);
            return prog.op[g] <= RqLockProgram.UNLOCK ? prog.lock[g] : -1;
        }

        @Override
        public int pc(int c) {
            return sub[c].getInt(s);
        }

        @Override
        public int reg(int c, int field) {
            return reg[c][field].getInt(s);
        }

        @Override
        public void setReg(int c, int field, int value) {
            reg[c][field].set(s, value);
        }

        private void checkCpu(int c) {
            if (c < 0 || c >= n) {
                throw new ModelLimitException("rq-lock: spinlock '" + spinlock.name() + "' accessed the node of CPU " + c
                        + ", which does not exist (cpus=" + n + ")");
            }
        }

        /* the message is built only when the limit is hit: a store in range allocates nothing */
        private ModelLimitException tooWide(int value, RqSpinlock.Field spec, String where) {
            return new ModelLimitException("rq-lock packs " + spec.name() + " of " + where + " in " + spec.bits()
                    + " bits: spinlock '" + spinlock.name() + "' stored " + value);
        }
    }
}
