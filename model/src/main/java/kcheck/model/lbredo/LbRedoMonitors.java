package kcheck.model.lbredo;

import java.util.Set;

/**
 * Which monitor variables the lb-redo state carries: only those a selected property reads, so
 * that a run for one property does not pay for the others' counters.
 *
 * @param redos    redos in this call ({@code terminates}, {@code redos})
 * @param pass     "a task of busiest was examined" and "every examined task was pinned away" for the
 *                 current statistics pass ({@code all-pinned-sound}, {@code no-spurious-redo},
 *                 {@code pinned-redo-kept}, {@code spurious-redos})
 * @param passes   statistics passes in this call ({@code stat-passes})
 * @param spurious redos whose pass examined no task ({@code spurious-redos})
 * @param work     per-CPU statistics updates in this call ({@code stat-work})
 */
record LbRedoMonitors(boolean redos, boolean pass, boolean passes, boolean spurious, boolean work) {

    static LbRedoMonitors of(Set<String> selected) {
        return new LbRedoMonitors(
                selected.contains("terminates") || selected.contains("redos"),
                selected.contains("all-pinned-sound") || selected.contains("no-spurious-redo")
                        || selected.contains("pinned-redo-kept") || selected.contains("spurious-redos"),
                selected.contains("stat-passes"),
                selected.contains("spurious-redos"),
                selected.contains("stat-work"));
    }
}
