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
 *
 * <p>The default build replays every input committed under
 * {@code src/test/resources/kcheck/model/rqlock/RqLockScheduleFuzzTestInputs/safetyHoldsOnFuzzedSchedules}
 * (and {@code -Pfuzz} starts from them): eight inputs of the corpus a 60 s {@code -Pfuzz} run
 * built from the seeds below ({@code corpus-<sha1>}, the largest; the run made 16,161 executions
 * and found no failure, so there is no crash input to keep), and eight seeds, {@code seed-VARIANT-LOCK-Ncpus-Rrounds}, one per variant and lock kind at 8 CPUs and 3
 * rounds and at 3 CPUs and 2 rounds, each a complete random schedule (every CPU finishes). A seed
 * is 4,000 bytes: the schedule's choices from {@code new SplittableRandom(2008000 + 100 * cpus +
 * 10 * rounds + (before ? 1 : 0) + (tas ? 2 : 0))}, then the configuration, which the provider
 * reads from the end: cpus, rounds (a byte inside the range is taken as it is), lock (ticket if
 * odd), variant (before if odd).
 */
class RqLockScheduleFuzzTest {
    private static final Set<String> SAFETY = Set.of("mutual-exclusion", "holds-both-on-return", "return-contract");
    /**
     * Built models by configuration: building one records the reference code for every (CPU,
     * busiest) pair, which costs more than running a schedule. The fuzzer calls this test
     * thousands of times in one JVM; a model is immutable once built.
     */
    private static final Map<String, Model> MODELS = new java.util.concurrent.ConcurrentHashMap<>();

    @FuzzTest(maxDuration = "60s")
    void safetyHoldsOnFuzzedSchedules(FuzzedDataProvider data) {
        RqLockFactory f = new RqLockFactory();
        int cpus = data.consumeInt(2, 8);
        int rounds = data.consumeInt(1, 3);
        String lock = data.consumeBoolean() ? "ticket" : "tas";
        String variant = data.consumeBoolean() ? "before" : "after";
        Model m = MODELS.computeIfAbsent(variant + " " + lock + " " + cpus + " " + rounds,
                k -> f.create(variant, f.params(Map.of("cpus", "" + cpus, "rounds", "" + rounds, "lock", lock)), SAFETY));
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
