package kcheck.model.rwsem;

/**
 * One task's recorded program, as primitive tables for the model's inner loop: per node its
 * operation and arguments, what the task holds and which kernel functions it is in while it
 * stands there ({@link #attrs}), the kernel citation, and for each outcome of the operation the
 * next node ({@code -1}: the outcome is impossible).
 */
final class TaskProgram {
    /* what the task holds while at the node */
    static final int HOLDS = 1;
    static final int WAIT_LOCK = 1 << 1;
    static final int OSQ = 1 << 2;
    static final int PREEMPT_OFF = 1 << 3;
    static final int ENQUEUED = 1 << 4;
    /* kernel functions on the stack at the node */
    static final int IN_CAN_SPIN = 1 << 5;
    static final int IN_OPT_SPIN = 1 << 6;
    static final int IN_TRYLOCK_UNQUEUED = 1 << 7;
    static final int IN_DOWN_READ = 1 << 8;
    static final int IN_DOWN_WRITE = 1 << 9;
    static final int IN_UP_WRITE = 1 << 10;
    static final int IN_UP_READ = 1 << 11;
    /** In a slow path that may read need_resched: rwsem_down_write_failed (v4.x), rwsem_down_{read,write}_slowpath (v5.3+). */
    static final int IN_SLOW_PATH = 1 << 12;
    /* derived from the graph */
    /** A reader in down_read that may still store the owner before it returns. */
    static final int OWNER_STORE_PENDING = 1 << 13;
    /** need_resched may still be read before the task leaves the write slow path's spinning part. */
    static final int RESCHED_LIVE = 1 << 14;
    /** Between two lock rounds: no operation of this down_read/down_write has run yet (the task may stay idle). */
    static final int IDLE = 1 << 15;
    /** The task's wake queue is not empty (recorded only: wake_q_empty() reads it). */
    static final int WAKE_Q = 1 << 16;
    /** In rwsem_spin_on_owner(). */
    static final int IN_SPIN_ON_OWNER = 1 << 17;
    /** Derived: in rwsem_optimistic_spin() after a reader-spin deadline was armed (the deadline may pass). */
    static final int RSPIN_ARMED = 1 << 18;
    /**
     * Derived: a load of count or owner whose value the code does not act on (every possible outcome leads to the
     * same next node, with the same attributes): it changes nothing another task or a property can see, so the
     * model folds it into the step before (a stutter step; e.g. rwsem_mark_wake()'s "count < 0" test, which no
     * modelled count passes).
     */
    static final int STUTTER = 1 << 19;
    /**
     * wakeups=wake-q: the task's state is TASK_UNINTERRUPTIBLE (or killable): from its set_current_state() in a wait
     * loop until schedule() returns or the loop ends; only then does a wake_up_process() of it have an effect.
     */
    static final int SLEEPING_STATE = 1 << 20;

    /** Kernel function names and their bits. */
    static final String[] FUNCTIONS = {"rwsem_can_spin_on_owner", "rwsem_optimistic_spin", "rwsem_try_write_lock_unqueued",
        "down_read", "down_write", "up_write", "up_read", "rwsem_down_write_failed", "rwsem_down_write_slowpath",
        "rwsem_down_read_slowpath", "rwsem_spin_on_owner", "down_read_killable", "down_write_killable"};
    static final int[] FUNCTION_BITS = {IN_CAN_SPIN, IN_OPT_SPIN, IN_TRYLOCK_UNQUEUED, IN_DOWN_READ, IN_DOWN_WRITE,
        IN_UP_WRITE, IN_UP_READ, IN_SLOW_PATH, IN_SLOW_PATH, IN_SLOW_PATH, IN_SPIN_ON_OWNER, IN_DOWN_READ, IN_DOWN_WRITE};

    final int size;
    final int root;
    /** Outcome slots per node (the domain's largest). */
    final int slots;
    final Op[] op;
    final long[] arg0;
    final long[] arg1;
    final int[] attrs;
    /** {@code edges[node * slots + outcome]}. */
    final int[] edges;
    /** Innermost kernel function at the node, e.g. {@code rwsem_spin_on_owner}. */
    final String[] function;
    /** Kernel citation of the node: function (file, version) and its callers. */
    final String[] cite;
    /** Where the reference code makes the call, e.g. {@code RwsemV48.java:312} (tells nodes apart; never printed). */
    final String[] site;
    /** The kernel file, line (when confirmed) and version of the innermost function, e.g. {@code kernel/locking/rwsem.c:1163, v6.12}. */
    final String[] where;
    /**
     * The memory ordering the port gives each node's operation ({@link RwSem#order}), or null; null throughout unless
     * recorded for {@code kcheck conform} ({@link ProgramRecorder#recordWithOrders}).
     */
    final kcheck.model.MemoryOrder[] order;
    /** The barrier(s) the port executes before each node's operation ({@link RwSem#barrier}), or null; as {@link #order}. */
    final String[] fence;

    TaskProgram(int root, int slots, Op[] op, long[] arg0, long[] arg1, int[] attrs, int[] edges, String[] function, String[] cite,
                String[] site, String[] where, kcheck.model.MemoryOrder[] order, String[] fence) {
        this.size = op.length;
        this.root = root;
        this.slots = slots;
        this.op = op;
        this.arg0 = arg0;
        this.arg1 = arg1;
        this.attrs = attrs;
        this.edges = edges;
        this.function = function;
        this.cite = cite;
        this.site = site;
        this.where = where;
        this.order = order;
        this.fence = fence;
        deriveOwnerStorePending();
        deriveReschedLive();
        deriveRspinArmed();
        deriveStutter();
    }

    private void deriveStutter() {
        for (int n = 0; n < size; n++) {
            if (op[n] != Op.COUNT_READ && op[n] != Op.OWNER_READ) {
                continue;
            }
            int only = -1;
            boolean same = true;
            for (int o = 0; o < slots && same; o++) {
                int t = edges[n * slots + o];
                if (t < 0) {
                    continue;
                }
                same = only < 0 || only == t;
                only = t;
            }
            if (same && only >= 0 && only != n && (attrs[only] & ~DERIVED) == (attrs[n] & ~DERIVED)) {
                attrs[n] |= STUTTER;
            }
        }
    }

    /** The attributes derived from the graph (not what the task holds or where it is). */
    private static final int DERIVED = OWNER_STORE_PENDING | RESCHED_LIVE | RSPIN_ARMED | STUTTER;

    /** The program performs {@code o} somewhere. */
    boolean uses(Op o) {
        for (Op x : op) {
            if (x == o) {
                return true;
            }
        }
        return false;
    }

    /** Nodes of rwsem_optimistic_spin reachable from an armed reader-spin deadline without leaving it. */
    private void deriveRspinArmed() {
        java.util.ArrayDeque<Integer> todo = new java.util.ArrayDeque<>();
        for (int n = 0; n < size; n++) {
            if (op[n] == Op.ARM_RSPIN) {
                todo.add(n);
            }
        }
        while (!todo.isEmpty()) {
            int n = todo.poll();
            for (int o = 0; o < slots; o++) {
                int t = edges[n * slots + o];
                if (t >= 0 && has(t, IN_OPT_SPIN) && !has(t, RSPIN_ARMED)) {
                    attrs[t] |= RSPIN_ARMED;
                    todo.add(t);
                }
            }
        }
    }

    boolean has(int node, int attr) {
        return (attrs[node] & attr) != 0;
    }

    int next(int node, int outcome) {
        return edges[node * slots + outcome];
    }

    /** Nodes in down_read from which a store to {@code sem->owner} is reachable before down_read returns. */
    private void deriveOwnerStorePending() {
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int n = 0; n < size; n++) {
                if (!has(n, IN_DOWN_READ) || has(n, OWNER_STORE_PENDING)) {
                    continue;
                }
                boolean pending = op[n] == Op.OWNER_WRITE;
                for (int o = 0; o < slots && !pending; o++) {
                    int t = edges[n * slots + o];
                    pending = t >= 0 && has(t, IN_DOWN_READ) && has(t, OWNER_STORE_PENDING);
                }
                if (pending) {
                    attrs[n] |= OWNER_STORE_PENDING;
                    changed = true;
                }
            }
        }
    }

    /** Nodes of the write slow path from which need_resched() (or osq_lock) is reachable within it. */
    private void deriveReschedLive() {
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int n = 0; n < size; n++) {
                if (!has(n, IN_SLOW_PATH) || has(n, RESCHED_LIVE)) {
                    continue;
                }
                boolean live = op[n] == Op.NEED_RESCHED || op[n] == Op.OSQ_LOCK;
                for (int o = 0; o < slots && !live; o++) {
                    int t = edges[n * slots + o];
                    live = t >= 0 && has(t, IN_SLOW_PATH) && has(t, RESCHED_LIVE);
                }
                if (live) {
                    attrs[n] |= RESCHED_LIVE;
                    changed = true;
                }
            }
        }
    }

    /** "function: operation" with the arguments, for traces. */
    String describe(int node, RwsemDomain dom) {
        return (function[node].isEmpty() ? "" : function[node] + ": ") + opText(node, dom);
    }

    String opText(int node, RwsemDomain dom) {
        Op o = op[node];
        return switch (o) {
            case COUNT_ADD_RETURN, COUNT_FETCH_ADD, COUNT_ADD -> String.format(o.text, dom instanceof RwsemDomain.Xadd
                    ? signed(arg0[node]) : RwsemBitsText.signed(arg0[node]));
            case COUNT_CMPXCHG -> String.format(o.text, dom.showCount(arg0[node]), dom.showCount(arg1[node]));
            case COUNT_OR, COUNT_ANDNOT -> String.format(o.text, RwsemBitsText.countMask(arg0[node]));
            case OWNER_WRITE, ON_CPU -> String.format(o.text, dom.showOwner(arg0[node]));
            case OWNER_CMPXCHG -> String.format(o.text, dom.showOwner(arg0[node]), dom.showOwner(arg1[node]));
            case OWNER_OR, OWNER_ANDNOT -> String.format(o.text, dom.showOwner(arg0[node]).replace("NULL|", ""));
            case GRANT_READERS -> String.format(o.text, arg0[node]);
            case WAKEQ_ADD -> String.format(o.text, waiterName(arg0[node]));
            case CLEAR_TASK -> String.format(o.text, waiterName(arg0[node])) + (arg1[node] == 1 ? " and wake it (wakeups=atomic)" : "");
            case RD_NONSPINNABLE_SET -> String.format(o.text, arg0[node]);
            case WARN -> "WARN " + Op.Fault.values()[(int) arg0[node]].property + ": " + Op.Fault.values()[(int) arg0[node]].text;
            case FAULT -> {
                Op.Fault f = Op.Fault.values()[(int) arg0[node]];
                yield "FAULT " + f.property + ": " + f.text.replace("arg1", f == Op.Fault.COUNT_STORE ? dom.showCount(arg1[node])
                        : dom instanceof RwsemDomain.Xadd ? signed(arg1[node]) : RwsemBitsText.signed(arg1[node]));
            }
            default -> o.text;
        };
    }

    /** The waiter a grant-loop operation names (its {@code arg0}). */
    private static String waiterName(long which) {
        return switch ((int) which) {
            case RwSem.WAITER_FRONT -> "front waiter";
            case RwSem.WAITER_WLIST -> "next waiter on wlist";
            case RwSem.WAITER_CURRENT -> "that waiter";
            default -> "front writer";
        };
    }

    /** {@code "+= WB+1"}, {@code "-= 1"}, {@code "+= WB-1"}: the delta in units of WB (RWSEM_WAITING_BIAS) and 1. */
    static String signed(long delta) {
        long k = Math.round((double) delta / RwsemCount.RWSEM_WAITING_BIAS);
        long a = delta - k * RwsemCount.RWSEM_WAITING_BIAS;
        if (k < 0 || (k == 0 && a < 0)) {
            return "-= " + term(-k, -a);
        }
        return "+= " + term(k, a);
    }

    private static String term(long k, long a) {
        if (k == 0) {
            return Long.toString(a);
        }
        String wb = k == 1 ? "WB" : k + "WB";
        return a == 0 ? wb : a > 0 ? wb + "+" + a : wb + a;
    }

    /** The outcome {@code outcome} of the node's operation, e.g. {@code "= WB+1"}, {@code "= NULL"}, {@code "fails (found 2)"}. */
    String outcomeText(int node, int outcome, RwsemDomain dom) {
        Op o = op[node];
        return switch (o.outcome) {
            case COUNT -> {
                long old = dom.countValue(outcome);
                yield switch (o) {
                    case COUNT_READ -> "= " + dom.showCount(old);
                    case COUNT_ADD_RETURN -> "= " + dom.showCount(old + arg0[node]);
                    case COUNT_FETCH_ADD -> "(was " + dom.showCount(old) + ")";
                    case COUNT_ADD -> "(now " + dom.showCount(old + arg0[node]) + ")";
                    case COUNT_CMPXCHG -> old == arg0[node] ? "ok" : "fails (found " + dom.showCount(old) + ")";
                    default -> "";
                };
            }
            case OWNER -> o == Op.OWNER_CMPXCHG ? (dom.ownerValue(outcome) == arg0[node] ? "ok" : "fails (found "
                    + dom.showOwner(dom.ownerValue(outcome)) + ")") : "= " + dom.showOwner(dom.ownerValue(outcome));
            case BOOL -> switch (o) {
                case OSQ_LOCK -> outcome == 1 ? "= 1 (holds the osq: the spinner)" : "= 0 (need_resched: gives up)";
                case SPIN_TRYLOCK -> outcome == 1 ? "= 1" : "= 0 (busy: no wake-up)";
                case LOAD_TASK -> outcome == 1 ? "= NULL (granted)" : "= current (not granted)";
                default -> "= " + outcome;
            };
            case INT -> "= " + outcome;
            case TASK -> o != Op.FRONT_TASK && o != Op.WAKE_UP_Q && arg0[node] != RwSem.WAITER_WLIST ? ""
                    : (o == Op.FRONT_TASK ? "= " : ": ") + (outcome < dom.readers() ? "reader " + outcome : "writer " + (outcome - dom.readers()));
            case NONE -> "";
        };
    }
}
