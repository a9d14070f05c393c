package kcheck.trace;

import java.util.List;
import java.util.Map;

/** A small hand-made trace (the post's scenario, abridged) for renderer and reader tests. */
final class SampleTraces {
    private SampleTraces() {
    }

    static Trace fifo() {
        List<Trace.Field> initial = List.of(new Trace.Field("cpu0.pc", 0, "next: spin_lock(rq0)"),
                new Trace.Field("cpu1.pc", 1, "next: spin_lock(rq1)"), new Trace.Field("rq0.next", null, "0"));
        List<Trace.Step> steps = List.of(
                new Trace.Step(1, 0, "spin_lock(rq[0]): take ticket", "__ticket_spin_lock (include/asm-x86/spinlock.h, v2.6.25)",
                        List.of(new Trace.Field("rq0.next", null, "1")), null),
                new Trace.Step(2, 1, "spin_unlock(rq[1])", "double_lock_balance (kernel/sched.c, v2.6.27)",
                        List.of(new Trace.Field("cpu1.pc", 1, "dlb(busiest=rq0): waits for rq0 (ticket 1)")), null),
                new Trace.Step(3, 0, "spin_trylock(rq[1]) = 1 \u2192 double_lock_balance returns 0",
                        "double_lock_balance (kernel/sched.c, v2.6.27)",
                        List.of(new Trace.Field("cpu0.holds", 0, "{rq0, rq1}")), null));
        return new Trace(Trace.FORMAT, "rq-lock", "before", Map.of("cpus", "2"), "fifo-entry", "step", "VIOLATED",
                "CPU 0 returns holding rq0 while CPU 1 still waits", null, List.of("CPU 0", "CPU 1"), initial, steps, null, 3,
                null, null);
    }

    static Trace lasso() {
        Trace t = fifo();
        return new Trace(t.format(), t.model(), t.variant(), t.params(), "no-spin", "progress", "VIOLATED", "spins forever",
                null, t.actors(), t.initial(), t.steps(), 1, 3, null, null);
    }
}
