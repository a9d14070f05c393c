package kcheck.lkmm;

import java.util.ArrayList;
import java.util.List;

import kcheck.litmus.GraphSearch;
import kcheck.litmus.GraphSearch.Access;
import kcheck.litmus.GraphSearch.Kind;
import kcheck.litmus.GraphSearch.Next;
import kcheck.litmus.GraphSearch.Run;
import kcheck.model.rwsem.KernelLocals;
import kcheck.model.rwsem.RwsemVariant;

/**
 * One task of rwsem-owner under {@code memory-model=lkmm}: {@code rounds} times {@code down_read()} (or
 * {@code down_write()}), the critical section, {@code up_read()} ({@code up_write()}), run by the variant's
 * own Java code against {@link RwsemMemory}, from the start on every run (the port's {@code FrameLocal}
 * fields are cleared first).
 *
 * <p>The critical sections: a writer's is {@code r = READ_ONCE(cs)}, a {@code READ_ONCE} of each reader's
 * {@code tN.section}, then {@code WRITE_ONCE(cs, r + 1); WRITE_ONCE(cs, r + 2)}, so {@code cs} is odd exactly
 * while a writer is inside; reader N's k-th is {@code WRITE_ONCE(tN.section, k); r = READ_ONCE(cs)} and, when
 * {@code r} is odd, {@code WRITE_ONCE(tN.saw_writer, 1)}. Exclusion ({@link RwsemCheck}): {@code cs} ends at
 * twice the writers' sections, no reader saw a writer inside, and no reader section and writer section each
 * missed the other (the reader read {@code cs} from before the writer's section, the writer read the reader's
 * {@code section} from before it).
 */
final class RwsemProgram implements GraphSearch.Program {
    static final String CS = "cs";

    static final String WRITER_READ = "critical section: READ_ONCE(cs)";
    static final String READER_READ = "critical section (reader): READ_ONCE(cs)";

    /** Reader {@code task}'s section counter: its k-th critical section stores k. */
    static String section(int task) {
        return "t" + task + ".section";
    }

    static String sawWriter(int task) {
        return "t" + task + ".saw_writer";
    }

    private final RwsemVariant impl;
    private final KernelLocals locals;
    private final int task;
    private final int tasks;
    private final int readers;
    private final int rounds;

    RwsemProgram(RwsemVariant impl, int task, int readers, int writers, int rounds) {
        this.impl = impl;
        this.task = task;
        this.readers = readers;
        this.tasks = readers + writers;
        this.rounds = rounds;
        this.locals = new KernelLocals(impl, impl.getClass().getName());
    }

    boolean writer() {
        return task >= readers;
    }

    @Override
    public Run run(long[] values) {
        locals.reset();
        StepRecorder.Inputs in = new StepRecorder.Inputs(values);
        List<Access> ev = new ArrayList<>();
        RwsemMemory m = new RwsemMemory(task, tasks, readers, in, ev);
        try {
            for (int round = 0; round < rounds; round++) {
                if (writer()) {
                    impl.downWrite(m);
                    long r = in.take(CS);
                    int read = ev.size();
                    ev.add(new Access(Kind.READ, CS, r, GraphSearch.ONCE, null, m.reads, 0, -1, WRITER_READ));
                    m.reads |= 1L << read;
                    long data = 1L << read;
                    for (int t = 0; t < readers; t++) {
                        long k = in.take(section(t));
                        int i = ev.size();
                        ev.add(new Access(Kind.READ, section(t), k, GraphSearch.ONCE, null, m.reads, 0, -1,
                                "critical section: READ_ONCE(" + section(t) + ")"));
                        m.reads |= 1L << i;
                    }
                    ev.add(new Access(Kind.WRITE, CS, r + 1, GraphSearch.ONCE, null, m.reads, data, -1,
                            "critical section: WRITE_ONCE(cs, " + (r + 1) + ")"));
                    ev.add(new Access(Kind.WRITE, CS, r + 2, GraphSearch.ONCE, null, m.reads, data, -1,
                            "critical section: WRITE_ONCE(cs, " + (r + 2) + ")"));
                    impl.upWrite(m);
                } else {
                    impl.downRead(m);
                    ev.add(new Access(Kind.WRITE, section(task), round + 1, GraphSearch.ONCE, null, m.reads, 0, -1,
                            "critical section: WRITE_ONCE(" + section(task) + ", " + (round + 1) + ")"));
                    long r = in.take(CS);
                    int read = ev.size();
                    ev.add(new Access(Kind.READ, CS, r, GraphSearch.ONCE, null, m.reads, 0, -1, READER_READ));
                    m.reads |= 1L << read;
                    if ((r & 1) != 0) {
                        ev.add(new Access(Kind.WRITE, sawWriter(task), 1, GraphSearch.ONCE, null, m.reads, 0, -1,
                                "critical section: cs is odd, a writer is inside: WRITE_ONCE(saw_writer, 1)"));
                    }
                    impl.upRead(m);
                }
            }
        } catch (StepRecorder.NeedInput need) {
            return new Run(ev, Next.READ, need.loc, 0);
        } catch (RwsemMemory.Blocked b) {
            return new Run(ev, Next.BLOCKED, null, 0);
        }
        in.notStopped();
        return new Run(ev, Next.END, null, 0);
    }

    /** The locations: the rwsem's, the critical section's, each task's waiter, state and (readers) saw_writer flag. */
    static List<String> locations(int readers, int writers) {
        List<String> out = new ArrayList<>(List.of(RwsemMemory.COUNT, RwsemMemory.OWNER, RwsemMemory.WAIT_LOCK, RwsemMemory.WAIT_LIST,
                CS));
        for (int t = 0; t < readers + writers; t++) {
            out.add(RwsemMemory.waiterTask(t));
            out.add(RwsemMemory.state(t));
            if (t < readers) {
                out.add(sawWriter(t));
                out.add(section(t));
            }
        }
        return out;
    }
}
