package kcheck.lkmm;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import kcheck.litmus.GraphSearch;
import kcheck.model.rwsem.RwsemVariant;

/**
 * rwsem-owner's rwsem.c ports under the Linux-kernel memory model ({@code --param memory-model=lkmm}): each
 * reader runs {@code rounds} passes of {@code down_read()}, critical section, {@code up_read()}, each writer
 * the same with {@code down_write()} and {@code up_write()}, through the variant's own code
 * ({@link RwsemProgram}, {@link RwsemMemory}), and {@link GraphSearch} builds every LKMM-consistent execution.
 *
 * <p>Properties, as for the spinlock ({@link LkmmCheck}): {@code mutual-exclusion} (no reader reads the
 * critical-section counter while a writer is inside, no reader section and writer section miss each other, and
 * writers' sections are ordered: the counter ends at twice their number), {@code deadlock-free} (no execution in which a task sleeps or spins for ever while
 * every other task has finished, sleeps or spins) and, opt-in, {@code data-race-free}.
 */
public final class RwsemCheck {
    private RwsemCheck() {
    }

    /** Refuses a port this mode cannot run: one before v5.11, whose operations state no ordering ({@code variant} names it). */
    public static void requirePort(RwsemVariant impl, String variant) {
        if (impl.encoding() != RwsemVariant.Encoding.BITS) {
            throw new kcheck.model.ModelInputException("--param memory-model=lkmm runs rwsem-owner's rwsem.c ports of v5.11 and later "
                    + "(v6.12 and its variants), whose operations state their ordering; variant '" + variant + "' is "
                    + impl.encoding());
        }
    }

    /** Every task runs {@code impl}'s code (one run at a time, from its start: one instance serves them all). */
    public static LkmmCheck.Result check(RwsemVariant impl, int readers, int writers, int rounds, Set<String> properties, Duration timeLimit, long maxGraphs) {
        requirePort(impl, impl.getClass().getSimpleName());
        Set<String> wanted = LkmmCheck.wanted(properties);
        List<GraphSearch.Program> threads = new ArrayList<>();
        for (int t = 0; t < readers + writers; t++) {
            threads.add(new RwsemProgram(impl, t, readers, writers, rounds));
        }
        List<String> locs = RwsemProgram.locations(readers, writers);
        long expected = 2L * writers * rounds;
        GraphSearch.Outcome outcome = (fin, runs) -> {
            for (int t = 0; t < readers; t++) {
                if (fin.get(RwsemProgram.sawWriter(t)) != 0) {
                    return "reader t" + t + " read the critical-section counter odd: a writer was inside its critical section "
                            + "(or the reader's read was not ordered after the writer's whole section)";
                }
            }
            String missed = missedEachOther(runs, readers);
            if (missed != null) {
                return missed;
            }
            long cs = fin.get(RwsemProgram.CS);
            return cs == expected ? null : "the critical sections' counter ends at " + cs + " after " + writers * rounds
                    + " writer sections (" + expected + " expected): two writers' sections were not ordered by the lock";
        };
        return LkmmCheck.search(locs, Map.of(), threads, outcome, wanted, timeLimit, maxGraphs);
    }

    /**
     * A reader section and a writer section that each missed the other: reader N's k-th section read {@code cs} at
     * most the value the writer's section started from (so it did not see that writer's section), and the writer read
     * {@code tN.section} below k (so it did not see that reader's section). Under mutual exclusion one of the two
     * comes first and the other sees it. Null if there is none.
     */
    static String missedEachOther(List<GraphSearch.Run> runs, int readers) {
        for (int w = readers; w < runs.size(); w++) {
            List<GraphSearch.Access> ev = runs.get(w).events();
            for (int i = 0; i < ev.size(); i++) {
                if (!RwsemProgram.WRITER_READ.equals(ev.get(i).label())) {
                    continue;
                }
                long base = ev.get(i).value();
                for (int n = 0; n < readers; n++) {
                    long seen = ev.get(i + 1 + n).value();
                    int k = 0;
                    for (GraphSearch.Access a : runs.get(n).events()) {
                        if (!RwsemProgram.READER_READ.equals(a.label())) {
                            continue;
                        }
                        k++;
                        if (seen < k && a.value() <= base) {
                            return "reader t" + n + "'s critical section " + k + " read cs = " + a.value() + ", from before writer t" + w
                                    + "'s section (which began at cs = " + base + "), and that writer's section read t" + n
                                    + ".section = " + seen + ", from before the reader's: neither section was ordered before the other";
                        }
                    }
                }
            }
        }
        return null;
    }
}
