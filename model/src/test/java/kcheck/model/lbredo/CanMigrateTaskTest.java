package kcheck.model.lbredo;

import static kcheck.model.lbredo.LbEnv.CPU_IDLE;
import static kcheck.model.lbredo.LbEnv.CPU_NEWLY_IDLE;
import static kcheck.model.lbredo.LbEnv.CPU_NOT_IDLE;
import static kcheck.model.lbredo.LbEnv.LBF_ALL_PINNED;
import static kcheck.model.lbredo.LbEnv.LBF_DST_PINNED;
import static kcheck.model.lbredo.LbEnv.LBF_SOME_PINNED;
import static kcheck.model.lbredo.Machines.ALL;
import static kcheck.model.lbredo.Machines.cpus;
import static kcheck.model.lbredo.Machines.env;
import static kcheck.model.lbredo.Machines.machine;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code can_migrate_task()} (kernel/sched/fair.c, v5.11 and v5.13; the RFC keeps v5.11's) on a
 * machine of 6 CPUs in groups {0,1,2} and {3,4,5}: CPU 3 pulls from CPU 0, whose tasks are
 * {@code t0} (running), {@code t1}, {@code t2}.
 */
class CanMigrateTaskTest {

    @FunctionalInterface
    interface CanMigrate {
        boolean test(int p, LbEnv env, Sched s);
    }

    static List<CanMigrate> versions() {
        return List.of(new LoadBalanceV511()::canMigrateTask, new LoadBalanceV513()::canMigrateTask,
                new LoadBalanceRfc()::canMigrateTask);
    }

    private Sched s;

    /** CPU 0 runs t0 and has t1 and t2 queued, with these affinities; its lock is held. */
    private LbEnv pullFromCpu0(int idle, long t0, long t1, long t2) {
        s = machine(6, 2, new long[] {t0, t1, t2});
        s.setMonitors(0, 0, false, true);
        s.rqLock(s.cpuRq(0));
        LbEnv env = env(s, 3, 0, idle, 1, 3);
        env.flags = LBF_ALL_PINNED;
        return env;
    }

    @ParameterizedTest
    @MethodSource("versions")
    void aQueuedTaskAllowedOnDstMayMigrateAndClearsAllPinned(CanMigrate can) {
        LbEnv env = pullFromCpu0(CPU_NEWLY_IDLE, ALL, ALL, cpus(0, 3));
        assertThat(can.test(2, env, s)).isTrue();
        assertThat(env.flags).isZero();
        assertThat(s.examined()).as("no failure counted").isFalse();
    }

    @ParameterizedTest
    @MethodSource("versions")
    void theRunningTaskIsRefusedButStillClearsAllPinned(CanMigrate can) {
        // env->flags &= ~LBF_ALL_PINNED; if (task_running(env->src_rq, p)) { nr_failed_migrations_running++; return 0; }
        LbEnv env = pullFromCpu0(CPU_NEWLY_IDLE, ALL, ALL, ALL);
        assertThat(can.test(0, env, s)).isFalse();
        assertThat(env.flags & LBF_ALL_PINNED).isZero();
        assertThat(s.examined()).isTrue();
        assertThat(s.allAffine()).as("refused for running, not for affinity").isFalse();
    }

    @ParameterizedTest
    @MethodSource("versions")
    void onANewlyIdleBalanceATaskPinnedAwayFromDstIsRefusedWithoutSeekingAnotherDst(CanMigrate can) {
        // env->flags |= LBF_SOME_PINNED; if (env->idle == CPU_NEWLY_IDLE || ...) return 0;
        LbEnv env = pullFromCpu0(CPU_NEWLY_IDLE, ALL, ALL, cpus(0, 4));
        assertThat(can.test(2, env, s)).isFalse();
        assertThat(env.flags).isEqualTo(LBF_ALL_PINNED | LBF_SOME_PINNED);
        assertThat(env.newDstCpu).isEqualTo(-1);
        assertThat(s.examined()).isTrue();
        assertThat(s.allAffine()).isTrue();
    }

    @ParameterizedTest
    @MethodSource("versions")
    void onAPeriodicBalanceAPinnedAwayTaskNamesTheFirstCpuOfTheLocalGroupItMayRunOn(CanMigrate can) {
        // for_each_cpu_and(cpu, env->dst_grpmask, env->cpus) if (cpumask_test_cpu(cpu, p->cpus_ptr))
        //     { env->flags |= LBF_DST_PINNED; env->new_dst_cpu = cpu; break; }
        for (int idle : new int[] {CPU_IDLE, CPU_NOT_IDLE}) {
            LbEnv env = pullFromCpu0(idle, ALL, ALL, cpus(0, 1, 5, 4));
            assertThat(can.test(2, env, s)).isFalse();
            assertThat(env.flags).isEqualTo(LBF_ALL_PINNED | LBF_SOME_PINNED | LBF_DST_PINNED);
            assertThat(env.newDstCpu).isEqualTo(4);

            LbEnv without4 = pullFromCpu0(idle, ALL, ALL, cpus(0, 1, 5, 4));
            without4.cpus &= ~cpus(4);
            assertThat(can.test(2, without4, s)).isFalse();
            assertThat(without4.newDstCpu).as("only CPUs still in env->cpus").isEqualTo(5);
        }
    }

    @ParameterizedTest
    @MethodSource("versions")
    void aTaskAllowedOnlyOutsideTheLocalGroupNamesNoOtherDst(CanMigrate can) {
        LbEnv env = pullFromCpu0(CPU_IDLE, ALL, ALL, cpus(0, 1));
        assertThat(can.test(2, env, s)).isFalse();
        assertThat(env.flags).isEqualTo(LBF_ALL_PINNED | LBF_SOME_PINNED);
        assertThat(env.newDstCpu).isEqualTo(-1);
    }

    @ParameterizedTest
    @MethodSource("versions")
    void onceAnotherDstIsNamedItIsKeptForTheRestOfTheIteration(CanMigrate can) {
        // "Avoid computing new_dst_cpu ... if we have already computed one in current iteration"
        LbEnv env = pullFromCpu0(CPU_IDLE, ALL, cpus(0, 5), cpus(0, 4));
        assertThat(can.test(2, env, s)).isFalse();
        assertThat(env.newDstCpu).isEqualTo(4);
        assertThat(can.test(1, env, s)).isFalse();
        assertThat(env.newDstCpu).isEqualTo(4);
        assertThat(env.flags & LBF_DST_PINNED).isNotZero();
    }
}
