import kcheck.model.lbredo.LoadBalanceCall;
import kcheck.model.lbredo.LoadBalanceV513;
import kcheck.model.lbredo.Sched;

/** Issue 14, case 3: an lb-redo variant whose env.loop exceeds anything the model packs. */
public class LoopTooWide extends LoadBalanceV513 {
    public static final String VARIANT = "loop-too-wide";

    @Override
    public int loadBalance(LoadBalanceCall lb, Sched s) {
        int next = super.loadBalance(lb, s);
        lb.env.loop += 1000000; // kcheck-test: culprit
        return next;
    }
}
