package kcheck.model.lbredo;

import static kcheck.model.lbredo.LoadBalance.AFTER_DETACH;
import static kcheck.model.lbredo.LoadBalance.ENTRY;
import static kcheck.model.lbredo.LoadBalance.MORE_BALANCE;
import static kcheck.model.lbredo.LoadBalance.REDO;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import kcheck.model.Metric;
import kcheck.model.Progress;
import kcheck.model.Property;
import kcheck.model.StepProperty;

/**
 * The lb-redo properties (docs/models/lb-redo.md): step properties on CPU 0's steps, a progress
 * property over the reachable graph, and the cost metrics. They read the state through
 * {@link LbRedoLayout}; "the all-pinned branch" is the {@code AFTER_DETACH} step with
 * {@code LBF_ALL_PINNED} set and no break pending.
 */
final class LbRedoProperties {
    private final LbRedoLayout l;

    private LbRedoProperties(LbRedoLayout l) {
        this.l = l;
    }

    /** The selected properties, in listing order. */
    static List<Property> build(LbRedoLayout l, Set<String> selected) {
        LbRedoProperties p = new LbRedoProperties(l);
        List<Property> out = new ArrayList<>();
        for (Property prop : List.of(p.new Terminates(), p.new CallReturns(), p.new AllPinnedSound(), p.new NoSpuriousRedo(),
                p.new PinnedRedoKept(), p.new ScanBounded(), p.new ImbalanceKept(), p.new NewidlePullsHere(), p.new Redos(),
                p.new StatPasses(), p.new SpuriousRedos(), p.new StatWork())) {
            if (selected.contains(prop.id())) {
                out.add(prop);
            }
        }
        for (LbCheck c : LbCheck.values()) {
            if (selected.contains(c.id)) {
                out.add(p.new CheckHolds(c));
            }
        }
        return out;
    }

    /**
     * The step is CPU 0's redo decision with the all-pinned branch taken ({@code LBF_ALL_PINNED}
     * set, no break pending, no {@code LBF_DST_PINNED} retry with imbalance left).
     */
    private boolean allPinnedBranch(long[] from, int actor) {
        return actor == 0 && l.pc.getInt(from) == AFTER_DETACH && l.allPinned.get(from) != 0 && l.needBreak.get(from) == 0
                && !(l.dstPinned.get(from) != 0 && l.imbalance.get(from) > 0);
    }

    private String passSummary(long[] s) {
        int dst = l.dstCpu(s);
        return l.examined.get(s) == 0 ? "no task of busiest was examined"
                : l.allAffine.get(s) != 0 ? "every examined task was pinned away from CPU " + dst
                : "a task that may run on CPU " + dst + " was examined";
    }

    /** The exit a CPU 0 step took (or a resume point: not an exit). */
    private static int ret(int action) {
        return (action >> 8) & 15;
    }

    /**
     * A CPU that still deserves a redo: C != busiest in cpus, outside the local group at this
     * level, >= 2 tasks, one allowed on dst_cpu.
     */
    private int worthwhile(long[] s) {
        int b = l.busiest.getInt(s) - 1;
        long cp = l.cpus.get(s);
        int dst = l.dstCpu(s);
        for (int c : l.d.candidates[l.level.getInt(s)]) {
            if (c == b || (cp & (1L << c)) == 0 || l.pat[c] == null) {
                continue;
            }
            int len = l.len[c].getInt(s);
            if (len < 2) {
                continue;
            }
            long[] masks = l.masks(s, c);
            for (int j = 0; j < len; j++) {
                if ((masks[l.entry[c][j].getInt(s)] & (1L << dst)) != 0) {
                    return c;
                }
            }
        }
        return -1;
    }

    final class Terminates extends StepProperty {
        Terminates() {
            super("terminates", LbRedoFactory.describe("terminates"));
        }

        @Override
        public boolean holds(long[] from, int actor, int action, long[] to) {
            if (LbRedoSteps.check(action) != 0) {
                return true;    /* a kernel check tripped: its own property reports the step */
            }
            if (actor != 0 || l.pc.getInt(to) == LbRedoLayout.DONE || (action & LbRedoSteps.WALK_UP) != 0) {
                return true;
            }
            if (l.redos.get(to) > l.redoBound(l.level.getInt(from))) {
                return false;
            }
            return l.pc.getInt(from) == ENTRY || (l.cpus.get(to) & ~l.cpus.get(from)) == 0;
        }

        @Override
        public String explain(long[] from, int actor, int action, long[] to) {
            int bound = l.redoBound(l.level.getInt(from));
            if (l.redos.get(to) > bound) {
                return "load_balance redoes " + l.redos.get(to) + " times in one call: more than |cpus0 \\ local group| - 1 = "
                        + bound;
            }
            return "env->cpus grows from " + LbRedoDecoder.cpuList(l.cpus.get(from)) + " to "
                    + LbRedoDecoder.cpuList(l.cpus.get(to));
        }
    }

    /**
     * {@code call-returns}: no step is a progress step, so any reachable cycle is a violation. Pulls
     * are finite, so a cycle is CPU 0 looping inside one call (redo or more_balance) for ever.
     */
    final class CallReturns extends Progress {
        CallReturns() {
            super("call-returns", LbRedoFactory.describe("call-returns"));
        }

        @Override
        public boolean isProgress(long[] from, int actor, int action, long[] to) {
            return false;
        }
    }

    final class AllPinnedSound extends StepProperty {
        AllPinnedSound() {
            super("all-pinned-sound", LbRedoFactory.describe("all-pinned-sound"));
        }

        @Override
        public boolean holds(long[] from, int actor, int action, long[] to) {
            if (LbRedoSteps.check(action) != 0) {
                return true;    /* a kernel check tripped: its own property reports the step */
            }
            return !allPinnedBranch(from, actor) || l.examined.get(from) != 0;
        }

        @Override
        public String explain(long[] from, int actor, int action, long[] to) {
            return "load_balance takes the LBF_ALL_PINNED branch for busiest CPU " + (l.busiest.get(from) - 1)
                    + " although no task of it was examined by can_migrate_task";
        }
    }

    final class NoSpuriousRedo extends StepProperty {
        NoSpuriousRedo() {
            super("no-spurious-redo", LbRedoFactory.describe("no-spurious-redo"));
        }

        @Override
        public boolean holds(long[] from, int actor, int action, long[] to) {
            if (LbRedoSteps.check(action) != 0) {
                return true;    /* a kernel check tripped: its own property reports the step */
            }
            return actor != 0 || l.pc.getInt(to) != REDO || (l.examined.get(from) != 0 && l.allAffine.get(from) != 0);
        }

        @Override
        public String explain(long[] from, int actor, int action, long[] to) {
            return "load_balance redoes after busiest CPU " + (l.busiest.get(from) - 1) + ", but " + passSummary(from);
        }
    }

    final class PinnedRedoKept extends StepProperty {
        PinnedRedoKept() {
            super("pinned-redo-kept", LbRedoFactory.describe("pinned-redo-kept"));
        }

        @Override
        public boolean holds(long[] from, int actor, int action, long[] to) {
            if (LbRedoSteps.check(action) != 0) {
                return true;    /* a kernel check tripped: its own property reports the step */
            }
            if (!allPinnedBranch(from, actor) || l.examined.get(from) == 0 || l.allAffine.get(from) == 0) {
                return true;
            }
            return l.pc.getInt(to) == REDO || worthwhile(from) < 0;
        }

        @Override
        public String explain(long[] from, int actor, int action, long[] to) {
            int c = worthwhile(from);
            int dst = l.dstCpu(from);
            return "every task of busiest CPU " + (l.busiest.get(from) - 1) + " is pinned away from CPU " + dst + " and CPU " + c
                    + " still has a task CPU " + dst + " could pull, but load_balance returns instead of redoing";
        }
    }

    /**
     * {@code scan-bounded}: one {@code detach_tasks()} call examines at most {@code env->loop_max}
     * tasks ("We've more or less seen every task there is, call it quits").
     */
    final class ScanBounded extends StepProperty {
        ScanBounded() {
            super("scan-bounded", LbRedoFactory.describe("scan-bounded"));
        }

        @Override
        public boolean holds(long[] from, int actor, int action, long[] to) {
            if (LbRedoSteps.check(action) != 0) {
                return true;    /* a kernel check tripped: its own property reports the step */
            }
            return actor != 0 || l.pc.getInt(from) != MORE_BALANCE || LbRedoSteps.examined(action) <= l.loopMax.get(from);
        }

        @Override
        public String explain(long[] from, int actor, int action, long[] to) {
            return "detach_tasks examines " + LbRedoSteps.examined(action) + " tasks of busiest CPU " + (l.busiest.get(from) - 1)
                    + " in one call, more than env->loop_max = " + l.loopMax.get(from)
                    + " (min(sysctl_sched_nr_migrate, nr_running)): it goes round the runqueue again with the lock held";
        }
    }

    /**
     * {@code imbalance-kept}: a call at a level with a parent that set the parent's group imbalance
     * flag (affinity kept it from balancing) returns with the flag still set.
     */
    final class ImbalanceKept extends StepProperty {
        ImbalanceKept() {
            super("imbalance-kept", LbRedoFactory.describe("imbalance-kept"));
        }

        @Override
        public boolean holds(long[] from, int actor, int action, long[] to) {
            if (LbRedoSteps.check(action) != 0) {
                return true;    /* a kernel check tripped: its own property reports the step */
            }
            if (actor != 0 || l.level.getInt(from) + 1 >= l.levels || !LoadBalance.isExit(ret(action))) {
                return true;
            }
            if (l.groupImbalance.get(from) == 0 && (action & LbRedoSteps.IMBALANCE_SET) == 0) {
                return true;
            }
            return (action & LbRedoSteps.IMBALANCE_AFTER) != 0;
        }

        @Override
        public String explain(long[] from, int actor, int action, long[] to) {
            int lvl = l.level.getInt(from);
            return "load_balance at the " + l.d.levels[lvl].name() + " level set sd_parent->groups->sgc->imbalance (a task it "
                    + "could not move because of affinity) but returns with it cleared: the "
                    + l.d.levels[lvl + 1].name() + " level will not see the imbalance";
        }
    }

    /**
     * {@code newidle-pulls-here}: a newly idle balance migrates tasks only to the CPU going idle.
     */
    final class NewidlePullsHere extends StepProperty {
        NewidlePullsHere() {
            super("newidle-pulls-here", LbRedoFactory.describe("newidle-pulls-here"));
        }

        @Override
        public boolean holds(long[] from, int actor, int action, long[] to) {
            if (LbRedoSteps.check(action) != 0) {
                return true;    /* a kernel check tripped: its own property reports the step */
            }
            return actor != 0 || (action & LbRedoSteps.MIGRATED_ELSEWHERE) == 0;
        }

        @Override
        public String explain(long[] from, int actor, int action, long[] to) {
            return "a newly idle load_balance on CPU " + l.dst + " migrates a task of busiest CPU " + (l.busiest.get(from) - 1)
                    + " to CPU " + l.dstCpu(from) + ", not to itself: LBF_DST_PINNED moved env.dst_cpu although CPU "
                    + l.dst + " is the one going idle";
        }
    }

    /**
     * A kernel check ({@code warn-*}) or sanity rule of {@link LbCheck}: no CPU 0 step trips it
     * (the step that does ends the run with the check's code in its action).
     */
    final class CheckHolds extends StepProperty {
        private final LbCheck check;

        CheckHolds(LbCheck check) {
            super(check.id, check.description);
            this.check = check;
        }

        @Override
        public boolean holds(long[] from, int actor, int action, long[] to) {
            return actor != 0 || LbRedoSteps.check(action) != check.code();
        }

        @Override
        public String explain(long[] from, int actor, int action, long[] to) {
            int cpu = LbRedoSteps.offendingCpu(action);
            String what = switch (check) {
                case DST_IN_CPUS -> "after the step env->dst_cpu is CPU " + cpu + ", which env->cpus no longer holds: ";
                case DST_IN_BALANCE_MASK -> "after the step env->dst_cpu or env->new_dst_cpu is CPU " + cpu
                        + (cpu == l.busiest.getInt(from) - 1 ? " (busiest itself)" : "") + ", outside the local group's balance mask: ";
                case BUSY_DEFERS -> "CPU " + cpu + " is busy and went past should_we_balance although an idle CPU of "
                        + "its group could balance: ";
                default -> "";
            };
            return what + "the step trips " + check.description;
        }
    }

    final class Redos extends Metric {
        Redos() {
            super("redos", LbRedoFactory.describe("redos"));
        }

        @Override
        public long value(long[] s, int c) {
            return l.redos.get(s);
        }
    }

    final class StatPasses extends Metric {
        StatPasses() {
            super("stat-passes", LbRedoFactory.describe("stat-passes"));
        }

        @Override
        public long value(long[] s, int c) {
            return l.passes.get(s);
        }
    }

    final class SpuriousRedos extends Metric {
        SpuriousRedos() {
            super("spurious-redos", LbRedoFactory.describe("spurious-redos"));
        }

        @Override
        public long value(long[] s, int c) {
            return l.spurious.get(s);
        }
    }

    final class StatWork extends Metric {
        StatWork() {
            super("stat-work", LbRedoFactory.describe("stat-work"));
        }

        @Override
        public long value(long[] s, int c) {
            return l.work.get(s);
        }
    }
}
