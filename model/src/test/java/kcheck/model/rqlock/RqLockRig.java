package kcheck.model.rqlock;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import kcheck.model.Params;
import kcheck.model.StepProperty;

/**
 * The rq-lock model's parts (program, layout, steps, properties) over one implementation, built the
 * way {@link RqLockFactory} builds them, and every step of its (small) reachable state space, for
 * unit tests of the monitors on real states.
 */
final class RqLockRig {
    /** One step: {@code actor} takes {@code action} from {@code from} to {@code to}. */
    record Step(long[] from, int actor, int action, long[] to) {
    }

    final RqLockProgram prog;
    final RqLockLayout lay;
    final RqLockSteps steps;
    final RqLockProperties props;
    final Params params;
    final Set<String> selected;

    RqLockRig(DoubleLockBalance impl, String lock, Set<String> selected, String... params) {
        Map<String, String> p = new HashMap<>();
        p.put("lock", lock);
        for (int i = 0; i < params.length; i += 2) {
            p.put(params[i], params[i + 1]);
        }
        Params ps = new RqLockFactory().params(p);
        this.params = ps;
        this.selected = selected;
        int cpus = ps.integer("cpus");
        RqConfig config = new RqConfig(cpus, ps.get("core-sched").equals("pairs"), ps.get("preempt").equals("y"));
        this.prog = new RqLockProgram(impl, "test", config, impl.spinlock(lock), ps.integer("calls"));
        this.lay = new RqLockLayout(prog, ps, selected);
        this.steps = new RqLockSteps(lay, true);
        this.props = new RqLockProperties(lay, steps);
    }

    /** The model over the same program. */
    RqLockModel model() {
        return new RqLockModel("test", params, prog, selected);
    }

    StepProperty step(String id) {
        return (StepProperty) props.build(Set.of(id)).get(0);
    }

    /** Every step of every reachable state. */
    List<Step> reachable() {
        List<Step> out = new ArrayList<>();
        long[] init = new long[lay.width];
        steps.initial(init);
        Set<List<Long>> seen = new HashSet<>();
        ArrayDeque<long[]> todo = new ArrayDeque<>();
        seen.add(key(init));
        todo.add(init);
        while (!todo.isEmpty()) {
            long[] s = todo.poll();
            steps.successors(s, (actor, action, next) -> {
                long[] to = next.clone();
                out.add(new Step(s, actor, action, to));
                if (seen.add(key(to))) {
                    todo.add(to);
                }
            });
        }
        return out;
    }

    private static List<Long> key(long[] s) {
        return Arrays.stream(s).boxed().toList();
    }

    /** The step returns from double_lock_balance (the edge it takes carries a return value). */
    boolean returns(Step st) {
        int e = steps.edge(st.actor(), st.action());
        return e >= 0 && prog.ret[e] >= 0;
    }

    int returnValue(Step st) {
        return prog.ret[steps.edge(st.actor(), st.action())];
    }

    /** The rq locks CPU {@code c} holds in {@code s}, as a bit mask. */
    int held(long[] s, int c) {
        return prog.held[lay.g(s, c)];
    }
}
