package kcheck.model.rqlock;

import java.util.Arrays;

/**
 * Runs one {@link RqSpinlock} (one lock word) for a few CPUs outside the model, step by step, so
 * tests can drive its operations in any interleaving and look at its memory.
 */
public final class SpinlockHarness {
    final RqSpinlock lock;
    final int cpus;
    final RqSpinlock.Shape shape;
    public final int[] word;
    final int[][] node;
    public final int[][] reg;
    /** Each CPU's spinlock pc, -1 when it is not inside an operation. */
    public final int[] pc;

    public SpinlockHarness(RqSpinlock lock, int cpus) {
        this.lock = lock;
        this.cpus = cpus;
        this.shape = lock.shape(cpus);
        this.word = new int[shape.lockWord().size()];
        this.node = new int[cpus][shape.node().size()];
        this.reg = new int[cpus][shape.registers().size()];
        this.pc = new int[cpus];
        Arrays.fill(pc, -1);
    }

    /** CPU {@code cpu} starts {@code op}. */
    public void start(int cpu, RqSpinlock.Op op) {
        if (pc[cpu] >= 0) {
            throw new IllegalStateException("CPU " + cpu + " is inside an operation");
        }
        pc[cpu] = lock.entry(op);
    }

    /** One step of CPU {@code cpu}; returns the spinlock's result (a blocked step changes nothing). */
    public int step(int cpu) {
        int[] w = word.clone();
        int[][] nd = new int[cpus][];
        for (int c = 0; c < cpus; c++) {
            nd[c] = node[c].clone();
        }
        int[] r = reg[cpu].clone();
        int res = lock.step(pc[cpu], memory(cpu, w, nd, r));
        if (res == RqSpinlock.BLOCKED) {
            return res;
        }
        System.arraycopy(w, 0, word, 0, w.length);
        for (int c = 0; c < cpus; c++) {
            node[c] = nd[c];
        }
        reg[cpu] = r;
        if (res < 0) {
            Arrays.fill(reg[cpu], 0);
            pc[cpu] = -1;
        } else {
            pc[cpu] = res;
        }
        return res;
    }

    /** Runs CPU {@code cpu}'s {@code op} alone until it completes or blocks; returns DONE, FAILED or BLOCKED. */
    public int run(int cpu, RqSpinlock.Op op) {
        start(cpu, op);
        return resume(cpu);
    }

    /** Steps CPU {@code cpu} until its operation completes or blocks. */
    public int resume(int cpu) {
        for (int i = 0; i < 100; i++) {
            int r = step(cpu);
            if (r < 0) {
                return r;
            }
        }
        throw new IllegalStateException("no progress in 100 steps");
    }

    public int word(String field) {
        for (int i = 0; i < word.length; i++) {
            if (shape.lockWord().get(i).name().equals(field)) {
                return word[i];
            }
        }
        throw new IllegalArgumentException(field);
    }

    private RqSpinlock.Memory memory(int cpu, int[] w, int[][] nd, int[] r) {
        return new RqSpinlock.Memory() {
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
                return w[field];
            }

            @Override
            public void setWord(int field, int value) {
                w[field] = value & ((1 << shape.lockWord().get(field).bits()) - 1);
            }

            @Override
            public int node(int c, int field) {
                return nd[c][field];
            }

            @Override
            public void setNode(int c, int field, int value) {
                nd[c][field] = value;
            }

            @Override
            public int reg(int field) {
                return r[field];
            }

            @Override
            public void setReg(int field, int value) {
                r[field] = value;
            }
        };
    }
}
