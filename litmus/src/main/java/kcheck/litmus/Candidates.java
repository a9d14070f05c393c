package kcheck.litmus;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * herd7's enumeration of candidate executions. The threads run with the value domains grown to a
 * fixpoint ({@link ValueDomains}); then, for each combination of one path per thread, every rf (each read
 * from a same-location write of the value it read, or the initial write; lock reads as lock.cat says) and
 * every co (a total order of each location's writes after the initial write, lock.cat's {@code co0}
 * constraint for unmatched LKWs) is one candidate handed to the consumer. Choices that break coherence
 * on their face (a read from a po-later write of its own thread, two writes of a thread against po) are
 * skipped.
 */
final class Candidates {
    private static final int MAX_ROUNDS = 32;

    private final LitmusTest test;
    private long explored;

    Candidates(LitmusTest test) {
        this.test = test;
    }

    long explored() {
        return explored;
    }

    void forEach(Consumer<Execution> sink) {
        List<List<ThreadPath>> perThread = threadPaths();
        Set<String> locs = new LinkedHashSet<>(test.memoryInit().keySet());
        for (List<ThreadPath> ps : perThread) {
            for (ThreadPath p : ps) {
                for (Event e : p.events()) {
                    if (e.loc != null) {
                        locs.add(e.loc);
                    }
                }
            }
        }
        List<String> locations = new ArrayList<>(locs);
        int[] pick = new int[perThread.size()];
        for (List<ThreadPath> ps : perThread) {
            if (ps.isEmpty()) {
                return;
            }
        }
        while (true) {
            List<ThreadPath> combo = new ArrayList<>();
            for (int t = 0; t < pick.length; t++) {
                combo.add(perThread.get(t).get(pick[t]));
            }
            combination(new Skeleton(locations, test.memoryInit(), combo, test.file()), sink);
            int t = pick.length - 1;
            while (t >= 0 && pick[t] + 1 >= perThread.get(t).size()) {
                pick[t] = 0;
                t--;
            }
            if (t < 0) {
                return;
            }
            pick[t]++;
        }
    }

    private List<List<ThreadPath>> threadPaths() {
        ValueDomains domains = new ValueDomains(test.memoryInit());
        for (int round = 0; ; round++) {
            List<List<ThreadPath>> paths = new ArrayList<>();
            for (LitmusTest.ThreadCode c : test.threads()) {
                paths.add(new ThreadRunner(test.file(), c, test.registerInit(), domains).paths());
            }
            // a value an execution writes comes through a chain of at most as many writes as it has
            if (!domains.addWrites(paths) || round >= Math.min(MAX_ROUNDS, maxWrites(paths))) {
                return paths;
            }
        }
    }

    private static int maxWrites(List<List<ThreadPath>> paths) {
        int total = 0;
        for (List<ThreadPath> thread : paths) {
            int most = 0;
            for (ThreadPath p : thread) {
                most = Math.max(most, (int) p.events().stream().filter(e -> e.kind == Event.Kind.W).count());
            }
            total += most;
        }
        return total;
    }

    private void combination(Skeleton s, Consumer<Execution> sink) {
        Rel critical = LockCat.critical(s);
        if (!LockCat.programOrderAxiomsHold(s, critical)) {
            return;
        }
        List<Integer> reads = new ArrayList<>();
        List<List<Integer>> sources = new ArrayList<>();
        for (int i = 0; i < s.n; i++) {
            if (s.ev[i].kind != Event.Kind.R || s.ev[i].has(Event.LKR)) {
                continue;
            }
            List<Integer> from = s.ev[i].isLockOp() ? LockCat.lockReadSources(s, i) : valueSources(s, i);
            if (from.isEmpty()) {
                return;
            }
            reads.add(i);
            sources.add(from);
        }
        List<List<List<Integer>>> orders = new ArrayList<>();
        long unmatched = LockCat.unmatched(s, critical);
        for (int l = 0; l < s.locations.size(); l++) {
            List<Integer> ws = new ArrayList<>();
            for (int i = 0; i < s.n; i++) {
                if (s.locId[i] == l && s.ev[i].kind == Event.Kind.W && !s.ev[i].has(Event.IW) && !s.ev[i].has(Event.UL)) {
                    ws.add(i);
                }
            }
            List<List<Integer>> perms = new ArrayList<>();
            permutations(s, ws, new ArrayList<>(), unmatched, perms);
            orders.add(perms);
        }
        int[] rfPick = new int[reads.size()];
        do {
            Rel rf = new Rel(s.n);
            for (int k = 0; k < rfPick.length; k++) {
                rf.add(sources.get(k).get(rfPick[k]), reads.get(k));
            }
            int[] coPick = new int[orders.size()];
            do {
                Rel co = new Rel(s.n);
                for (int l = 0; l < orders.size(); l++) {
                    List<Integer> order = orders.get(l).get(coPick[l]);
                    int iw = l;
                    for (int a = 0; a < order.size(); a++) {
                        co.add(iw, order.get(a));
                        for (int b = a + 1; b < order.size(); b++) {
                            co.add(order.get(a), order.get(b));
                        }
                    }
                }
                co = LockCat.mergeUnlocks(co, critical);
                Rel fullRf = rf.union(LockCat.lockReads(s, co));
                explored++;
                sink.accept(new Execution(s, fullRf, co));
            } while (advance(coPick, orders));
        } while (advanceSources(rfPick, sources));
    }

    /** The writes read {@code r} can read from: same location, same value, not po-after it. */
    private static List<Integer> valueSources(Skeleton s, int r) {
        List<Integer> out = new ArrayList<>();
        for (int j = 0; j < s.n; j++) {
            Event w = s.ev[j];
            if (w.kind == Event.Kind.W && !w.isLockOp() && s.locId[j] == s.locId[r] && w.value.equals(s.ev[r].value)
                    && !(s.thread[j] == s.thread[r] && j > r)) {
                out.add(j);
            }
        }
        return out;
    }

    /** Orders of a location's writes that keep each thread's in po and put an unmatched LKW last. */
    private static void permutations(Skeleton s, List<Integer> left, List<Integer> prefix, long unmatched, List<List<Integer>> out) {
        if (left.isEmpty()) {
            out.add(List.copyOf(prefix));
            return;
        }
        for (int k = 0; k < left.size(); k++) {
            int e = left.get(k);
            boolean ok = true;
            for (int other : left) {
                if (other != e && (s.po.has(other, e) || (unmatched >>> e & 1) != 0)) {
                    ok = false;
                }
            }
            if (!ok) {
                continue;
            }
            List<Integer> rest = new ArrayList<>(left);
            rest.remove(k);
            prefix.add(e);
            permutations(s, rest, prefix, unmatched, out);
            prefix.remove(prefix.size() - 1);
        }
    }

    private static boolean advance(int[] pick, List<List<List<Integer>>> choices) {
        for (int i = pick.length - 1; i >= 0; i--) {
            if (pick[i] + 1 < choices.get(i).size()) {
                pick[i]++;
                return true;
            }
            pick[i] = 0;
        }
        return false;
    }

    private static boolean advanceSources(int[] pick, List<List<Integer>> choices) {
        for (int i = pick.length - 1; i >= 0; i--) {
            if (pick[i] + 1 < choices.get(i).size()) {
                pick[i]++;
                return true;
            }
            pick[i] = 0;
        }
        return false;
    }
}
