package kcheck.model.rqlock;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

import kcheck.model.MemoryOrder;

/**
 * The recorded program of the qspinlock port ({@link QSpinlock}, v6.12, x86) as paths, for
 * comparison with the kernel's own qspinlock.c ({@code kcheck conform rq-lock}). One CPU runs
 * {@code queued_spin_lock}, {@code queued_spin_trylock} or {@code queued_spin_unlock} alone; the
 * other CPUs are the environment, so every load and read-modify-write may find any value: each
 * field of the lock word (locked, pending, tail) and each MCS node field the port reads is a
 * branch point over its whole domain (locked and pending 0 or 1, tail and next 0 or a CPU + 1,
 * node locked 0 or 1). A spin whose condition fails is no step: the path ends there ("spins").
 *
 * <p>A path is the port's steps as text, one access each, e.g.
 * {@code val rmw RMW_ACQUIRE w=L=1 P=0 T=0 ; done} or {@code wmb; val rmw RMW_RELAXED w=T=1 ; ...},
 * and its script: the values its loads found, one entry per access that reads ({@code wL.P.T} for
 * the lock word, {@code nV} for a node field). Fields of the lock word the port does not read at an
 * access carry the value last seen on the path; a <em>variant</em> run changes one of them (once
 * per distinct prefix), and must give the same text: the C may not depend on a field the port
 * ignores.
 */
public final class QspinlockPaths {
    private QspinlockPaths() {
    }

    /** One run for the C driver: the operation (L, T, U), the CPU, the CPU count, the script and the port's text. */
    public record Run(char op, int cpu, int cpus, List<String> script, String text, boolean variant) {
        /** The driver's input line. */
        public String input() {
            return op + " " + cpu + " " + cpus + " " + script.size() + (script.isEmpty() ? "" : " " + String.join(" ", script));
        }
    }

    /** Every path of every operation of every CPU of {@code cpus}, and the variant runs, in a fixed order. */
    public static void forEach(int cpus, Consumer<Run> sink) {
        QSpinlock q = new QSpinlock();
        for (int cpu = 0; cpu < cpus; cpu++) {
            for (RqSpinlock.Op op : RqSpinlock.Op.values()) {
                char c = switch (op) {
                    case LOCK -> 'L';
                    case TRYLOCK -> 'T';
                    case UNLOCK -> 'U';
                };
                explore(q, op, c, cpu, cpus, new ArrayList<>(), new HashSet<>(), sink);
            }
        }
    }

    /** A branch point: the script has no value for the access the port makes next. */
    private static final class Branch extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final int domain;

        Branch(int domain) {
            super(null, null, false, false);
            this.domain = domain;
        }
    }

    private static void explore(QSpinlock q, RqSpinlock.Op op, char c, int cpu, int cpus, List<Integer> choices, Set<String> varied,
            Consumer<Run> sink) {
        Recorder m = new Recorder(choices, cpu, cpus);
        int pc = q.entry(op);
        try {
            while (pc >= 0) {
                m.beginStep();
                pc = q.step(pc, m);
                m.endStep();
            }
        } catch (Branch b) {
            for (int v = 0; v < b.domain; v++) {
                List<Integer> next = new ArrayList<>(choices);
                next.add(v);
                explore(q, op, c, cpu, cpus, next, varied, sink);
            }
            return;
        }
        String end = pc == RqSpinlock.BLOCKED ? "spins"
                : op == RqSpinlock.Op.TRYLOCK ? "return " + (pc == RqSpinlock.DONE ? 1 : 0) : "done";
        String text = m.text + end;
        sink.accept(new Run(c, cpu, cpus, List.copyOf(m.script), text, false));
        /* variants: one unread field of one lock-word entry changed, once per distinct prefix */
        for (int i = 0; i < m.script.size(); i++) {
            String e = m.script.get(i);
            if (e.charAt(0) != 'w') {
                continue;
            }
            boolean[] read = m.readFields.get(i);
            String[] parts = e.substring(1).split("\\.");
            for (int f = 0; f < 3; f++) {
                if (read[f]) {
                    continue;
                }
                String key = c + " " + cpu + " " + String.join(" ", m.script.subList(0, i + 1)) + " " + f;
                if (!varied.add(key)) {
                    continue;
                }
                String[] changed = parts.clone();
                int v = Integer.parseInt(parts[f]);
                changed[f] = Integer.toString(f == QSpinlock.TAIL ? (v + 1) % (cpus + 1) : 1 - v);
                List<String> script = new ArrayList<>(m.script);
                script.set(i, "w" + String.join(".", changed));
                sink.accept(new Run(c, cpu, cpus, script, text, true));
            }
        }
    }

    /** The port's memory for one CPU: reads take values from the choices, every access is recorded as text. */
    private static final class Recorder implements RqSpinlock.Memory {
        final List<Integer> choices;
        final int cpu;
        final int cpus;
        int next;
        final int[] word = new int[3];
        final int[] reg = new int[3];
        final List<String> script = new ArrayList<>();
        final List<boolean[]> readFields = new ArrayList<>();
        final StringBuilder text = new StringBuilder();

        /* the step being run */
        MemoryOrder order;
        String fence;
        int wordEntry;
        boolean[] wordRead;
        final int[] wordFound = new int[3];
        int[] wordWritten;
        String nodeLoad;
        String nodeStore;
        int nodeStoreValue;

        Recorder(List<Integer> choices, int cpu, int cpus) {
            this.choices = choices;
            this.cpu = cpu;
            this.cpus = cpus;
        }

        void beginStep() {
            order = null;
            fence = null;
            wordEntry = -1;
            wordRead = new boolean[3];
            wordWritten = new int[] {-1, -1, -1};
            nodeLoad = null;
            nodeStore = null;
        }

        void endStep() {
            StringBuilder op = new StringBuilder();
            if (fence != null) {
                op.append(fence).append("; ");
            }
            String o = order == null ? "?" : order.name();
            boolean wrote = wordWritten[0] >= 0 || wordWritten[1] >= 0 || wordWritten[2] >= 0;
            if (wordEntry >= 0 || wrote) {
                op.append("val ").append(wordEntry >= 0 ? wrote ? "rmw" : "load" : "store").append(' ').append(o);
                if (wrote) {
                    op.append(" w=");
                    String sep = "";
                    String[] names = {"L", "P", "T"};
                    for (int f = 0; f < 3; f++) {
                        if (wordWritten[f] >= 0) {
                            op.append(sep).append(names[f]).append('=').append(wordWritten[f]);
                            sep = " ";
                        }
                    }
                }
                if (wordEntry >= 0) {
                    String[] parts = script.get(wordEntry).substring(1).split("\\.");
                    for (int f = 0; f < 3; f++) {
                        if (wordRead[f]) {
                            parts[f] = Integer.toString(wordFound[f]);
                        }
                    }
                    script.set(wordEntry, "w" + String.join(".", parts));
                    readFields.set(wordEntry, wordRead.clone());
                }
            } else if (nodeLoad != null) {
                op.append(nodeLoad).append(" load ").append(o);
            } else if (nodeStore != null) {
                op.append(nodeStore).append(" store ").append(o).append(" w=").append(nodeStoreValue);
            } else {
                return;
            }
            text.append(op).append(" ; ");
        }

        private int choose(int domain) {
            if (next >= choices.size()) {
                throw new Branch(domain);
            }
            return choices.get(next++);
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
            if (wordEntry < 0) {
                wordEntry = script.size();
                script.add("w" + word[0] + "." + word[1] + "." + word[2]);
                readFields.add(new boolean[3]);
            }
            if (!wordRead[field] && wordWritten[field] < 0) {
                wordRead[field] = true;
                word[field] = choose(field == QSpinlock.TAIL ? cpus + 1 : 2);
                wordFound[field] = word[field];
            }
            return word[field];
        }

        @Override
        public void setWord(int field, int value) {
            word[field] = value;
            wordWritten[field] = value;
        }

        @Override
        public int node(int c, int field) {
            int v = choose(field == QSpinlock.N_LOCKED ? 2 : cpus + 1);
            script.add("n" + v);
            readFields.add(null);
            nodeLoad = "node" + c + "." + (field == QSpinlock.N_LOCKED ? "locked" : "next");
            return v;
        }

        @Override
        public void setNode(int c, int field, int value) {
            nodeStore = "node" + c + "." + (field == QSpinlock.N_LOCKED ? "locked" : "next");
            nodeStoreValue = value;
        }

        @Override
        public int reg(int field) {
            return reg[field];
        }

        @Override
        public void setReg(int field, int value) {
            reg[field] = value;
        }

        @Override
        public void order(MemoryOrder o) {
            order = o;
        }

        @Override
        public void barrier(String f) {
            fence = f;
        }
    }
}
