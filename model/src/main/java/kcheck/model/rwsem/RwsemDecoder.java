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
                default -> new StepInfo("need_resched set", "scheduler: set_tsk_need_resched (kernel/sched/core.c)");
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
            String at = tp.op[p] == Op.END ? "done" : tp.describe(p, l.dom) + " (" + tp.site[p] + ")";
            out.field(t, name(t) + ".at", (l.heldBy(s, t) ? "[holds] " : "") + at);
            int q = l.qpos[t].getInt(s);
            if (q > 0) {
                out.field(t, name(t) + ".waiter", "queued #" + q);
            } else if (!l.isWriter(t) && tp.has(p, ENQUEUED)) {
                out.field(t, name(t) + ".waiter", "granted (task = NULL)");
            }
            if (l.isWriter(t)) {
                int w = t - l.nr;
                if (l.preempted[w].getInt(s) == 1) {
                    out.field(t, name(t) + ".on_cpu", "0");
                }
                if (l.resched[w].getInt(s) == 1) {
                    out.field(t, name(t) + ".need_resched", "1");
                }
                if (l.woken[w].getInt(s) == 1) {
                    out.field(t, name(t) + ".woken", "1");
                }
            }
        }
        out.field(FieldSink.SHARED, "count", RwsemCount.show(l.count(s)));
        out.field(FieldSink.SHARED, "owner", RwsemCount.showOwner(l.owner.get(s)));
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
    }
}
