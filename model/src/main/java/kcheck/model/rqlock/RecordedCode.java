package kcheck.model.rqlock;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;

import kcheck.model.KernelCitations;
import kcheck.model.ModelLimitException;

/**
 * Reference code turned into a tree of lock primitives. The code is run against a recording
 * {@link RqLocks}; every {@code spin_trylock} is a branch point, and the code is re-run with each
 * outcome until every path has been seen. The result is the code's control flow as far as the
 * locks can observe it, with the kernel function each primitive was called from.
 *
 * <p>This is how the explicit-state model stays faithful to the reference implementation: it
 * executes exactly the primitive sequences the Java port performs, one atomic step each.
 */
final class RecordedCode {

    /** Kinds of node. */
    enum Kind { LOCK, TRYLOCK, UNLOCK, SUBCLASS, CLOCK, END }

    /** One primitive (or the end of the code with its return value). */
    static final class Node {
        final Kind kind;
        /** The lock (runqueue lock index; with core scheduling, the core's lock). */
        final int rq;
        final int ret;
        final String cite;
        /** What the code called, e.g. {@code spin_lock(rq[1])} or {@code raw_spin_rq_lock(rq[3])}. */
        String head = "";
        /** lockdep subclass of a LOCK ({@code spin_lock_nested}: 1); -1 for none. */
        int subclass;
        /** LOCK/UNLOCK/SUBCLASS/CLOCK: one child; TRYLOCK: [failed, succeeded]; END: none. */
        final Node[] children;

        Node(Kind kind, int rq, int ret, String cite) {
            this.kind = kind;
            this.rq = rq;
            this.ret = ret;
            this.cite = cite;
            this.children = new Node[kind == Kind.TRYLOCK ? 2 : kind == Kind.END ? 0 : 1];
        }
    }

    /** Longest path accepted: longer ones (or spinning on trylock) are rejected as a bad variant. */
    static final int MAX_PATH = 64;
    /** Most paths (runs of the code) accepted. */
    static final int MAX_RUNS = 4096;

    private RecordedCode() {
    }

    /** Records every path of {@code code}; {@code what} names it in error messages. */
    static Node record(String what, ToIntFunction<RqLocks> code) {
        return record(what, RqConfig.plain(8), code);
    }

    /** Records every path of {@code code} on the runqueue locks of {@code config}. */
    static Node record(String what, RqConfig config, ToIntFunction<RqLocks> code) {
        return record(what, config, code, MAX_RUNS);
    }

    /** As {@link #record(String, RqConfig, ToIntFunction)}, with at most {@code maxRuns} runs (tests use a small one). */
    static Node record(String what, RqConfig config, ToIntFunction<RqLocks> code, int maxRuns) {
        Node[] root = new Node[1];
        List<boolean[]> todo = new ArrayList<>();
        todo.add(new boolean[0]);
        int runs = 0;
        while (!todo.isEmpty()) {
            boolean[] script = todo.remove(todo.size() - 1);
            if (++runs > maxRuns) {
                throw new ModelLimitException("rq-lock records at most " + maxRuns + " paths of the code: " + what
                        + " has more");
            }
            Recorder r = new Recorder(script, what, config);
            int ret;
            try {
                ret = code.applyAsInt(r);
            } catch (NeedOutcome e) {
                todo.add(append(script, true));
                todo.add(append(script, false));
                continue;
            }
            r.events.add(new Node(Kind.END, -1, ret, ""));
            insert(what, root, r.events, r.outcomes);
        }
        return root[0];
    }

    private static boolean[] append(boolean[] script, boolean b) {
        boolean[] out = java.util.Arrays.copyOf(script, script.length + 1);
        out[script.length] = b;
        return out;
    }

    /** Adds one recorded path to the tree rooted at {@code root[0]}. */
    private static void insert(String what, Node[] root, List<Node> path, List<Boolean> outcomes) {
        Node[] slot = root;
        int slotIndex = 0;
        int tries = 0;
        for (Node n : path) {
            Node existing = slot[slotIndex];
            if (existing == null) {
                slot[slotIndex] = n;
                existing = n;
            } else if (existing.kind != n.kind || existing.rq != n.rq || existing.ret != n.ret
                    || existing.subclass != n.subclass) {
                throw new ModelLimitException("rq-lock records the code once per trylock outcome: " + what
                        + " did something else on a second run with the same outcomes (it is not deterministic)");
            }
            if (n.kind == Kind.END) {
                return;
            }
            slot = existing.children;
            slotIndex = n.kind == Kind.TRYLOCK ? (outcomes.get(tries++) ? 1 : 0) : 0;
        }
    }

    private static final class NeedOutcome extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NeedOutcome() {
            super(null, null, false, false);
        }
    }

    private static final class Recorder implements RqLocks {
        final boolean[] script;
        final String what;
        final List<Node> events = new ArrayList<>();
        final List<Boolean> outcomes = new ArrayList<>();

        final RqConfig config;
        /* the citation of the next primitive given by the code itself (replayed C), or null */
        String source;

        Recorder(boolean[] script, String what, RqConfig config) {
            this.script = script;
            this.what = what;
            this.config = config;
        }

        private Node add(Kind kind, int lock, String head) {
            if (events.size() >= MAX_PATH) {
                throw new ModelLimitException("rq-lock records at most " + MAX_PATH + " lock primitives on one path: " + what
                        + " performs more (does it spin on spin_trylock?)");
            }
            if (lock < 0 || lock >= config.cpus()) {
                throw new ModelLimitException("rq-lock has runqueue locks 0.." + (config.cpus() - 1) + ": " + what
                        + " uses lock " + lock);
            }
            Node n = new Node(kind, lock, 0, source != null ? source : KernelCitations.render(KernelCitations.onStack()));
            source = null;
            n.head = head;
            events.add(n);
            return n;
        }

        @Override
        public void spinLock(int rq) {
            add(Kind.LOCK, rq, "spin_lock(rq[" + rq + "])");
        }

        @Override
        public void spinLockNested(int rq, int subclass) {
            add(Kind.LOCK, rq, "spin_lock(rq[" + rq + "])").subclass = subclass;
        }

        @Override
        public boolean spinTrylock(int rq) {
            return trylock(rq, "spin_trylock(rq[" + rq + "])");
        }

        private boolean trylock(int lock, String head) {
            int i = outcomes.size();
            if (i >= script.length) {
                throw new NeedOutcome();
            }
            add(Kind.TRYLOCK, lock, head);
            outcomes.add(script[i]);
            return script[i];
        }

        @Override
        public void spinUnlock(int rq) {
            add(Kind.UNLOCK, rq, "spin_unlock(rq[" + rq + "])");
        }

        @Override
        public void lockSetSubclass(int rq, int subclass) {
            add(Kind.SUBCLASS, rq, "lock_set_subclass(rq[" + rq + "], " + subclass + ")").subclass = subclass;
        }

        @Override
        public void doubleRqClockClearUpdate(int rq1, int rq2) {
            String cited = source;
            add(Kind.CLOCK, config.lockp(rq1), "double_rq_clock_clear_update");
            source = cited;
            add(Kind.CLOCK, config.lockp(rq2), "double_rq_clock_clear_update");
        }

        @Override
        public boolean configPreempt() {
            return config.preempt();
        }

        @Override
        public void source(String citation) {
            source = citation;
        }

        @Override
        public int rqLockp(int rq) {
            return config.lockp(rq);
        }

        @Override
        public int coreOf(int rq) {
            return config.core(rq);
        }

        private String rqHead(String function, int rq) {
            int l = config.lockp(rq);
            return function + "(rq[" + rq + "])" + (l == rq ? "" : " [core lock rq[" + l + "]]");
        }

        @Override
        public void rawSpinRqLockNested(int rq, int subclass) {
            add(Kind.LOCK, config.lockp(rq), rqHead(subclass == 0 ? "raw_spin_rq_lock" : "raw_spin_rq_lock_nested", rq))
                    .subclass = subclass;
        }

        @Override
        public boolean rawSpinRqTrylock(int rq) {
            return trylock(config.lockp(rq), rqHead("raw_spin_rq_trylock", rq));
        }

        @Override
        public void rawSpinRqUnlock(int rq) {
            add(Kind.UNLOCK, config.lockp(rq), rqHead("raw_spin_rq_unlock", rq));
        }
    }
}
