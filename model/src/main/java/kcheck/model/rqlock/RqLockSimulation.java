package kcheck.model.rqlock;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import kcheck.model.Model;
import kcheck.model.ModelInputException;
import kcheck.model.SimulationProfile;
import kcheck.model.SimulationRun;

/**
 * {@code kcheck simulate rq-lock}: the model's own steps in time. Every CPU runs the model's
 * balancing passes ({@code rounds} of them): lock this_rq, work under it, call
 * {@code double_lock_balance}, a critical section holding both runqueues, unlock both, then a
 * pause before the next pass. Lock operations cost a cache-line transfer when another CPU touched
 * the lock word last (from the CPU that did, on this socket or the other one). Measured: the wait
 * inside {@code double_lock_balance} per CPU id (from the call to its return), the post's
 * "latency on cpus 6 and 7".
 *
 * <p>Reads only step labels ({@code spin_lock(rq[L]): take ticket}, {@code spin_trylock(rq[L]) = 1},
 * {@code double_lock_balance(this_rq=rq[C], busiest=rq[B])}, ... "double_lock_balance returns").
 * Costs and their sources: docs/simulate.md.
 */
public final class RqLockSimulation implements SimulationProfile {
    static final int TAKE = 1;
    static final int SERVED = 2;
    static final int TAS = 3;
    static final int TRY = 4;
    static final int UNLOCK = 5;
    static final int CALL = 6;
    /** Flag: the step returns from double_lock_balance. */
    static final int RETURNS = 1 << 12;

    private static final Pattern RQ = Pattern.compile("rq\\[(\\d+)\\]");

    @Override
    public String model() {
        return RqLockFactory.NAME;
    }

    @Override
    public List<Workload> workloads() {
        return List.of(
                new Workload("uniform", "every CPU balances against a busiest runqueue chosen uniformly at random among the others"),
                new Workload("rt-overload", "RT overload: per run, overloaded-fraction of the CPUs (at least one) are overloaded, "
                        + "chosen at random; every other CPU pulls from one of them (pull_rt_task), each overloaded CPU pushes to a "
                        + "non-overloaded one (push_rt_task)"));
    }

    @Override
    public List<Cost> costs() {
        return List.of(
                Cost.ns("line-local", 12.2, "uniform", "atomic on a lock word this CPU touched last: 'best-case CAS' 12.2 ns, "
                        + "perfbook (McKenney), table 'Performance of Synchronization Mechanisms on 16-CPU 2.8GHz Intel X5550 (Nehalem)'"),
                Cost.ns("line-socket", 31.2, "uniform", "lock word last touched by a CPU of the same socket: 'Off-Core CAS cache "
                        + "miss' 31.2 ns, same table"),
                Cost.ns("line-remote", 95.9, "uniform", "lock word last touched by a CPU of the other socket: 'Off-Socket CAS cache "
                        + "miss' 95.9 ns, same table"),
                Cost.number("sockets", 2, "sockets", "CPU ids split contiguously over this many sockets (an 8-way box of 2008: "
                        + "2 sockets x 4 cores; the X5550 table is such a 2-socket machine)"),
                Cost.ns("caller-work", 92.4, "exp", "work under this_rq before double_lock_balance: pull_rt_task reads "
                        + "src_rq->rt.highest_prio of the CPU it pulls from, one remote line: 'Off-Socket single cache miss' 92.4 ns"),
                Cost.ns("critical-section", 924, "exp", "holding both runqueues: pick_next_highest_task_rt, deactivate_task, "
                        + "set_task_cpu, activate_task touch about 10 lines last written by the other CPU: 10 x 92.4 ns"),
                Cost.ns("think", 1000, "exp", "time from the end of one balancing pass to the next on the same CPU; the post "
                        + "gives no rate, only 'a lot of pressure on the RQs': about one pass (~1 us) of other work between passes, "
                        + "so each CPU balances about half of the time (docs/simulate.md sweeps it)"),
                Cost.number("overloaded-fraction", 0.25, "fraction", "rt-overload: share of the CPUs that are overloaded (at "
                        + "least one): 'a few overloaded runqueues'"));
    }

    @Override
    public List<Measure> measures() {
        return List.of(new Measure("wait", "ns", true, "wait inside double_lock_balance (call to return), per CPU id"));
    }

    @Override
    public List<Claim> claims(String workload) {
        return List.of(
                new Claim("wait", "p99", "last:2", "\"decreased latency by over 800% (went from > 400us to < 50us) on cpus 6 and 7\"", 8),
                new Claim("wait", "max", "last:2", "(the same figure read as a maximum, as a per-CPU latency test reports it)", 8));
    }

    @Override
    public Map<String, String> params(String workload, int cpus) {
        if (cpus < 2 || cpus > 8) {
            throw new ModelInputException("rq-lock simulates 2..8 CPUs (its ticket counters are 4 bits wide), got " + cpus);
        }
        return Map.of("cpus", Integer.toString(cpus), "rounds", "4", "lock", "ticket");
    }

    @Override
    public Set<String> properties(String workload) {
        return Set.of("deadlock-free");
    }

    @Override
    public int classify(Model model, int actor, int action, String label0) {
        /* v5.14+ primitives name the runqueue and, with core scheduling, the core lock it takes */
        String label = label0.replaceFirst("^raw_spin_rq_lock(_nested)?\\(", "spin_lock(")
                .replaceFirst("^raw_spin_rq_trylock\\(", "spin_trylock(").replaceFirst("^raw_spin_rq_unlock\\(", "spin_unlock(")
                .replaceFirst("^(spin_\\w+)\\(rq\\[\\d+\\]\\) \\[core lock (rq\\[\\d+\\])\\]", "$1($2)");
        Matcher m = RQ.matcher(label);
        int code;
        if (label.startsWith("double_lock_balance(")) {
            if (!m.find() || !m.find()) {
                throw unknown(label);
            }
            code = CALL | Integer.parseInt(m.group(1)) << 4;
        } else {
            if (!m.find()) {
                throw unknown(label);
            }
            int lock = Integer.parseInt(m.group(1)) << 4;
            if (label.startsWith("spin_lock(") && label.contains("take ticket")) {
                code = TAKE | lock;
            } else if (label.startsWith("spin_lock(") && label.contains("served")) {
                code = SERVED | lock;
            } else if (label.startsWith("spin_lock(") && label.contains("taken")) {
                code = TAS | lock;
            } else if (label.startsWith("spin_trylock(")) {
                code = TRY | lock;
            } else if (label.startsWith("spin_unlock(")) {
                code = UNLOCK | lock;
            } else if (label.startsWith("spin_lock(")) {
                /* a step of another spinlock a variant brings (qspinlock's fast path, slowpath steps): one atomic access */
                code = TAS | lock;
            } else {
                throw unknown(label);
            }
        }
        return label.contains("double_lock_balance returns") ? code | RETURNS : code;
    }

    private static IllegalStateException unknown(String label) {
        return new IllegalStateException("rq-lock simulation profile: unknown step label '" + label + "' (update RqLockSimulation)");
    }

    @Override
    public SimulationRun start(Model model, String workload, SimulationRun.Context ctx) {
        return new Run(ctx, workload.equals("rt-overload"));
    }

    /** One run: lock-word cache lines, each CPU's phase in its pass, and the call times. */
    private static final class Run implements SimulationRun {
        private final SimulationRun.Context ctx;
        private final int n;
        private final int local;
        private final int socket;
        private final int remote;
        private final int callerWork;
        private final int critical;
        private final int think;
        private final int sockets;
        /** Per lock: the CPU that wrote its word last (-1: nobody yet), and the CPUs that read it since. */
        private final int[] writer;
        private final int[] readers;
        /** Per CPU: 0 before its call, 1 inside double_lock_balance, 2 after it returned. */
        private final int[] phase;
        private final double[] called;
        private final boolean[] overloaded;
        private final boolean rt;

        Run(SimulationRun.Context ctx, boolean rt) {
            this.ctx = ctx;
            this.rt = rt;
            n = ctx.cpus();
            local = ctx.costIndex("line-local");
            socket = ctx.costIndex("line-socket");
            remote = ctx.costIndex("line-remote");
            callerWork = ctx.costIndex("caller-work");
            critical = ctx.costIndex("critical-section");
            think = ctx.costIndex("think");
            sockets = Math.max(1, (int) Math.round(ctx.value("sockets")));
            writer = new int[n];
            java.util.Arrays.fill(writer, -1);
            readers = new int[n];
            phase = new int[n];
            called = new double[n];
            overloaded = new boolean[n];
            if (rt) {
                int k = Math.max(1, Math.min(n, (int) Math.round(ctx.value("overloaded-fraction") * n)));
                for (int chosen = 0; chosen < k;) {
                    int c = ctx.random().nextInt(n);
                    if (!overloaded[c]) {
                        overloaded[c] = true;
                        chosen++;
                    }
                }
            }
        }

        private int socketOf(int cpu) {
            return (int) ((long) cpu * sockets / n);
        }

        /** A cache-line transfer of lock {@code l}'s word to {@code cpu}, for a write. */
        private double write(int cpu, int l) {
            int w = writer[l];
            if (w == cpu && (readers[l] & ~(1 << cpu)) == 0) {
                return ctx.cost(local);
            }
            int from = w == cpu || w < 0 ? anyReader(l, cpu) : w;
            return from < 0 ? ctx.cost(local) : transfer(from, cpu);
        }

        private int anyReader(int l, int cpu) {
            int r = readers[l] & ~(1 << cpu);
            return r == 0 ? -1 : Integer.numberOfTrailingZeros(r);
        }

        private double transfer(int from, int to) {
            return ctx.cost(socketOf(from) == socketOf(to) ? socket : remote);
        }

        @Override
        public double start(int actor) {
            return ctx.cost(think);
        }

        @Override
        public double weight(int actor, int action) {
            int k = ctx.kind(actor, action);
            if ((k & 15) != CALL || !rt) {
                return 1;
            }
            int busiest = (k >> 4) & 255;
            boolean pushTarget = !overloaded[busiest];
            if (overloaded[actor]) {
                return pushTarget || allOverloaded() ? 1 : 0;
            }
            return overloaded[busiest] ? 1 : 0;
        }

        private boolean allOverloaded() {
            for (boolean o : overloaded) {
                if (!o) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public double latency(int actor, int action, long[] from, long[] to, boolean retry) {
            int k = ctx.kind(actor, action);
            int op = k & 15;
            int l = (k >> 4) & 255;
            return switch (op) {
                case TAKE, TAS, UNLOCK -> write(actor, l);
                case TRY -> retry ? 0 : write(actor, l);
                default -> 0;
            };
        }

        @Override
        public double wake(int actor, int action) {
            int k = ctx.kind(actor, action);
            int l = (k >> 4) & 255;
            int w = writer[l];
            return w < 0 || w == actor ? ctx.cost(local) : transfer(w, actor);
        }

        @Override
        public double step(int actor, int action, long[] from, long[] to, double now) {
            int k = ctx.kind(actor, action);
            int op = k & 15;
            int l = (k >> 4) & 255;
            switch (op) {
                case TAKE, TAS, TRY, UNLOCK -> {
                    writer[l] = actor;
                    readers[l] = 0;
                }
                case SERVED -> readers[l] |= 1 << actor;
                case CALL -> {
                    called[actor] = now;
                    phase[actor] = 1;
                }
                default -> {
                }
            }
            if ((k & RETURNS) != 0) {
                ctx.sample(0, actor, now - called[actor]);
                phase[actor] = 2;
                return ctx.cost(critical);
            }
            if (phase[actor] == 0 && (op == SERVED || op == TAS) && l == actor) {
                return ctx.cost(callerWork);
            }
            if (phase[actor] == 2 && op == UNLOCK && l == actor) {
                phase[actor] = 0;
                return ctx.cost(think);
            }
            return 0;
        }
    }
}
