package kcheck.model.lbredo;

import static kcheck.model.lbredo.Explore.params;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import kcheck.model.ModelLimitException;

/**
 * The lb-redo model's limits are contracts (issue 14): a variant that steps outside what the state
 * can hold gets {@link ModelLimitException} with the limit in words, where the limit is made; and
 * the three crash cases of issue 14 (a variant that sets {@code CPU_NOT_IDLE}, a
 * {@code loop_break} that is not a multiple of 32, {@code env.loop} above 15) are legal inputs
 * with real verdicts now.
 */
class LbRedoLimitsTest {
    private static final Set<String> ALL_PROPS = Set.of("terminates", "call-returns", "all-pinned-sound", "no-spurious-redo",
            "pinned-redo-kept", "scan-bounded", "imbalance-kept", "newidle-pulls-here", "redos", "stat-passes",
            "spurious-redos", "stat-work");

    private static Explore.Result run(LoadBalance impl, Map<String, String> params) {
        return Explore.run(Explore.model("test-variant", impl, params, ALL_PROPS));
    }

    private static final Set<String> WITH_CHECKS = java.util.stream.Stream.concat(ALL_PROPS.stream(),
            java.util.Arrays.stream(LbCheck.values()).map(c -> c.id)).collect(java.util.stream.Collectors.toSet());

    /** The kernel would flag the state: a verdict on the check's property, not a limit. */
    private static void flagged(LoadBalance impl, Map<String, String> params, String property) {
        Explore.Result r = Explore.run(Explore.model("test-variant", impl, params, WITH_CHECKS));
        assertThat(r.shortestViolation()).containsKey(property);
    }

    private static void refused(LoadBalance impl, Map<String, String> params, String... words) {
        assertThatThrownBy(() -> run(impl, params)).isInstanceOf(ModelLimitException.class)
                .hasMessageStartingWith("lb-redo (variant test-variant): ").hasMessageContainingAll(words);
    }

    /* ---- issue 14's crash cases: legal inputs now ---- */

    @Test
    void aVariantThatBalancesAsCpuNotIdleIsALegalInputWithRealVerdicts() {
        // v5.11 with .idle = CPU_NOT_IDLE whatever the caller passed: detach_tasks then examines the
        // running task when busiest is down to one, which clears LBF_ALL_PINNED: no spurious redo
        LoadBalanceV511 notIdle = new LoadBalanceV511() {
            @Override
            public int loadBalance(LoadBalanceCall lb, Sched s) {
                int ret = super.loadBalance(lb, s);
                lb.env.idle = LbEnv.CPU_NOT_IDLE;
                return ret;
            }
        };
        Explore.Result r = run(notIdle, params("scenario", "race"));
        assertThat(r.states()).isPositive();
        assertThat(r.violated("no-spurious-redo")).isFalse();
        assertThat(run(new LoadBalanceV511(), params("scenario", "race")).violated("no-spurious-redo")).isTrue();
    }

    @Test
    void aLoopBreakThatIsNotAMultipleOf32IsALegalInput() {
        // loop_break = 1 on every cut: detach_tasks takes a breather after every task (LBF_NEED_BREAK)
        LoadBalanceV513 breather = new LoadBalanceV513() {
            @Override
            public int loadBalance(LoadBalanceCall lb, Sched s) {
                int ret = super.loadBalance(lb, s);
                if (lb.env.loopBreak == LbEnv.SCHED_NR_MIGRATE_BREAK) {
                    lb.env.loopBreak = 1;
                }
                return ret;
            }
        };
        Explore.Result r = run(breather, params("scenario", "pinned"));
        assertThat(r.states()).isGreaterThan(run(new LoadBalanceV513(), params("scenario", "pinned")).states());
        assertThat(r.violated("terminates")).isFalse();
        assertThat(r.violated("call-returns")).isFalse();
    }

    @Test
    void anEnvLoopAbove15IsALegalInput() {
        // every scan starts at loop 20 (loop_max then 22): the same runs as v5.13, the counter shifted
        LoadBalanceV513 shifted = new LoadBalanceV513() {
            @Override
            public int loadBalance(LoadBalanceCall lb, Sched s) {
                int ret = super.loadBalance(lb, s);
                if (ret == MORE_BALANCE && lb.env.loop == 0) {
                    lb.env.loop = 20;
                    lb.env.loopMax += 20;
                    lb.env.loopBreak += 20;
                }
                return ret;
            }
        };
        Explore.Result r = run(shifted, params("cpus", "6"));
        Explore.Result base = run(new LoadBalanceV513(), params("cpus", "6"));
        assertThat(r.violated("all-pinned-sound")).isFalse();
        assertThat(r.maxima()).isEqualTo(base.maxima());
    }

    /* ---- one test per limit ---- */

    @Test
    void envLoopBeyondTheHorizonIsRefusedWithTheHorizonInWords() {
        LbRedoModel m = (LbRedoModel) Explore.model("after", params(), Set.of("terminates"));
        int h = m.counterHorizon();
        assertThat(h).as("SCHED_NR_MIGRATE_BREAK 32 + 2 tasks + 3 + 2 CPUs + 2").isEqualTo(41);
        LoadBalanceV513 runaway = new LoadBalanceV513() {
            @Override
            public int loadBalance(LoadBalanceCall lb, Sched s) {
                int ret = super.loadBalance(lb, s);
                if (ret == MORE_BALANCE) {
                    lb.env.loop = h + 1;
                }
                return ret;
            }
        };
        refused(runaway, params(), "keeps env.loop exact up to 41", "this variant reached 42");
    }

    @Test
    void negativeLoopCountersAreRefused() {
        LoadBalanceV513 negative = new LoadBalanceV513() {
            @Override
            public int loadBalance(LoadBalanceCall lb, Sched s) {
                int ret = super.loadBalance(lb, s);
                lb.env.loopBreak = -1;
                return ret;
            }
        };
        refused(negative, params(), "must not be negative", "loop_break -1");
    }

    @Test
    void anImbalanceAboveOneTaskIsRefused() {
        LoadBalanceV513 greedy = new LoadBalanceV513() {
            @Override
            protected int findBusiestGroup(LbEnv env, Sched s) {
                int g = super.findBusiestGroup(env, s);
                env.imbalance = 2;
                return g;
            }
        };
        refused(greedy, params(), "env.imbalance as 0 or 1", "reached 2");
    }

    @Test
    void anUnknownMigrationTypeIsRefused() {
        LoadBalanceV513 odd = new LoadBalanceV513() {
            @Override
            protected int findBusiestGroup(LbEnv env, Sched s) {
                int g = super.findBusiestGroup(env, s);
                env.migrationType = 7;
                return g;
            }
        };
        refused(odd, params(), "env.migration_type as 0..3", "reached 7");
    }

    @Test
    void anIdleTypeThatIsNoneOfTheThreeIsRefused() {
        LoadBalanceV513 odd = new LoadBalanceV513() {
            @Override
            public int loadBalance(LoadBalanceCall lb, Sched s) {
                int ret = super.loadBalance(lb, s);
                lb.env.idle = 5;
                return ret;
            }
        };
        refused(odd, params(), "env.idle must be CPU_IDLE, CPU_NOT_IDLE or CPU_NEWLY_IDLE", "set 5");
    }

    @Test
    void aDstCpuOutsideTheBalancingGroupIsAVerdict() {
        LoadBalanceV513 away = new LoadBalanceV513() {
            @Override
            public int loadBalance(LoadBalanceCall lb, Sched s) {
                int ret = super.loadBalance(lb, s);
                lb.env.dstCpu = 3;
                return ret;
            }
        };
        flagged(away, params(), "dst-in-balance-mask");
    }

    @Test
    void aDstGrpmaskOtherThanTheLocalGroupIsRefused() {
        LoadBalanceV513 noGroup = new LoadBalanceV513() {
            @Override
            public int loadBalance(LoadBalanceCall lb, Sched s) {
                int ret = super.loadBalance(lb, s);
                lb.env.dstGrpmask = 0;   /* the pre-2013 "dst_grpmask = NULL for NEWLY_IDLE" */
                return ret;
            }
        };
        refused(noGroup, params(), "env.dst_grpmask must be the balancing CPU's group", "set {}");
    }

    @Test
    void aSrcCpuThatIsNotBusiestIsRefused() {
        LoadBalanceV513 wrong = new LoadBalanceV513() {
            @Override
            public int loadBalance(LoadBalanceCall lb, Sched s) {
                int ret = super.loadBalance(lb, s);
                if (ret == NR_RUNNING) {
                    lb.env.srcCpu = 1;
                }
                return ret;
            }
        };
        refused(wrong, params(), "env.src_cpu must be the busiest CPU", "left 1");
    }

    @Test
    void detachedTasksLeftUnattachedAtACutAreRefused() {
        LoadBalanceV513 lost = new LoadBalanceV513() {
            @Override
            protected void attachTasks(LbEnv env, Sched s) {
                /* forgets attach_tasks(): the detached task stays on env.tasks */
            }
        };
        refused(lost, params(), "detached tasks must be attached", "left 1 on env.tasks");
    }

    @Test
    void aTaskMovedOutsideTheBalancingGroupIsRefused() {
        LoadBalanceV513 elsewhere = new LoadBalanceV513() {
            @Override
            protected void attachTasks(LbEnv env, Sched s) {
                int dst = env.dstCpu;
                env.dstCpu = 3;              /* attach to CPU 3 instead of dst_cpu */
                for (int i = 0; i < env.nrTasks; i++) {
                    s.setTaskCpu(env.tasks[i], 3);
                }
                super.attachTasks(env, s);
                env.dstCpu = dst;
            }
        };
        refused(elsewhere, params(), "tasks move only to the balancing CPU's group {0,1}", "moved one to CPU 3");
    }

    @Test
    void ldMovedBeyondTheTasksOfARunqueueIsRefused() {
        LoadBalanceV513 inflated = new LoadBalanceV513() {
            @Override
            public int loadBalance(LoadBalanceCall lb, Sched s) {
                int ret = super.loadBalance(lb, s);
                lb.ldMoved = 9;
                return ret;
            }
        };
        refused(inflated, params(), "ld_moved as 0..3", "reached 9");
    }

    @Test
    void rfcCountersBeyondTheirFieldsAreRefused() {
        LoadBalanceRfc wide = new LoadBalanceRfc() {
            @Override
            public int loadBalance(LoadBalanceCall lb, Sched s) {
                int ret = super.loadBalance(lb, s);
                lb.env.redoMax = 4;
                return ret;
            }
        };
        refused(wide, params(), "env.redo_max as 0..3", "reached 4");
    }

    @Test
    void moreTasksOnABalancingGroupCpuThanItsFieldHoldsAreRefused() {
        LoadBalanceV513 hoarder = new LoadBalanceV513() {
            @Override
            public int loadBalance(LoadBalanceCall lb, Sched s) {
                int ret = super.loadBalance(lb, s);
                s.setUnnamedTasks(1, 4);
                return ret;
            }
        };
        refused(hoarder, params(), "tasks on CPU 1 as 0..1", "reached 4");
    }

    @Test
    void dstPinnedWithoutANewDstCpuIsAVerdict() {
        LoadBalanceV513 half = new LoadBalanceV513() {
            @Override
            public int loadBalance(LoadBalanceCall lb, Sched s) {
                int ret = super.loadBalance(lb, s);
                if (ret == AFTER_DETACH) {
                    lb.env.flags |= LbEnv.LBF_DST_PINNED;
                    lb.env.newDstCpu = -1;
                }
                return ret;
            }
        };
        flagged(half, params(), "dst-in-balance-mask");
    }

    @Test
    void everyLimitIsListedForKcheckList() {
        assertThat(new LbRedoFactory().limits()).hasSizeGreaterThanOrEqualTo(10)
                .anyMatch(l -> l.contains("env.loop is exact up to the horizon"))
                .anyMatch(l -> l.contains("env.imbalance is 0 or 1"))
                .anyMatch(l -> l.contains("env.dst_grpmask is the balancing CPU's group"))
                .anyMatch(l -> l.contains("LBF_SOME_PINNED"));
    }
}
