package kcheck.litmus;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The combinations of one path per thread that can have an rf: every value a chosen path reads (lock
 * and srcu_read_lock() reads excepted) is initial or written by a chosen path. Chosen thread by thread,
 * depth first: a choice is dropped as soon as a value its threads read is initial for none, written by
 * none of the threads chosen so far, and by no path of any thread still to choose.
 */
final class PathCombinations {
    private final List<List<ThreadPath>> perThread;
    private final Map<String, Val> init;
    private final List<List<Set<String>>> writes = new ArrayList<>();
    private final List<List<Set<String>>> reads = new ArrayList<>();
    /** Index t: every {@code loc=value} some path of a thread after t writes. */
    private final List<Set<String>> laterWrites = new ArrayList<>();

    PathCombinations(List<List<ThreadPath>> perThread, Map<String, Val> init) {
        this.perThread = perThread;
        this.init = init;
        for (List<ThreadPath> ps : perThread) {
            List<Set<String>> w = new ArrayList<>();
            List<Set<String>> r = new ArrayList<>();
            for (ThreadPath p : ps) {
                w.add(values(p, Event.Kind.W));
                r.add(values(p, Event.Kind.R));
            }
            writes.add(w);
            reads.add(r);
        }
        for (int t = 0; t < perThread.size(); t++) {
            Set<String> later = new HashSet<>();
            for (int u = t + 1; u < perThread.size(); u++) {
                writes.get(u).forEach(later::addAll);
            }
            laterWrites.add(later);
        }
    }

    void forEach(Consumer<List<ThreadPath>> sink) {
        for (List<ThreadPath> ps : perThread) {
            if (ps.isEmpty()) {
                return;
            }
        }
        choose(0, new int[perThread.size()], sink);
    }

    private void choose(int t, int[] pick, Consumer<List<ThreadPath>> sink) {
        if (t == pick.length) {
            List<ThreadPath> combo = new ArrayList<>();
            for (int u = 0; u < pick.length; u++) {
                combo.add(perThread.get(u).get(pick[u]));
            }
            sink.accept(combo);
            return;
        }
        for (int i = 0; i < perThread.get(t).size(); i++) {
            pick[t] = i;
            if (readsCanBeWritten(t, pick)) {
                choose(t + 1, pick, sink);
            }
        }
    }

    private boolean readsCanBeWritten(int t, int[] pick) {
        for (int u = 0; u <= t; u++) {
            for (String key : reads.get(u).get(pick[u])) {
                if (!initial(key) && !laterWrites.get(t).contains(key) && !writtenByChosen(key, t, pick)) {
                    return false;
                }
            }
        }
        return true;
    }

    private boolean writtenByChosen(String key, int t, int[] pick) {
        for (int u = 0; u <= t; u++) {
            if (writes.get(u).get(pick[u]).contains(key)) {
                return true;
            }
        }
        return false;
    }

    private boolean initial(String key) {
        int eq = key.indexOf('=');
        return init.getOrDefault(key.substring(0, eq), Val.ZERO).toString().equals(key.substring(eq + 1));
    }

    /** {@code loc=value} of each read or write of a path, lock events and srcu_read_lock() excepted. */
    private static Set<String> values(ThreadPath p, Event.Kind kind) {
        Set<String> out = new HashSet<>();
        for (Event e : p.events()) {
            if (e.kind == kind && !e.isLockOp() && !e.has(Event.SRCU_LOCK)) {
                out.add(e.loc + "=" + e.value);
            }
        }
        return out;
    }
}
