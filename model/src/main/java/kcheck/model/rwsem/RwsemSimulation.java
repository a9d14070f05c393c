package kcheck.model.rwsem;

import java.util.List;
import java.util.Map;
import java.util.Set;

import kcheck.model.Model;
import kcheck.model.ModelInputException;
import kcheck.model.SimulationProfile;
import kcheck.model.SimulationRun;

/**
 * {@code kcheck simulate rwsem-owner}: fio threads on one rw_semaphore in time. Every task loops
 * (the model's cyclic workload): outside the lock ({@code think}), {@code down_read} or
 * {@code down_write}, a critical section, the matching up. Each step costs what its memory access
 * costs: the semaphore's {@code count}, {@code wait_lock}, {@code osq} and {@code owner} share one
 * cache line (struct rw_semaphore), so a load hits when no other task wrote the line since this
 * task last read it, else it is a transfer; an atomic or a store is a transfer unless the task
 * wrote the line last. Spin-loop loads add a {@code cpu_relax()}; a sleeping task runs again a
 * wake-up latency after it is woken. Measured per run: the share of all tasks' CPU time writers
 * spend spinning and in the write slow path (the post's perf figure), lock acquisitions per
 * microsecond (its bandwidth), and each acquisition's latency.
 *
 * <p>Reads only step labels ("function: operation outcome") and the {@code [holds]} mark of the
 * decoded {@code *.at} fields. Costs and sources: docs/simulate.md.
 */
public final class RwsemSimulation implements SimulationProfile {
    static final int READ = 1;
    static final int WRITE = 2;
    static final int SCHED = 3;
    static final int PREEMPT = 4;
    static final int RUN_AGAIN = 5;
    static final int RESCHED = 6;
    static final int OP = 15;
    /** In the optimistic spin loop (rwsem_optimistic_spin, rwsem_spin_on_owner, rwsem_try_write_lock_unqueued). */
    static final int SPIN = 1 << 4;
    /** In the write slow path (rwsem_down_write_failed and what it calls). */
    static final int SLOW = 1 << 5;
    /** The first step of down_read / down_write (the fast path's count update). */
    static final int ENTRY = 1 << 6;
    /** Writes count or grants readers: who holds the lock may change. */
    static final int HOLDERS = 1 << 7;
    /** Reads another task's on_cpu (its task_struct, not the semaphore's line). */
    static final int OTHER_LINE = 1 << 8;

    private static final Set<String> SPIN_FUNCTIONS = Set.of("rwsem_optimistic_spin", "rwsem_spin_on_owner",
            "rwsem_try_write_lock_unqueued");
    private static final Set<String> SLOW_FUNCTIONS = Set.of("__rwsem_down_write_failed_common", "rwsem_down_write_failed",
            "rwsem_try_write_lock", "rwsem_can_spin_on_owner", "rwsem_optimistic_spin", "rwsem_spin_on_owner",
            "rwsem_try_write_lock_unqueued");

    @Override
    public String model() {
        return RwsemOwnerFactory.NAME;
    }

    @Override
    public List<Workload> workloads() {
        return List.of(
                new Workload("randrw", "fio randrw (rwmixread=50, fio's default): half of the tasks readers, half writers "
                        + "(the model's tasks read or write, never both); --cpus = tasks, at most 3 + 3"),
                new Workload("randwrite", "fio randwrite: every task a writer; --cpus = tasks, at most 3"));
    }

    @Override
    public List<Cost> costs() {
        return List.of(
                Cost.ns("line-hit", 1.6, "fixed", "a load that hits L1: 4 cycles at the 0.4 ns clock of the perfbook X5550 table"),
                Cost.ns("line-local", 12.2, "uniform", "an atomic on a line this task wrote last: 'best-case CAS' 12.2 ns, perfbook "
                        + "(McKenney), table 'Performance of Synchronization Mechanisms on 16-CPU 2.8GHz Intel X5550 (Nehalem)'"),
                Cost.ns("line-socket", 31.2, "uniform", "the line last written by a task on the same socket: 'Off-Core CAS cache "
                        + "miss' 31.2 ns, same table"),
                Cost.ns("line-remote", 95.9, "uniform", "the line last written on another socket: 'Off-Socket CAS cache miss' "
                        + "95.9 ns, same table"),
                Cost.number("sockets", 4, "sockets", "the post's '4-socket Haswell machine'; task t runs on socket t mod sockets"),
                Cost.ns("pause", 4, "fixed", "cpu_relax() (PAUSE) in a spin loop: about 10 cycles before Skylake (Intel 64 and "
                        + "IA-32 Architectures Optimization Reference Manual, 'Pause Latency in Skylake Microarchitecture'), 4 ns "
                        + "at 2.5 GHz"),
                Cost.ns("wakeup", 3000, "exp", "a sleeping task woken until it runs: C1 exit 2 us (intel_idle hsw_cstates, "
                        + "drivers/idle/intel_idle.c v6.1) plus about 1 us to switch to it (about 10 lines x 95.9 ns)"),
                Cost.ns("read-cs", 1000, "exp", "holding the lock for a 4 KiB read: copy 4 KiB from the page cache (0.4 us at "
                        + "10 GB/s) plus the lookup: an estimate, the post gives none"),
                Cost.ns("write-cs", 2000, "exp", "holding the lock for a 4 KiB buffered write: copy 4 KiB, dirty the page, map "
                        + "blocks: an estimate, the post gives none"),
                Cost.ns("think", 2000, "exp", "between two I/Os of a thread, outside the lock: system call entry and exit, fio's "
                        + "own accounting: an estimate, the post gives none"),
                Cost.ns("preempt-interval", 0, "exp", "mean time between preemptions of a lock holder (0: never; the fio threads "
                        + "have a CPU each, nothing else is runnable to preempt them)"),
                Cost.ns("preempted-for", 4_000_000, "exp", "a preempted task waits this long to run again: one 4 ms tick (HZ=250)"),
                Cost.ns("resched-interval", 0, "exp", "mean time until need_resched is set for a writer in its slow path (0: "
                        + "never, as above)"),
                Cost.number("horizon", 200_000, "ns", "simulated time per run (the workload is cyclic)"));
    }

    @Override
    public List<Measure> measures() {
        return List.of(
                new Measure("write-spin", "fraction", false, "share of the writers' time spent in optimistic spinning (incl. "
                        + "the osq wait)"),
                new Measure("write-slowpath", "fraction", false, "writers in the write slow path, sleep excluded (the post's "
                        + "cycles in rwsem_down_write_failed), share of all tasks' CPU time"),
                new Measure("acquisitions", "per us", false, "lock acquisitions (read and write) per microsecond"),
                new Measure("write-acquire", "ns", false, "down_write latency: entry to holding the lock"),
                new Measure("read-acquire", "ns", false, "down_read latency: entry to holding the lock"));
    }

    @Override
    public List<Claim> claims(String workload) {
        if (workload.equals("randwrite")) {
            return List.of(
                    new Claim("write-slowpath", "mean", "all", "(randwrite: no perf profile in the post)", Double.NaN),
                    new Claim("acquisitions", "mean", "all", "randwrite bandwidth \"1513 MB/s\" -> \"1623 MB/s\" (+7.3%)", 1513.0 / 1623));
        }
        return List.of(
                new Claim("write-slowpath", "mean", "all", "randrw: cycles in rwsem_down_write_failed \"dropped from 5.88% to 1.52%\"",
                        5.88 / 1.52),
                new Claim("write-spin", "mean", "all", "(the spinning part of it)", 5.88 / 1.52),
                new Claim("acquisitions", "mean", "all", "randrw bandwidth \"988 MB/s\" -> \"1192 MB/s\" (+21%)", 988.0 / 1192));
    }

    @Override
    public Map<String, String> params(String workload, int cpus) {
        if (workload.equals("randwrite")) {
            if (cpus < 1 || cpus > 3) {
                throw new ModelInputException("rwsem-owner randwrite simulates 1..3 tasks (the model's writers), got --cpus " + cpus);
            }
            return Map.of("readers", "0", "writers", Integer.toString(cpus), "rounds", "0", "rt", "none");
        }
        if (cpus < 2 || cpus > 6) {
            throw new ModelInputException("rwsem-owner randrw simulates 2..6 tasks (at most 3 readers and 3 writers), got --cpus " + cpus);
        }
        return Map.of("readers", Integer.toString(cpus / 2), "writers", Integer.toString(cpus - cpus / 2), "rounds", "0", "rt", "none");
    }

    @Override
    public Set<String> properties(String workload) {
        return Set.of("exclusion");
    }

    @Override
    public int classify(Model model, int actor, int action, String label) {
        if (label.startsWith("preempted")) {
            return PREEMPT;
        }
        if (label.startsWith("runs again")) {
            return RUN_AGAIN;
        }
        if (label.startsWith("need_resched")) {
            return RESCHED;
        }
        int colon = label.indexOf(": ");
        if (colon < 0) {
            throw new IllegalStateException("rwsem-owner simulation profile: unknown step label '" + label + "' (update RwsemSimulation)");
        }
        String fn = label.substring(0, colon);
        String op = label.substring(colon + 2);
        int code;
        if (op.startsWith("schedule()")) {
            code = SCHED;
        } else if (op.startsWith("load ") || op.startsWith("osq_is_locked")) {
            code = READ;
        } else if (op.contains("->on_cpu")) {
            code = READ | OTHER_LINE;
        } else {
            code = WRITE;
        }
        if (SPIN_FUNCTIONS.contains(fn)) {
            code |= SPIN;
        }
        if (SLOW_FUNCTIONS.contains(fn)) {
            code |= SLOW;
        }
        if (fn.equals("__down_read") || fn.equals("__down_write")) {
            code |= ENTRY;
        }
        boolean countWrite = op.startsWith("count ") || op.startsWith("cmpxchg count") || op.startsWith("fetch_add");
        if (countWrite || op.startsWith("grant ")) {
            code |= HOLDERS;
        }
        return code;
    }

    @Override
    public SimulationRun start(Model model, String workload, SimulationRun.Context ctx) {
        return new Run(model, ctx);
    }

    /** Tasks holding the lock in a state: the {@code [holds]} mark of each task's decoded {@code .at} field. */
    static int holders(Model m, long[] s) {
        int[] mask = {0};
        m.decode(s, (actor, name, value) -> {
            if (actor >= 0 && name.endsWith(".at") && value.startsWith("[holds]")) {
                mask[0] |= 1 << actor;
            }
        });
        return mask[0];
    }

    private static final class Run implements SimulationRun {
        private final Model model;
        private final SimulationRun.Context ctx;
        private final int n;
        private final boolean[] writer;
        private final int hit;
        private final int local;
        private final int socketCost;
        private final int remote;
        private final int pause;
        private final int wakeup;
        private final int readCs;
        private final int writeCs;
        private final int think;
        private final int preemptedFor;
        private final int sockets;
        private final double preemptRate;
        private final double reschedRate;
        private final double horizon;
        /** The semaphore's line: the task that wrote it last, and which tasks hold a valid copy. */
        private int lineWriter = -1;
        private int valid;
        private int holders;
        private final boolean[] inCs;
        private final boolean[] released;
        private final double[] entry;
        private final double[] last;
        private final double[] busyUntil;
        private final double[] pendingLine;
        private double spin;
        private double slow;
        private double off;
        private long acquisitions;

        Run(Model model, SimulationRun.Context ctx) {
            this.model = model;
            this.ctx = ctx;
            List<String> actors = model.actors();
            n = actors.size();
            writer = new boolean[n];
            for (int t = 0; t < n; t++) {
                writer[t] = actors.get(t).startsWith("writer");
            }
            hit = ctx.costIndex("line-hit");
            local = ctx.costIndex("line-local");
            socketCost = ctx.costIndex("line-socket");
            remote = ctx.costIndex("line-remote");
            pause = ctx.costIndex("pause");
            wakeup = ctx.costIndex("wakeup");
            readCs = ctx.costIndex("read-cs");
            writeCs = ctx.costIndex("write-cs");
            think = ctx.costIndex("think");
            preemptedFor = ctx.costIndex("preempted-for");
            sockets = Math.max(1, (int) Math.round(ctx.value("sockets")));
            double pi = ctx.value("preempt-interval");
            double ri = ctx.value("resched-interval");
            preemptRate = pi > 0 ? 1 / pi : 0;
            reschedRate = ri > 0 ? 1 / ri : 0;
            horizon = ctx.value("horizon");
            inCs = new boolean[n];
            released = new boolean[n];
            entry = new double[n];
            last = new double[n];
            busyUntil = new double[n];
            pendingLine = new double[n];
        }

        private double transfer(int from, int to) {
            if (from < 0) {
                return ctx.cost(remote);
            }
            return ctx.cost(from % sockets == to % sockets ? socketCost : remote);
        }

        @Override
        public double start(int actor) {
            double s = ctx.cost(think);
            last[actor] = s;
            busyUntil[actor] = s;
            return s;
        }

        @Override
        public double rate(int actor, int action) {
            int op = ctx.kind(actor, action) & OP;
            return op == PREEMPT ? preemptRate : op == RESCHED ? reschedRate : 0;
        }

        @Override
        public double weight(int actor, int action) {
            int op = ctx.kind(actor, action) & OP;
            return op == PREEMPT || op == RESCHED ? 0 : 1;
        }

        @Override
        public double latency(int actor, int action, long[] from, long[] to, boolean retry) {
            int k = ctx.kind(actor, action);
            int op = k & OP;
            double t = 0;
            if (op == RUN_AGAIN) {
                return ctx.cost(preemptedFor);
            }
            if (op == READ) {
                if ((k & OTHER_LINE) != 0) {
                    t = ctx.cost(hit);
                } else {
                    t = (valid & (1 << actor)) != 0 ? ctx.cost(hit) : transfer(lineWriter, actor);
                }
                if ((k & SPIN) != 0) {
                    t += ctx.cost(pause);
                }
            } else if (op == WRITE) {
                t = lineWriter == actor && valid == (1 << actor) ? ctx.cost(local) : transfer(lineWriter, actor);
            }
            pendingLine[actor] = t;
            if ((k & ENTRY) != 0 && released[actor] && !retry) {
                released[actor] = false;
                t += ctx.cost(think);
            }
            return t;
        }

        @Override
        public double wake(int actor, int action) {
            int op = ctx.kind(actor, action) & OP;
            return op == SCHED ? ctx.cost(wakeup) : transfer(lineWriter, actor);
        }

        /** Accounts task {@code t}'s time from its last step to {@code now}, the waiting part to step kind {@code k}. */
        private void account(int t, int k, double now) {
            double end = Math.min(now, horizon);
            double waitFrom = Math.max(last[t], busyUntil[t]);
            double waited = Math.max(0, end - waitFrom);
            int op = k & OP;
            if (op == SCHED || op == RUN_AGAIN) {
                off += waited;
            } else if (writer[t]) {
                if ((k & SPIN) != 0) {
                    spin += waited;
                }
                if ((k & SLOW) != 0) {
                    slow += waited;
                }
            }
            last[t] = now;
        }

        @Override
        public double step(int actor, int action, long[] from, long[] to, double now) {
            int k = ctx.kind(actor, action);
            int op = k & OP;
            if (op == PREEMPT || op == RESCHED) {
                return 0;
            }
            account(actor, k, now);
            if (op == READ && (k & OTHER_LINE) == 0) {
                valid |= 1 << actor;
            } else if (op == WRITE) {
                lineWriter = actor;
                valid = 1 << actor;
            }
            if ((k & ENTRY) != 0) {
                entry[actor] = now - pendingLine[actor];
            }
            if ((k & HOLDERS) != 0) {
                int h = ctx.memo(to, s -> holders(model, s));
                int gained = h & ~holders;
                for (int t = 0; t < n; t++) {
                    if ((gained & (1 << t)) != 0) {
                        if (now <= horizon) {
                            acquisitions++;
                            ctx.sample(writer[t] ? 3 : 4, 0, now - entry[t]);
                        }
                    }
                    if ((holders & ~h & (1 << t)) != 0) {
                        inCs[t] = false;
                        released[t] = true;
                    }
                }
                holders = h;
            }
            double busy = 0;
            if ((holders & (1 << actor)) != 0 && !inCs[actor]) {
                inCs[actor] = true;
                busy = ctx.cost(writer[actor] ? writeCs : readCs);
            }
            busyUntil[actor] = now + busy;
            return busy;
        }

        @Override
        public double horizon() {
            return horizon;
        }

        /**
         * Accounts what each task was waiting for when the run ended: the function and operation
         * of the step it is at (its decoded {@code .at} field, "function: operation (...)").
         */
        @Override
        public void end(long[] state, double now) {
            String[] at = new String[n];
            model.decode(state, (actor, name, value) -> {
                if (actor >= 0 && name.endsWith(".at")) {
                    at[actor] = value.startsWith("[holds] ") ? value.substring(8) : value;
                }
            });
            for (int t = 0; t < n; t++) {
                if (at[t] != null && !at[t].equals("done")) {
                    String label = at[t].replaceAll(" \\([^)]*\\)$", "");
                    int k = label.contains(": ") ? new RwsemSimulation().classify(model, t, -1, label) : 0;
                    account(t, k, Math.min(now, horizon));
                }
            }
            double span = Math.min(now, horizon);
            double cpu = n * span - off;
            int writers = 0;
            for (boolean w : writer) {
                writers += w ? 1 : 0;
            }
            ctx.sample(0, 0, writers > 0 && span > 0 ? spin / (writers * span) : 0);
            ctx.sample(1, 0, cpu > 0 ? slow / cpu : 0);
            ctx.sample(2, 0, acquisitions / (Math.min(now, horizon) / 1000.0));
        }
    }
}
