import kcheck.model.lbredo.LoadBalanceCall;
import kcheck.model.lbredo.LoadBalanceV513;
import kcheck.model.lbredo.Sched;

/** Issue 14, case 3: an lb-redo variant whose loop_break is not a multiple of sched_nr_migrate_break (32). */
public class LoopBreakOdd extends LoadBalanceV513 {
    public static final String VARIANT = "loop-break-odd";

    @Override
    public int loadBalance(LoadBalanceCall lb, Sched s) {
        int next = super.loadBalance(lb, s);
        lb.env.loopBreak = 1000003; // kcheck-test: culprit
        return next;
    }
}
