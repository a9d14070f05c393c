package kcheck.litmus;

/**
 * The Linux-kernel memory model's axioms over one candidate execution, relation by relation as in
 * tools/memory-model/linux-kernel.cat (with linux-kernel.bell's dependency carrying and lock.cat's
 * relations already applied by {@link Skeleton}, {@link LockCat} and {@link Candidates}):
 * {@code coherence}, {@code atomic}, {@code happens-before}, {@code propagation}, {@code rcu}
 * ({@link RcuOrder}) and {@code plain-coherence} with the {@code data-race} flag ({@link PlainAccesses}).
 */
final class Lkmm {

    /** Whether the execution is allowed, and whether it has a data race (herd's "Flag data-race"). */
    record Verdict(boolean consistent, boolean dataRace, String failed, int[] race) {
        Verdict(boolean consistent, boolean dataRace, String failed) {
            this(consistent, dataRace, failed, null);
        }
    }

    /** The relations of linux-kernel.cat that the RCU and plain-access parts reuse. */
    static final class Relations {
        Rel fr;
        Rel rfe;
        Rel rfi;
        Rel addr;
        Rel data;
        Rel nonrwFence;
        Rel fence;
        Rel strongFence;
        Rel cumulFence;
        Rel rmwSequence;
        Rel prop;
        Rel hb;
        Rel pb;
        Rel rb;
        Rel rcuFence;
    }

    private Lkmm() {
    }

    static Verdict check(Execution x) {
        Skeleton s = x.s;
        Rel rf = x.rf;
        Rel co = x.co;
        Relations k = new Relations();
        // lock.cat: fr = rf^-1 ; co, and the internal/external parts
        Rel fr = rf.inverse().seq(co);
        k.fr = fr;
        Rel com = rf.union(co).union(fr);
        // coherence: acyclic po-loc | com
        if (!s.poLoc.union(com).acyclic()) {
            return new Verdict(false, false, "coherence");
        }
        Rel rfe = rf.inter(s.ext);
        Rel rfi = rf.inter(s.intra);
        Rel coe = co.inter(s.ext);
        Rel fre = fr.inter(s.ext);
        k.rfe = rfe;
        k.rfi = rfi;
        Rel rmw = s.atomicRmw.union(s.lkRmw);
        // atomic: empty rmw & (fre ; coe)
        if (!rmw.inter(fre.seq(coe)).isEmpty()) {
            return new Verdict(false, false, "atomic");
        }
        // linux-kernel.bell: carry-dep = (data ; [~Srcu-unlock] ; rfi)*, then addr, ctrl, data through it
        Rel carry = s.data.to(s.all.andNot(s.srcuUnlock)).seq(rfi).star();
        Rel addr = carry.seq(s.addr);
        Rel ctrl = carry.seq(s.ctrl);
        Rel data = carry.seq(s.data);
        k.addr = addr;
        k.data = data;
        Rel po = s.po;
        StaticOrder so = s.staticOrder();
        // basic relations: acq-po, po-rel, po-unlock-lock-po
        Rel acqPo = so.acqPo();
        Rel poRel = so.poRel();
        Rel pull = s.ul.isEmpty() ? new Rel(s.n) : po.to(s.ul).seq(po.union(rf)).to(s.lkr).seq(po);
        // fences: rmb, wmb, mb (its po-unlock-lock-po part here), gp, strong-fence, nonrw-fence, fence
        Rel rmb = so.rmb();
        Rel wmb = so.wmb();
        Rel mb = s.fence("after-unlock-lock").isEmpty() ? so.mbWithoutLockHandover()
                : so.mbWithoutLockHandover().union(pull.restrict(s.m, s.fence("after-unlock-lock")).seq(po).to(s.m));
        Rel gp = so.gp();
        Rel strong = mb.union(gp);
        Rel nonrw = strong.union(poRel).union(acqPo);
        Rel fence = nonrw.union(wmb).union(rmb);
        k.nonrwFence = nonrw;
        // ppo: to-r, to-w, fences, po-unlock-lock-po
        Rel dep = addr.union(data);
        Rel rwdep = dep.union(ctrl).to(s.w);
        Rel overwrite = co.union(fr);
        Rel toW = Rel.union(rwdep, overwrite.inter(s.intra), addr.to(s.plain).seq(wmb));
        Rel toR = addr.to(s.r).union(dep.to(s.marked).seq(rfi));
        Rel ppo = Rel.union(toR, toW, fence.inter(s.intra), pull.inter(s.intra));
        // propagation: A-cumul, rmw-sequence, cumul-fence, prop
        Rel aCumul = rfe.to(s.marked).opt().seq(strong.union(poRel));
        Rel rmwSeq = rf.seq(rmw).star();
        Rel cumul = Rel.union(aCumul, wmb, pull).restrict(s.marked, s.marked).seq(rmwSeq);
        Rel prop = overwrite.inter(s.ext).opt().from(s.marked).seq(cumul.star()).to(s.marked).seq(rfe.opt()).to(s.marked);
        k.cumulFence = cumul;
        k.rmwSequence = rmwSeq;
        k.prop = prop;
        // happens-before
        Rel hb = Rel.union(ppo, rfe, prop.minus(Rel.identity(s.n, s.all)).inter(s.intra)).restrict(s.marked, s.marked);
        k.hb = hb;
        if (!hb.acyclic()) {
            return new Verdict(false, false, "happens-before");
        }
        // propagation: pb = prop ; strong-fence ; hb* ; [Marked]
        Rel hbStar = hb.star();
        Rel pb = prop.seq(strong).seq(hbStar).to(s.marked);
        k.pb = pb;
        if (!pb.acyclic()) {
            return new Verdict(false, false, "propagation");
        }
        // rcu: rb = prop ; rcu-fence ; hb* ; pb* ; [Marked]
        Rel rcuFence = RcuOrder.rcuFence(s, rf, hbStar, pb.star(), prop);
        k.rcuFence = rcuFence;
        Rel rb = prop.seq(rcuFence).seq(hbStar).seq(pb.star()).to(s.marked);
        k.rb = rb;
        if (!rb.irreflexive()) {
            return new Verdict(false, false, "rcu");
        }
        // fence and strong-fence grow by rcu-fence for what follows
        k.fence = fence.union(rcuFence);
        k.strongFence = strong.union(rcuFence);
        if (s.plain.isEmpty()) {
            return new Verdict(true, false, null);
        }
        return PlainAccesses.check(x, k);
    }
}
