package kcheck.model.rwsem;

import static kcheck.model.rwsem.TaskProgram.ENQUEUED;

import java.util.ArrayList;
import java.util.List;

import kcheck.model.FieldSink;
import kcheck.model.StepInfo;

/**
 * What the rwsem-owner model's steps and states say to a person: actor names, step labels with
 * their kernel citations, and the named fields of a state. Stateless: shared by all forks.
 */
final class RwsemDecoder {
    /** The notation of rwsem-owner traces, one line each (printed as the legend of every timeline). */
    static final List<String> LEGEND = List.of(
            "readerN.at / writerN.at: the task's next atomic step, 'function: operation (kernel file:line, version)';"
                    + " [holds] = the task holds the rwsem (from the count step that took it, or a waker's grant)",
            "xadd count (v4.x): a + k*WB, a active lockers, k waiting biases, WB = RWSEM_WAITING_BIAS (-2^32),"
                    + " e.g. WB+1 = one writer holds, 2WB+2 = a writer holds and another attempts",
            "v5.3+ count: NR (N readers' RWSEM_READER_BIAS) | WRITER_LOCKED | WAITERS | HANDOFF bits",
            "owner: NULL, READER_OWNED (v4.8 marker) or writer N (v4.x); v5.3+: a task pointer with its flag bits,"
                    + " e.g. 'reader 1|READER_OWNED' (a hint: that reader may have left)",
            "waiter: queued #N = place N in sem->wait_list; granted (task = NULL) = a waker gave the read lock;"
                    + " moved = taken off the list by a waker, not yet granted; wake_q_add()ed, task set = the waker queued it"
                    + " for a wake-up before its grant; granted, not yet wake_q_add()ed = the waker's next step queues it",
            "wake_q: the wake queue the task is on (task->wake_q.next; wakeups=wake-q): writer N's / reader N's (its"
                    + " wake_up_q() wakes it), another subsystem's (wakeups=spurious); a task on a queue is not added to another",
            "on_cpu = 0: preempted; need_resched = 1: the scheduler asked the task to reschedule; woken = 1:"
                    + " a wake-up is pending for this task's schedule() (wakeups=wake-q: cleared by set_current_state)",
            "timed_out = 1: the waiter's RWSEM_WAIT_TIMEOUT has passed; handoff_set = 1: waiter.handoff_set;"
                    + " the model has no clock: a read of jiffies or sched_clock() may find its deadline passed or not,"
                    + " and a deadline once found passed stays passed");

    private final RwsemLayout l;
    private final List<String> actors;

    RwsemDecoder(RwsemLayout l) {
        this.l = l;
        List<String> a = new ArrayList<>();
        for (int r = 0; r < l.nr; r++) {
            a.add("reader " + r);
        }
        for (int w = 0; w < l.nw; w++) {
            a.add("writer " + w + (l.rt[w] ? " (RT)" : ""));
        }
        this.actors = List.copyOf(a);
    }

    List<String> actors() {
        return actors;
    }

    String actor(int t) {
        return actors.get(t);
    }

    StepInfo describe(int actor, int action) {
        if (action >= l.envBase) {
            return switch (action - l.envBase) {
                case RwsemSteps.PREEMPT -> new StepInfo("preempted (on_cpu = 0)", "scheduler (kernel/sched/core.c)");
                case RwsemSteps.RUN_AGAIN -> new StepInfo("runs again (on_cpu = 1)", "scheduler (kernel/sched/core.c)");
                case RwsemSteps.SET_NEED_RESCHED -> new StepInfo("need_resched set",
                        "scheduler: set_tsk_need_resched (kernel/sched/core.c)");
                case RwsemSteps.SIGNAL -> new StepInfo("a fatal signal arrives (signal_pending; wakes its schedule())",
                        "signals: signal_wake_up (kernel/signal.c)");
                case RwsemSteps.SPURIOUS -> new StepInfo("spurious wake-up: schedule() returns with nothing granted",
                        "scheduler: any wake_up_process() of this task (kernel/sched/core.c)");
                case RwsemSteps.FOREIGN_ADD -> new StepInfo("another subsystem's waker puts the task on its wake_q (wake_q_add)",
                        "e.g. futex_wake / a mutex's waker (kernel/sched/core.c wake_q_add)");
                case RwsemSteps.FOREIGN_WAKE -> new StepInfo("that waker's wake_up_q() wakes the task (wake_q.next = NULL)",
                        "kernel/sched/core.c wake_up_q");
                case RwsemSteps.TIMEOUT -> new StepInfo("RWSEM_WAIT_TIMEOUT passes (time_after(jiffies, waiter.timeout))",
                        "time (jiffies)");
                default -> new StepInfo("environment step " + (action - l.envBase), "");
            };
        }
        TaskProgram tp = l.prog[actor];
        int p = action / l.slots;
        int o = action % l.slots;
        String out = tp.outcomeText(p, o, l.dom);
        return new StepInfo(tp.describe(p, l.dom) + (out.isEmpty() ? "" : " " + out), tp.cite[p]);
    }

    private String name(int t) {
        return l.isWriter(t) ? "writer" + (t - l.nr) : "reader" + t;
    }

    /** Who holds the rwsem in {@code s}, for violation messages. */
    String holders(long[] s) {
        StringBuilder b = new StringBuilder();
        for (int t = 0; t < l.n; t++) {
            if (l.heldBy(s, t)) {
                b.append(b.length() == 0 ? "" : ", ").append(actors.get(t));
            }
        }
        return b.length() == 0 ? "nobody" : b.toString();
    }

    void decode(long[] s, FieldSink out) {
        for (int t = 0; t < l.n; t++) {
            TaskProgram tp = l.prog[t];
            int p = l.pc[t].getInt(s);
            String at = tp.op[p] == Op.END ? "done" : tp.describe(p, l.dom) + " (" + tp.where[p] + ")";
            out.field(t, name(t) + ".at", (l.heldBy(s, t) ? "[holds] " : "") + at);
            int q = l.qpos[t].getInt(s);
            if (q == l.moved && l.qpos[t].max() >= l.moved) {
                out.field(t, name(t) + ".waiter", "moved (to be granted)");
            } else if (q == l.added && l.qpos[t].max() >= l.added) {
                out.field(t, name(t) + ".waiter", "wake_q_add()ed, task set (to be granted)");
            } else if (q == l.granting && l.qpos[t].max() >= l.granting) {
                out.field(t, name(t) + ".waiter", "granted (task = NULL), not yet wake_q_add()ed");
            } else if (q > 0) {
                out.field(t, name(t) + ".waiter", "queued #" + q);
            } else if (!l.isWriter(t) && tp.has(p, ENQUEUED)) {
                out.field(t, name(t) + ".waiter", "granted (task = NULL)");
            }
            if (l.preempted[t].getInt(s) == 1) {
                out.field(t, name(t) + ".on_cpu", "0");
            }
            if (l.resched[t].getInt(s) == 1) {
                out.field(t, name(t) + ".need_resched", "1");
            }
            if (l.woken[t].getInt(s) == 1) {
                out.field(t, name(t) + ".woken", "1");
            }
            int wq = l.wq[t].getInt(s);
            if (wq > 0) {
                out.field(t, name(t) + ".wake_q", wq == l.foreignQueue ? "another subsystem's" : actors.get(wq - 1) + "'s");
            }
            if (l.timedOut[t].getInt(s) == 1) {
                out.field(t, name(t) + ".timed_out", "1");
            }
            if (l.handoffSet[t].getInt(s) == 1) {
                out.field(t, name(t) + ".handoff_set", "1");
            }
            if (l.signaled[t].getInt(s) == 1) {
                out.field(t, name(t) + ".signal", "pending");
            }
            if (l.rdNonspinnable[t].getInt(s) == 1) {
                out.field(t, name(t) + ".last_rowner", "RD_NONSPINNABLE");
            }
        }
        out.field(FieldSink.SHARED, "count", l.dom.showCount(l.count(s)));
        out.field(FieldSink.SHARED, "owner", l.dom.showOwner(l.ownerValue(s)));
        int wl = l.waitLockHolder(s);
        out.field(FieldSink.SHARED, "wait_lock", wl < 0 ? "free" : actors.get(wl));
        int osq = l.osqHolder(s);
        out.field(FieldSink.SHARED, "osq", osq < 0 ? "free" : actors.get(osq));
        if (l.k2Monitor || l.wastedMonitor) {
            out.field(FieldSink.SHARED, "spins-on-readers", Long.toString(l.k2.get(s)));
        }
        if (l.wastedMonitor) {
            out.field(FieldSink.SHARED, "spins-on-readers-strict", Long.toString(l.wastedAll.get(s)));
        }
        if (l.missedMonitor) {
            out.field(FieldSink.SHARED, "missed", l.missedNull.get(s) + "/" + l.missedRo.get(s));
        }
        if (l.handoffMonitor && l.handoffFor.get(s) > 0) {
            out.field(FieldSink.SHARED, "handoff-for", actors.get((int) l.handoffFor.get(s) - 1));
        }
    }
}
