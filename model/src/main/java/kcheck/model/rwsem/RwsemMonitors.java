package kcheck.model.rwsem;

import static kcheck.model.rwsem.TaskProgram.IN_CAN_SPIN;
import static kcheck.model.rwsem.TaskProgram.IN_TRYLOCK_UNQUEUED;
import static kcheck.model.rwsem.TaskProgram.OSQ;

import kcheck.model.Layout;
import kcheck.model.ModelLimitException;

/**
 * The monitor variables of the rwsem-owner properties: how a step updates them. They exist in
 * the state only when a selected property reads them ({@link RwsemLayout}); each method here
 * writes the successor {@code nx} of state {@code s}. Stateless: shared by all forks.
 */
final class RwsemMonitors {
    private final RwsemLayout l;

    RwsemMonitors(RwsemLayout l) {
        this.l = l;
    }

    /** The monitors' part of task {@code t}'s step from node {@code p} (outcome {@code o}) to {@code node}. */
    void taskStep(long[] s, long[] nx, int t, int p, int o, int node) {
        if (l.isWriter(t)) {
            if (l.canSpinMonitor) {
                canSpin(s, nx, t, p, o, node);
            }
            if (l.k2Monitor || l.wastedMonitor) {
                spin(s, nx, t, p, o);
            }
        }
        if (l.handoffMonitor) {
            boolean was = l.dom.handoff(l.count(s));
            boolean is = l.dom.handoff(l.count(nx));
            if (!was && is) {
                l.handoffFor.set(nx, l.firstWaiter(s) + 1);
            } else if (!is) {
                l.handoffFor.set(nx, 0);
            } else if (l.handoffFor.get(nx) > 0 && !l.queued(nx, (int) l.handoffFor.get(nx) - 1)
                    && !l.heldBy(nx, (int) l.handoffFor.get(nx) - 1)) {
                /* the waiter it was set for left the list without the lock (a fatal signal: out_nolock) and the bit
                 * stayed: it is nobody's until a first waiter claims it with handoff_set (rwsem_try_write_lock honours
                 * the bit only when first->handoff_set, kernel/locking/rwsem.c:618-623 v6.12): no claim to check */
                l.handoffFor.set(nx, 0);
            }
            int f = l.firstWaiter(nx);
            if (is && l.handoffFor.get(nx) == 0 && f >= 0 && l.handoffSet[f].getInt(nx) == 1) {
                l.handoffFor.set(nx, f + 1);                        /* an orphaned bit claimed by the first waiter */
            }
        }
        if ((l.k2Monitor || l.wastedMonitor) && l.readersHolding(s) == 0 && l.readersHolding(nx) > 0) {
            l.k2.set(nx, 0);
            l.wastedAll.set(nx, 0);
        }
        if (l.missedMonitor && l.writersHolding(s) > 0 && l.writersHolding(nx) == 0) {
            l.missedNull.set(nx, 0);
            l.missedRo.set(nx, 0);
            for (int w = l.nr; w < l.n; w++) {
                l.missNull[w].set(nx, 0);
                l.missRo[w].set(nx, 0);
            }
        }
    }

    /**
     * What {@code rwsem_can_spin_on_owner} saw: at its owner load, whether another writer held
     * the lock in its set_owner gap on a CPU while owner was NULL (or a stale READER_OWNED);
     * when it returns, whether it declined. The property's observation is kept until the
     * return; the metric's is forgotten when the write lock is released, so that the metric
     * counts declines per write-lock hold.
     */
    private void canSpin(long[] s, long[] nx, int t, int p, int o, int node) {
        TaskProgram tp = l.prog[t];
        if (!tp.has(p, IN_CAN_SPIN)) {
            return;
        }
        int w = t;
        boolean sawNull = l.obsNull[w].getInt(s) == 1;
        boolean missN = l.missNull[w].getInt(s) == 1;
        boolean missR = l.missRo[w].getInt(s) == 1;
        if (tp.op[p] == Op.OWNER_READ && l.runningWriterWithoutOwner(s, t)) {
            sawNull |= l.dom.ownerIsNull(l.dom.ownerValue(o));
            missN |= l.dom.ownerIsNull(l.dom.ownerValue(o));
            missR |= l.dom.ownerIsReaderOwned(l.dom.ownerValue(o));
        }
        if (!tp.has(node, IN_CAN_SPIN)) {
            if (l.missedMonitor && tp.op[node] != Op.OSQ_LOCK) {
                Layout.Field f = missN ? l.missedNull : missR ? l.missedRo : null;
                if (f != null) {
                    /* saturates: with killable writers one writer can decline, leave (-EINTR) and decline again */
                    f.set(nx, Math.min(l.missedCap, f.get(nx) + 1));
                }
            }
            sawNull = false;
            missN = false;
            missR = false;
        }
        l.obsNull[w].set(nx, sawNull ? 1 : 0);
        l.missNull[w].set(nx, missN ? 1 : 0);
        l.missRo[w].set(nx, missR ? 1 : 0);
    }

    private void spin(long[] s, long[] nx, int t, int p, int o) {
        TaskProgram tp = l.prog[t];
        if (tp.op[p] == Op.OSQ_LOCK && o == 1) {
            l.k2.set(nx, 0);
            l.wastedAll.set(nx, 0);
            return;
        }
        if (tp.op[p] != Op.COUNT_READ || !tp.has(p, OSQ) || !tp.has(p, IN_TRYLOCK_UNQUEUED)) {
            return;
        }
        if (l.readersHolding(s) == 0 || l.writersHolding(s) > 0) {
            return;
        }
        bump(nx, l.wastedAll);
        if (l.readersSettled(s)) {
            bump(nx, l.k2);
        }
    }

    private static void bump(long[] nx, Layout.Field f) {
        long v = f.get(nx);
        if (v < f.max()) {
            f.set(nx, Math.min(RwsemLayout.SPIN_CAP, v + 1));
        }
    }
}
