package kcheck.lkmm;

import java.util.ArrayList;
import java.util.List;

import kcheck.litmus.GraphSearch;
import kcheck.litmus.GraphSearch.Access;
import kcheck.litmus.GraphSearch.Kind;
import kcheck.litmus.GraphSearch.Next;
import kcheck.litmus.GraphSearch.Run;
import kcheck.model.rqlock.RqSpinlock;

/**
 * One CPU under {@code memory-model=lkmm}: {@code rounds} times {@code spin_lock}, the critical
 * section, {@code spin_unlock}, each primitive run as the steps of the variant's {@link RqSpinlock}
 * exactly as the sequentially consistent model runs them, each step's access turned into LKMM
 * events by {@link StepRecorder}. The critical section is {@code WRITE_ONCE(cs, READ_ONCE(cs) + 1)}:
 * with mutual exclusion every section reads the previous one's write, so {@code cs} ends at the
 * number of sections.
 *
 * <p>Dependencies: every spinlock step is followed by a branch on the value it loaded (the next pc
 * depends on it), so each later event carries a control dependency on each earlier spinlock load, as
 * herd7 gives {@code ctrl} to every event after a conditional branch on a load; the critical
 * section's store has a data dependency on its load. So every load reaches each later store of its
 * CPU through a dependency, and {@link GraphSearch}'s enumeration is complete.
 */
final class SpinlockProgram implements GraphSearch.Program {
    static final String CS = "cs";

    private final RqSpinlock lock;
    private final int cpu;
    private final int cpus;
    private final int rounds;
    private final RqSpinlock.Shape shape;
    /** Whether the critical section's counter is run (only mutual-exclusion reads it: without it executions are smaller). */
    private final boolean section;

    SpinlockProgram(RqSpinlock lock, int cpu, int cpus, int rounds, boolean section) {
        this.section = section;
        this.lock = lock;
        this.cpu = cpu;
        this.cpus = cpus;
        this.rounds = rounds;
        this.shape = lock.shape(cpus);
    }

    @Override
    public Run run(long[] values) {
        StepRecorder.Inputs in = new StepRecorder.Inputs(values);
        List<Access> ev = new ArrayList<>();
        long branched = 0;
        int[] regs = new int[shape.registers().size()];
        try {
            for (int round = 0; round < rounds; round++) {
                for (RqSpinlock.Op op : new RqSpinlock.Op[] {RqSpinlock.Op.LOCK, RqSpinlock.Op.UNLOCK}) {
                    int pc = lock.entry(op);
                    while (true) {
                        StepRecorder m = new StepRecorder(cpu, cpus, regs, shape, in);
                        int before = in.next;
                        int next = lock.step(pc, m);
                        in.notStopped();
                        String label = op.function() + ": " + lock.cite(pc) + lock.label(pc, next == RqSpinlock.BLOCKED ? pc : next);
                        int r = m.finish(ev, branched, label);
                        if (next == RqSpinlock.BLOCKED) {
                            if (in.next != values.length || in.next == before) {
                                throw new IllegalStateException(lock.name() + " pc " + pc + ": a spin step blocked on a value it had "
                                        + "already passed on, or without loading");
                            }
                            return new Run(ev, Next.BLOCKED, null, 0);
                        }
                        if (r >= 0) {
                            branched |= 1L << r;
                        }
                        if (next < 0) {
                            java.util.Arrays.fill(regs, 0);
                            break;
                        }
                        pc = next;
                    }
                    if (op == RqSpinlock.Op.LOCK && section) {
                        long v = in.take(CS);
                        int read = ev.size();
                        ev.add(new Access(Kind.READ, CS, v, GraphSearch.ONCE, null, branched, 0, -1, "critical section: READ_ONCE(cs)"));
                        ev.add(new Access(Kind.WRITE, CS, v + 1, GraphSearch.ONCE, null, branched, 1L << read, -1,
                                "critical section: WRITE_ONCE(cs, " + (v + 1) + ")"));
                    }
                }
            }
        } catch (StepRecorder.NeedInput need) {
            return new Run(ev, Next.READ, need.loc, 0);
        }
        return new Run(ev, Next.END, null, 0);
    }

    /** The lock word's fields as the parts of its location (LKMM has no mixed-size accesses: one location each). */
    static java.util.Map<String, List<GraphSearch.Part>> parts(RqSpinlock lock, int cpus) {
        List<GraphSearch.Part> ps = new ArrayList<>();
        List<RqSpinlock.Field> fields = lock.shape(cpus).lockWord();
        for (int f = 0; f < fields.size(); f++) {
            ps.add(new GraphSearch.Part(fields.get(f).name(), LockWord.offset(fields, f), fields.get(f).bits()));
        }
        return java.util.Map.of(LockWord.LOC, ps);
    }

    /** The locations the CPUs use: the lock word, the critical section's counter, each CPU's node fields. */
    static List<String> locations(RqSpinlock lock, int cpus, boolean section) {
        List<String> out = new ArrayList<>(section ? List.of(LockWord.LOC, CS) : List.of(LockWord.LOC));
        for (int c = 0; c < cpus; c++) {
            for (RqSpinlock.Field f : lock.shape(cpus).node()) {
                out.add(StepRecorder.nodeLoc(c, f));
            }
        }
        return out;
    }
}
