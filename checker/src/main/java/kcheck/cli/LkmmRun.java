package kcheck.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import kcheck.lkmm.LkmmCheck;
import kcheck.lkmm.RwsemCheck;
import kcheck.model.ModelFactory;
import kcheck.model.Models;
import kcheck.model.Params;
import kcheck.model.rqlock.DoubleLockBalance;
import kcheck.model.rqlock.QSpinlock;
import kcheck.model.rqlock.RqLockFactory;
import kcheck.model.rqlock.RqSpinlock;
import kcheck.model.rwsem.RwsemOwnerFactory;
import kcheck.model.rwsem.RwsemVariant;
import kcheck.trace.TraceIO;

/**
 * {@code kcheck check rq-lock|rwsem-owner --param memory-model=lkmm}: the spinlock's port ({@link LkmmCheck}) or the rwsem.c
 * port ({@link RwsemCheck}) under the Linux-kernel memory model.
 */
final class LkmmRun {
    static final String PARAM = "memory-model";

    private LkmmRun() {
    }

    /** The search's thread names as the CPUs they are: {@code thread 2} is {@code cpu2}, {@code t2#5} is {@code cpu2#5}. */
    static String cpus(String text) {
        return text.replaceAll("\\bthread (\\d+)", "cpu$1").replaceAll("\\bt(\\d+)#", "cpu$1#");
    }

    /** The search's thread names as the tasks they are: {@code thread 2} is {@code t2} (readers first, then writers). */
    static String tasks(String text) {
        return text.replaceAll("\\bthread (\\d+)", "t$1");
    }

    /**
     * Whether the command line asks for LKMM ({@code --param memory-model=lkmm}). {@code memory-model=sc},
     * what every model is, is taken off the parameters; any other value is a usage error.
     */
    static boolean asked(Map<String, String> params) {
        String m = params.get(PARAM);
        if (m == null) {
            return false;
        }
        if (m.equals("sc")) {
            params.remove(PARAM);
            return false;
        }
        if (!m.equals("lkmm")) {
            throw new UsageException("--param memory-model must be sc (sequential consistency, every model) or lkmm (the "
                    + "Linux-kernel memory model: rq-lock with lock=qspinlock), got '" + m + "'");
        }
        return true;
    }

    /** What to print above the verdicts, and the verdicts. */
    private record Run(String variant, Params params, String head, LkmmCheck.Result result) {
    }

    static int check(String model, String variant, Path variantFile, Integer cpus, Map<String, String> params, List<String> properties,
            Duration timeLimit, String fmt, boolean quiet, Path traceOut, Path metricsCsv) {
        if (!model.equals(RqLockFactory.NAME) && !model.equals(RwsemOwnerFactory.NAME)) {
            throw new UsageException("--param memory-model=lkmm applies to rq-lock with lock=qspinlock and to rwsem-owner's rwsem.c "
                    + "ports (" + model + " is checked under sequential consistency only)");
        }
        if (fmt.equals("mail") || traceOut != null || metricsCsv != null) {
            throw new UsageException("--param memory-model=lkmm prints text or --json; it writes no trace file, metrics or mail "
                    + "(its witnesses are executions, printed with the verdicts)");
        }
        Set<String> props = new LinkedHashSet<>();
        for (String name : properties) {
            if (name.equals(Instances.ALL)) {
                props.addAll(LkmmCheck.PROPERTIES);
            } else if (!LkmmCheck.PROPERTIES.contains(name)) {
                throw new UsageException("property '" + name + "' is not decided under memory-model=lkmm (it decides "
                        + String.join(", ", LkmmCheck.PROPERTIES) + "; the others are checked under sc)");
            } else {
                props.add(name);
            }
        }
        ModelFactory f = Models.get(model);
        Map<String, String> given = new LinkedHashMap<>(params);
        given.remove(PARAM);
        kcheck.variantfile.VariantFile vf = VariantFiles.load(variantFile, variant, f);
        PrintStream out = System.out;
        java.util.function.Consumer<String> announce = head -> {
            if (!quiet && !fmt.equals("json")) {
                out.println(head);
                out.flush();
            }
        };
        Run run = model.equals(RqLockFactory.NAME) ? rqLock(f, vf, variant, cpus, given, props, timeLimit, announce)
                : rwsem(f, vf, variant, cpus, given, props, timeLimit, announce);
        String v = run.variant();
        Params p = run.params();
        String head = run.head();
        LkmmCheck.Result r = run.result();
        java.util.function.UnaryOperator<String> names = model.equals(RqLockFactory.NAME) ? LkmmRun::cpus : LkmmRun::tasks;
        String unit = model.equals(RqLockFactory.NAME) ? "CPU" : "task";
        int exit = r.verdicts().stream().anyMatch(x -> x.verdict().equals("VIOLATED")) ? ExitCodes.VIOLATED
                : r.verdicts().stream().anyMatch(x -> x.verdict().equals("INCOMPLETE")) ? ExitCodes.INCOMPLETE : ExitCodes.OK;
        if (fmt.equals("json")) {
            ObjectNode doc = Json.document("check", ExitCodes.outcome(exit), exit);
            doc.put("model", model);
            doc.put("variant", v);
            doc.put("memoryModel", "lkmm");
            doc.putPOJO("params", p.asMap());
            doc.put("graphs", r.graphs());
            doc.put("executions", r.executions());
            doc.put("seconds", Math.round(r.seconds() * 1000) / 1000.0);
            doc.put("executionsBuilt", "po|rf-acyclic (docs/lkmm-models.md, assumption 1)");
            if (r.incomplete() != null) {
                doc.put("incomplete", r.incomplete());
            }
            ArrayNode ps = doc.putArray("properties");
            for (LkmmCheck.Verdict x : r.verdicts()) {
                ObjectNode o = ps.addObject();
                o.put("property", x.property());
                o.put("verdict", x.verdict());
                o.put("message", names.apply(x.message()));
                if (x.witness() != null) {
                    o.put("witness", names.apply(x.witness()));
                }
            }
            try {
                out.println(TraceIO.mapper().writeValueAsString(doc));
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
            Session.documentPrinted = true;
            return exit;
        }
        if (quiet) {
            out.println(head);
        }
        out.printf("explored %,d graphs, %,d executions (finished, or spinning for ever; LKMM-consistent) in %.2f s%s%n", r.graphs(),
                r.executions(), r.seconds(), r.incomplete() == null ? "" : ": " + r.incomplete());
        List<LkmmCheck.Verdict> violated = new ArrayList<>();
        for (LkmmCheck.Verdict x : r.verdicts()) {
            out.printf("  %-18s %-10s %s%n", x.property(), x.verdict(), names.apply(x.message()));
            if (x.witness() != null) {
                violated.add(x);
            }
        }
        if (r.verdicts().stream().anyMatch(x -> x.verdict().equals("HOLDS"))) {
            out.println("  (HOLDS: in every LKMM-consistent execution whose po | rf is acyclic, which is every one when each load's "
                    + "value reaches the later stores of its " + unit + " by a dependency: docs/lkmm-models.md, assumption 1)");
        }
        for (LkmmCheck.Verdict x : violated) {
            out.println();
            out.println(x.property() + ": the execution (events per " + unit + " in program order; R <- the write it reads from):");
            out.print(names.apply(x.witness()));
        }
        return exit;
    }

    private static Run rqLock(ModelFactory f, kcheck.variantfile.VariantFile vf, String variant, Integer cpus, Map<String, String> given,
            Set<String> props, Duration timeLimit, java.util.function.Consumer<String> announce) {
        Params p = f.params(Instances.given(f, cpus, given));
        String v = vf != null ? vf.label() : variant == null ? "after" : variant;
        if (vf == null) {
            f.variant(v);
        }
        DoubleLockBalance impl = vf != null ? (DoubleLockBalance) vf.newInstance() : RqLockFactory.implementation(v);
        RqSpinlock lock = vf != null ? vf.guard(() -> impl.spinlock(p.get("lock"))) : impl.spinlock(p.get("lock"));
        if (!(lock instanceof QSpinlock q) || q.virt()) {
            throw new UsageException("--param memory-model=lkmm runs the qspinlock port (--param lock=qspinlock), whose steps state "
                    + "their ordering; variant '" + v + "' with lock=" + p.get("lock") + " runs " + lock.name());
        }
        int n = p.integer("cpus");
        int rounds = p.integer("rounds");
        boolean section = props.isEmpty() || props.contains(LkmmCheck.MUTUAL_EXCLUSION);
        String head = "rq-lock " + v + " under the Linux-kernel memory model: " + n + " CPUs, " + rounds + " x (spin_lock; "
                + (section ? "critical section; " : "") + "spin_unlock) each on one lock, " + lock.name();
        announce.accept(head);
        LkmmCheck.Result r = vf != null ? vf.guard(timeLimit, () -> LkmmCheck.check(lock, n, rounds, props, timeLimit, LkmmCheck.MAX_GRAPHS))
                : LkmmCheck.check(lock, n, rounds, props, timeLimit, LkmmCheck.MAX_GRAPHS);
        return new Run(v, p, head, r);
    }

    /** The rwsem-owner parameters that choose an environment memory-model=lkmm does not model (their defaults are what it runs). */
    private static final List<String> RWSEM_FIXED = List.of("rt", "preempt", "killable", "wakeups", "owner-unknown");

    private static Run rwsem(ModelFactory f, kcheck.variantfile.VariantFile vf, String variant, Integer cpus, Map<String, String> given,
            Set<String> props, Duration timeLimit, java.util.function.Consumer<String> announce) {
        if (cpus != null) {
            throw new UsageException("rwsem-owner has no --cpus: give --param readers=N --param writers=N");
        }
        for (String k : RWSEM_FIXED) {
            if (given.containsKey(k)) {
                throw new UsageException("--param " + k + " is not modelled under memory-model=lkmm (no preemption, signals, RT "
                        + "tasks or owner hand-off: docs/lkmm-models.md); leave it out");
            }
        }
        Map<String, String> bounded = new LinkedHashMap<>(given);
        bounded.putIfAbsent("readers", "1");
        bounded.putIfAbsent("writers", "1");
        bounded.putIfAbsent("rounds", "1");
        if (bounded.get("rounds").equals("0")) {
            throw new UsageException("--param rounds=0 (for ever) cannot be searched under memory-model=lkmm: give 1 or more rounds");
        }
        Params p = f.params(Instances.given(f, null, bounded));
        String v = vf != null ? vf.label() : variant == null ? "v6.12" : variant;
        if (vf == null) {
            f.variant(v);
        }
        RwsemVariant impl = vf != null ? (RwsemVariant) vf.newInstance() : RwsemOwnerFactory.implementation(v);
        RwsemCheck.requirePort(impl, v);
        int readers = p.integer("readers");
        int writers = p.integer("writers");
        int rounds = p.integer("rounds");
        String head = "rwsem-owner " + v + " under the Linux-kernel memory model: " + readers + " reader(s) x " + rounds
                + " (down_read; critical section; up_read), " + writers + " writer(s) x " + rounds
                + " (down_write; critical section; up_write), kernel/locking/rwsem.c";
        announce.accept(head);
        LkmmCheck.Result r = vf != null
                ? vf.guard(timeLimit, () -> RwsemCheck.check(impl, readers, writers, rounds, props, timeLimit, LkmmCheck.MAX_GRAPHS))
                : RwsemCheck.check(impl, readers, writers, rounds, props, timeLimit, LkmmCheck.MAX_GRAPHS);
        return new Run(v, p, head, r);
    }
}
