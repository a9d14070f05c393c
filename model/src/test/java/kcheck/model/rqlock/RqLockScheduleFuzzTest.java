package kcheck.model.rqlock;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

import kcheck.model.Invariant;
import kcheck.model.Model;
import kcheck.model.Property;
import kcheck.model.StepProperty;

/**
 * Coverage-guided schedules for the rq-lock reference code: any CPU count, rounds, lock kind and
 * variant, any interleaving the fuzzer steers to; the safety properties must hold on every step.
 */
class RqLockScheduleFuzzTest {
    private static final Set<String> SAFETY = Set.of("mutual-exclusion", "holds-both-on-return", "return-contract");

    @FuzzTest(maxDuration = "60s")
    void safetyHoldsOnFuzzedSchedules(FuzzedDataProvider data) {
        RqLockFactory f = new RqLockFactory();
        int cpus = data.consumeInt(2, 8);
        int rounds = data.consumeInt(1, 3);
        String lock = data.consumeBoolean() ? "ticket" : "tas";
        String variant = data.consumeBoolean() ? "before" : "after";
        Model m = f.create(variant, f.params(Map.of("cpus", "" + cpus, "rounds", "" + rounds, "lock", lock)), SAFETY);
        List<long[]> init = new ArrayList<>();
        m.initial(s -> init.add(s.clone()));
        long[] cur = init.get(0);
        while (data.remainingBytes() > 0) {
            List<Object[]> steps = new ArrayList<>();
            m.successors(cur, (a, b, n) -> steps.add(new Object[] {a, b, n.clone()}));
            if (steps.isEmpty()) {
                if (!m.isFinal(cur)) {
                    throw new AssertionError("deadlock on " + variant + "/" + lock);
                }
                return;
            }
            Object[] st = steps.get(data.consumeInt(0, steps.size() - 1));
            long[] next = (long[]) st[2];
            for (Property p : m.properties()) {
                if (p instanceof StepProperty sp && !sp.holds(cur, (int) st[0], (int) st[1], next)) {
                    throw new AssertionError(p.id() + ": " + sp.explain(cur, (int) st[0], (int) st[1], next));
                }
                if (p instanceof Invariant inv && !inv.holds(next)) {
                    throw new AssertionError(p.id() + ": " + inv.explain(next));
                }
            }
            cur = next;
        }
    }
}
