package kcheck.model.lbredo;

import static kcheck.model.lbredo.LbEnv.MIGRATE_TASK;
import static kcheck.model.lbredo.LbEnv.SCHED_NR_MIGRATE_BREAK;

import java.util.List;

/** Small machines and hand-built {@code struct lb_env}s for driving the reference code directly. */
final class Machines {
    /** Every CPU of a machine of up to 8 CPUs. */
    static final long ALL = 0xffL;

    private Machines() {
    }

    /** The three load_balance() variants; what they share must behave the same in each. */
    static List<LoadBalance> variants() {
        return List.of(new LoadBalanceV511(), new LoadBalanceV513(), new LoadBalanceRfc());
    }

    /**
     * {@code cpus} CPUs in {@code groups} contiguous groups; {@code rqs[c]} lists the affinity
     * masks of CPU c's tasks, head first; the head is {@code rq->curr}. Tasks are numbered in
     * that order.
     */
    static Sched machine(int cpus, int groups, long[]... rqs) {
        int tasks = 0;
        for (long[] r : rqs) {
            tasks += r == null ? 0 : r.length;
        }
        Sched s = new Sched(cpus, LbDomain.contiguousGroups(cpus, groups), -1L, Math.max(1, tasks));
        int p = 0;
        for (int c = 0; c < rqs.length; c++) {
            if (rqs[c] == null) {
                continue;
            }
            for (int i = 0; i < rqs[c].length; i++) {
                s.setTask(p, rqs[c][i], c, "t" + c + "." + i);
                s.enqueueTail(c, p);
                if (i == 0) {
                    s.setCurr(c, p);
                }
                p++;
            }
        }
        return s;
    }

    /** {@code n} tasks with affinity {@code mask}. */
    static long[] tasks(int n, long mask) {
        long[] out = new long[n];
        java.util.Arrays.fill(out, mask);
        return out;
    }

    static long cpus(int... cpus) {
        long m = 0;
        for (int c : cpus) {
            m |= 1L << c;
        }
        return m;
    }

    /**
     * The lb_env load_balance() builds for {@code dst} pulling from {@code src} after
     * find_busiest_group() asked for {@code imbalance} tasks, with {@code loop_max} as the
     * {@code nr_running} check computes it.
     */
    static LbEnv env(Sched s, int dst, int src, int idle, long imbalance, int loopMax) {
        LbEnv env = new LbEnv();
        fill(env, s, dst, src, idle, imbalance, loopMax);
        return env;
    }

    /** Sets {@code env} up as {@link #env} does. */
    static void fill(LbEnv env, Sched s, int dst, int src, int idle, long imbalance, int loopMax) {
        env.clear();
        env.dstCpu = dst;
        env.srcCpu = src;
        env.dstGrpmask = s.schedGroupSpanOf(dst);
        env.cpus = s.schedDomainSpan() & s.cpuActiveMask();
        env.idle = idle;
        env.imbalance = imbalance;
        env.migrationType = MIGRATE_TASK;
        env.loopBreak = SCHED_NR_MIGRATE_BREAK;
        env.loopMax = loopMax;
    }

    /** A call of load_balance() on {@code cpu}, not started yet. */
    static LoadBalanceCall call(int cpu) {
        LoadBalanceCall lb = new LoadBalanceCall();
        lb.start(cpu);
        return lb;
    }

    /** Runs one piece of load_balance() with the given busiest choice; returns where it stopped. */
    static int step(LoadBalance impl, LoadBalanceCall lb, Sched s, int choice) {
        s.resetStep(choice);
        int ret = impl.loadBalance(lb, s);
        lb.at = ret;
        return ret;
    }
}
