package kcheck.litmus;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The part of a candidate execution fixed by the threads' paths, before rf and co are chosen: the events
 * (one initial write {@code IW} per location first, then each thread's), the event sets of
 * linux-kernel.bell and lock.cat ({@code R}, {@code W}, {@code M}, {@code Once}, {@code Acquire},
 * {@code Release}, {@code Noreturn}, {@code RMW}, {@code LKR}..., {@code Marked}, {@code Plain}) and the
 * relations {@code po}, {@code loc}, {@code int}/{@code ext}, the raw {@code addr}/{@code data}/{@code ctrl}
 * and {@code rmw} (with lock.cat's {@code lk-rmw}).
 */
final class Skeleton {
    final int n;
    final Event[] ev;
    final int[] thread;
    final int[] locId;
    final List<String> locations;
    final List<ThreadPath> paths;

    long all;
    long r;
    long w;
    long m;
    long iw;
    long once;
    long acquire;
    long release;
    long noreturn;
    long rmwSet;
    long lkr;
    long lkw;
    long ul;
    long lf;
    long rl;
    long ru;
    long srcuLock;
    long srcuUnlock;
    long syncSrcu;
    long marked;
    long plain;
    final Map<String, Long> fences = new HashMap<>();

    final Rel po;
    final Rel loc;
    final Rel intra;
    final Rel ext;
    final Rel poLoc;
    final Rel addr;
    final Rel data;
    final Rel ctrl;
    /** Successful RMW pairs of atomics (the bell's {@code rmw}). */
    final Rel atomicRmw;
    /** lock.cat's {@code lk-rmw}: each LKR to its LKW. */
    final Rel lkRmw;

    Skeleton(List<String> locations, Map<String, Val> init, List<ThreadPath> paths, String file) {
        this.locations = locations;
        this.paths = paths;
        List<Event> es = new ArrayList<>();
        List<Integer> th = new ArrayList<>();
        List<Integer> firsts = new ArrayList<>();
        for (String l : locations) {
            es.add(new Event(Event.Kind.W, Event.IW, null, l, init.getOrDefault(l, Val.ZERO), 0, 0, 0, 0));
            th.add(-1);
        }
        for (ThreadPath p : paths) {
            firsts.add(es.size());
            for (Event e : p.events()) {
                es.add(e);
                th.add(p.thread());
            }
        }
        n = es.size();
        if (n > Rel.MAX) {
            throw new LitmusException(file + ": more than " + Rel.MAX + " events in an execution (" + n + "): not supported");
        }
        ev = es.toArray(new Event[0]);
        thread = th.stream().mapToInt(Integer::intValue).toArray();
        locId = new int[n];
        po = new Rel(n);
        loc = new Rel(n);
        intra = new Rel(n);
        ext = new Rel(n);
        addr = new Rel(n);
        data = new Rel(n);
        ctrl = new Rel(n);
        atomicRmw = new Rel(n);
        lkRmw = new Rel(n);
        all = n == 64 ? -1L : (1L << n) - 1;
        for (int i = 0; i < n; i++) {
            Event e = ev[i];
            locId[i] = e.loc == null ? -1 : locations.indexOf(e.loc);
            classify(i, e);
        }
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if (thread[i] == thread[j] && thread[i] >= 0) {
                    intra.add(i, j);
                    if (j > i) {
                        po.add(i, j);
                    }
                } else {
                    ext.add(i, j);
                }
                if (locId[i] >= 0 && locId[i] == locId[j]) {
                    loc.add(i, j);
                }
            }
        }
        for (int t = 0; t < paths.size(); t++) {
            int base = firsts.get(t);
            List<Event> pe = paths.get(t).events();
            for (int k = 0; k < pe.size(); k++) {
                Event e = pe.get(k);
                int i = base + k;
                deps(addr, e.addr, base, i);
                deps(data, e.data, base, i);
                deps(ctrl, e.ctrl, base, i);
                if (e.rmwPartner > k) {
                    (e.has(Event.LKR) ? lkRmw : atomicRmw).add(i, base + e.rmwPartner);
                }
            }
        }
        poLoc = po.inter(loc);
        marked = (all & ~m) | iw | once | release | acquire | atomicRmw.domain() | atomicRmw.range() | lkr | lkw | ul | lf | ru
                | srcuLock | srcuUnlock;
        plain = m & ~marked;
    }

    private static void deps(Rel rel, long mask, int base, int to) {
        while (mask != 0) {
            int k = Long.numberOfTrailingZeros(mask);
            mask &= mask - 1;
            rel.add(base + k, to);
        }
    }

    private void classify(int i, Event e) {
        long b = 1L << i;
        switch (e.kind) {
            case R -> r |= b;
            case W -> w |= b;
            case F -> fences.merge(e.fence, b, (x, y) -> x | y);
            default -> syncSrcu |= b;
        }
        if (e.kind == Event.Kind.R || e.kind == Event.Kind.W) {
            m |= b;
        }
        iw |= e.has(Event.IW) ? b : 0;
        once |= e.has(Event.ONCE) ? b : 0;
        acquire |= e.has(Event.ACQUIRE) || e.has(Event.LKR) ? b : 0;
        release |= e.has(Event.RELEASE) || e.has(Event.UL) ? b : 0;
        noreturn |= e.has(Event.NORETURN) ? b : 0;
        rmwSet |= e.has(Event.RMW) ? b : 0;
        lkr |= e.has(Event.LKR) ? b : 0;
        lkw |= e.has(Event.LKW) ? b : 0;
        ul |= e.has(Event.UL) ? b : 0;
        lf |= e.has(Event.LF) || e.has(Event.RL) ? b : 0;
        rl |= e.has(Event.RL) ? b : 0;
        ru |= e.has(Event.RU) ? b : 0;
        srcuLock |= e.has(Event.SRCU_LOCK) ? b : 0;
        srcuUnlock |= e.has(Event.SRCU_UNLOCK) ? b : 0;
    }

    private StaticOrder staticOrder;

    /** The rf- and co-independent relations, computed on first use. */
    StaticOrder staticOrder() {
        if (staticOrder == null) {
            staticOrder = StaticOrder.of(this);
        }
        return staticOrder;
    }

    long fence(String name) {
        return fences.getOrDefault(name, 0L);
    }

    /** linux-kernel.cat's {@code fencerel(S)}: {@code po ; [S] ; po}. */
    Rel fencerel(long s) {
        return po.to(s).seq(po);
    }
}
