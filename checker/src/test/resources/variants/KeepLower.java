import kcheck.model.rqlock.DoubleLockBalanceV2628;
import kcheck.model.rqlock.RqLocks;

/**
 * Issue 14, case 4: the "keep this_rq when the locks are already in order" optimisation of
 * docs/prove-your-patch.md. It refuses the committed fifo-entry trace of before at step 6, yet
 * violates fifo-entry itself.
 */
public class KeepLower extends DoubleLockBalanceV2628 {
    public static final String VARIANT = "keep-lower";

    @Override
    public int doubleLockBalance(RqLocks k, int thisRq, int busiest) {
        if (busiest > thisRq) {
            /* already in lock order: keep this_rq, no need to drop it */
            k.spinLock(busiest);
            return 0;
        }
        return super.doubleLockBalance(k, thisRq, busiest);
    }
}
