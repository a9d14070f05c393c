import kcheck.model.cpudl.Cpudl;
import kcheck.model.cpudl.CpudlV49;

/** Issue 14, case 2: a cpudl variant whose cpudl_clear() never returns. */
public class EndlessClear extends CpudlV49 {
    public static final String VARIANT = "endless-clear";

    @Override
    public void clear(Cpudl cp, int cpu) {
        long spins = 0;
        while (cp.size >= 0) {
            spins++; // kcheck-test: culprit
        }
        super.clear(cp, cpu);
    }
}
