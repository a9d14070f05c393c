import kcheck.model.cpudl.Cpudl;
import kcheck.model.cpudl.CpudlV49;

/** Issue 14, case 1: a cpudl variant whose cpudl_set() ends the JVM with exit status 0. */
public class ExitInSet extends CpudlV49 {
    public static final String VARIANT = "exit-in-set";

    @Override
    public void set(Cpudl cp, int cpu, long dl) {
        System.exit(0); // kcheck-test: culprit
    }
}
