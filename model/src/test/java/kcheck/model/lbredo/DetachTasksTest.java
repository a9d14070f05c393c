package kcheck.model.lbredo;

import static kcheck.model.lbredo.LbEnv.CPU_IDLE;
import static kcheck.model.lbredo.LbEnv.CPU_NEWLY_IDLE;
import static kcheck.model.lbredo.LbEnv.CPU_NOT_IDLE;
import static kcheck.model.lbredo.LbEnv.LBF_ALL_PINNED;
import static kcheck.model.lbredo.LbEnv.LBF_NEED_BREAK;
import static kcheck.model.lbredo.Machines.ALL;
import static kcheck.model.lbredo.Machines.cpus;
import static kcheck.model.lbredo.Machines.env;
import static kcheck.model.lbredo.Machines.machine;
import static kcheck.model.lbredo.Machines.tasks;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.function.BiFunction;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code detach_tasks()} (kernel/sched/fair.c) of v5.11 (also the RFC's) and of v5.13
 * (acb4decc1e90), called directly with the busiest lock held, including the paths the
 * newly idle balance of the model never takes: periodic balancing ({@code CPU_IDLE},
 * {@code CPU_NOT_IDLE}), an imbalance above one, and {@code loop_max} above
 * {@code loop_break} ({@code sysctl_sched_nr_migrate} raised above 32).
 */
class DetachTasksTest {

    /** detach_tasks of each version, run with env->src_rq locked as load_balance() does. */
    static List<BiFunction<LbEnv, Sched, Integer>> versions() {
        LoadBalanceV511 v511 = new LoadBalanceV511();
        LoadBalanceV513 v513 = new LoadBalanceV513();
        LoadBalanceRfc rfc = new LoadBalanceRfc();
        return List.of(locked(v511::detachTasks), locked(v513::detachTasks), locked(rfc::detachTasks));
    }

    private static BiFunction<LbEnv, Sched, Integer> locked(BiFunction<LbEnv, Sched, Integer> detach) {
        return (env, s) -> {
            Rq src = s.cpuRq(env.srcCpu);
            s.rqLock(src);
            int n = detach.apply(env, s);
            s.rqUnlock(src);
            return n;
        };
    }

    @ParameterizedTest
    @MethodSource("versions")
    void noImbalanceLeftDetachesNothing(BiFunction<LbEnv, Sched, Integer> detach) {
        // if (env->imbalance <= 0) return 0;
        Sched s = machine(4, 2, null, null, tasks(3, ALL));
        LbEnv env = env(s, 0, 2, CPU_NEWLY_IDLE, 0, 3);
        assertThat(detach.apply(env, s)).isZero();
        assertThat(env.loop).as("no task looked at").isZero();
        assertThat(s.cpuRq(2).nrRunning).isEqualTo(3);
    }

    @ParameterizedTest
    @MethodSource("versions")
    void newlyIdleBalanceStopsAfterTheFirstDetachedTask(BiFunction<LbEnv, Sched, Integer> detach) {
        // #ifdef CONFIG_PREEMPTION: if (env->idle == CPU_NEWLY_IDLE) break;
        Sched s = machine(4, 2, null, null, tasks(4, ALL));
        LbEnv env = env(s, 0, 2, CPU_NEWLY_IDLE, 3, 4);
        int tail = s.cpuRq(2).listLastEntry();
        assertThat(detach.apply(env, s)).isEqualTo(1);
        assertThat(env.nrTasks).isEqualTo(1);
        assertThat(env.tasks[0]).isEqualTo(tail);
        assertThat(env.imbalance).isEqualTo(2);
        assertThat(s.taskCpu(tail)).isZero();
    }

    @ParameterizedTest
    @MethodSource("versions")
    void periodicBalanceDetachesUntilTheImbalanceIsMet(BiFunction<LbEnv, Sched, Integer> detach) {
        // migrate_task: env->imbalance--; ... if (env->imbalance <= 0) break;
        Sched s = machine(4, 2, null, null, tasks(5, ALL));
        LbEnv env = env(s, 0, 2, CPU_IDLE, 2, 5);
        Rq src = s.cpuRq(2);
        int last = src.task(4);
        int before = src.task(3);
        assertThat(detach.apply(env, s)).isEqualTo(2);
        assertThat(env.imbalance).isZero();
        assertThat(env.loop).isEqualTo(2);
        assertThat(src.nrRunning).isEqualTo(3);
        // list_add(&p->se.group_node, &env->tasks): the tail first, then the task before it
        assertThat(env.tasks[0]).isEqualTo(last);
        assertThat(env.tasks[1]).isEqualTo(before);
    }

    @ParameterizedTest
    @MethodSource("versions")
    void idleBalanceNeverTakesTheLastTask(BiFunction<LbEnv, Sched, Integer> detach) {
        // if (env->idle != CPU_NOT_IDLE && env->src_rq->nr_running <= 1) break;
        Sched s = machine(4, 2, null, null, tasks(3, ALL));
        s.setCurr(2, -1);                              /* the running task is not a CFS task */
        LbEnv env = env(s, 0, 2, CPU_IDLE, 5, 3);
        assertThat(detach.apply(env, s)).isEqualTo(2);
        assertThat(s.cpuRq(2).nrRunning).isEqualTo(1);
    }

    @ParameterizedTest
    @MethodSource("versions")
    void busyBalanceMayTakeEveryQueuedTask(BiFunction<LbEnv, Sched, Integer> detach) {
        // the nr_running <= 1 stop applies to idle balancing only
        Sched s = machine(4, 2, null, null, tasks(3, ALL));
        s.setCurr(2, -1);
        LbEnv env = env(s, 0, 2, CPU_NOT_IDLE, 5, 3);
        assertThat(detach.apply(env, s)).isEqualTo(3);
        assertThat(s.cpuRq(2).nrRunning).isZero();
        assertThat(s.cpuRq(2).listEmpty()).isTrue();
        assertThat(env.imbalance).isEqualTo(2);
    }

    @ParameterizedTest
    @MethodSource("versions")
    void refusedTasksRotateToTheHeadUntilLoopMaxTasksWereSeen(BiFunction<LbEnv, Sched, Integer> detach) {
        // can_migrate_task fails: goto next: list_move(&p->se.group_node, tasks); loop > loop_max: break
        Sched s = machine(4, 2, null, null, tasks(4, cpus(2)));
        Rq src = s.cpuRq(2);
        int[] order = {src.task(0), src.task(1), src.task(2), src.task(3)};
        LbEnv env = env(s, 0, 2, CPU_NEWLY_IDLE, 1, 2);
        assertThat(detach.apply(env, s)).isZero();
        assertThat(env.loop).as("third iteration stops at loop_max 2").isEqualTo(3);
        assertThat(src.task(0)).isEqualTo(order[2]);
        assertThat(src.task(1)).isEqualTo(order[3]);
        assertThat(src.task(2)).isEqualTo(order[0]);
        assertThat(src.task(3)).isEqualTo(order[1]);
        assertThat(env.flags & LBF_NEED_BREAK).isZero();
    }

    @ParameterizedTest
    @MethodSource("versions")
    void aBreatherEveryLoopBreakTasksSetsNeedBreakAndTheNextPassGoesOn(BiFunction<LbEnv, Sched, Integer> detach) {
        // sysctl_sched_nr_migrate = 64 and 40 tasks: loop_max = 40 > loop_break = 32:
        // if (env->loop > env->loop_break) { env->loop_break += sched_nr_migrate_break; env->flags |= LBF_NEED_BREAK; break; }
        Sched s = machine(4, 2, null, null, tasks(40, cpus(2)));
        LbEnv env = env(s, 0, 2, CPU_NEWLY_IDLE, 1, 40);
        assertThat(detach.apply(env, s)).isZero();
        assertThat(env.loop).isEqualTo(33);
        assertThat(env.loopBreak).isEqualTo(64);
        assertThat(env.flags & LBF_NEED_BREAK).isNotZero();

        env.flags &= ~LBF_NEED_BREAK;                    /* load_balance: goto more_balance */
        assertThat(detach.apply(env, s)).isZero();
        assertThat(env.loop).as("the rest up to loop_max, then the stop").isEqualTo(41);
        assertThat(env.flags & LBF_NEED_BREAK).isZero();
    }

    @Test
    void v513ClearsAllPinnedWhenBusiestWasEmptiedAndV511KeepsIt() {
        // v5.13 (acb4decc1e90): if (env->src_rq->nr_running <= 1) { env->flags &= ~LBF_ALL_PINNED; return 0; }
        for (boolean v513 : new boolean[] {false, true}) {
            Sched s = machine(4, 2, null, null, tasks(1, ALL));
            LbEnv env = env(s, 0, 2, CPU_NEWLY_IDLE, 1, 2);
            env.flags = LBF_ALL_PINNED;
            int n = locked(v513 ? new LoadBalanceV513()::detachTasks : new LoadBalanceV511()::detachTasks).apply(env, s);
            assertThat(n).isZero();
            assertThat(env.loop).isZero();
            assertThat(env.flags & LBF_ALL_PINNED).as(v513 ? "v5.13" : "v5.11").isEqualTo(v513 ? 0 : LBF_ALL_PINNED);
        }
    }

    @Test
    void v513ChecksTheEmptiedSourceBeforeTheImbalance() {
        Sched s = machine(4, 2, null, null, tasks(1, ALL));
        LbEnv env = env(s, 0, 2, CPU_NEWLY_IDLE, 0, 2);
        env.flags = LBF_ALL_PINNED;
        assertThat(locked(new LoadBalanceV513()::detachTasks).apply(env, s)).isZero();
        assertThat(env.flags & LBF_ALL_PINNED).isZero();
    }

    @Test
    void detachingWithoutTheBusiestLockIsALockingError() {
        // lockdep_assert_held(&env->src_rq->lock) in detach_tasks, can_migrate_task and detach_task
        Sched s = machine(4, 2, null, null, tasks(3, ALL));
        LbEnv env = env(s, 0, 2, CPU_NEWLY_IDLE, 1, 3);
        FairLoadBalance[] impls = {new LoadBalanceV511(), new LoadBalanceV513()};
        assertThatThrownBy(() -> new LoadBalanceV513().detachTasks(env, s)).hasMessageContaining("lock not held");
        for (FairLoadBalance impl : impls) {
            assertThatThrownBy(() -> canMigrate(impl, s.cpuRq(2).task(2), env, s)).hasMessageContaining("lock not held");
            assertThatThrownBy(() -> impl.detachTask(s.cpuRq(2).task(2), env, s)).hasMessageContaining("lock not held");
        }
        assertThat(s.cpuRq(2).nrRunning).isEqualTo(3);
    }

    @Test
    void detachTasksAssertsTheBusiestLockBeforeFindingItHasNothingToDo() {
        // lockdep_assert_held(&env->src_rq->lock) is the first statement of detach_tasks
        Sched s = machine(4, 2, null, null, tasks(1, ALL));
        LbEnv env = env(s, 0, 2, CPU_NEWLY_IDLE, 0, 1);
        assertThatThrownBy(() -> new LoadBalanceV511().detachTasks(env, s)).hasMessageContaining("lock not held");
        assertThatThrownBy(() -> new LoadBalanceV513().detachTasks(env, s)).hasMessageContaining("lock not held");
    }

    private static boolean canMigrate(FairLoadBalance impl, int p, LbEnv env, Sched s) {
        return impl instanceof LoadBalanceV513 v ? v.canMigrateTask(p, env, s) : ((LoadBalanceV511) impl).canMigrateTask(p, env, s);
    }
}
