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
import org.jetbrains.lincheck.datastructures.ManagedStrategyGuarantee;
import org.jetbrains.lincheck.datastructures.ManagedStrategyGuaranteeKt;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.verifier.Verifier;

import kotlin.Unit;
import kotlin.reflect.KFunction;
import kotlin.reflect.jvm.ReflectJvmMapping;


/**
 * Runs reference code on real threads under Lincheck's model checker
 * ({@link ModelCheckingOptions}) and turns its answer into a verdict.
 *
 * <p>A check is a list of custom Lincheck scenarios (no generated ones): in each, thread
 * {@code i} makes one call of the test class's operation with the arguments given for it. For
 * rq-lock the operation is {@code RqLockSubject.balance(cpu, busiest)}, one scenario per busiest
 * choice; for rwsem-owner {@code RwsemSubject.task(t)}, one scenario. Lincheck runs each scenario
 * on a fresh test instance per schedule and explores schedules of its threads (switching at
 * shared-memory accesses), with more and more context switches, up to {@code invocations}
 * schedules; it stops earlier when it has explored every schedule it distinguishes, which
 * {@link Outcome#complete()} reports.
 *
 * <p>Violations come back through the test class's {@code @Validate} method; a schedule in which
 * every unfinished thread spins forever comes back as Lincheck's hang report, i.e. a
 * {@code deadlock-free} violation.
 */
final class LincheckRunner {
    /** Spins before a thread gives up; Lincheck reports a hang long before a real schedule spins this much. */
    static final long SPIN_BUDGET = 100_000;

    private static final Pattern VIOLATION = Pattern.compile("kcheck\\.crosscheck\\.Violation: ([a-z0-9-]+): ");
    private static final Pattern BALANCE = Pattern.compile("balance\\((\\d), (\\d)\\)");

    private LincheckRunner() {
    }

    /**
     * Lincheck's answer for one check: the property it found broken (or null) and in which
     * scenario, how many schedules it ran in all, whether every scenario ran out of schedules
     * before the budget, and its report.
     */
    record Outcome(String violated, String scenario, int schedules, boolean complete, String report) {
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

    /* ---------------- rq-lock ---------------- */

    /**
     * Model-checks a catalogue variant of rq-lock on {@code cpus} CPUs, one scenario per busiest
     * choice, at most {@code invocations} schedules each.
     */
    static Outcome check(String variant, String lock, int cpus, Set<String> properties, int invocations) {
        return check(() -> new RqLockRun(variant, lock, cpus, properties, SPIN_BUDGET), busiestChoices(cpus), invocations);
    }

    /**
     * Model-checks the rq-lock runs {@code run} builds (a fresh one per schedule), one scenario per
     * busiest choice in {@code choices}; stops at the first failure. The lock observers' hooks
     * are atomic steps ({@code treatAsAtomic}): the model's monitors are part of a step too.
     */
    static Outcome check(Supplier<RqLockRun> run, List<int[]> choices, int invocations) {
        List<Scenario> scenarios = new ArrayList<>();
        for (int[] busiest : choices) {
            List<List<Call>> threads = new ArrayList<>();
            for (int c = 0; c < busiest.length; c++) {
                threads.add(List.of(new Call("balance", c, busiest[c])));
            }
            scenarios.add(new Scenario("busiest " + Arrays.toString(busiest), List.of(), threads));
        }
        AtomicInteger schedules = new AtomicInteger();
        RqLockSubject.next = () -> {
            schedules.incrementAndGet();
            return run.get();
        };
        try {
            String report = check(RqLockSubject.class, scenarios, invocations, ManagedStrategyGuaranteeKt.forClasses(
                            RqLockRun.CpuMonitor.class.getCanonicalName()).allMethods().treatAsAtomic());
            return outcome(report, report == null ? null : busiestOf(report, choices.get(0).length), schedules.get(),
                    invocations * choices.size());
        } finally {
            RqLockSubject.next = null;
        }
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
        Matcher m = BALANCE.matcher(report);
        while (m.find()) {
            b[Integer.parseInt(m.group(1))] = Integer.parseInt(m.group(2));
        }
        return "busiest choice " + Arrays.toString(b);
    }

    /* ---------------- rwsem-owner ---------------- */

    /**
     * Model-checks the rwsem runs {@code run} builds (a fresh one per schedule) in one scenario
     * (operations {@code task(t)}, {@code lock(t)}, {@code unlock(t)} of
     * {@link RwsemSubject}). The observer's hooks run without scheduling points
     * ({@code ignore}): each belongs to the {@code RwSem} step it is called from, as the model's
     * monitors and its {@code lockAcquired}/{@code lockReleased} annotations do.
     */
    static Outcome checkRwsem(Supplier<RwsemRun> run, Scenario scenario, int invocations) {
        AtomicInteger schedules = new AtomicInteger();
        RwsemSubject.next = () -> {
            schedules.incrementAndGet();
            return run.get();
        };
        try {
            String report = check(RwsemSubject.class, List.of(scenario), invocations, ManagedStrategyGuaranteeKt.forClasses(
                    RwsemRun.Monitor.class.getCanonicalName()).allMethods().ignore());
            return outcome(report, report == null ? null : scenario.toString(), schedules.get(), invocations);
        } finally {
            RwsemSubject.next = null;
        }
    }

    /** One call of an operation of the test class. */
    record Call(String operation, Object... args) {
        String text() {
            StringBuilder b = new StringBuilder(operation).append('(');
            for (int i = 0; i < args.length; i++) {
                b.append(i == 0 ? "" : ", ").append(args[i]);
            }
            return b.append(')').toString();
        }
    }

    /** A named custom Lincheck scenario: {@code init} runs first on one thread, then {@code threads} in parallel. */
    record Scenario(String name, List<Call> init, List<List<Call>> threads) {
        @Override
        public String toString() {
            return "scenario " + name;
        }

        /** E.g. "init: lock(1); then thread 1: unlock(1), unlockWhenHeld(0); thread 2: task(2); thread 3: lock(0)". */
        String calls() {
            StringBuilder b = new StringBuilder();
            if (!init.isEmpty()) {
                b.append("init: ");
                init.forEach(c -> b.append(c.text()).append(c == init.get(init.size() - 1) ? "; then " : ", "));
            }
            for (int t = 0; t < threads.size(); t++) {
                b.append(t == 0 ? "" : "; ").append("thread ").append(t + 1).append(": ");
                List<Call> calls = threads.get(t);
                for (int i = 0; i < calls.size(); i++) {
                    b.append(i == 0 ? "" : ", ").append(calls.get(i).text());
                }
            }
            return b.toString();
        }
    }

    /* ---------------- the Lincheck call ---------------- */

    private static Outcome outcome(String report, String scenario, int schedules, int budget) {
        if (report == null) {
            return new Outcome(null, null, schedules, schedules < budget, "");
        }
        return new Outcome(classify(report), scenario, schedules, false, report);
    }

    /** Runs the check; returns Lincheck's failure report, or null if it found nothing. */
    private static String check(Class<?> subject, List<Scenario> scenarios, int invocations, ManagedStrategyGuarantee guarantee) {
        ModelCheckingOptions o = new ModelCheckingOptions()
                .iterations(0)
                .invocationsPerIteration(invocations)
                .minimizeFailedScenario(false)
                .verifier(AcceptAll.class)
                .addGuarantee(guarantee);
        for (Scenario sc : scenarios) {
            o = o.addCustomScenario(s -> {
                if (!sc.init().isEmpty()) {
                    s.initial(t -> {
                        sc.init().forEach(c -> t.actor(function(subject, c), c.args()));
                        return Unit.INSTANCE;
                    });
                }
                s.parallel(p -> {
                    for (List<Call> calls : sc.threads()) {
                        p.thread(t -> {
                            calls.forEach(c -> t.actor(function(subject, c), c.args()));
                            return Unit.INSTANCE;
                        });
                    }
                    return Unit.INSTANCE;
                });
                return Unit.INSTANCE;
            });
        }
        try {
            o.check(subject);
            return null;
        } catch (AssertionError e) {
            return String.valueOf(e.getMessage());
        }
    }

    private static KFunction<?> function(Class<?> subject, Call c) {
        for (Method m : subject.getMethods()) {
            if (m.getName().equals(c.operation()) && m.getParameterCount() == c.args().length) {
                return ReflectJvmMapping.getKotlinFunction(m);
            }
        }
        throw new IllegalArgumentException(subject.getSimpleName() + " has no operation " + c.operation());
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
}
