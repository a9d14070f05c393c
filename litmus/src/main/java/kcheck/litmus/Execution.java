package kcheck.litmus;

import java.util.HashMap;
import java.util.Map;

/**
 * One candidate execution: a {@link Skeleton} with its reads-from ({@code rf}, lock reads included) and
 * coherence ({@code co}, total per location, initial write first, ULs merged as lock.cat does).
 */
final class Execution {
    final Skeleton s;
    final Rel rf;
    final Rel co;

    Execution(Skeleton s, Rel rf, Rel co) {
        this.s = s;
        this.rf = rf;
        this.co = co;
    }

    /** The final state: {@code T:reg} for each register, and each location's co-last value. */
    Map<String, Val> finalState() {
        Map<String, Val> state = new HashMap<>();
        for (ThreadPath p : s.paths) {
            p.registers().forEach((k, v) -> state.put(p.thread() + ":" + k, v));
        }
        Bits valueWrites = s.w.andNot(s.ul).andNot(s.lkw);
        for (int i = 0; i < s.n; i++) {
            Event e = s.ev[i];
            if (e.kind == Event.Kind.W && !e.isLockOp() && !co.rowIntersects(i, valueWrites)) {
                state.put(e.loc, e.value);
            }
        }
        return state;
    }
}
