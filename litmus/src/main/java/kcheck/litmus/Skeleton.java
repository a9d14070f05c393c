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

    final Bits all;
    final Bits r;
    final Bits w;
    final Bits m;
    final Bits iw;
    final Bits once;
    final Bits acquire;
    final Bits release;
    final Bits noreturn;
    final Bits rmwSet;
    final Bits lkr;
    final Bits lkw;
    final Bits ul;
    final Bits lf;
    final Bits rl;
    final Bits ru;
    final Bits srcuLock;
    final Bits srcuUnlock;
    final Bits syncSrcu;
    final Bits marked;
    final Bits plain;
    /** The fence events by linux-kernel.bell barrier name. */
    final Map<String, Bits> fences = new HashMap<>();
    /** The events of each location, by its index in {@link #locations}. */
    final Bits[] atLocation;

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
        addr = new Rel(n);
        data = new Rel(n);
        ctrl = new Rel(n);
        atomicRmw = new Rel(n);
        lkRmw = new Rel(n);
        for (int i = 0; i < n; i++) {
            locId[i] = ev[i].loc == null ? -1 : locations.indexOf(ev[i].loc);
            if (ev[i].kind == Event.Kind.F) {
                fences.merge(ev[i].fence, Bits.of(i), Bits::or);
            }
        }
        atLocation = new Bits[locations.size()];
        for (int l = 0; l < atLocation.length; l++) {
            int at = l;
            atLocation[l] = Bits.where(n, i -> locId[i] == at);
        }
        all = Bits.first(n);
        r = ofKind(Event.Kind.R);
        w = ofKind(Event.Kind.W);
        m = r.or(w);
        syncSrcu = ofKind(Event.Kind.SRCU_SYNC);
        iw = flagged(Event.IW);
        once = flagged(Event.ONCE);
        acquire = flagged(Event.ACQUIRE | Event.LKR);
        release = flagged(Event.RELEASE | Event.UL);
        noreturn = flagged(Event.NORETURN);
        rmwSet = flagged(Event.RMW);
        lkr = flagged(Event.LKR);
        lkw = flagged(Event.LKW);
        ul = flagged(Event.UL);
        lf = flagged(Event.LF | Event.RL);
        rl = flagged(Event.RL);
        ru = flagged(Event.RU);
        srcuLock = flagged(Event.SRCU_LOCK);
        srcuUnlock = flagged(Event.SRCU_UNLOCK);
        // each thread's events are one block of indices: int is the blocks' squares, po their upper triangles
        Rel sameThread = new Rel(n);
        for (int t = 0; t < paths.size(); t++) {
            int base = firsts.get(t);
            int end = base + paths.get(t).events().size();
            Bits block = Bits.range(base, end);
            sameThread = sameThread.union(Rel.product(n, block, block));
            for (int i = base; i < end; i++) {
                for (int j = i + 1; j < end; j++) {
                    po.add(i, j);
                }
            }
        }
        intra = sameThread;
        ext = Rel.product(n, all, all).minus(intra);
        Rel sameLocation = new Rel(n);
        for (Bits at : atLocation) {
            sameLocation = sameLocation.union(Rel.product(n, at, at));
        }
        loc = sameLocation;
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
        marked = Bits.union(all.andNot(m), iw, once, release, acquire, atomicRmw.domain(), atomicRmw.range(), lkr, lkw, ul, lf,
                ru, srcuLock, srcuUnlock);
        plain = m.andNot(marked);
    }

    private static void deps(Rel rel, long mask, int base, int to) {
        while (mask != 0) {
            int k = Long.numberOfTrailingZeros(mask);
            mask &= mask - 1;
            rel.add(base + k, to);
        }
    }

    private Bits ofKind(Event.Kind kind) {
        return Bits.where(n, i -> ev[i].kind == kind);
    }

    /** The events with any of {@code flags}. */
    private Bits flagged(int flags) {
        return Bits.where(n, i -> (ev[i].flags & flags) != 0);
    }

    private StaticOrder staticOrder;

    /** The rf- and co-independent relations, computed on first use. */
    StaticOrder staticOrder() {
        if (staticOrder == null) {
            staticOrder = StaticOrder.of(this);
        }
        return staticOrder;
    }

    Bits fence(String name) {
        return fences.getOrDefault(name, Bits.EMPTY);
    }

    /** linux-kernel.cat's {@code fencerel(S)}: {@code po ; [S] ; po}. */
    Rel fencerel(Bits s) {
        return po.to(s).seq(po);
    }
}
