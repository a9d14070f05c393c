package kcheck.model.lbredo;

import java.util.List;
import java.util.Map;
import java.util.Set;

import kcheck.model.Metric;
import kcheck.model.Model;
import kcheck.model.ModelInputException;
import kcheck.model.Property;
import kcheck.model.SimulationProfile;
import kcheck.model.SimulationRun;

/**
 * {@code kcheck simulate lb-redo}: CPU 0's newly idle {@code load_balance()} call in time, while
 * other CPUs pull tasks concurrently. A statistics pass costs its per-CPU updates (the model's
 * {@code stat-work} metric) times the cache lines each reads; the busiest CPU is read at a uniformly
 * random point of the pass (the model's search is one step: its effect is placed there, the rest of
 * the pass follows it), so a pull that lands between that read and {@code rq_lock(busiest)} is the
 * post's race. Concurrent pullers are other newly idle CPUs: each pull comes after an exponential
 * delay with the mean of one statistics pass over the domain (a puller runs the same pass first).
 * Measured: the cost of the call (from its start to its return) and its statistics passes.
 *
 * <p>Reads only step labels, {@link Model#isFinal} and the model's {@code stat-work} and
 * {@code stat-passes} metrics. Costs and sources: docs/simulate.md.
 */
public final class LbRedoSimulation implements SimulationProfile {
    static final int PASS = 1;
    static final int READ = 2;
    static final int DETACH = 3;
    static final int BRANCH = 4;
    static final int PULL = 5;

    @Override
    public String model() {
        return LbRedoFactory.NAME;
    }

    @Override
    public List<Workload> workloads() {
        return List.of(
                new Workload("race", "the post's newly idle race: every CPU outside the local group runs 'tasks' free tasks; "
                        + "every other CPU outside the local group but one (m - 1 of them) pulls once, concurrently"),
                new Workload("mixed", "the model's 'all' scenario: each busy CPU's tasks free or pinned away from CPU 0 (one of the "
                        + "model's initial patterns, uniformly), with the same concurrent pulls"));
    }

    @Override
    public List<Cost> costs() {
        return List.of(
                Cost.ns("line-socket", 31.2, "uniform", "a line last written by a CPU of the same socket: 'Off-Core single cache "
                        + "miss' 31.2 ns, perfbook table 'Performance of Synchronization Mechanisms on 16-CPU 2.8GHz Intel X5550 (Nehalem)'"),
                Cost.ns("line-remote", 92.4, "uniform", "a line last written by a CPU of another socket: 'Off-Socket single cache "
                        + "miss' 92.4 ns, same table"),
                Cost.number("sockets", 4, "sockets", "the post's machine: '4s x86 system with 192 logical CPUs'; a CPU's statistics "
                        + "are on another socket with probability 1 - 1/sockets"),
                Cost.number("lines-per-cpu", 4, "lines", "lines update_sg_lb_stats reads per CPU of the pass (kernel/sched/fair.c "
                        + "v6.1:9257): rq->nr_running, rq->cfs.h_nr_running, rq->cfs.avg (load, util, runnable), rq->cpu_capacity"),
                Cost.ns("call-entry", 92.4, "exp", "load_balance entry, should_we_balance, env setup: one remote line (92.4 ns)"),
                Cost.ns("detach", 924, "exp", "rq_lock(busiest), detach_tasks of one task (can_migrate_task, deactivate_task, "
                        + "set_task_cpu), rq_unlock, attach_tasks: about 10 remote lines (10 x 92.4 ns)"),
                Cost.ns("branch", 10, "fixed", "a decision on local data after detach_tasks (a few instructions)"));
    }

    @Override
    public List<Measure> measures() {
        return List.of(
                new Measure("call-cost", "ns", false, "cost of CPU 0's newly idle load_balance call, entry to return"),
                new Measure("passes", "passes", false, "statistics passes (find_busiest_group) in the call"));
    }

    @Override
    public List<Claim> claims(String workload) {
        return List.of(
                new Claim("call-cost", "max", "all", "\"the max load balance cost is reduced from 100+ us to 70+ us\" (192 CPUs)", 100.0 / 70),
                new Claim("call-cost", "p99", "all", "(the long tail the post describes, as a 99th percentile)", 100.0 / 70),
                new Claim("call-cost", "mean", "all", "(not in the post: the mean cost)", Double.NaN));
    }

    @Override
    public Map<String, String> params(String workload, int cpus) {
        if (cpus < 4 || cpus > 16) {
            throw new ModelInputException("lb-redo simulates 4..16 CPUs (the model's domain), got " + cpus);
        }
        int groups = Math.max(2, Math.min(4, cpus / 2));
        int outside = cpus - (cpus + groups - 1) / groups;
        int pulls = Math.max(1, Math.min(16, outside - 1));
        return Map.of("cpus", Integer.toString(cpus), "groups", Integer.toString(groups),
                "scenario", workload.equals("mixed") ? "all" : "race", "tasks", "2", "pulls", Integer.toString(pulls));
    }

    @Override
    public Set<String> properties(String workload) {
        return Set.of("stat-work", "stat-passes");
    }

    @Override
    public int classify(Model model, int actor, int action, String label) {
        if (actor == 1) {
            if (!label.startsWith("pull ")) {
                throw unknown(label);
            }
            return PULL;
        }
        if (label.contains("find_busiest_queue") || label.contains("sched_balance_find_src_rq") || label.contains("no busiest")) {
            return PASS;
        }
        if (label.startsWith("busiest->nr_running")) {
            return READ;
        }
        if (label.startsWith("rq_lock(")) {
            return DETACH;
        }
        if (label.startsWith("goto ") || label.startsWith("return ") || label.startsWith("load_balance: goto")
                || label.startsWith("sched_balance_rq: goto") || label.startsWith("redo: goto")) {
            return BRANCH;
        }
        throw unknown(label);
    }

    private static IllegalStateException unknown(String label) {
        return new IllegalStateException("lb-redo simulation profile: unknown step label '" + label + "' (update LbRedoSimulation)");
    }

    @Override
    public SimulationRun start(Model model, String workload, SimulationRun.Context ctx) {
        return new Run(model, ctx);
    }

    private static Metric metric(Model m, String id) {
        for (Property p : m.properties()) {
            if (p instanceof Metric x && x.id().equals(id)) {
                return x;
            }
        }
        throw new IllegalStateException("lb-redo instance without metric " + id);
    }

    /** One run: CPU 0's call and the concurrent pulls. */
    private static final class Run implements SimulationRun {
        private final Model model;
        private final SimulationRun.Context ctx;
        private final Metric work;
        private final Metric passes;
        private final double perCpu;
        private final int entry;
        private final int detach;
        private final int branch;
        private final int socket;
        private final int remote;
        private final double passMean;
        /** What is left of the current statistics pass after its busiest read. */
        private double rest;
        private long lastPass;
        private boolean done;

        Run(Model model, SimulationRun.Context ctx) {
            this.model = model;
            this.ctx = ctx;
            work = metric(model, "stat-work");
            passes = metric(model, "stat-passes");
            entry = ctx.costIndex("call-entry");
            detach = ctx.costIndex("detach");
            branch = ctx.costIndex("branch");
            socket = ctx.costIndex("line-socket");
            remote = ctx.costIndex("line-remote");
            double sockets = Math.max(1, ctx.value("sockets"));
            double lines = ctx.value("lines-per-cpu");
            perCpu = lines * (ctx.value(socket) / sockets + ctx.value(remote) * (1 - 1 / sockets));
            passMean = ctx.cpus() * perCpu;
        }

        /** A statistics pass over {@code cpus} CPUs: one line transfer per line, each from this socket or another. */
        private double pass(long cpus) {
            double lines = ctx.value("lines-per-cpu") * cpus;
            double sockets = Math.max(1, ctx.value("sockets"));
            double t = 0;
            long whole = (long) lines;
            for (long i = 0; i < whole; i++) {
                t += ctx.random().nextDouble() * sockets < 1 ? ctx.cost(socket) : ctx.cost(remote);
            }
            return t + (lines - whole) * perCpu / Math.max(1e-9, ctx.value("lines-per-cpu"));
        }

        @Override
        public double start(int actor) {
            return actor == 0 ? 0 : -Math.log1p(-ctx.random().nextDouble()) * passMean;
        }

        @Override
        public double latency(int actor, int action, long[] from, long[] to, boolean retry) {
            if (actor == 1) {
                return 0;
            }
            int k = ctx.kind(actor, action);
            if (k == PASS && !retry) {
                double p = pass(passWork(from, to));
                double u = ctx.random().nextDouble();
                rest = (1 - u) * p;
                return ctx.cost(entry) * (work.value(from, 0) == 0 ? 1 : 0) + u * p;
            }
            if (k == DETACH) {
                return ctx.cost(detach);
            }
            return k == BRANCH ? ctx.cost(branch) : 0;
        }

        /**
         * The per-CPU updates of the pass this step makes: the growth of {@code stat-work}; for a pass
         * that ends the call (the state is reset then), the previous pass's size (the first: all CPUs).
         */
        private long passWork(long[] from, long[] to) {
            if (model.isFinal(to)) {
                return lastPass > 0 ? lastPass : ctx.cpus();
            }
            long w = work.value(to, 0) - work.value(from, 0);
            lastPass = w;
            return w;
        }

        @Override
        public double wake(int actor, int action) {
            return 0;
        }

        @Override
        public double step(int actor, int action, long[] from, long[] to, double now) {
            if (actor == 1) {
                return -Math.log1p(-ctx.random().nextDouble()) * passMean;
            }
            double busy = 0;
            boolean pass = ctx.kind(actor, action) == PASS;
            if (pass) {
                busy = rest;
                rest = 0;
            }
            if (!done && model.isFinal(to)) {
                done = true;
                ctx.sample(0, 0, now + busy);
                ctx.sample(1, 0, passes.value(from, 0) + (pass ? 1 : 0));
            }
            return busy;
        }
    }
}
