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
import kcheck.model.ModelFactory;
import kcheck.model.Models;
import kcheck.model.Params;
import kcheck.model.rqlock.DoubleLockBalance;
import kcheck.model.rqlock.QSpinlock;
import kcheck.model.rqlock.RqLockFactory;
import kcheck.model.rqlock.RqSpinlock;
import kcheck.trace.TraceIO;

/** {@code kcheck check rq-lock --param memory-model=lkmm}: the spinlock's port under the Linux-kernel memory model ({@link LkmmCheck}). */
final class LkmmRun {
    static final String PARAM = "memory-model";

    private LkmmRun() {
    }

    /** The search's thread names as the CPUs they are: {@code thread 2} is {@code cpu2}, {@code t2#5} is {@code cpu2#5}. */
    static String cpus(String text) {
        return text.replaceAll("\\bthread (\\d+)", "cpu$1").replaceAll("\\bt(\\d+)#", "cpu$1#");
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

    static int check(String model, String variant, Path variantFile, Integer cpus, Map<String, String> params, List<String> properties,
            Duration timeLimit, String fmt, boolean quiet, Path traceOut, Path metricsCsv) {
        if (!model.equals(RqLockFactory.NAME)) {
            throw new UsageException("--param memory-model=lkmm applies to rq-lock with lock=qspinlock (" + model
                    + " is checked under sequential consistency only)");
        }
        if (fmt.equals("mail") || traceOut != null || metricsCsv != null) {
            throw new UsageException("--param memory-model=lkmm prints text or --json; it writes no trace file, metrics or mail "
                    + "(its witnesses are executions, printed with the verdicts)");
        }
        ModelFactory f = Models.get(model);
        Map<String, String> given = new LinkedHashMap<>(params);
        given.remove(PARAM);
        Params p = f.params(Instances.given(f, cpus, given));
        kcheck.variantfile.VariantFile vf = VariantFiles.load(variantFile, variant, f);
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
        int n = p.integer("cpus");
        int rounds = p.integer("rounds");
        PrintStream out = System.out;
        boolean section = props.isEmpty() || props.contains(LkmmCheck.MUTUAL_EXCLUSION);
        String head = "rq-lock " + v + " under the Linux-kernel memory model: " + n + " CPUs, " + rounds + " x (spin_lock; "
                + (section ? "critical section; " : "") + "spin_unlock) each on one lock, " + lock.name();
        if (!quiet && !fmt.equals("json")) {
            out.println(head);
            out.flush();
        }
        LkmmCheck.Result r = vf != null ? vf.guard(timeLimit, () -> LkmmCheck.check(lock, n, rounds, props, timeLimit, LkmmCheck.MAX_GRAPHS))
                : LkmmCheck.check(lock, n, rounds, props, timeLimit, LkmmCheck.MAX_GRAPHS);
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
            if (r.incomplete() != null) {
                doc.put("incomplete", r.incomplete());
            }
            ArrayNode ps = doc.putArray("properties");
            for (LkmmCheck.Verdict x : r.verdicts()) {
                ObjectNode o = ps.addObject();
                o.put("property", x.property());
                o.put("verdict", x.verdict());
                o.put("message", cpus(x.message()));
                if (x.witness() != null) {
                    o.put("witness", cpus(x.witness()));
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
            out.printf("  %-18s %-10s %s%n", x.property(), x.verdict(), cpus(x.message()));
            if (x.witness() != null) {
                violated.add(x);
            }
        }
        for (LkmmCheck.Verdict x : violated) {
            out.println();
            out.println(x.property() + ": the execution (events per CPU in program order; R <- the write it reads from):");
            out.print(cpus(x.witness()));
        }
        return exit;
    }
}
