package kcheck.model.rwsem;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The v6.12 rwsem port's recorded programs (the graphs the rwsem-owner model executes, {@link ProgramRecorder})
 * as runs for {@code kcheck conform rwsem-owner}: one task runs {@code down_read} then {@code up_read}, or the
 * killable or writer forms, and each operation that reads shared memory or the environment finds a value of the
 * model's domain. A run is the values found (the driver's input) and the port's text; the C of the tree, given the
 * same values, must give the same text.
 *
 * <p>Which paths: from the start of the task up to its first acquisition of {@code sem->wait_lock} (the path ends
 * with that operation: what runs under wait_lock, the wait list and the sleep, is not compared yet), to the end of
 * its round, or to a count the model's domain does not hold (a count fault: the path ends after the step). At each
 * read every value of the domain is tried; the run goes on in full with one value per distinct next place of the
 * port (the first), and {@code horizon} operations further with the others (so a C that tells apart values the port
 * treats alike is seen at its next operations). A place may recur {@code loops} times on a path (spin loops); a
 * run cut short ends with {@code cut} and the C is compared up to the same number of operations.
 *
 * <p>In the text: each access to {@code sem->count}, {@code sem->owner} and {@code waiter.task} with its memory
 * ordering ({@link kcheck.model.MemoryOrder}: {@code atomic_long_add_return_acquire} is {@code RMW_ACQUIRE}), and
 * each barrier an operation of its own ({@code barrier rmb}): the programs are recorded with the port's
 * {@link RwSem#order} and {@link RwSem#barrier} calls ({@link ProgramRecorder#recordWithOrders}).
 * Not in the text: preemption (the graph does not keep it; a lockdep assertion that fails is), {@code waiter.handoff_set = false} (a plain store to the task's own stack). The reader-spin clock
 * check {@code !(++loop & 0xf) && sched_clock() > rspin_threshold}: the port reads the clock at every iteration,
 * the C at every 16th; an iteration where the deadline has not passed is the same in both (no text), and paths
 * where it passes are counted, not compared ({@link Stats#clockPaths}).
 */
public final class RwsemPaths {
    /**
     * One run: the driver's input line (without the hash), the port's text, whether it is cut short, and where in the
     * port each operation of the text is ({@link #where()}: the kernel function and line the port cites).
     */
    public record Run(String input, String text, boolean cut, TaskProgram program, int[] nodes) {
        /** For each operation of the text, the port's kernel citation (e.g. {@code rwsem_can_spin_on_owner, rwsem.c:703}). */
        public List<String> where() {
            List<String> out = new ArrayList<>();
            for (int n : nodes) {
                String w = program.where[n];
                out.add(program.function[n] + (w == null || w.isEmpty() ? "" : " (" + w.replace("kernel/locking/", "") + ")"));
            }
            return out;
        }
    }

    /** Counts of one enumeration. */
    public static final class Stats {
        public volatile long runs;
        public volatile long full;
        public volatile long cut;
        public volatile long atWaitLock;
        public volatile long clockPaths;
        public final Map<String, Long> perTask = new java.util.concurrent.ConcurrentHashMap<>();
    }

    /** The tasks a conform run covers: reader 0 and writer 0, each with the plain and the killable entry. */
    public static final List<String> TASKS = List.of("R", "r", "W", "w");

    private final RwsemDomain dom;
    private final int horizon;
    private final int loops;
    private final int maxOps;
    /** The program being walked, and the node of each operation of the text so far. */
    private TaskProgram program;
    private final int[] textNodes = new int[512];

    private RwsemPaths(RwsemDomain dom, int horizon, int loops, int maxOps) {
        this.dom = dom;
        this.horizon = horizon;
        this.loops = loops;
        this.maxOps = maxOps;
    }

    /**
     * Every run of the v6.12 port for {@code readers} readers and {@code writers} writers (the model's domains), for
     * reader 0 and writer 0 (plain and killable), passed to {@code sink}; returns the counts.
     */
    public static Stats forEach(int readers, int writers, int horizon, int loops, int maxOps, Stats s, Consumer<Run> sink) {
        if (readers < 1 || writers < 1) {
            throw new IllegalArgumentException("conform rwsem-owner needs at least one reader and one writer");
        }
        RwsemDomain dom = RwsemDomain.of(RwsemVariant.Encoding.BITS, readers, writers);
        RwsemPaths p = new RwsemPaths(dom, horizon, loops, maxOps);
        for (String t : TASKS) {
            boolean writer = Character.toUpperCase(t.charAt(0)) == 'W';
            boolean killable = Character.isLowerCase(t.charAt(0));
            /* reader 0 is task 0, writer 0 is task `readers` (RwsemBits.task: readers first); record() takes the number among its kind */
            int task = writer ? readers : 0;
            TaskProgram prog = ProgramRecorder.recordWithOrders(new RwsemV612(), "v6.12", dom, writer, 0, false, 1, killable, Wakeups.WAKE_Q);
            long before = s.runs;
            String head = t + " " + task + " " + (readers + writers) + " ";
            p.program = prog;
            try {
                p.walk(prog, prog.root, new int[prog.size], new ArrayList<>(), new ArrayList<>(), 0, Integer.MAX_VALUE, head, s, sink);
            } finally {
                s.perTask.put(t, s.runs - before);                  /* also when the sink stops the walk (a divergence) */
            }
        }
        return s;
    }

    private void walk(TaskProgram g, int n, int[] seen, List<String> text, List<String> entries, int ops, int budget, String head,
                      Stats s, Consumer<Run> sink) {
        Op op = g.op[n];
        if (g.fence[n] != null && op != Op.FAULT) {
            /* the barrier(s) before the operation: an operation of their own in the text, as the C's driver prints them */
            if (ops >= maxOps) {
                List<String> t = new ArrayList<>(text);
                t.add("cut");
                emit(head, ops, entries, t, true, ops, s, sink);
                return;
            }
            int added = 0;
            for (String f : g.fence[n].split(" ")) {
                text.add("barrier " + f);
                textNodes[ops + added++] = n;
            }
            try {
                walkOp(g, n, seen, text, entries, ops + added, budget, head, s, sink);
            } finally {
                for (int i = 0; i < added; i++) {
                    text.remove(text.size() - 1);
                }
            }
            return;
        }
        walkOp(g, n, seen, text, entries, ops, budget, head, s, sink);
    }

    /** The operation of node {@code n} (after its barriers, which {@link #walk} has put in the text). */
    private void walkOp(TaskProgram g, int n, int[] seen, List<String> text, List<String> entries, int ops, int budget, String head,
                        Stats s, Consumer<Run> sink) {
        Op op = g.op[n];
        if (op == Op.END) {
            List<String> t = new ArrayList<>(text);
            t.add("done");
            emit(head, -1, entries, t, false, ops, s, sink);
            return;
        }
        if (op == Op.FAULT || budget <= 0 || ops >= maxOps || seen[n] >= loops) {
            List<String> t = new ArrayList<>(text);
            t.add("cut");
            emit(head, ops, entries, t, true, ops, s, sink);
            return;
        }
        String line = text(g, n);
        if (op == Op.SPIN_LOCK || op == Op.SPIN_TRYLOCK) {
            List<String> t = new ArrayList<>(text);
            t.add(line);
            t.add("cut");
            s.atWaitLock++;
            textNodes[ops] = n;
            emit(head, ops + 1, entries, t, true, ops + 1, s, sink);
            return;
        }
        if (op == Op.RSPIN_PASSED) {
            /* outcome 0: no text on either side; outcome 1: not compared (the C reads the clock every 16th iteration) */
            if (g.edges[n * g.slots + 1] >= 0) {
                s.clockPaths++;
            }
            int next = g.edges[n * g.slots];
            if (next >= 0) {
                seen[n]++;
                walk(g, next, seen, text, entries, ops, budget, head, s, sink);
                seen[n]--;
            }
            return;
        }
        seen[n]++;
        int outcomes = dom.outcomes(op);
        java.util.Set<Integer> nextSeen = new java.util.HashSet<>();
        boolean reads = entryKind(op) != 0;
        boolean blind = op == Op.COUNT_ADD;
        for (int o = 0; o < outcomes; o++) {
            int next = g.edges[n * g.slots + o];
            if (next < 0) {
                continue;
            }
            boolean first = nextSeen.add(next);
            if (blind && !first) {
                continue;
            }
            if (line != null) {
                text.add(line);
                textNodes[ops] = n;
            }
            if (reads) {
                entries.add(entry(op, o));
            }
            /* in full: the first value per next place goes on in full, the others for the horizon; within a horizon, the
             * first goes on, the others show their next operation only */
            int b = budget == Integer.MAX_VALUE ? (first ? budget : horizon) : first ? budget - 1 : Math.min(1, budget - 1);
            walk(g, next, seen, text, entries, line == null ? ops : ops + 1, b, head, s, sink);
            if (reads) {
                entries.remove(entries.size() - 1);
            }
            if (line != null) {
                text.remove(text.size() - 1);
            }
        }
        seen[n]--;
    }

    private void emit(String head, int ops, List<String> entries, List<String> text, boolean cut, int nodes, Stats s, Consumer<Run> sink) {
        s.runs++;
        if (cut) {
            s.cut++;
        } else {
            s.full++;
        }
        StringBuilder in = new StringBuilder(head).append(ops).append(' ').append(entries.size());
        for (String e : entries) {
            in.append(' ').append(e);
        }
        sink.accept(new Run(in.toString(), String.join(" ; ", text), cut, program, java.util.Arrays.copyOf(textNodes, nodes)));
    }

    /** 'c' a count, 'o' an owner, 'b' a boolean, '-' a read whose value the port does not use; 0: no read. */
    private static char entryKind(Op op) {
        return switch (op) {
            case COUNT_READ, COUNT_ADD_RETURN, COUNT_FETCH_ADD, COUNT_CMPXCHG -> 'c';
            case COUNT_ADD, ARM_TIMEOUT, ARM_RSPIN -> '-';
            case OWNER_READ, OWNER_CMPXCHG -> 'o';
            case ON_CPU, OSQ_LOCK, OSQ_IS_LOCKED, NEED_RESCHED, SIGNAL_PENDING, TIMED_OUT, LOAD_TASK -> 'b';
            default -> 0;
        };
    }

    private String entry(Op op, int o) {
        return switch (entryKind(op)) {
            case 'c' -> "c" + Long.toHexString(dom.countValue(o));
            case 'o' -> "o" + Long.toHexString(dom.ownerValue(o));
            case 'b' -> "b" + o;
            default -> "-";
        };
    }

    /**
     * The port's operation as the driver prints the C's, with the memory ordering the port gives it where it is an access
     * to sem->count, sem->owner or waiter.task; null for one that is no operation of the C.
     */
    private static String text(TaskProgram g, int n) {
        String t = operation(g, n);
        return t == null || !ordered(g.op[n]) ? t : t + " " + g.order[n];
    }

    /** The accesses the driver prints with their ordering. */
    private static boolean ordered(Op op) {
        return switch (op) {
            case COUNT_READ, COUNT_ADD_RETURN, COUNT_FETCH_ADD, COUNT_ADD, COUNT_CMPXCHG, COUNT_OR, COUNT_ANDNOT, OWNER_READ, OWNER_WRITE,
                 OWNER_CMPXCHG, OWNER_OR, OWNER_ANDNOT, LOAD_TASK, CLEAR_TASK -> true;
            default -> false;
        };
    }

    private static String operation(TaskProgram g, int n) {
        long a0 = g.arg0[n];
        long a1 = g.arg1[n];
        return switch (g.op[n]) {
            case COUNT_READ -> "count load";
            case COUNT_ADD_RETURN -> "count add_return " + hex(a0);
            case COUNT_FETCH_ADD -> "count fetch_add " + hex(a0);
            case COUNT_ADD -> "count add " + hex(a0);
            case COUNT_CMPXCHG -> "count cmpxchg " + hex(a0) + " " + hex(a1);
            case COUNT_OR -> "count or " + hex(a0);
            case COUNT_ANDNOT -> "count andnot " + hex(a0);
            case OWNER_READ -> "owner load";
            case OWNER_WRITE -> "owner store " + owner(a0);
            case OWNER_CMPXCHG -> "owner cmpxchg " + owner(a0) + " " + owner(a1);
            case OWNER_OR -> "owner or " + hex(a0);
            case OWNER_ANDNOT -> "owner andnot " + hex(a0);
            case ON_CPU -> "on_cpu " + owner(a0);
            case OSQ_LOCK -> "osq_lock";
            case OSQ_UNLOCK -> "osq_unlock";
            case OSQ_IS_LOCKED -> "osq_is_locked";
            case SPIN_LOCK -> "wait_lock lock";
            case SPIN_TRYLOCK -> "wait_lock trylock";
            case SPIN_UNLOCK -> "wait_lock unlock";
            case SCHEDULE -> "schedule";
            case NEED_RESCHED -> "need_resched";
            case SIGNAL_PENDING -> "signal_pending";
            case TIMED_OUT, ARM_TIMEOUT -> "jiffies";
            case ARM_RSPIN -> "sched_clock";
            case SET_STATE -> "set_current_state";
            case LOAD_TASK -> "waiter.task load";
            case HANDOFF_INIT -> null;
            case WARN -> a0 == Op.Fault.PREEMPTIBLE.ordinal() ? "warn preemption enabled" : "warn wait_lock not held";
            default -> g.op[n].name().toLowerCase(Locale.ROOT);
        };
    }

    static String hex(long v) {
        return Long.toHexString(v);
    }

    /** An owner word as the driver prints it: {@code 0}, {@code tN}, with {@code |R} (RWSEM_READER_OWNED), {@code |N}. */
    public static String ownerText(long v) {
        return owner(v);
    }

    static String owner(long v) {
        int t = RwsemBits.taskIndex(v);
        StringBuilder b = new StringBuilder(t < 0 ? "0" : "t" + t);
        if ((v & 1) != 0) {
            b.append("|R");
        }
        if ((v & 2) != 0) {
            b.append("|N");
        }
        if ((v & 4) != 0) {
            b.append("|4");
        }
        return b.toString();
    }
}
