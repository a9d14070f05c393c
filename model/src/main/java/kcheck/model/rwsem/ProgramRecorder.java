package kcheck.model.rwsem;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;

import kcheck.model.Kernel;
import kcheck.model.KernelCitations;
import kcheck.model.MemoryOrder;
import kcheck.model.ModelInputException;
import kcheck.model.ModelLimitException;

/**
 * Turns a {@link RwsemVariant}'s Java code into a task's finite program graph, so that the
 * explicit-state model executes exactly what the port does, one atomic step at a time.
 *
 * <p>The code is run against a recording {@link RwSem} that answers each operation from a
 * script of outcomes and stops at the first operation past the script. The place it stops at
 * is a program node, identified by the Java call stack (class, method and bytecode index of
 * every frame), the operation and its arguments, the values of the {@link FrameLocal} fields
 * whose function is on the stack, and what the task holds (locks, osq, preemption, wait-list
 * membership: the effect of the operations so far). Each node is re-run once per possible
 * outcome to find its successors; a loop closes when it reaches a node seen before. The code
 * must keep every value it uses after a later operation in a {@link FrameLocal} field: random
 * paths through the graph are re-run directly and compared, and code that keeps such a value
 * on the Java stack is rejected. Finally the graph is minimised (nodes with the same operation,
 * attributes and successors are merged), which also drops dead values left in fields.
 */
final class ProgramRecorder {
    /** Most nodes a recorded graph may have before the code is rejected. */
    static final int MAX_NODES = 200_000;
    private static final int CHECK_WALKS = 16;
    private static final int CHECK_LENGTH = 48;
    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);
    private static final Map<Class<?>, Map<String, Kernel>> KERNEL_OF_FRAME = new ConcurrentHashMap<>();

    private final RwsemVariant impl;
    private final String what;
    private final RwsemDomain dom;
    private final boolean writer;
    private final int task;
    private final boolean rt;
    /** The task's workload calls the killable entry points. */
    private boolean killable;
    /** The writer's critical section hands the lock off through percpu_rwsem_release/acquire (RWSEM_OWNER_UNKNOWN). */
    private boolean handsOwnerOff;
    private final int rounds;
    private final KernelLocals locals;
    private final List<Field> fields = new ArrayList<>();
    private final int maxNodes;
    private final List<Set<String>> scopes = new ArrayList<>();

    private final List<RNode> nodes = new ArrayList<>();
    private final Map<String, Integer> index = new HashMap<>();
    private final ArrayDeque<RNode> queue = new ArrayDeque<>();

    private ProgramRecorder(RwsemVariant impl, String what, RwsemDomain dom, boolean writer, int task, boolean rt, int rounds,
                            int maxNodes) {
        this.impl = impl;
        this.maxNodes = maxNodes;
        this.what = what;
        this.dom = dom;
        this.writer = writer;
        this.task = task;
        this.rt = rt;
        this.rounds = rounds;
        this.locals = new KernelLocals(impl, what);
        for (Field f : locals.fields()) {
            fields.add(f);
            FrameLocal fl = f.getAnnotation(FrameLocal.class);
            scopes.add(fl == null ? Set.of() : Set.of(fl.value()));
        }
    }

    /**
     * Records the program of one task: reader or writer number {@code task} (a reader's number only
     * matters where readers store their own task pointer), RT or not, running {@code rounds} rounds
     * (0: forever).
     */
    static TaskProgram record(RwsemVariant impl, String what, RwsemDomain dom, boolean writer, int task, boolean rt, int rounds) {
        return record(impl, what, dom, writer, task, rt, rounds, MAX_NODES);
    }

    /** As above, for a task that takes the lock with down_read_killable()/down_write_killable() when {@code killable}. */
    static TaskProgram record(RwsemVariant impl, String what, RwsemDomain dom, boolean writer, int task, boolean rt, int rounds,
                              boolean killable) {
        return record(impl, what, dom, writer, task, rt, rounds, killable, Wakeups.ATOMIC);
    }

    /** As above, with the wake-up model {@code wakeups} (wake_q steps recorded unless {@link Wakeups#ATOMIC}). */
    static TaskProgram record(RwsemVariant impl, String what, RwsemDomain dom, boolean writer, int task, boolean rt, int rounds,
                              boolean killable, Wakeups wakeups) {
        return record(impl, what, dom, writer, task, rt, rounds, killable, wakeups, false);
    }

    /** As above, for a writer whose critical section hands the lock off with RWSEM_OWNER_UNKNOWN when {@code handsOwnerOff}. */
    static TaskProgram record(RwsemVariant impl, String what, RwsemDomain dom, boolean writer, int task, boolean rt, int rounds,
                              boolean killable, Wakeups wakeups, boolean handsOwnerOff) {
        return record(impl, what, dom, writer, task, rt, rounds, killable, wakeups, handsOwnerOff, false);
    }

    private static TaskProgram record(RwsemVariant impl, String what, RwsemDomain dom, boolean writer, int task, boolean rt, int rounds,
                                      boolean killable, Wakeups wakeups, boolean handsOwnerOff, boolean keepOrders) {
        ProgramRecorder r = new ProgramRecorder(impl, what, dom, writer, task, rt, rounds, MAX_NODES);
        r.killable = killable;
        r.handsOwnerOff = handsOwnerOff;
        r.wakeQ = wakeups.wakeQ();
        r.keepOrders = keepOrders;
        r.explore();
        List<int[]> pairs = r.walkPairs();
        int[] cls = r.classes();
        r.check(pairs, cls);
        return r.build(cls);
    }

    /**
     * As {@link #record(RwsemVariant, String, RwsemDomain, boolean, int, boolean, int, boolean, Wakeups)}, with each node's
     * memory ordering ({@link RwSem#order}) and the barrier before it ({@link RwSem#barrier}) kept in the program
     * ({@link TaskProgram#order}, {@link TaskProgram#fence}) and part of what tells nodes apart: for
     * {@code kcheck conform}, which compares them with the C's. The model's programs do not keep them.
     */
    static TaskProgram recordWithOrders(RwsemVariant impl, String what, RwsemDomain dom, boolean writer, int task, boolean rt,
                                        int rounds, boolean killable, Wakeups wakeups) {
        return record(impl, what, dom, writer, task, rt, rounds, killable, wakeups, false, true);
    }

    /** As {@link #record(RwsemVariant, String, RwsemDomain, boolean, int, boolean, int)} with another node limit (tests). */
    static TaskProgram record(RwsemVariant impl, String what, RwsemDomain dom, boolean writer, int task, boolean rt, int rounds,
                              int maxNodes) {
        ProgramRecorder r = new ProgramRecorder(impl, what, dom, writer, task, rt, rounds, maxNodes);
        r.explore();
        List<int[]> pairs = r.walkPairs();
        int[] cls = r.classes();
        r.check(pairs, cls);
        return r.build(cls);
    }

    /* ---------------- one node of the recorded graph ---------------- */

    /** Where the code stopped: the operation it was about to perform and what identifies the place. */
    private record Capture(String key, Op op, long arg0, long arg1, int attrs, String function, String cite, String site,
                           String where, MemoryOrder order, String fence) {
    }

    private static final class RNode {
        final int id;
        final Capture c;
        final int[] script;
        int[] edges;

        RNode(int id, Capture c, int[] script) {
            this.id = id;
            this.c = c;
            this.script = script;
        }
    }

    private static final Capture END = new Capture("END", Op.END, 0, 0, 0, "", "", "", "", null, null);
    /** The outcome leads the code into undefined behaviour (e.g. dereferencing RWSEM_READER_OWNED): it cannot happen. */
    private static final Capture UNDEFINED = new Capture("UNDEFINED", Op.END, 0, 0, 0, "", "", "", "", null, null);

    /* ---------------- exploration ---------------- */

    private void explore() {
        int root = intern(run(new int[0]), new int[0]);
        if (root != 0) {
            throw new IllegalStateException("root must be node 0");
        }
        exploreQueue();
    }

    private void exploreQueue() {
        while (!queue.isEmpty()) {
            RNode n = queue.poll();
            if (n.c.op() == Op.END || n.c.op() == Op.FAULT) {
                n.edges = new int[0];
                continue;
            }
            int k = dom.outcomes(n.c.op());
            n.edges = new int[k];
            Arrays.fill(n.edges, -1);
            /* atomic_long_add returns nothing: every outcome continues the same way */
            int blind = -1;
            for (int o = 0; o < k; o++) {
                if (!feasible(n.c, o)) {
                    if (countFault(n.c, o)) {
                        /* the count step drives count out of its meaning: the run ends in a count fault */
                        int[] s = Arrays.copyOf(n.script, n.script.length + 1);
                        s[n.script.length] = o;
                        n.edges[o] = intern(countFaultCapture(n.c), s);
                    }
                    continue;
                }
                if (n.c.op() == Op.COUNT_ADD && blind >= 0) {
                    n.edges[o] = blind;
                    continue;
                }
                int[] s = Arrays.copyOf(n.script, n.script.length + 1);
                s[n.script.length] = o;
                Capture c = run(s);
                if (c != UNDEFINED) {
                    n.edges[o] = intern(c, s);
                    blind = n.edges[o];
                }
            }
        }
    }

    private int intern(Capture c, int[] script) {
        Integer id = index.get(c.key());
        if (id != null) {
            return id;
        }
        if (nodes.size() >= maxNodes) {
            throw new ModelLimitException(what + ": rwsem-owner records at most " + maxNodes + " program places per task:"
                    + " this code reached more (does a @FrameLocal field take ever new values, e.g. a loop counter?)");
        }
        RNode n = new RNode(nodes.size(), c, script);
        nodes.add(n);
        index.put(c.key(), n.id);
        queue.add(n);
        return n.id;
    }

    /** A count step whose outcome {@code o} (the old count) gives a count the encoding does not hold. */
    private boolean countFault(Capture c, int o) {
        return switch (c.op()) {
            case COUNT_ADD_RETURN, COUNT_FETCH_ADD, COUNT_ADD -> dom.countIndex(dom.countValue(o) + c.arg0()) < 0;
            case COUNT_CMPXCHG -> dom.countValue(o) == c.arg0() && dom.countIndex(c.arg1()) < 0;
            default -> false;
        };
    }

    /** The fault node after count step {@code c}: the same place, the run ends (arg1: the step's operand). */
    private static Capture countFaultCapture(Capture c) {
        long operand = c.op() == Op.COUNT_CMPXCHG ? c.arg1() : c.arg0();
        Op.Fault kind = c.op() == Op.COUNT_CMPXCHG ? Op.Fault.COUNT_STORE : Op.Fault.COUNT;
        return new Capture("FAULT-COUNT|" + c.op() + "|" + c.key(), Op.FAULT, kind.ordinal(), operand, c.attrs(),
                c.function(), c.cite(), c.site(), c.where(), null, null);
    }

    /** Outcomes that the operation can have in this domain. */
    private boolean feasible(Capture c, int o) {
        return switch (c.op()) {
            case COUNT_ADD_RETURN, COUNT_FETCH_ADD, COUNT_ADD -> dom.countIndex(dom.countValue(o) + c.arg0()) >= 0;
            case COUNT_CMPXCHG -> dom.countValue(o) != c.arg0() || dom.countIndex(c.arg1()) >= 0;
            case OWNER_CMPXCHG -> dom.ownerValue(o) != c.arg0() || dom.ownerValid(c.arg1());
            case LEADING_READERS -> o >= 1;
            default -> true;
        };
    }

    /** Runs the task's workload from the start, answering operations from {@code script}. */
    /** The workload of the run in progress (its round counter is part of the program position). */
    /** The wake_q steps are recorded (wakeups=wake-q, spurious). */
    private boolean wakeQ;
    /** Each node keeps its memory ordering and the barrier before it ({@link #recordWithOrders}). */
    private boolean keepOrders;

    private Workload workload;

    private Capture run(int[] script) {
        locals.reset();
        RecordingSem sem = new RecordingSem(script);
        Workload w = new Workload();
        workload = w;
        try {
            if (writer) {
                w.writer(impl, sem, rounds, killable, handsOwnerOff);
            } else {
                w.reader(impl, sem, rounds, killable);
            }
        } catch (Stop s) {
            return s.capture;
        }
        if (sem.stopped != null) {
            throw swallowed();
        }
        if (sem.pos != script.length) {
            throw new ModelInputException(what + ": the code finished before the recorded program did: a value used"
                    + " after an atomic step must be kept in a @FrameLocal field");
        }
        if (keepOrders && sem.pendingFence != null) {
            return new Capture("END|fence=" + sem.pendingFence, Op.END, 0, 0, 0, "", "", "", "", null, sem.pendingFence);
        }
        return END;
    }

    /* ---------------- the check of the FrameLocal rule ---------------- */

    /**
     * Follows random paths through the recorded graph and re-runs the code along each directly:
     * every node it reaches must behave like the node the graph says (the same class after
     * minimisation; nodes that differ only in dead values left in fields are in one class).
     * A mismatch means the code kept a value on the Java stack across an operation. Places the
     * walks reach that exploration had not seen are explored too, so the comparison is exact.
     */
    private List<int[]> walkPairs() {
        SplittableRandom rnd = new SplittableRandom(0x5eedL ^ nodes.size());
        List<int[]> pairs = new ArrayList<>();
        for (int walk = 0; walk < CHECK_WALKS; walk++) {
            RNode n = nodes.get(0);
            int[] script = new int[0];
            for (int step = 0; step < CHECK_LENGTH && n.edges.length > 0; step++) {
                int[] choices = new int[n.edges.length];
                int m = 0;
                for (int o = 0; o < n.edges.length; o++) {
                    if (n.edges[o] >= 0) {
                        choices[m++] = o;
                    }
                }
                if (m == 0) {
                    break;
                }
                int o = choices[rnd.nextInt(m)];
                script = Arrays.copyOf(script, script.length + 1);
                script[script.length - 1] = o;
                int expected = n.edges[o];
                if (nodes.get(expected).c.key().startsWith("FAULT-COUNT|")) {
                    break;                                          /* not a place of the code: the run ends */
                }
                Capture c = run(script);
                if (c == UNDEFINED) {
                    throw new ModelInputException(what + ": after " + n.c.function() + ": " + n.c.op()
                            + " the code behaves differently from the recorded program: a value used after an atomic"
                            + " step must be kept in a @FrameLocal field");
                }
                int actual = intern(c, script);
                pairs.add(new int[] {n.id, o, expected, actual});
                n = nodes.get(expected);
            }
        }
        exploreQueue();
        return pairs;
    }

    private void check(List<int[]> pairs, int[] cls) {
        for (int[] p : pairs) {
            if (cls[p[2]] != cls[p[3]]) {
                RNode n = nodes.get(p[0]);
                RNode expected = nodes.get(p[2]);
                RNode actual = nodes.get(p[3]);
                throw new ModelInputException(what + ": after " + n.c.function() + ": " + n.c.op()
                        + " the code does not do what the recorded program says (" + actual.c.function() + ": "
                        + actual.c.op() + " instead of " + expected.c.function() + ": " + expected.c.op()
                        + "): a value used after an atomic step must be kept in a @FrameLocal field");
            }
        }
    }

    /* ---------------- minimisation ---------------- */

    /** Moore's partition refinement: the class of each node in the coarsest bisimulation. */
    private int[] classes() {
        int n = nodes.size();
        int[] cls = new int[n];
        Map<String, Integer> ids = new HashMap<>();
        for (RNode x : nodes) {
            Capture c = x.c;
            String k = c.op() + "|" + c.arg0() + "|" + c.arg1() + "|" + c.attrs() + "|" + c.function() + "|" + c.cite() + "|" + c.site()
                    + "|" + c.order() + "|" + c.fence();
            cls[x.id] = ids.computeIfAbsent(k, z -> ids.size());
        }
        int classes = ids.size();
        while (true) {
            Map<String, Integer> next = new HashMap<>();
            int[] ncls = new int[n];
            for (RNode x : nodes) {
                StringBuilder b = new StringBuilder().append(cls[x.id]);
                for (int t : x.edges) {
                    b.append(',').append(t < 0 ? -1 : cls[t]);
                }
                String k = b.toString();
                ncls[x.id] = next.computeIfAbsent(k, z -> next.size());
            }
            cls = ncls;
            if (next.size() == classes) {
                break;
            }
            classes = next.size();
        }
        return cls;
    }

    /** The minimised program: one node per class, numbered in order of discovery. */
    private TaskProgram build(int[] cls) {
        int classes = 0;
        for (int c : cls) {
            classes = Math.max(classes, c + 1);
        }
        /* number classes in order of first appearance from the root (BFS order of the nodes) */
        int[] order = new int[classes];
        Arrays.fill(order, -1);
        int count = 0;
        RNode[] rep = new RNode[classes];
        for (RNode x : nodes) {
            if (order[cls[x.id]] < 0) {
                order[cls[x.id]] = count++;
                rep[order[cls[x.id]]] = x;
            }
        }
        int slots = dom.maxOutcomes();
        Op[] op = new Op[count];
        long[] a0 = new long[count];
        long[] a1 = new long[count];
        int[] attrs = new int[count];
        int[] edges = new int[count * slots];
        Arrays.fill(edges, -1);
        String[] function = new String[count];
        String[] cite = new String[count];
        String[] site = new String[count];
        String[] where = new String[count];
        MemoryOrder[] memOrder = new MemoryOrder[count];
        String[] fence = new String[count];
        for (int i = 0; i < count; i++) {
            RNode x = rep[i];
            op[i] = x.c.op();
            a0[i] = x.c.arg0();
            a1[i] = x.c.arg1();
            attrs[i] = x.c.attrs();
            function[i] = x.c.function();
            cite[i] = x.c.cite();
            site[i] = x.c.site();
            where[i] = x.c.where();
            memOrder[i] = x.c.order();
            fence[i] = x.c.fence();
            for (int o = 0; o < x.edges.length; o++) {
                edges[i * slots + o] = x.edges[o] < 0 ? -1 : order[cls[x.edges[o]]];
            }
        }
        return new TaskProgram(0, slots, op, a0, a1, attrs, edges, function, cite, site, where, memOrder, fence);
    }

    /** The code caught the exception that ends a recorded run and went on. */
    private ModelInputException swallowed() {
        return new ModelInputException(what + ": the code caught the exception that ends a recorded run (thrown by an RwSem "
                + "operation) and went on: a variant must let the exceptions of RwSem calls pass");
    }

    /* ---------------- the recording RwSem ---------------- */

    /** Thrown at the first operation past the script. */
    private static final class Stop extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final transient Capture capture;

        Stop(Capture capture) {
            super(null, null, false, false);
            this.capture = capture;
        }
    }

    private final class RecordingSem implements RwSem {
        final int[] script;
        int pos;
        boolean holds;
        boolean waitLock;
        boolean osq;
        boolean enqueued;
        /** set_current_state(TASK_UNINTERRUPTIBLE) made, schedule() not yet returned (wakeups=wake-q). */
        boolean sleepingState;
        boolean wakeQ;
        /** The code keeps a wake queue of its own (DEFINE_WAKE_Q): only then is its emptiness part of the place. */
        boolean wakeQTracked;
        int preempt;

        /** The first Stop thrown: the run ends there, so code that catches it and goes on is refused. */
        Stop stopped;
        /** The ordering ({@link #order}) and the barrier ({@link #barrier}) the code gave for its next operation. */
        MemoryOrder pendingOrder;
        String pendingFence;

        RecordingSem(int[] script) {
            this.script = script;
        }

        private RuntimeException stop(Capture c) {
            if (stopped != null) {
                return swallowed();
            }
            stopped = new Stop(c);
            return stopped;
        }

        private int next(Op op, long arg0, long arg1) {
            MemoryOrder order = pendingOrder;
            String fence = pendingFence;
            pendingOrder = null;
            pendingFence = null;
            if (pos < script.length) {
                workload.atStart = false;
                workload.inCs = false;
                return script[pos++];
            }
            throw stop(keepOrders ? capture(op, arg0, arg1, order, fence) : capture(op, arg0, arg1));
        }

        @Override
        public void order(MemoryOrder order) {
            pendingOrder = order;
        }

        @Override
        public void barrier(String fence) {
            pendingFence = pendingFence == null ? fence : pendingFence + " " + fence;
        }

        private Capture capture(Op op, long arg0, long arg1) {
            return capture(op, arg0, arg1, null, null);
        }

        private Capture capture(Op op, long arg0, long arg1, MemoryOrder order, String fence) {
            StringBuilder stack = new StringBuilder(256);
            List<Kernel> kernels = new ArrayList<>(8);
            String[] site = {null};
            WALKER.walk(frames -> {
                java.util.Iterator<StackWalker.StackFrame> it = frames.iterator();
                while (it.hasNext()) {
                    StackWalker.StackFrame f = it.next();
                    Class<?> c = f.getDeclaringClass();
                    if (c == RecordingSem.class) {
                        continue;
                    }
                    if (c == ProgramRecorder.class) {
                        break;
                    }
                    stack.append(c.getName()).append('.').append(f.getMethodName()).append('@').append(f.getByteCodeIndex()).append(';');
                    if (site[0] == null) {
                        site[0] = f.getFileName() + ":" + f.getLineNumber();
                    }
                    Kernel k = kernelOf(f);
                    if (k != null) {
                        kernels.add(k);
                    }
                }
                return null;
            });
            Set<String> functions = new LinkedHashSet<>();
            for (Kernel k : kernels) {
                functions.add(k.function());
            }
            int attrs = (holds ? TaskProgram.HOLDS : 0) | (waitLock ? TaskProgram.WAIT_LOCK : 0) | (osq ? TaskProgram.OSQ : 0)
                    | ((preempt > 0 || waitLock) && !workload.inCs ? TaskProgram.PREEMPT_OFF : 0) | (enqueued ? TaskProgram.ENQUEUED : 0)
                    | (workload.atStart ? TaskProgram.IDLE : 0) | (wakeQTracked && wakeQ ? TaskProgram.WAKE_Q : 0)
                    | (sleepingState && enqueued ? TaskProgram.SLEEPING_STATE : 0);
            for (int i = 0; i < TaskProgram.FUNCTIONS.length; i++) {
                if (functions.contains(TaskProgram.FUNCTIONS[i])) {
                    attrs |= TaskProgram.FUNCTION_BITS[i];
                }
            }
            StringBuilder key = new StringBuilder(stack.length() + 64);
            key.append(op).append('|').append(arg0).append('|').append(arg1).append('|').append(attrs).append('|').append(stack).append('|')
                    .append("round=").append(workload.round).append(',');
            if (order != null || fence != null) {
                key.append("order=").append(order).append(",fence=").append(fence).append(',');
            }
            try {
                for (int i = 0; i < fields.size(); i++) {
                    if (!inScope(scopes.get(i), functions)) {
                        continue;
                    }
                    Field f = fields.get(i);
                    key.append(f.getName()).append('=').append(f.get(impl)).append(',');
                }
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
            String k = key.toString();
            Integer known = index.get(k);
            if (known != null) {
                return nodes.get(known).c;
            }
            String function = "";
            String where = "";
            for (Kernel kn : kernels) {
                if (!kn.function().startsWith("rwsem_atomic_")) {      /* name the caller of the count helpers */
                    function = kn.function();
                    where = kn.file() + (kn.line() > 0 ? ":" + kn.line() : "") + ", " + kn.version();
                    break;
                }
            }
            return new Capture(k, op, arg0, arg1, attrs, function, KernelCitations.render(kernels), site[0], where, order, fence);
        }

        /**
         * The wait list is touched without its lock: lockdep_assert_held(&sem->wait_lock) of the kernel function
         * doing it fails, and the list may be corrupted (the model keeps list operations atomic only under the
         * lock): the run ends at a warn-wait-lock-held fault.
         */
        private void requireWaitLock(String what) {
            if (!waitLock) {
                throw stop(capture(Op.FAULT, Op.Fault.WAIT_LOCK_NOT_HELD.ordinal(), 0));
            }
        }

        @Override
        public long atomicLongRead() {
            return dom.countValue(next(Op.COUNT_READ, 0, 0));
        }

        @Override
        public long atomicLongAddReturn(long i) {
            return dom.countValue(next(Op.COUNT_ADD_RETURN, i, 0)) + i;
        }

        @Override
        public long atomicLongFetchAdd(long i) {
            return dom.countValue(next(Op.COUNT_FETCH_ADD, i, 0));
        }

        @Override
        public void atomicLongAdd(long i) {
            next(Op.COUNT_ADD, i, 0);
        }

        @Override
        public long atomicLongCmpxchg(long old, long nw) {
            return dom.countValue(next(Op.COUNT_CMPXCHG, old, nw));
        }

        @Override
        public void atomicLongOr(long mask) {
            next(Op.COUNT_OR, mask, 0);
        }

        @Override
        public void atomicLongAndnot(long mask) {
            next(Op.COUNT_ANDNOT, mask, 0);
        }

        @Override
        public long readOwner() {
            return dom.ownerValue(next(Op.OWNER_READ, 0, 0));
        }

        /**
         * An owner value the model cannot hold ends the recorded path (like undefined behaviour): the
         * model reports it as a limit if a reachable state takes that path.
         */
        private void requireOwner(long owner) {
            if (!dom.ownerValid(owner)) {
                throw stop(UNDEFINED);
            }
        }

        @Override
        public void writeOwner(long owner) {
            requireOwner(owner);
            next(Op.OWNER_WRITE, owner, 0);
        }

        @Override
        public long ownerCmpxchg(long old, long nw) {
            return dom.ownerValue(next(Op.OWNER_CMPXCHG, old, nw));
        }

        @Override
        public void ownerOr(long mask) {
            next(Op.OWNER_OR, mask, 0);
        }

        @Override
        public void ownerAndnot(long mask) {
            next(Op.OWNER_ANDNOT, mask, 0);
        }

        @Override
        public long current() {
            if (!writer) {
                if (dom.readersAnonymous()) {
                    throw new ModelInputException(what + ": a reader's task pointer is not an owner value in this model");
                }
                return dom.readerTask(task);
            }
            return dom.writerTask(task);
        }

        @Override
        public boolean onCpu(long owner) {
            if (!dom.ownerIsWriter(owner)) {
                /* owner->on_cpu of NULL, a reader-owned hint, or garbage: the kernel would oops or read a task that may have left */
                throw stop(capture(Op.FAULT, Op.Fault.ON_CPU.ordinal(), 0));
            }
            return next(Op.ON_CPU, owner, 0) == 1;
        }

        @Override
        public boolean needResched() {
            return next(Op.NEED_RESCHED, 0, 0) == 1;
        }

        @Override
        public boolean rtTask() {
            return rt;
        }

        @Override
        public boolean signalPending() {
            return next(Op.SIGNAL_PENDING, 0, 0) == 1;
        }

        @Override
        public void lockdepAssertHeldWaitLock() {
            if (!waitLock) {
                next(Op.WARN, Op.Fault.WAIT_LOCK_NOT_HELD.ordinal(), 0);
            }
        }

        @Override
        public void lockdepAssertPreemptionDisabled() {
            if (preempt == 0 && !waitLock) {                        /* raw_spin_lock_irq disables preemption too */
                next(Op.WARN, Op.Fault.PREEMPTIBLE.ordinal(), 0);
            }
        }

        @Override
        public void preemptDisable() {
            preempt++;
        }

        @Override
        public void preemptEnable() {
            preempt--;
        }

        @Override
        public void cpuRelax() {
        }

        @Override
        public void schedule() {
            next(Op.SCHEDULE, 0, 0);
            sleepingState = false;                                  /* it returns TASK_RUNNING */
        }

        @Override
        public void armWaitTimeout() {
            next(Op.ARM_TIMEOUT, 0, 0);
        }

        @Override
        public boolean waitTimedOut() {
            return next(Op.TIMED_OUT, 0, 0) == 1;
        }

        @Override
        public boolean firstWaiterTimedOut() {
            requireWaitLock("the front waiter's timeout");
            return next(Op.FIRST_TIMED_OUT, 0, 0) == 1;
        }

        @Override
        public void armSpinDeadline() {
            next(Op.ARM_RSPIN, 0, 0);
        }

        @Override
        public boolean spinDeadlinePassed() {
            return next(Op.RSPIN_PASSED, 0, 0) == 1;
        }

        @Override
        public boolean osqLock() {
            boolean r = next(Op.OSQ_LOCK, 0, 0) == 1;
            osq = r;
            return r;
        }

        @Override
        public void osqUnlock() {
            next(Op.OSQ_UNLOCK, 0, 0);
            osq = false;
        }

        @Override
        public boolean osqIsLocked() {
            return next(Op.OSQ_IS_LOCKED, 0, 0) == 1;
        }

        @Override
        public void rawSpinLockIrq() {
            next(Op.SPIN_LOCK, 0, 0);
            waitLock = true;
        }

        @Override
        public boolean rawSpinTrylockIrqsave() {
            boolean r = next(Op.SPIN_TRYLOCK, 0, 0) == 1;
            waitLock = r;
            return r;
        }

        @Override
        public void rawSpinUnlockIrq() {
            next(Op.SPIN_UNLOCK, 0, 0);
            waitLock = false;
        }

        @Override
        public boolean listEmpty() {
            requireWaitLock("list_empty");
            return next(Op.LIST_EMPTY, 0, 0) == 1;
        }

        @Override
        public void listAddTail(int type) {
            requireWaitLock("list_add_tail");
            next(Op.LIST_ADD_TAIL, type, 0);
            enqueued = true;
            sleepingState = false;
        }

        @Override
        public boolean listIsSingular() {
            requireWaitLock("list_is_singular");
            return next(Op.LIST_IS_SINGULAR, 0, 0) == 1;
        }

        @Override
        public void listDel() {
            requireWaitLock("list_del");
            next(Op.LIST_DEL, 0, 0);
            enqueued = false;
            sleepingState = false;
        }

        @Override
        public boolean waitListFrontIsWriter() {
            requireWaitLock("the wait list walk");
            return next(Op.FRONT_IS_WRITER, 0, 0) == 1;
        }

        @Override
        public int waitListLeadingReaders() {
            requireWaitLock("the wait list walk");
            return next(Op.LEADING_READERS, 0, 0);
        }

        @Override
        public boolean waitListWriterAfter(int n) {
            requireWaitLock("the wait list walk");
            return next(Op.WRITER_AFTER, n, 0) == 1;
        }

        @Override
        public void wakeUpFrontWriter() {
            requireWaitLock("waking a waiter");
            if (ProgramRecorder.this.wakeQ) {
                next(Op.WAKEQ_ADD, WAITER_FRONT_WRITER, 0);
            } else {
                next(Op.WAKE_FRONT_WRITER, 0, 0);
            }
            wakeQ = true;
        }

        @Override
        public void wakeUpProcessFrontWriter() {
            requireWaitLock("waking a waiter");
            next(Op.WAKE_FRONT_WRITER, 0, 0);
        }

        @Override
        public void wakeQAdd(int which) {
            requireWaitLock("wake_q_add of a waiter");
            if (ProgramRecorder.this.wakeQ) {
                next(Op.WAKEQ_ADD, which, 0);
            } else if (which != WAITER_CURRENT) {
                next(Op.CLEAR_TASK, which, 1);                     /* wakeups=atomic: the first of the pair grants and wakes */
            }
            wakeQ = true;
        }

        @Override
        public void clearWaiterTask(int which) {
            requireWaitLock("granting a waiter");
            if (ProgramRecorder.this.wakeQ) {
                next(Op.CLEAR_TASK, which, 0);
            } else if (which != WAITER_CURRENT) {
                next(Op.CLEAR_TASK, which, 1);                     /* wakeups=atomic: the grant wakes the reader in the same step */
            }
            wakeQ = true;
        }

        @Override
        public void setCurrentState() {
            if (ProgramRecorder.this.wakeQ) {
                next(Op.SET_STATE, 0, 0);
                sleepingState = true;
            }
        }

        @Override
        public void waitListGrantReaders(int n) {
            requireWaitLock("granting waiters");
            next(Op.GRANT_READERS, n, 0);
            wakeQ = true;
        }

        @Override
        public boolean waiterTaskIsNull() {
            boolean r = next(ProgramRecorder.this.wakeQ ? Op.LOAD_TASK : Op.WAITER_TASK_NULL, 0, 0) == 1;
            if (r) {
                enqueued = false;
                sleepingState = false;
            sleepingState = false;
            }
            return r;
        }

        @Override
        public long frontWaiterTask() {
            requireWaitLock("the front waiter's task");
            int t = next(Op.FRONT_TASK, 0, 0);
            return t < dom.readers() ? dom.readerTask(t) : dom.writerTask(t - dom.readers());
        }

        @Override
        public int waitListMoveReaders() {
            requireWaitLock("the wait list walk");
            return next(Op.MOVE_READERS, 0, 0);
        }

        @Override
        public void waitListWakeMoved() {
            next(Op.WAKE_MOVED, 0, 0);
            wakeQ = true;
        }

        @Override
        public boolean isFirstWaiter() {
            return next(waitLock ? Op.FIRST_IS_ME : Op.FIRST_IS_ME_RACY, 0, 0) == 1;
        }

        @Override
        public void initWaiterHandoff() {
            next(Op.HANDOFF_INIT, 0, 0);
        }

        @Override
        public boolean waiterHandoffSet() {
            return next(Op.HANDOFF_SET_READ, 0, 0) == 1;
        }

        @Override
        public void setWaiterHandoff() {
            requireWaitLock("waiter->handoff_set");
            next(Op.HANDOFF_SET_OWN, 0, 0);
        }

        @Override
        public boolean firstWaiterHandoffSet() {
            requireWaitLock("first->handoff_set");
            return next(Op.FIRST_HANDOFF_SET, 0, 0) == 1;
        }

        @Override
        public void setFirstWaiterHandoff() {
            requireWaitLock("first->handoff_set");
            next(Op.HANDOFF_SET_FIRST, 0, 0);
        }

        @Override
        public void setWaiterRdNonspinnable(boolean set) {
            next(Op.RD_NONSPINNABLE_SET, set ? 1 : 0, 0);
        }

        @Override
        public boolean firstWaiterRdNonspinnable() {
            requireWaitLock("the front waiter's last_rowner");
            return next(Op.FIRST_RD_NONSPINNABLE, 0, 0) == 1;
        }

        @Override
        public void wakeQInit() {
            wakeQTracked = true;
            wakeQ = false;
        }

        @Override
        public void wakeUpQ() {
            if (ProgramRecorder.this.wakeQ) {
                /* node = head->first; while (node != WAKE_Q_TAIL): only this task takes tasks off its own queue, so
                 * whether one is left is a local read; each wake is a step (kernel/sched/core.c wake_up_q) */
                while (next(Op.WAKEQ_EMPTY, 0, 0) == 0) {
                    next(Op.WAKE_UP_Q, 0, 0);                      /* task->wake_q.next = NULL; wake_up_process(task) */
                }
            }
            wakeQ = false;
        }

        @Override
        public boolean wakeQEmpty() {
            if (ProgramRecorder.this.wakeQ) {
                return next(Op.WAKEQ_EMPTY, 0, 0) == 1;
            }
            return !wakeQ;
        }

        @Override
        public void lockAcquired() {
            holds = true;
        }

        @Override
        public void lockReleased() {
            holds = false;
        }
    }

    private static boolean inScope(Set<String> scope, Set<String> functions) {
        if (scope.isEmpty()) {
            return true;
        }
        for (String f : scope) {
            if (functions.contains(f)) {
                return true;
            }
        }
        return false;
    }

    /** The {@link Kernel} annotation of the method a frame runs, or null. */
    private static Kernel kernelOf(StackWalker.StackFrame f) {
        Map<String, Kernel> byName = KERNEL_OF_FRAME.computeIfAbsent(f.getDeclaringClass(), c -> new ConcurrentHashMap<>());
        Kernel k = byName.get(f.getMethodName());
        if (k == null) {
            k = NONE_MARKER;
            try {
                Method m = f.getDeclaringClass().getDeclaredMethod(f.getMethodName(), f.getMethodType().parameterArray());
                Kernel a = m.getAnnotation(Kernel.class);
                if (a != null) {
                    k = a;
                }
            } catch (NoSuchMethodException | SecurityException e) {
                k = NONE_MARKER;
            }
            byName.put(f.getMethodName(), k);
        }
        return k == NONE_MARKER ? null : k;
    }

    @Kernel(function = "(none)", file = "", version = "")
    private static final class NoneHolder {
    }

    private static final Kernel NONE_MARKER = NoneHolder.class.getAnnotation(Kernel.class);
}
