package kcheck.model.dlpush;

import static kcheck.model.dlpush.DlPushSteps.ENV;
import static kcheck.model.dlpush.DlPushSteps.E_AFFINITY;
import static kcheck.model.dlpush.DlPushSteps.E_BLOCK;
import static kcheck.model.dlpush.DlPushSteps.E_MIGRATE_DISABLE;
import static kcheck.model.dlpush.DlPushSteps.E_MIGRATE_ENABLE;
import static kcheck.model.dlpush.DlPushSteps.E_PREEMPT;
import static kcheck.model.dlpush.DlPushSteps.E_PULL;
import static kcheck.model.dlpush.DlPushSteps.E_SCHEDULE;
import static kcheck.model.dlpush.DlPushSteps.E_WAKE;

import java.util.List;

import kcheck.model.FieldSink;
import kcheck.model.Kernel;
import kcheck.model.StepInfo;

/** Decoding of dl-push states and steps for traces: labels in kernel terms and named fields. */
final class DlPushDecoder {
    private static final String[] PC = {"pick", "retry", "find_lock_later_rq", "double_lock_balance (rq lock dropped)",
        "re-check", "dl_task_is_earliest_deadline", "!later_rq", "move", "done"};
    private static final String DL = "kernel/sched/deadline.c";
    private static final String CORE = "kernel/sched/core.c";

    private final DlPushLayout l;
    private final String recheckCite;

    DlPushDecoder(DlPushLayout l, FindLockLaterRq impl) {
        this.l = l;
        String cite = "find_lock_later_rq (" + DL + ")";
        try {
            Kernel k = impl.getClass().getMethod("taskUnfit", DlKernel.class, int.class, int.class, int.class).getAnnotation(Kernel.class);
            if (k != null) {
                cite = Kernel.Cite.of(k);
            }
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
        this.recheckCite = cite;
    }

    static List<String> legend() {
        return List.of("rq A: the runqueue push_dl_task pushes from (the highest CPU id); tN: deadline task N (t0 is the one "
                        + "first pushable on rq A); curr=- : a task of another class runs",
                "tN.dl: deadline rank among the tasks (0 = earliest); tN.pushable: the runqueue whose pushable tree holds it");
    }

    private String task(int p) {
        return "t" + p;
    }

    StepInfo describe(int actor, int action) {
        if (actor == ENV) {
            int kind = action >>> 12;
            int p = action >>> 8 & 15;
            int arg = action & 255;
            String t = task(p);
            return switch (kind) {
                case E_SCHEDULE -> new StepInfo("schedule(): " + t + " runs (set_next_task_dl)", "__schedule (" + CORE + "), set_next_task_dl (" + DL + ":2574), v6.12");
                case E_PREEMPT -> new StepInfo("schedule(): " + t + " preempted (put_prev_task_dl)", "__schedule (" + CORE + "), put_prev_task_dl (" + DL + ":2644), v6.12");
                case E_MIGRATE_DISABLE -> new StepInfo(t + ": migrate_disable()", "migrate_disable (" + CORE + ":2334, v6.12)");
                case E_MIGRATE_ENABLE -> new StepInfo(t + ": migrate_enable()", "migrate_enable (" + CORE + ":2355, v6.12)");
                case E_BLOCK -> new StepInfo(t + " blocks (dequeue, schedule())", "__schedule / dequeue_task_dl (" + DL + ":2363, v6.12)");
                case E_WAKE -> new StepInfo("try_to_wake_up(" + t + ") onto CPU " + (arg >>> 4) + ", deadline rank " + (arg & 15),
                        "try_to_wake_up (" + CORE + "), select_task_rq_dl (" + DL + ":2420), enqueue_task_dl (" + DL + ":2301), v6.12");
                case E_PULL -> new StepInfo("CPU " + arg + " pulls " + t + " (pull_dl_task)", "pull_dl_task (" + DL + ":3006, v6.12)");
                case E_AFFINITY -> new StepInfo("set_cpus_allowed_ptr(" + t + ", " + mask(arg) + ")",
                        "__set_cpus_allowed_ptr (" + CORE + "), set_cpus_allowed_dl (" + DL + ":3114), v6.12");
                default -> new StepInfo("env " + action, "");
            };
        }
        int pc = action >>> 8;
        int choice = action & 255;
        String push = "push_dl_task (" + DL + ":2924, v6.12)";
        String find = "find_lock_later_rq (" + DL + ":2840, v6.12)";
        return switch (pc) {
            case DlPushLayout.PICK -> new StepInfo("next_task = pick_next_pushable_dl_task(rq A)", "pick_next_pushable_dl_task (" + DL + ":2820) \u2190 " + push);
            case DlPushLayout.RETRY -> new StepInfo("retry: rq->curr / migration-disabled / WARN_ON(next_task == rq->curr) tests", push);
            case DlPushLayout.FIND -> choice == 0 ? new StepInfo("find_later_rq: no later rq (later_rq = NULL)", "find_later_rq (" + DL + ":2733) \u2190 " + find)
                    : new StepInfo("later_rq = CPU " + ((choice >>> 1) - 1) + "; double_lock_balance = " + (choice & 1)
                            + ((choice & 1) != 0 ? " (rq A's lock dropped)" : " (trylock succeeded)"),
                            "double_lock_balance (kernel/sched/sched.h:3044) \u2190 " + find);
            case DlPushLayout.WINDOW -> new StepInfo("double_rq_lock(rq A, later_rq): both locks held", "double_lock_balance (kernel/sched/sched.h:3044) \u2190 " + find);
            case DlPushLayout.RECHECK -> new StepInfo("re-check next_task after the lock drop", recheckCite);
            case DlPushLayout.EARLIEST -> new StepInfo("dl_task_is_earliest_deadline(task, later_rq) = " + (choice == 0 ? 1 : 0), find);
            case DlPushLayout.NOT_FOUND -> new StepInfo("!later_rq: task = pick_next_pushable_dl_task(rq A)", "pick_next_pushable_dl_task (" + DL + ":2820) \u2190 " + push);
            case DlPushLayout.MOVE -> new StepInfo("deactivate_task(rq A, next_task); set_task_cpu(next_task, later_rq); activate_task(later_rq)",
                    "set_task_cpu (" + CORE + ":3263) \u2190 " + push);
            default -> new StepInfo("pusher " + action, push);
        };
    }

    private String mask(long m) {
        StringBuilder b = new StringBuilder("{");
        for (int c = 0; c < l.cpus; c++) {
            if ((m >>> c & 1) != 0) {
                b.append(b.length() > 1 ? "," : "").append(c);
            }
        }
        return b.append('}').toString();
    }

    /**
     * The runqueue locks: the pusher holds rq A's (and later_rq's from the double lock to the move);
     * in the window it waits for both. The other CPUs' operations take theirs within one step.
     */
    void locks(long[] s, kcheck.model.LockSink out) {
        boolean window = l.pc.getInt(s) == DlPushLayout.WINDOW;
        for (int c = 0; c < l.cpus; c++) {
            boolean held = l.pusherHolds(s, c);
            boolean waits = window && (c == l.rqA || c == l.later.getInt(s));
            out.lock("rq" + c, held ? new int[] {DlPushSteps.PUSHER} : new int[0],
                    waits ? new int[] {DlPushSteps.PUSHER} : new int[0], false);
        }
    }

    void decode(long[] s, FieldSink out) {
        out.field(DlPushSteps.PUSHER, "pc", PC[l.pc.getInt(s)]);
        out.field(DlPushSteps.PUSHER, "next_task", task(l.next.getInt(s)));
        out.field(DlPushSteps.PUSHER, "later_rq", Integer.toString(l.later.getInt(s)));
        out.field(DlPushSteps.PUSHER, "tries", Integer.toString(l.tries.getInt(s)));
        out.field(ENV, "events_left", Integer.toString(l.left.getInt(s)));
        for (int c = 0; c < l.cpus; c++) {
            int p = l.curr(s, c);
            out.field(FieldSink.SHARED, "rq" + c + (c == l.rqA ? " (A)" : "") + ".curr", p < 0 ? "-" : task(p));
        }
        for (int p = 0; p < l.tasks; p++) {
            String t = task(p);
            out.field(FieldSink.SHARED, t + ".cpu", Integer.toString(l.cpu[p].getInt(s)));
            out.field(FieldSink.SHARED, t + ".on_rq", Long.toString(l.onRq[p].get(s)));
            int in = l.pushRq[p].getInt(s);
            out.field(FieldSink.SHARED, t + ".pushable", in == 0 ? "-" : "rq" + (in - 1));
            out.field(FieldSink.SHARED, t + ".migration_disabled", Long.toString(l.md[p].get(s)));
            out.field(FieldSink.SHARED, t + ".cpus_mask", mask(l.mask[p].get(s)));
            out.field(FieldSink.SHARED, t + ".dl", Long.toString(l.dl[p].get(s)));
        }
    }
}
