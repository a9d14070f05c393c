package kcheck.model.lbredo;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

import kcheck.model.Params;

/**
 * Every path of a port's balancing walk, as {@code kcheck conform lb-redo} compares them with a kernel
 * tree's C: from each initial state of the model (its domains, runqueues, affinity patterns and hot
 * tasks), CPU 0 runs its {@code load_balance()} / {@code sched_balance_rq()} calls level by level, and at
 * every point where the model lets other CPUs run (between the pieces of a call, and between calls) each
 * pull they can make is a branch, as is every busiest queue the statistics pass may settle on.
 *
 * <p>The group imbalance flags of the levels above the first ({@code sd_parent->groups->sgc->imbalance}) start
 * either way: earlier balancing may have left them set. Unlike the model, a path keeps the machine and the call concrete (no counter abstraction, no
 * symmetry, detached tasks keep their names): a path is re-executed from its initial state for each
 * branch, and the port's operations ({@link Sched#recordOps}) are its text. The input of a path tells a
 * driver of the C everything the port's run was given: the machine, the calls, the search answers and
 * the pulls with the operation after which each happened.
 */
public final class LbRedoPaths {

    /** One path: the driver's input (without the hash) and the port's text ({@code op ; op ; ...}). */
    public record Run(String input, String text) {
    }

    /** Counts of a walk. */
    public static final class Stats {
        public long runs;
        public long calls;
        public long withPulls;
        public long checks;
        public long cut;
    }

    /** Steps of a path at most (pieces of calls and pulls); a longer one is counted as cut and not compared. */
    static final int MAX_STEPS = 64;

    private final LbRedoLayout l;
    private final LbDomain d;
    private final LoadBalance impl;
    private final Stats stats;
    private final Consumer<Run> sink;

    private LbRedoPaths(LbDomain d, LoadBalance impl, Stats stats, Consumer<Run> sink) {
        this.d = d;
        this.l = new LbRedoLayout(d, LbRedoMonitors.of(java.util.Set.of()), "conform", true);
        this.impl = impl;
        this.stats = stats;
        this.sink = sink;
    }

    /** The paths of built-in variant {@code variant} of lb-redo over the model of {@code params}. */
    public static void forEach(String variant, Params params, Stats stats, Consumer<Run> sink) {
        forEach(LbRedoFactory.implementation(variant), params, stats, sink);
    }

    /** The paths of the port {@code impl} over the model of {@code params}. */
    public static void forEach(LoadBalance impl, Params params, Stats stats, Consumer<Run> sink) {
        LbRedoPaths p = new LbRedoPaths(LbRedoFactory.domain(params), impl, stats, sink);
        List<long[]> initial = new ArrayList<>();
        new LbRedoSteps(p.l, p.impl).initial(s -> initial.add(s.clone()));
        int levels = p.d.levels();
        for (long[] s0 : initial) {
            /* sd_parent->groups->sgc->imbalance above the first level: left set or clear by earlier balancing (either) */
            for (int flags = 0; flags < 1 << (levels - 1); flags++) {
                p.explore(s0, flags << 1, new ArrayList<>());
            }
        }
    }

    /** {@code N} (newly idle), {@code I} (idle), {@code B} (busy: not idle): the call's {@code cpu_idle_type}. */
    static String idleLetter(int idle) {
        return idle == LbEnv.CPU_NEWLY_IDLE ? "N" : idle == LbEnv.CPU_IDLE ? "I" : "B";
    }

    /* ---- a path, re-executed ---- */

    /** A branch: CPU 0's next piece with statistics choice {@code k} ({@code cpu < 0}), or a pull of task p off cpu. */
    private record Choice(int cpu, int p, int k) {
    }

    /** The machine, the call and what was recorded, after replaying a prefix of choices. */
    private final class Replay {
        final Sched s = l.newSched();
        final LoadBalanceCall call = new LoadBalanceCall();
        final List<String> ops = new ArrayList<>();
        final List<String> calls = new ArrayList<>();
        final List<String> answers = new ArrayList<>();
        final List<String> events = new ArrayList<>();
        final String machine;
        int pullsLeft = d.pulls;
        boolean ended;
        /** Branches of CPU 0's last piece: the statistics pass's choices (1 without a pass). */
        int lastCount;

        Replay(long[] s0, int imbalanceFlags) {
            l.load(s0, s, call);
            for (int lvl = 1; lvl < s.levels(); lvl++) {
                s.setGroupImbalance(lvl, (imbalanceFlags >>> lvl & 1) != 0);
            }
            calls.add(s.level() + idleLetter(call.idle));
            machine = machine(s);
        }

        void run(Choice c) {
            if (c.cpu() >= 0) {
                /* early: the C reads shared state right after its last operation; late: only at its next one */
                boolean late = call.at == LoadBalance.MORE_BALANCE;
                events.add(ops.size() + (late ? "l" : "e") + c.cpu() + "." + c.p());
                ops.add("state " + state(s));
                s.pullAway(c.cpu(), c.p());
                pullsLeft--;
                return;
            }
            s.resetStep(c.k());
            s.recordOps(ops::add);
            int ret;
            try {
                ret = impl.loadBalance(call, s);
            } catch (LbCheck.Failed f) {
                ops.add(f.check == LbCheck.WARN_BUSIEST_IS_DST || f.check == LbCheck.WARN_ATTACH_TASK_RQ ? "WARN" : "check " + f.check.id);
                ended = true;
                stats.checks++;
                return;
            } finally {
                s.recordOps(null);
                lastCount = Math.max(1, s.eligibleCount());
                if (s.eligibleCount() >= 0) {
                    /* the statistics pass ran: what it settled on is the driver's answer to the C's search */
                    int b = s.busiestOfPass();
                    answers.add(b + ":" + (b < 0 ? 0 : s.calculateImbalance()));
                }
            }
            if (!LoadBalance.isExit(ret)) {
                call.at = ret;
                return;
            }
            int moved = ret == LoadBalance.OUT ? call.ldMoved : 0;
            ops.add("return " + moved + " continue=" + (call.continueBalancing ? 1 : 0) + " " + state(s));
            int lvl = s.level();
            boolean goesOn = lvl + 1 < s.levels() && (call.idle == LbEnv.CPU_NEWLY_IDLE
                    ? BalanceDomains.newidleGoesOn(moved, s.cpuRq(l.dst), call.continueBalancing)
                    : BalanceDomains.rebalanceGoesOn(call.continueBalancing));
            if (!goesOn) {
                ended = true;
                return;
            }
            int idle = call.idle == LbEnv.CPU_NEWLY_IDLE ? call.idle : BalanceDomains.rebalanceIdle(call.idle, moved, s.idleCpu(l.dst));
            s.setLevel(lvl + 1);
            call.start(l.dst, idle);
            calls.add(s.level() + idleLetter(idle));
        }

        /** The pulls other CPUs can make now: a non-running task that may run elsewhere, off a runqueue of two or more. */
        List<Choice> pulls() {
            List<Choice> out = new ArrayList<>();
            if (pullsLeft == 0) {
                return out;
            }
            for (int c : d.remote) {
                Rq rq = s.cpuRq(c);
                if (rq.nrRunning < 2) {
                    continue;
                }
                for (int i = 0; i < rq.length(); i++) {
                    int p = rq.task(i);
                    if (p != rq.curr && (s.cpusPtr(p) & ~(1L << c) & ~(1L << l.dst)) != 0) {
                        out.add(new Choice(c, p, 0));
                    }
                }
            }
            return out;
        }

        String input() {
            return machine + " C=" + String.join(",", calls) + " S=" + (answers.isEmpty() ? "-" : String.join(",", answers))
                    + " E=" + (events.isEmpty() ? "-" : String.join(",", events));
        }
    }

    private Replay replay(long[] s0, int flags, List<Choice> prefix) {
        Replay r = new Replay(s0, flags);
        for (Choice c : prefix) {
            r.run(c);
        }
        return r;
    }

    private void explore(long[] s0, int flags, List<Choice> prefix) {
        Replay r = replay(s0, flags, prefix);
        if (r.ended) {
            emit(r);
            return;
        }
        if (prefix.size() >= MAX_STEPS) {
            stats.cut++;
            return;
        }
        List<Choice> pulls = r.pulls();
        /* CPU 0's piece with the first statistics choice tells how many there are */
        r.run(new Choice(-1, 0, 0));
        int count = r.lastCount;
        for (int k = 0; k < count; k++) {
            prefix.add(new Choice(-1, 0, k));
            explore(s0, flags, prefix);
            prefix.remove(prefix.size() - 1);
        }
        for (Choice c : pulls) {
            prefix.add(c);
            explore(s0, flags, prefix);
            prefix.remove(prefix.size() - 1);
        }
    }

    private void emit(Replay r) {
        stats.runs++;
        stats.calls += r.calls.size();
        if (!r.events.isEmpty()) {
            stats.withPulls++;
        }
        sink.accept(new Run(r.input(), String.join(" ; ", r.ops)));
    }

    /* ---- texts ---- */

    /**
     * The machine and the first call's state, for the driver: CPUs, balancing CPU, nr_migrate and its break,
     * active mask, each CPU's SMT mask, each level's domain (span, SD_SHARE_CPUCAPACITY, its groups as span/balance
     * mask, the local group first), each runqueue (nr_running, curr, cfs_tasks head first), each task (cpu,
     * cpus_ptr, cache-hot), the levels' group imbalance flags.
     */
    static String machine(Sched s) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "n=%d dst=%d mig=%d brk=%d act=%x smt=", s.nrCpus, LbDomain.DST_CPU, s.sysctlSchedNrMigrate(),
                s.schedNrMigrateBreak(), s.cpuActiveMask()));
        for (int c = 0; c < s.nrCpus; c++) {
            b.append(c == 0 ? "" : ",").append(Long.toHexString(s.cpuSmtMask(c)));
        }
        for (int lvl = 0; lvl < s.levels(); lvl++) {
            Sched.SchedDomain sd = s.domain(lvl);
            int local = sd.groupOf()[LbDomain.DST_CPU];
            b.append(" D=").append(Long.toHexString(sd.span())).append(':').append(sd.shareCpuCapacity() ? 1 : 0);
            for (int i = 0; i < sd.groupSpan().length; i++) {
                int g = (local + i) % sd.groupSpan().length;
                b.append(':').append(Long.toHexString(sd.groupSpan()[g])).append('/').append(Long.toHexString(sd.groupBalanceMask()[g]));
            }
        }
        for (int c = 0; c < s.nrCpus; c++) {
            Rq rq = s.cpuRq(c);
            b.append(" Q=").append(rq.nrRunning).append(':').append(rq.curr).append(':');
            for (int i = 0; i < rq.length(); i++) {
                b.append(i == 0 ? "" : ",").append(rq.task(i));
            }
        }
        for (int p = 0; p < s.nrTasks(); p++) {
            b.append(" T=").append(s.taskCpu(p)).append(':').append(Long.toHexString(s.cpusPtr(p))).append(':')
                    .append(s.hotForConform(p) ? 1 : 0);
        }
        b.append(" I=");
        for (int lvl = 0; lvl < s.levels(); lvl++) {
            b.append(s.groupImbalance(lvl) ? 1 : 0);
        }
        return b.toString();
    }

    /** The runqueues, the tasks' CPUs and the imbalance flags, as the C prints them ({@code state ...}, {@code return ...}). */
    static String state(Sched s) {
        StringBuilder b = new StringBuilder();
        for (int c = 0; c < s.nrCpus; c++) {
            Rq rq = s.cpuRq(c);
            b.append(c == 0 ? "" : " ").append(c).append('=').append(rq.nrRunning).append('/').append(rq.curr < 0 ? "-" : Sched.opTask(rq.curr))
                    .append('[');
            for (int i = 0; i < rq.length(); i++) {
                b.append(i == 0 ? "" : ",").append(Sched.opTask(rq.task(i)));
            }
            b.append(']');
        }
        b.append(" cpu=");
        for (int p = 0; p < s.nrTasks(); p++) {
            b.append(p == 0 ? "" : ",").append(s.taskCpu(p));
        }
        b.append(" imb=");
        for (int lvl = 0; lvl < s.levels(); lvl++) {
            b.append(s.groupImbalance(lvl) ? 1 : 0);
        }
        return b.toString();
    }
}
