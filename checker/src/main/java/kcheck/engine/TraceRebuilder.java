package kcheck.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import kcheck.engine.store.TraceLinks;
import kcheck.model.Model;
import kcheck.model.StepSink;

/**
 * Turns trace links back into a path of concrete states (TLC-style: re-execute, do not store).
 * The chain of (parent, ordinal) links gives the path through the stored, canonical states;
 * each step is re-executed from the matching concrete state, choosing the successor whose
 * canonical form is the next stored state. Without reductions the two paths coincide.
 */
final class TraceRebuilder {
    private final Model model;
    private final boolean reductions;
    private final List<long[]> initial;
    private final TraceLinks links;
    private final int w;

    TraceRebuilder(Model model, boolean reductions, List<long[]> initial, TraceLinks links) {
        this.model = model.fork();
        this.reductions = reductions;
        this.initial = initial;
        this.links = links;
        this.w = model.width();
    }

    /** A predicate on a final step, to prefer the successor that actually violates. */
    interface StepFilter {
        boolean accept(long[] from, int actor, int action, long[] to);
    }

    /** The ordinals from an initial state to {@code id}: element 0 is the initial state's index. */
    List<Integer> ordinals(long id) {
        List<Integer> out = new ArrayList<>();
        for (long x = id; x >= 0; x = links.parent(x)) {
            out.add(links.ordinal(x));
        }
        java.util.Collections.reverse(out);
        return out;
    }

    /**
     * Rebuilds the path to {@code id}, then follows {@code extra} ordinals (steps taken from the
     * stored states, e.g. the violating step or a cycle); {@code lastFilter} picks among
     * equivalent successors for the final step.
     */
    Path path(long id, List<Integer> extra, StepFilter lastFilter) {
        List<Integer> ord = ordinals(id);
        ord.addAll(extra);
        long[] concrete = initial.get(ord.get(0)).clone();
        long[] canon = concrete.clone();
        if (reductions) {
            model.canonicalize(canon);
        }
        Path p = new Path();
        p.states.add(concrete.clone());
        for (int i = 1; i < ord.size(); i++) {
            boolean last = i == ord.size() - 1;
            Step target = successor(canon, ord.get(i));
            long[] targetCanon = target.to.clone();
            if (reductions) {
                model.canonicalize(targetCanon);
            }
            Step chosen;
            if (!reductions) {
                chosen = target;
            } else {
                chosen = matching(concrete, targetCanon, last ? lastFilter : null);
            }
            p.states.add(chosen.to.clone());
            p.actors.add(chosen.actor);
            p.actions.add(chosen.action);
            concrete = chosen.to.clone();
            canon = targetCanon;
        }
        return p;
    }

    /** The path's pieces, before the result names the violation. */
    static final class Path {
        final List<long[]> states = new ArrayList<>();
        final List<Integer> actors = new ArrayList<>();
        final List<Integer> actions = new ArrayList<>();

        RawTrace toTrace(int loopStart, int violationStep, String message) {
            return new RawTrace(states, actors.stream().mapToInt(Integer::intValue).toArray(),
                    actions.stream().mapToInt(Integer::intValue).toArray(), loopStart, violationStep, message, -1);
        }
    }

    private record Step(int actor, int action, long[] to) {
    }

    /** Successor number {@code ordinal} of {@code s}. */
    Step successor(long[] s, int ordinal) {
        Step[] found = new Step[1];
        int[] k = {0};
        try {
            model.successors(s, (actor, action, next) -> {
                if (k[0]++ == ordinal) {
                    found[0] = new Step(actor, action, next.clone());
                    throw StepSink.Stop.INSTANCE; /* the rest are not needed */
                }
            });
        } catch (StepSink.Stop stop) {
            /* found */
        }
        if (found[0] == null) {
            throw new IllegalStateException("trace link names successor " + ordinal + " of a state with " + k[0]);
        }
        return found[0];
    }

    private Step matching(long[] concrete, long[] targetCanon, StepFilter filter) {
        List<Step> candidates = new ArrayList<>();
        long[] tmp = new long[w];
        model.successors(concrete, (actor, action, next) -> {
            System.arraycopy(next, 0, tmp, 0, w);
            model.canonicalize(tmp);
            if (Arrays.equals(tmp, targetCanon)) {
                candidates.add(new Step(actor, action, next.clone()));
            }
        });
        if (candidates.isEmpty()) {
            throw new IllegalStateException("model's canonical form is not a bisimulation: no concrete step matches");
        }
        if (filter != null) {
            for (Step c : candidates) {
                if (filter.accept(concrete, c.actor, c.action, c.to)) {
                    return c;
                }
            }
        }
        return candidates.get(0);
    }
}
