package kcheck.litmus;

/**
 * RCU and SRCU in linux-kernel.bell and linux-kernel.cat: the matching of read-side critical sections
 * ({@code rcu-rscs} by nesting, {@code srcu-rscs} by the data flowing from srcu_read_lock() to
 * srcu_read_unlock(), {@code carry-srcu-data}), {@code rcu-link}, the recursive {@code rcu-order} (grace
 * periods against critical sections, SRCU ones only on the same srcu_struct: {@code & loc}) and
 * {@code rcu-fence = po ; rcu-order ; po?}.
 */
final class RcuOrder {
    private RcuOrder() {
    }

    static Rel rcuFence(Skeleton s, Rel rf, Rel hbStar, Rel pbStar, Rel prop) {
        Bits syncRcu = s.fence("sync-rcu");
        Rel rcuRscs = rcuRscs(s);
        Rel srcuRscs = srcuRscs(s, rf);
        if (syncRcu.isEmpty() && s.syncSrcu.isEmpty()) {
            return new Rel(s.n);
        }
        Rel rcuGp = Rel.identity(s.n, syncRcu);
        Rel srcuGp = Rel.identity(s.n, s.syncSrcu);
        Rel rcuI = rcuRscs.inverse();
        Rel srcuI = srcuRscs.inverse();
        Rel link = s.po.opt().seq(hbStar).seq(pbStar).seq(prop).seq(s.po);
        Rel base = Rel.union(rcuGp, srcuGp,
                Rel.seq(rcuGp, link, rcuI),
                Rel.seq(srcuGp, link, srcuI).inter(s.loc),
                Rel.seq(rcuI, link, rcuGp),
                Rel.seq(srcuI, link, srcuGp).inter(s.loc));
        Rel order = base;
        while (true) {
            Rel next = Rel.union(base,
                    Rel.seq(rcuGp, link, order, link, rcuI),
                    Rel.seq(srcuGp, link, order, link, srcuI).inter(s.loc),
                    Rel.seq(rcuI, link, order, link, rcuGp),
                    Rel.seq(srcuI, link, order, link, srcuGp).inter(s.loc),
                    Rel.seq(order, link, order));
            if (next.equals(order)) {
                break;
            }
            order = next;
        }
        return s.po.seq(order).seq(s.po.opt());
    }

    /** {@code rcu-rscs}: each rcu_read_lock() to its matching rcu_read_unlock(), by nesting per thread. */
    static Rel rcuRscs(Skeleton s) {
        Rel out = new Rel(s.n);
        Bits locks = s.fence("rcu-lock");
        Bits unlocks = s.fence("rcu-unlock");
        int[] stack = new int[s.n];
        int depth = 0;
        int thread = Integer.MIN_VALUE;
        for (int i = 0; i < s.n; i++) {
            if (s.thread[i] != thread) {
                thread = s.thread[i];
                depth = 0;
            }
            if (locks.has(i)) {
                stack[depth++] = i;
            } else if (unlocks.has(i) && depth > 0) {
                out.add(stack[--depth], i);
            }
        }
        return out;
    }

    /** {@code srcu-rscs = ([Srcu-lock] ; carry-srcu-data ; data ; [Srcu-unlock]) & loc}. */
    static Rel srcuRscs(Skeleton s, Rel rf) {
        if (s.srcuLock.isEmpty()) {
            return new Rel(s.n);
        }
        Rel carry = s.data.to(s.all.andNot(s.srcuUnlock)).seq(rf).star();
        return carry.from(s.srcuLock).seq(s.data).to(s.srcuUnlock).inter(s.loc);
    }
}
