package kcheck.litmus;

/**
 * The relations of linux-kernel.cat that depend on program order and the event classes only, not on rf
 * or co: computed once per {@link Skeleton} and shared by all its candidate executions. {@code acq-po},
 * {@code po-rel}, {@code rmb}, {@code wmb}, the parts of {@code mb} without {@code po-unlock-lock-po},
 * {@code gp}, and {@code po?}.
 */
record StaticOrder(Rel poOpt, Rel acqPo, Rel poRel, Rel rmb, Rel wmb, Rel mbWithoutLockHandover, Rel gp, Rel rmbFence) {

    static StaticOrder of(Skeleton s) {
        Rel po = s.po;
        Rel poOpt = po.opt();
        Bits r4rmb = s.r.andNot(s.noreturn);
        Rel rmbFence = s.fencerel(s.fence("rmb"));
        Rel mb = Rel.union(s.fencerel(s.fence("mb")).restrict(s.m, s.m),
                s.fencerel(s.fence("before-atomic")).restrict(s.m, s.rmwSet).seq(poOpt).to(s.m),
                poOpt.restrict(s.m, s.rmwSet).seq(s.fencerel(s.fence("after-atomic"))).to(s.m),
                poOpt.restrict(s.m, s.lkw).seq(s.fencerel(s.fence("after-spinlock"))).to(s.m),
                poOpt.restrict(s.m, s.srcuUnlock).seq(s.fencerel(s.fence("after-srcu-read-unlock"))).to(s.m));
        return new StaticOrder(poOpt, po.restrict(s.acquire, s.m), po.restrict(s.m, s.release),
                rmbFence.restrict(r4rmb, r4rmb), s.fencerel(s.fence("wmb")).restrict(s.w, s.w), mb,
                po.to(s.fence("sync-rcu").or(s.syncSrcu)).seq(poOpt), rmbFence);
    }
}
