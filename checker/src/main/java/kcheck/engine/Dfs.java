package kcheck.engine;

import java.util.ArrayList;
import java.util.List;

import kcheck.model.Model;

/**
 * Depth-first search: exhaustive like BFS, but its counterexamples are the discovery path, not
 * a shortest one. Each frame on the stack keeps the successors of its state (canonical forms,
 * with their ordinals) so nothing is regenerated.
 */
final class Dfs extends Search {

    Dfs(Model model, Options options, Deadline deadline) {
        super(model, options, options.store() == StoreMode.EXACT
                || model.properties().stream().anyMatch(p -> p instanceof kcheck.model.Progress), deadline);
    }

    /** One frame: the successors of a state that were new when it was expanded. */
    private static final class Frame {
        final List<long[]> states = new ArrayList<>();
        final List<Long> ids = new ArrayList<>();
        int next;
    }

    private final class Collector extends Expander {
        Frame frame;

        Collector(Search s) {
            super(s);
        }

        @Override
        void discovered(long id, long[] s) {
            frame.states.add(s.clone());
            frame.ids.add(id);
        }
    }

    @Override
    RunResult run() {
        Collector c = new Collector(this);
        List<Frame> stack = new ArrayList<>();
        long next = System.nanoTime() + 1_000_000_000L;
        for (int i = 0; i < initial.size() && !stopped; i++) {
            long[] s = initial.get(i).clone();
            canonical(s);
            long id = addInitial(s, i);
            if (id < 0) {
                continue;
            }
            Frame root = new Frame();
            root.states.add(s);
            root.ids.add(id);
            stack.add(root);
            while (!stack.isEmpty() && !stopped && !checks.done()) {
                Frame top = stack.get(stack.size() - 1);
                if (top.next == top.states.size()) {
                    stack.remove(stack.size() - 1);
                    continue;
                }
                int k = top.next++;
                System.arraycopy(top.states.get(k), 0, c.cur, 0, w);
                Frame f = new Frame();
                c.frame = f;
                c.expand(top.ids.get(k), stack.size() - 1);
                top.states.set(k, null);
                if (!f.states.isEmpty()) {
                    stack.add(f);
                    /* the new frame's states are one step deeper than the state expanded (the root frame is depth 0) */
                    depth = Math.max(depth, stack.size() - 1);
                }
                if (System.nanoTime() > next) {
                    next = System.nanoTime() + 1_000_000_000L;
                    transitions = c.transitions;
                    report(stack.size());
                }
                timeUp();
            }
            stack.clear();
        }
        transitions = c.transitions;
        ampleStates = c.reduced;
        return result(!stopped && !checks.done());
    }

}
