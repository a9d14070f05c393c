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
 * constraint for unmatched LKWs) is one candidate handed to the consumer. As coherence and atomicity
 * relate events of one location only, each location's rf and co choices are filtered by them first and
 * the candidates are the combinations of the choices that pass (so "explored" counts candidates that
 * are coherent per location).
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
        new PathCombinations(perThread, test.memoryInit())
                .forEach(combo -> combination(new Skeleton(locations, test.memoryInit(), combo, test.file()), sink));
    }

    private List<List<ThreadPath>> threadPaths() {
        ValueDomains domains = new ValueDomains(test.memoryInit());
        for (int round = 0; ; round++) {
            List<List<ThreadPath>> paths = new ArrayList<>();
            List<Event> abandoned = new ArrayList<>();
            for (LitmusTest.ThreadCode c : test.threads()) {
                ThreadRunner runner = new ThreadRunner(test.file(), c, test.registerInit(), domains);
                paths.add(runner.paths());
                abandoned.addAll(runner.abandonedEvents());
            }
            boolean grew = domains.addWrites(paths) | domains.addWrites(abandoned);
            // a value an execution writes comes through a chain of at most as many writes as it has
            if (!grew || round >= Math.min(MAX_ROUNDS, Math.max(maxWrites(paths), 1) + abandoned.size())) {
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
        Bits unmatched = LockCat.unmatched(s, critical);
        List<List<Rel[]>> perLocation = new ArrayList<>();
        for (int l = 0; l < s.locations.size(); l++) {
            List<Rel[]> choices = locationChoices(s, l, critical, unmatched);
            if (choices.isEmpty()) {
                return;
            }
            perLocation.add(choices);
        }
        int[] pick = new int[perLocation.size()];
        do {
            Rel rf = new Rel(s.n);
            Rel co = new Rel(s.n);
            for (int l = 0; l < pick.length; l++) {
                Rel[] c = perLocation.get(l).get(pick[l]);
                rf = rf.union(c[0]);
                co = co.union(c[1]);
            }
            explored++;
            sink.accept(new Execution(s, rf, co));
        } while (advance(pick, perLocation));
    }

    /**
     * The rf and co choices of one location's events that keep linux-kernel.cat's {@code coherence}
     * ({@code acyclic po-loc | com}) and {@code atomic} axioms there: both only relate events of one
     * location, so an execution satisfies them if and only if each location's part does.
     */
    private static List<Rel[]> locationChoices(Skeleton s, int l, Rel critical, Bits unmatched) {
        Bits at = s.atLocation[l];
        List<Integer> reads = new ArrayList<>();
        List<List<Integer>> sources = new ArrayList<>();
        List<Integer> writes = new ArrayList<>();
        List<Rel[]> out = new ArrayList<>();
        for (int i = 0; i < s.n; i++) {
            if (s.locId[i] != l) {
                continue;
            }
            Event e = s.ev[i];
            if (e.kind == Event.Kind.R && !e.has(Event.LKR)) {
                List<Integer> from = e.isLockOp() ? LockCat.lockReadSources(s, i) : valueSources(s, i);
                if (from.isEmpty()) {
                    return out;
                }
                reads.add(i);
                sources.add(from);
            } else if (e.kind == Event.Kind.W && !e.has(Event.IW) && !e.has(Event.UL)) {
                writes.add(i);
            }
        }
        List<List<Integer>> orders = new ArrayList<>();
        permutations(s, writes, new ArrayList<>(), unmatched, orders);
        Rel criticalHere = critical.restrict(at, at);
        Rel poLoc = s.poLoc.restrict(at, at);
        Rel rmw = s.atomicRmw.union(s.lkRmw);
        int[] rfPick = new int[reads.size()];
        do {
            Rel rf = new Rel(s.n);
            for (int k = 0; k < rfPick.length; k++) {
                rf.add(sources.get(k).get(rfPick[k]), reads.get(k));
            }
            for (List<Integer> order : orders) {
                Rel co = new Rel(s.n);
                for (int a = 0; a < order.size(); a++) {
                    co.add(l, order.get(a));
                    for (int b = a + 1; b < order.size(); b++) {
                        co.add(order.get(a), order.get(b));
                    }
                }
                co = LockCat.mergeUnlocks(co, criticalHere);
                Rel rfAll = rf.union(LockCat.lockReads(s, co));
                Rel fr = rfAll.inverse().seq(co);
                if (!Rel.union(poLoc, rfAll, co, fr).acyclic()) {
                    continue;
                }
                if (!rmw.inter(fr.inter(s.ext).seq(co.inter(s.ext))).isEmpty()) {
                    continue;
                }
                out.add(new Rel[] {rfAll, co});
            }
        } while (advance(rfPick, sources));
        return out;
    }

    /**
     * The writes read {@code r} can read from: same location, same value (any value for an srcu_read_lock(),
     * whose value is its own index), not po-after it.
     */
    private static List<Integer> valueSources(Skeleton s, int r) {
        List<Integer> out = new ArrayList<>();
        for (int j = 0; j < s.n; j++) {
            Event w = s.ev[j];
            boolean valueMatches = w.value != null && (w.value.equals(s.ev[r].value) || s.ev[r].has(Event.SRCU_LOCK));
            if (w.kind == Event.Kind.W && !w.isLockOp() && s.locId[j] == s.locId[r] && valueMatches
                    && !(s.thread[j] == s.thread[r] && j > r)) {
                out.add(j);
            }
        }
        return out;
    }

    /** Orders of a location's writes that keep each thread's in po and put an unmatched LKW last. */
    private static void permutations(Skeleton s, List<Integer> left, List<Integer> prefix, Bits unmatched, List<List<Integer>> out) {
        if (left.isEmpty()) {
            out.add(List.copyOf(prefix));
            return;
        }
        for (int k = 0; k < left.size(); k++) {
            int e = left.get(k);
            boolean ok = true;
            for (int other : left) {
                if (other != e && (s.po.has(other, e) || unmatched.has(e))) {
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

    /** The next combination: {@code pick[i]} indexes {@code choices.get(i)}, the last index turning fastest; false after the last. */
    private static boolean advance(int[] pick, List<? extends List<?>> choices) {
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
