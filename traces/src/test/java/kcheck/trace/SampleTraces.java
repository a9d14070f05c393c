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

    /** {@link #fifo()} with the model's legend, lock lanes, the source hash and the kcheck version. */
    static Trace withLocks() {
        Trace t = fifo();
        List<Trace.Lock> l0 = List.of(lock("rq0"), lock("rq1"));
        List<Trace.Lock> l1 = List.of(lock("rq0", 0), lock("rq1", 1));
        List<Trace.Lock> l2 = List.of(new Trace.Lock("rq0", List.of(0), List.of(1), true), lock("rq1"));
        List<Trace.Lock> l3 = List.of(new Trace.Lock("rq0", List.of(0), List.of(1), true), lock("rq1", 0));
        List<List<Trace.Lock>> after = List.of(l1, l2, l3);
        List<Trace.Step> steps = new java.util.ArrayList<>();
        for (Trace.Step s : t.steps()) {
            steps.add(new Trace.Step(s.index(), s.actor(), s.action(), s.function(), s.changes(), s.state(), after.get(s.index() - 1)));
        }
        return new Trace(t.format(), t.model(), t.variant(), t.params(), t.property(), t.kind(), t.verdict(), t.message(), null,
                t.actors(), t.initial(), steps, null, 3, null, null,
                List.of("rqN.next: the next ticket rq N hands out", "rqN.serving: the ticket rq N serves now (not a CPU id)"),
                l0, "ab".repeat(32), "kcheck 0.1.0 (git 0123abc)");
    }

    private static Trace.Lock lock(String name, Integer... holders) {
        return new Trace.Lock(name, List.of(holders), List.of(), true);
    }

    static Trace lasso() {
        Trace t = fifo();
        return new Trace(t.format(), t.model(), t.variant(), t.params(), "no-spin", "progress", "VIOLATED", "spins forever",
                null, t.actors(), t.initial(), t.steps(), 1, 3, null, null);
    }
}
