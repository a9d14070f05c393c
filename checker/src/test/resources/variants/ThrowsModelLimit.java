import kcheck.model.ModelLimitException;
import kcheck.model.cpudl.Cpudl;
import kcheck.model.cpudl.CpudlV49;

/** A variant that reaches a model limit inside its own code (the frame of the limit is the variant's). */
public class ThrowsModelLimit extends CpudlV49 {
    public static final String VARIANT = "throws-model-limit";

    @Override
    public void set(Cpudl cp, int cpu, long dl) {
        if (cp.size == 2) {
            throw new ModelLimitException("cpudl keeps at most 2 heap slots in this test: this variant reached 3"); // kcheck-test: culprit
        }
        super.set(cp, cpu, dl);
    }
}
