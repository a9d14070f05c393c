package kcheck.model.lbredo;

import static kcheck.model.lbredo.LbRedoLayout.DONE;
import static kcheck.model.lbredo.LoadBalance.AFTER_DETACH;
import static kcheck.model.lbredo.LoadBalance.ENTRY;
import static kcheck.model.lbredo.LoadBalance.MORE_BALANCE;
import static kcheck.model.lbredo.LoadBalance.NR_RUNNING;
import static kcheck.model.lbredo.LoadBalance.OUT_ALL_PINNED;
import static kcheck.model.lbredo.LoadBalance.OUT_BALANCED;
import static kcheck.model.lbredo.LoadBalance.REDO;

import java.lang.reflect.Method;
import java.util.StringJoiner;

import kcheck.model.FieldSink;
import kcheck.model.Kernel;
import kcheck.model.StepInfo;

/**
 * Decoding of lb-redo states and steps for traces: step labels in kernel terms, the kernel
 * function each step runs in (from the variant's {@link Kernel} citations), and the named
 * fields of a state.
 */
final class LbRedoDecoder {
    private static final String[] PC_NAMES = {"entry", "redo", "nr_running check", "more_balance",
        "after detach", "done"};

    private final LbRedoLayout l;
    private final String[] cites;

    LbRedoDecoder(LbRedoLayout l, LoadBalance impl) {
        this.l = l;
        String lb = cite(impl, "loadBalance");
        cites = new String[] {
            cite(impl, "findBusiestGroup") + " \u2190 " + lb,
            cite(impl, "findBusiestGroup") + " \u2190 " + lb,
            lb,
            cite(impl, "detachTasks") + " \u2190 " + lb,
            lb,
        };
    }

    /** The citation of the method {@code name} of {@code impl}'s class or its superclasses. */
    static String cite(LoadBalance impl, String name) {
        for (Class<?> c = impl.getClass(); c != null; c = c.getSuperclass()) {
            for (Method m : c.getDeclaredMethods()) {
                Kernel k = m.getAnnotation(Kernel.class);
                if (m.getName().equals(name) && k != null) {
                    return Kernel.Cite.of(k);
                }
            }
        }
        return name;
    }

    StepInfo describe(int actor, int action) {
        if (actor == 1) {
            int c = action / 8;
            int idx = action % 8;
            return new StepInfo("pull " + l.taskNames[l.d.taskBase[c] + idx] + " off CPU " + c,
                    "another CPU's load_balance: detach_tasks under rq_lock(CPU " + c + ") (kernel/sched/fair.c)");
        }
        int at = action >> 12;
        int ret = (action >> 8) & 15;
        int sub = action & 255;
        String label = switch (at) {
            case ENTRY, REDO -> (at == ENTRY ? "load_balance: " : "redo: ")
                    + (ret == NR_RUNNING && sub > 0 ? "find_busiest_queue = CPU " + (sub - 1)
                    : ret == OUT_BALANCED && sub == 0 ? "no busiest, goto out_balanced" : "goto " + LoadBalance.LABELS[ret]);
            case NR_RUNNING -> "busiest->nr_running = " + sub + " (unlocked)" + (ret == MORE_BALANCE ? "" : ", no move");
            case MORE_BALANCE -> "rq_lock(CPU " + (sub - 1) + "); detach_tasks; rq_unlock";
            case AFTER_DETACH -> ret == REDO ? "goto redo" : ret == OUT_ALL_PINNED ? "goto out_all_pinned"
                    : ret == MORE_BALANCE ? "goto more_balance" : "return ld_moved";
            default -> "?";
        };
        return new StepInfo(label, at < cites.length ? cites[at] : "");
    }

    void decode(long[] s, FieldSink out) {
        int at = l.pc.getInt(s);
        out.field(0, "lb.at", PC_NAMES[at]);
        if (at != DONE && at != ENTRY) {
            int b = l.busiest.getInt(s) - 1;
            if (at != REDO && b >= 0) {
                out.field(0, "env.src_cpu", "CPU " + b);
            }
            out.field(0, "env.flags", (l.allPinned.get(s) != 0 ? "ALL_PINNED" : "")
                    + (l.needBreak.get(s) != 0 ? (l.allPinned.get(s) != 0 ? "|" : "") + "NEED_BREAK" : "")
                    + (l.allPinned.get(s) == 0 && l.needBreak.get(s) == 0 ? "0" : ""));
            out.field(0, "env.cpus", cpuList(l.cpus.get(s)));
            out.field(0, "env.loop", l.loop.get(s) + " (loop_max " + l.loopMax.get(s) + ")");
            if (l.redoMax.get(s) != 0) {
                out.field(0, "env.redo_cnt", l.redoCnt.get(s) + " (redo_max " + l.redoMax.get(s) + ")");
            }
        }
        /* monitors (0 before the call starts: not shown there, so a trace's first state does not depend on them) */
        if (l.mon.redos() && at != ENTRY) {
            out.field(0, "redos", Long.toString(l.redos.get(s)));
        }
        if (l.mon.passes() && at != ENTRY) {
            out.field(0, "stat passes", Long.toString(l.passes.get(s)));
        }
        if (l.mon.work() && at != ENTRY) {
            out.field(0, "stat work", l.work.get(s) + " CPU visits");
        }
        if (l.mon.spurious() && at != ENTRY) {
            out.field(0, "spurious redos", Long.toString(l.spurious.get(s)));
        }
        if (l.mon.pass() && at != DONE && at != ENTRY && at != REDO) {
            out.field(0, "pass", l.examined.get(s) == 0 ? "no task of busiest examined"
                    : l.allAffine.get(s) != 0 ? "all examined pinned away from CPU " + l.dst : "a movable task examined");
        }
        if (at == DONE) {
            return;
        }
        for (int c : l.d.remote) {
            long[] masks = l.masks(s, c);
            int len = l.len[c].getInt(s);
            StringBuilder b = new StringBuilder("[");
            for (int j = 0; j < len; j++) {
                int idx = l.entry[c][j].getInt(s);
                b.append(j == 0 ? "" : " ").append(l.taskNames[l.d.taskBase[c] + idx]);
                if (idx == 0) {
                    b.append('*');
                }
                if ((masks[idx] & (1L << l.dst)) == 0) {
                    b.append('!');
                }
            }
            out.field(FieldSink.SHARED, "rq" + c, b.append("] nr_running=").append(len).toString());
        }
        if (l.d.pulls > 0) {
            out.field(FieldSink.SHARED, "pulls left", Long.toString(l.pullsLeft.get(s)));
        }
    }

    /** "{0-3,6}". */
    static String cpuList(long mask) {
        StringJoiner j = new StringJoiner(",", "{", "}");
        int c = 0;
        while (c < 64) {
            if ((mask & (1L << c)) == 0) {
                c++;
                continue;
            }
            int e = c;
            while (e + 1 < 64 && (mask & (1L << (e + 1))) != 0) {
                e++;
            }
            j.add(e == c ? Integer.toString(c) : e == c + 1 ? c + "," + e : c + "-" + e);
            c = e + 1;
        }
        return j.toString();
    }
}
