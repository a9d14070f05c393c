package kcheck.model.rqlock;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;

import kcheck.model.KernelCitations;
import kcheck.model.ModelInputException;

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
    enum Kind { LOCK, TRYLOCK, UNLOCK, END }

    /** One primitive (or the end of the code with its return value). */
    static final class Node {
        final Kind kind;
        final int rq;
        final int ret;
        final String cite;
        /** LOCK/UNLOCK: one child; TRYLOCK: [failed, succeeded]; END: none. */
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

    private RecordedCode() {
    }

    /** Records every path of {@code code}; {@code what} names it in error messages. */
    static Node record(String what, ToIntFunction<RqLocks> code) {
        Node[] root = new Node[1];
        List<boolean[]> todo = new ArrayList<>();
        todo.add(new boolean[0]);
        int runs = 0;
        while (!todo.isEmpty()) {
            boolean[] script = todo.remove(todo.size() - 1);
            if (++runs > 4096) {
                throw new ModelInputException(what + " has too many paths to record (over 4096)");
            }
            Recorder r = new Recorder(script, what);
            int ret;
            try {
                ret = code.applyAsInt(r);
            } catch (NeedOutcome e) {
                todo.add(append(script, true));
                todo.add(append(script, false));
                continue;
            }
            r.events.add(new Node(Kind.END, -1, ret, ""));
            insert(root, r.events, r.outcomes);
        }
        return root[0];
    }

    private static boolean[] append(boolean[] script, boolean b) {
        boolean[] out = java.util.Arrays.copyOf(script, script.length + 1);
        out[script.length] = b;
        return out;
    }

    /** Adds one recorded path to the tree rooted at {@code root[0]}. */
    private static void insert(Node[] root, List<Node> path, List<Boolean> outcomes) {
        Node[] slot = root;
        int slotIndex = 0;
        int tries = 0;
        for (Node n : path) {
            Node existing = slot[slotIndex];
            if (existing == null) {
                slot[slotIndex] = n;
                existing = n;
            } else if (existing.kind != n.kind || existing.rq != n.rq || existing.ret != n.ret) {
                throw new IllegalStateException("reference code is not deterministic given its trylock outcomes");
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

        Recorder(boolean[] script, String what) {
            this.script = script;
            this.what = what;
        }

        private void add(Kind kind, int rq) {
            if (events.size() >= MAX_PATH) {
                throw new ModelInputException(what + " performs more than " + MAX_PATH
                        + " lock operations on one path (does it spin on spin_trylock?)");
            }
            events.add(new Node(kind, rq, 0, KernelCitations.render(KernelCitations.onStack())));
        }

        @Override
        public void spinLock(int rq) {
            add(Kind.LOCK, rq);
        }

        @Override
        public boolean spinTrylock(int rq) {
            int i = outcomes.size();
            if (i >= script.length) {
                throw new NeedOutcome();
            }
            add(Kind.TRYLOCK, rq);
            outcomes.add(script[i]);
            return script[i];
        }

        @Override
        public void spinUnlock(int rq) {
            add(Kind.UNLOCK, rq);
        }
    }
}
