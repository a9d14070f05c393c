import kcheck.model.lbredo.LoadBalanceCall;
import kcheck.model.lbredo.LoadBalanceV513;
import kcheck.model.lbredo.Sched;

/** Issue 14, case 3: an lb-redo variant whose loop_break goes below 0 (the kernel only adds sched_nr_migrate_break to it). */
public class LoopBreakNegative extends LoadBalanceV513 {
    public static final String VARIANT = "loop-break-negative";

    @Override
    public int loadBalance(LoadBalanceCall lb, Sched s) {
        int next = super.loadBalance(lb, s);
        lb.env.loopBreak = -33; // kcheck-test: culprit
        return next;
    }
}
