package kcheck.model.dlpush;

import static kcheck.model.dlpush.DlPushLayout.M_MOVES_HEAD;
import static kcheck.model.dlpush.DlPushLayout.M_MOVES_QUEUED;
import static kcheck.model.dlpush.DlPushLayout.M_NEXT_IS_CURR;
import static kcheck.model.dlpush.DlPushLayout.M_PUSHABLE_CPU;
import static kcheck.model.dlpush.DlPushLayout.M_PUSHABLE_CURRENT;
import static kcheck.model.dlpush.DlPushLayout.M_PUSHABLE_NR_CPUS;
import static kcheck.model.dlpush.DlPushLayout.M_PUSHABLE_QUEUED;
import static kcheck.model.dlpush.DlPushLayout.M_SET_TASK_CPU_MD;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import kcheck.model.Invariant;
import kcheck.model.Property;

/**
 * The properties of dl-push: the kernel's own checks on the push path, each a sticky monitor bit
 * the step that fails it sets ({@link DlRq}, {@link DlPushSteps}), and two sanity invariants of the
 * runqueue state.
 */
final class DlPushProperties {
    static final String SET_TASK_CPU_MD = "warn-set-task-cpu-migration-disabled";
    static final String PUSHABLE_CPU = "warn-pushable-task-cpu";
    static final String PUSHABLE_CURRENT = "warn-pushable-current";
    static final String PUSHABLE_NR_CPUS = "warn-pushable-nr-cpus";
    static final String PUSHABLE_QUEUED = "warn-pushable-queued";
    static final String NEXT_IS_CURR = "warn-push-next-is-curr";
    static final String MOVES_QUEUED = "push-moves-queued-task";
    static final String MOVES_HEAD = "push-moves-pushable-head";
    static final String ONE_RQ = "task-on-one-rq";
    static final String PUSHABLE_AGREES = "pushable-agrees";

    static final String D_SET_TASK_CPU_MD = "kernel/sched/core.c:3302 (set_task_cpu), v6.12: WARN_ON_ONCE(is_migration_disabled(p)) "
            + "never fires: push_dl_task never moves a task that has migration disabled";
    static final String D_PUSHABLE_CPU = "kernel/sched/deadline.c:2829 (pick_next_pushable_dl_task), v6.12: "
            + "WARN_ON_ONCE(rq->cpu != task_cpu(p)) never fires: rq's pushable tree holds only tasks of rq";
    static final String D_PUSHABLE_CURRENT = "kernel/sched/deadline.c:2830 (pick_next_pushable_dl_task), v6.12: "
            + "WARN_ON_ONCE(task_current(rq, p)) never fires: the leftmost pushable task is not running";
    static final String D_PUSHABLE_NR_CPUS = "kernel/sched/deadline.c:2831 (pick_next_pushable_dl_task), v6.12: "
            + "WARN_ON_ONCE(p->nr_cpus_allowed <= 1) never fires: the leftmost pushable task may run elsewhere";
    static final String D_PUSHABLE_QUEUED = "kernel/sched/deadline.c:2833 (pick_next_pushable_dl_task), v6.12: "
            + "WARN_ON_ONCE(!task_on_rq_queued(p)) never fires: the leftmost pushable task is queued";
    static final String D_NEXT_IS_CURR = "kernel/sched/deadline.c:2950 (push_dl_task), v6.12: WARN_ON(next_task == rq->curr) "
            + "never fires";
    static final String D_MOVES_QUEUED = "kernel/sched/deadline.c:2984-2986 (push_dl_task), v6.12: the task deactivate_task(rq, "
            + "next_task) / set_task_cpu / activate_task(later_rq) move is queued on rq and not running (else the runqueues are "
            + "corrupted: the crash)";
    static final String D_MOVES_HEAD = "kernel/sched/deadline.c:2984 (push_dl_task), v6.12 with 8fd5485fb4f3: the task push_dl_task "
            + "moves after find_lock_later_rq is still the leftmost of rq's pushable tree, pick_next_pushable_dl_task(rq) (what "
            + "8fd5485fb4f3's re-check establishes; before it a task that left and came back in the window is moved)";
    static final String D_ONE_RQ = "sanity: a task rq->curr names has task_cpu == rq's CPU and is queued (so it runs on one "
            + "CPU and belongs to one runqueue)";
    static final String D_PUSHABLE_AGREES = "sanity: a task is in a pushable tree iff it is queued, not running and "
            + "p->nr_cpus_allowed > 1, and then it is in the tree of its own runqueue (enqueue_task_dl :2359, set_next_task_dl "
            + ":2584, put_prev_task_dl :2655)";

    private DlPushProperties() {
    }

    static List<Property> build(DlPushLayout l, Set<String> selected) {
        List<Property> all = List.of(
                new Monitor(l, SET_TASK_CPU_MD, D_SET_TASK_CPU_MD, M_SET_TASK_CPU_MD),
                new Monitor(l, PUSHABLE_CPU, D_PUSHABLE_CPU, M_PUSHABLE_CPU),
                new Monitor(l, PUSHABLE_CURRENT, D_PUSHABLE_CURRENT, M_PUSHABLE_CURRENT),
                new Monitor(l, PUSHABLE_NR_CPUS, D_PUSHABLE_NR_CPUS, M_PUSHABLE_NR_CPUS),
                new Monitor(l, PUSHABLE_QUEUED, D_PUSHABLE_QUEUED, M_PUSHABLE_QUEUED),
                new Monitor(l, NEXT_IS_CURR, D_NEXT_IS_CURR, M_NEXT_IS_CURR),
                new Monitor(l, MOVES_QUEUED, D_MOVES_QUEUED, M_MOVES_QUEUED),
                new Monitor(l, MOVES_HEAD, D_MOVES_HEAD, M_MOVES_HEAD),
                new OneRq(l),
                new PushableAgrees(l));
        List<Property> out = new ArrayList<>();
        for (Property p : all) {
            if (selected.contains(p.id())) {
                out.add(p);
            }
        }
        return out;
    }

    /** A kernel check: holds while its monitor bit is clear. */
    static final class Monitor extends Invariant {
        private final DlPushLayout l;
        private final int bit;

        Monitor(DlPushLayout l, String id, String description, int bit) {
            super(id, description);
            this.l = l;
            this.bit = bit;
        }

        @Override
        public boolean holds(long[] s) {
            return !l.monitor(s, bit);
        }
    }

    static final class OneRq extends Invariant {
        private final DlPushLayout l;

        OneRq(DlPushLayout l) {
            super(ONE_RQ, D_ONE_RQ);
            this.l = l;
        }

        @Override
        public boolean holds(long[] s) {
            for (int c = 0; c < l.cpus; c++) {
                int p = l.curr(s, c);
                if (p >= 0 && (l.cpu[p].getInt(s) != c || l.onRq[p].get(s) == 0)) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public String explain(long[] s) {
            for (int c = 0; c < l.cpus; c++) {
                int p = l.curr(s, c);
                if (p >= 0 && (l.cpu[p].getInt(s) != c || l.onRq[p].get(s) == 0)) {
                    return "CPU " + c + " runs task " + p + ", whose task_cpu is " + l.cpu[p].getInt(s)
                            + (l.onRq[p].get(s) == 0 ? " and which is not queued" : "");
                }
            }
            return description();
        }
    }

    static final class PushableAgrees extends Invariant {
        private final DlPushLayout l;

        PushableAgrees(DlPushLayout l) {
            super(PUSHABLE_AGREES, D_PUSHABLE_AGREES);
            this.l = l;
        }

        @Override
        public boolean holds(long[] s) {
            return wrong(s) < 0;
        }

        private int wrong(long[] s) {
            for (int p = 0; p < l.tasks; p++) {
                int c = l.cpu[p].getInt(s);
                int in = l.pushRq[p].getInt(s);
                boolean should = l.onRq[p].get(s) != 0 && l.curr(s, c) != p && Long.bitCount(l.mask[p].get(s)) > 1;
                if ((in != 0) != should || (in != 0 && in != c + 1)) {
                    return p;
                }
            }
            return -1;
        }

        @Override
        public String explain(long[] s) {
            int p = wrong(s);
            return p < 0 ? description() : "task " + p + " is " + (l.pushRq[p].get(s) == 0 ? "in no pushable tree"
                    : "in rq " + (l.pushRq[p].getInt(s) - 1) + "'s pushable tree") + " (task_cpu " + l.cpu[p].getInt(s)
                    + ", on_rq " + l.onRq[p].get(s) + ", nr_cpus_allowed " + Long.bitCount(l.mask[p].get(s)) + ")";
        }
    }
}
