package kcheck.crosscheck;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jetbrains.kotlinx.lincheck.execution.ExecutionResult;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.datastructures.ManagedStrategyGuaranteeKt;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.verifier.Verifier;

import kotlin.Unit;
import kotlin.reflect.KFunction;
import kotlin.reflect.jvm.ReflectJvmMapping;

import kcheck.model.rqlock.threads.LockObserver;

/**
 * Runs the rq-lock scenario under Lincheck's model checker ({@link ModelCheckingOptions}) and
 * turns its answer into a verdict.
 *
 * <p>Each busiest choice is one custom Lincheck scenario: thread {@code c} runs CPU {@code c}'s
 * pass ({@code balance(c, busiest[c])} of {@link RqLockSubject}); no generated scenarios. Lincheck explores schedules of the threads
 * (switching at every shared-memory access: the atomics of the locks and of the monitors),
 * with more and more context switches, up to {@code invocations} schedules; it stops earlier
 * when it has explored every schedule it can distinguish, which {@link Outcome#complete()}
 * reports. The monitor hooks ({@link LockObserver}) are atomic steps
 * ({@code treatAsAtomic}), as the model's monitors are part of the step they watch.
 *
 * <p>Violations come back through the {@code @Validate} method; a schedule in which every
 * unfinished thread spins forever comes back as Lincheck's hang report, i.e. a
 * {@code deadlock-free} violation.
 */
final class LincheckRunner {
    /** Spins before a CPU gives up; Lincheck reports a hang long before a real schedule spins this much. */
    static final long SPIN_BUDGET = 100_000;

    private static final Pattern VIOLATION = Pattern.compile("kcheck\\.crosscheck\\.Violation: ([a-z-]+): ");
    private static final Pattern OPERATION = Pattern.compile("balance\\((\\d), (\\d)\\)");

    private LincheckRunner() {
    }

    /**
     * Lincheck's answer for one check: the property it found broken (or null) and in which busiest
     * choice, how many schedules it ran in all, whether it ran out of schedules in every scenario
     * before the budget, and its report.
     */
    record Outcome(String violated, String busiest, int schedules, boolean complete, String report) {
    }

    /** Accepts every result: the monitors report through {@code @Validate}, hangs through Lincheck itself. */
    public static final class AcceptAll implements Verifier {
        public AcceptAll(Class<?> sequentialSpecification) {
        }

        @Override
        public boolean verifyResults(ExecutionScenario scenario, ExecutionResult results) {
            return true;
        }
    }

    /**
     * Model-checks a catalogue variant on {@code cpus} CPUs, one Lincheck scenario per busiest
     * choice, at most {@code invocations} schedules each.
     */
    static Outcome check(String variant, String lock, int cpus, Set<String> properties, int invocations) {
        return check(() -> new RqLockRun(variant, lock, cpus, properties, SPIN_BUDGET), busiestChoices(cpus), invocations);
    }

    /**
     * Model-checks the runs {@code run} builds (a fresh one per schedule), one scenario per
     * busiest choice in {@code choices}, at most {@code invocations} schedules each; stops at the
     * first failure.
     */
    static Outcome check(Supplier<RqLockRun> run, List<int[]> choices, int invocations) {
        AtomicInteger schedules = new AtomicInteger();
        RqLockSubject.next = () -> {
            schedules.incrementAndGet();
            return run.get();
        };
        try {
            options(choices, invocations).check(RqLockSubject.class);
        } catch (AssertionError e) {
            String report = String.valueOf(e.getMessage());
            return new Outcome(classify(report), busiestOf(report, choices.get(0).length), schedules.get(), false, report);
        } finally {
            RqLockSubject.next = null;
        }
        return new Outcome(null, null, schedules.get(), schedules.get() < invocations * choices.size(), "");
    }

    /** Every busiest choice of {@code cpus} CPUs (each picks another CPU), in lexicographic order. */
    static List<int[]> busiestChoices(int cpus) {
        List<int[]> out = new ArrayList<>();
        choose(new int[cpus], 0, out);
        return out;
    }

    private static void choose(int[] b, int c, List<int[]> out) {
        if (c == b.length) {
            out.add(b.clone());
            return;
        }
        for (int v = 0; v < b.length; v++) {
            if (v != c) {
                b[c] = v;
                choose(b, c + 1, out);
            }
        }
    }

    /** The busiest choice of the failing scenario, read from the report's scenario table ("balance(0, 1)"). */
    private static String busiestOf(String report, int cpus) {
        int[] b = new int[cpus];
        Arrays.fill(b, -1);
        Matcher m = OPERATION.matcher(report);
        while (m.find()) {
            b[Integer.parseInt(m.group(1))] = Integer.parseInt(m.group(2));
        }
        return Arrays.toString(b);
    }

    private static String classify(String report) {
        Matcher m = VIOLATION.matcher(report);
        if (report.contains("Validation function noViolation has failed") && m.find()) {
            return m.group(1);
        }
        if (report.contains("hung")) {
            return "deadlock-free";
        }
        throw new IllegalStateException("unexpected Lincheck failure:\n" + report);
    }

    private static ModelCheckingOptions options(List<int[]> choices, int invocations) {
        KFunction<?> balance = balance();
        ModelCheckingOptions o = new ModelCheckingOptions()
                .iterations(0)
                .invocationsPerIteration(invocations)
                .minimizeFailedScenario(false)
                .verifier(AcceptAll.class)
                .addGuarantee(ManagedStrategyGuaranteeKt.forClasses(LockObserver.class.getName(),
                        RqLockRun.CpuMonitor.class.getName()).allMethods().treatAsAtomic());
        for (int[] busiest : choices) {
            o = o.addCustomScenario(s -> {
                s.parallel(p -> {
                    for (int c = 0; c < busiest.length; c++) {
                        Object[] args = {c, busiest[c]};
                        p.thread(t -> {
                            t.actor(balance, args);
                            return Unit.INSTANCE;
                        });
                    }
                    return Unit.INSTANCE;
                });
                return Unit.INSTANCE;
            });
        }
        return o;
    }

    private static KFunction<?> balance() {
        try {
            Method m = RqLockSubject.class.getMethod("balance", int.class, int.class);
            return ReflectJvmMapping.getKotlinFunction(m);
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
    }
}
