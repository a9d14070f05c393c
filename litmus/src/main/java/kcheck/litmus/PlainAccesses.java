package kcheck.litmus;

/**
 * linux-kernel.cat's plain accesses and data races: {@code xbstar}, {@code vis}, the pre/post bounds of
 * plain accesses ({@code w-pre-bounded}, {@code r-pre-bounded}, {@code w-post-bounded},
 * {@code r-post-bounded}), {@code ww-vis}, {@code wr-vis}, {@code rw-xbstar}, {@code pre-race}, the axiom
 * {@code plain-coherence} ({@code wr-incoh}, {@code rw-incoh}, {@code ww-incoh}) and the flag
 * {@code data-race} ({@code ww-race}, {@code wr-race}, {@code rw-race}).
 */
final class PlainAccesses {
    private PlainAccesses() {
    }

    static Lkmm.Verdict check(Execution x, Lkmm.Relations k) {
        Skeleton s = x.s;
        Rel rf = x.rf;
        Rel co = x.co;
        Rel xbstar = Rel.union(k.hb, k.pb, k.rb).star();
        Rel vis = k.cumulFence.star().seq(k.rfe.opt()).to(s.marked)
                .seq(k.strongFence.to(s.marked).seq(xbstar).union(xbstar.inter(s.intra)));
        Bits notNoreturn = s.all.andNot(s.noreturn);
        Bits r4rmb = s.r.andNot(s.noreturn);
        Rel rmbFence = s.staticOrder().rmbFence();
        Rel wPre = k.addr.union(k.fence).opt().from(s.marked);
        Rel rPre = Rel.union(k.addr, k.nonrwFence, rmbFence.restrict(r4rmb, notNoreturn)).opt().from(s.marked);
        Rel wPost = k.fence.opt().to(s.marked).seq(k.rmwSequence);
        Rel rPost = k.nonrwFence.union(rmbFence.restrict(notNoreturn, r4rmb)).opt().to(s.marked);
        Rel wwVis = Rel.union(k.fence, Rel.seq(k.strongFence, xbstar, wPre), Rel.seq(wPost, vis, wPre));
        Rel wrVis = Rel.union(k.fence, Rel.seq(k.strongFence, xbstar, rPre), Rel.seq(wPost, vis, rPre));
        Rel rwXbstar = k.fence.union(Rel.seq(rPost, xbstar, wPre));
        Rel preRace = s.ext.inter(Rel.product(s.n, s.plain, s.m).union(Rel.product(s.n, s.m.andNot(s.iw), s.plain)));
        Rel wrIncoh = preRace.inter(rf).inter(rwXbstar.inverse());
        Rel rwIncoh = preRace.inter(k.fr).inter(wrVis.inverse());
        Rel wwIncoh = preRace.inter(co).inter(wwVis.inverse());
        if (!wrIncoh.union(rwIncoh).union(wwIncoh).isEmpty()) {
            return new Lkmm.Verdict(false, false, "plain-coherence");
        }
        Rel wwNonrace = wwVis.inter(Rel.product(s.n, s.marked, s.w).union(rwXbstar))
                .inter(Rel.product(s.n, s.w, s.marked).union(wrVis));
        Rel wwRace = preRace.inter(co).minus(wwNonrace);
        Rel wrRace = preRace.inter(co.opt().seq(rf)).minus(wrVis).minus(rwXbstar.inverse());
        Rel rwRace = preRace.inter(k.fr).minus(rwXbstar);
        Rel races = Rel.union(wwRace, wrRace, rwRace);
        if (races.isEmpty()) {
            return new Lkmm.Verdict(true, false, null);
        }
        for (int i = 0; i < s.n; i++) {
            for (int j = 0; j < s.n; j++) {
                if (races.has(i, j)) {
                    return new Lkmm.Verdict(true, true, null, new int[] {i, j});
                }
            }
        }
        throw new IllegalStateException("a non-empty race relation without a pair");
    }
}
