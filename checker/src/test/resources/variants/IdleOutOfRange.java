import kcheck.model.lbredo.LoadBalanceCall;
import kcheck.model.lbredo.LoadBalanceV513;
import kcheck.model.lbredo.Sched;

/** Issue 14, case 3: an lb-redo variant that leaves env.idle at a value no cpu_idle_type has. */
public class IdleOutOfRange extends LoadBalanceV513 {
    public static final String VARIANT = "idle-out-of-range";

    @Override
    public int loadBalance(LoadBalanceCall lb, Sched s) {
        int next = super.loadBalance(lb, s);
        lb.env.idle = 77; // kcheck-test: culprit
        return next;
    }
}
