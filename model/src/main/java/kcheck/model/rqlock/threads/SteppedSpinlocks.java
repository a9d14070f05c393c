package kcheck.model.rqlock.threads;

import kcheck.model.rqlock.RqSpinlock;

/**
 * The runqueue locks of {@code cpus} CPUs as one {@link RqSpinlock} machine (e.g. {@code QSpinlock})
 * on real threads: the same step functions the explicit-state model runs, each step executed
 * atomically (under one monitor, the hardware's atomic instruction), the spin loops outside it. A
 * thread spins by re-running a step that returns {@link RqSpinlock#BLOCKED} (which changes nothing).
 * Lock words, MCS nodes and each CPU's registers are plain arrays guarded by the monitor.
 */
public final class SteppedSpinlocks {
    private final RqSpinlock machine;
    private final int cpus;
    private final int[][] word;
    private final int[][] node;
    private final int[][] reg;

    public SteppedSpinlocks(RqSpinlock machine, int cpus) {
        this.machine = machine;
        this.cpus = cpus;
        RqSpinlock.Shape shape = machine.shape(cpus);
        this.word = new int[cpus][shape.lockWord().size()];
        this.node = new int[cpus][shape.node().size()];
        this.reg = new int[cpus][shape.registers().size()];
    }

    public RqSpinlock machine() {
        return machine;
    }

    /** One atomic step of {@code cpu}'s operation on {@code lock} at {@code pc}; its result. */
    public int step(int cpu, int lock, int pc) {
        synchronized (this) {
            int r = machine.step(pc, new Mem(cpu, lock));
            if (r < 0 && r != RqSpinlock.BLOCKED) {
                java.util.Arrays.fill(reg[cpu], 0);
            }
            return r;
        }
    }

    /** A CPU's view for one step (used only inside the monitor). */
    private final class Mem implements RqSpinlock.Memory {
        private final int cpu;
        private final int lock;

        Mem(int cpu, int lock) {
            this.cpu = cpu;
            this.lock = lock;
        }

        @Override
        public int cpu() {
            return cpu;
        }

        @Override
        public int cpus() {
            return cpus;
        }

        @Override
        public int word(int field) {
            return word[lock][field];
        }

        @Override
        public void setWord(int field, int value) {
            word[lock][field] = value;
        }

        @Override
        public int node(int c, int field) {
            return node[c][field];
        }

        @Override
        public void setNode(int c, int field, int value) {
            node[c][field] = value;
        }

        @Override
        public int reg(int field) {
            return reg[cpu][field];
        }

        @Override
        public void setReg(int field, int value) {
            reg[cpu][field] = value;
        }
    }

    @Override
    public String toString() {
        return machine.name() + java.util.Arrays.deepToString(word);
    }
}
