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
    /** The v6.10+ names: sched_balance_rq, sched_balance_find_src_rq. */
    private final boolean v610;

    LbRedoDecoder(LbRedoLayout l, LoadBalance impl) {
        this.l = l;
        this.v610 = annotated(impl, "schedBalanceRq") != null;
        String lb = cite(impl, "schedBalanceRq", "loadBalance");
        String fbg = cite(impl, "schedBalanceFindSrcGroup", "findBusiestGroup");
        cites = new String[] {
            fbg + " \u2190 " + lb,
            fbg + " \u2190 " + lb,
            lb,
            cite(impl, "detachTasks") + " \u2190 " + lb,
            lb,
        };
    }

    /** The citation of the first of {@code names} that a method of {@code impl}'s class or its superclasses carries. */
    static String cite(LoadBalance impl, String... names) {
        for (String name : names) {
            Kernel k = annotated(impl, name);
            if (k != null) {
                return Kernel.Cite.of(k);
            }
        }
        return names[0];
    }

    private static Kernel annotated(LoadBalance impl, String name) {
        for (Class<?> c = impl.getClass(); c != null; c = c.getSuperclass()) {
            for (Method m : c.getDeclaredMethods()) {
                Kernel k = m.getAnnotation(Kernel.class);
                if (m.getName().equals(name) && k != null) {
                    return k;
                }
            }
        }
        return null;
    }

    StepInfo describe(int actor, int action) {
        if (actor == 1) {
            int c = action / 8;
            int idx = action % 8;
            return new StepInfo("pull " + l.taskNames[l.d.taskBase[c] + idx] + " off CPU " + c,
                    "another CPU's load_balance: detach_tasks under rq_lock(CPU " + c + ") (kernel/sched/fair.c)");
        }
        int at = (action >> 12) & 15;
        int ret = (action >> 8) & 15;
        int sub = action & 255;
        String label = switch (at) {
            case ENTRY, REDO -> (at == ENTRY ? (v610 ? "sched_balance_rq: " : "load_balance: ") : "redo: ")
                    + (ret == NR_RUNNING && sub > 0 ? (v610 ? "sched_balance_find_src_rq = CPU " : "find_busiest_queue = CPU ")
                    + (sub - 1)
                    : ret == OUT_BALANCED && sub == 0 ? "no busiest, goto out_balanced" : "goto " + LoadBalance.LABELS[ret]);
            case NR_RUNNING -> "busiest->nr_running = " + sub + " (unlocked)" + (ret == MORE_BALANCE ? "" : ", no move");
            case MORE_BALANCE -> "rq_lock(CPU " + (sub - 1) + "); detach_tasks; rq_unlock";
            case AFTER_DETACH -> ret == REDO ? "goto redo" : ret == OUT_ALL_PINNED ? "goto out_all_pinned"
                    : ret == MORE_BALANCE ? "goto more_balance" : "return ld_moved";
            default -> "?";
        };
        if ((action & LbRedoSteps.WALK_UP) != 0) {
            label += "; next domain" + (l.levels == 2 ? ": " + l.d.levels[1].name() : " (sd->parent)");
        }
        LbCheck tripped = LbCheck.ofCode(LbRedoSteps.check(action));
        if (tripped != null) {
            label = switch (at) {
                case ENTRY, REDO -> tripped == LbCheck.BUSY_DEFERS
                        ? (at == ENTRY ? (v610 ? "sched_balance_rq" : "load_balance") : "redo") + ": should_we_balance() = 1 on a busy CPU"
                        : at == ENTRY ? "load_balance: find busiest" : "redo: find busiest";
                case NR_RUNNING -> "busiest->nr_running (unlocked)";
                case MORE_BALANCE -> "rq_lock(CPU " + (sub - 1) + "); detach_tasks; rq_unlock; attach_tasks";
                case AFTER_DETACH -> "after detach_tasks";
                default -> "?";
            } + ": trips " + tripped.id;
        }
        return new StepInfo(label, at < cites.length ? cites[at] : "");
    }

    void decode(long[] s, FieldSink out) {
        int at = l.pc.getInt(s);
        out.field(0, "lb.at", PC_NAMES[at]);
        if (l.levels > 1 && at != DONE) {
            out.field(0, "sd", l.d.levels[l.level.getInt(s)].name() + " " + cpuList(l.d.levels[l.level.getInt(s)].span())
                    + ", idle=" + IDLE_NAMES[l.callIdle(s)]);
            if (l.level.getInt(s) == 0) {
                out.field(0, "sd_parent imbalance", Long.toString(l.groupImbalance.get(s)));
            }
        }
        if (at != DONE && at != ENTRY) {
            int b = l.busiest.getInt(s) - 1;
            if (at != REDO && b >= 0) {
                out.field(0, "env.src_cpu", "CPU " + b);
            }
            if (!l.d.plain || l.dstCpu(s) != l.dst) {
                out.field(0, "env.dst_cpu", "CPU " + l.dstCpu(s));
            }
            if (l.envIdle.getInt(s) != l.callIdle(s)) {
                out.field(0, "env.idle", IDLE_NAMES[l.envIdle.getInt(s)]);
            }
            out.field(0, "env.flags", flags(s));
            if (l.dstPinned.get(s) != 0) {
                out.field(0, "env.new_dst_cpu", "CPU " + l.newDstCpu(s));
            }
            out.field(0, "env.cpus", cpuList(l.cpus.get(s)));
            out.field(0, "env.loop", l.loop.get(s) + " (loop_max " + counter(l.loopMax.get(s))
                    + (l.loopBreak.get(s) != LbEnv.SCHED_NR_MIGRATE_BREAK ? ", loop_break " + counter(l.loopBreak.get(s)) : "")
                    + ")");
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
                    : l.allAffine.get(s) != 0 ? (l.dstCpu(s) == l.dst ? "all examined pinned away from CPU " + l.dst
                    : "all examined refused for affinity") : "a movable task examined");
        }
        if (at == DONE) {
            return;
        }
        if (!l.d.plain) {
            for (int c : l.d.home) {
                out.field(FieldSink.SHARED, "rq" + c, "nr_running=" + l.load[c].get(s));
            }
        }
        long all = l.d.span;
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
                if ((l.d.hot[c][l.pat[c].getInt(s)] >>> idx & 1) != 0) {
                    b.append('~');
                }
                if (!l.d.plain && masks[idx] != all && masks[idx] != 1L << c) {
                    b.append(cpuList(masks[idx]));
                }
            }
            int received = l.foreign[c].getInt(s);
            b.append(']');
            if (received > 0) {
                b.append(" + ").append(received).append(" pulled in");
            }
            out.field(FieldSink.SHARED, "rq" + c, b.append(" nr_running=").append(len + received).toString());
        }
        if (l.d.pulls > 0) {
            out.field(FieldSink.SHARED, "pulls left", Long.toString(l.pullsLeft.get(s)));
        }
    }

    static final String[] IDLE_NAMES = {"CPU_IDLE", "CPU_NOT_IDLE", "CPU_NEWLY_IDLE"};

    private String flags(long[] s) {
        StringJoiner j = new StringJoiner("|");
        if (l.allPinned.get(s) != 0) {
            j.add("ALL_PINNED");
        }
        if (l.needBreak.get(s) != 0) {
            j.add("NEED_BREAK");
        }
        if (l.dstPinned.get(s) != 0) {
            j.add("DST_PINNED");
        }
        if (l.somePinned.get(s) != 0) {
            j.add("SOME_PINNED");
        }
        return j.length() == 0 ? "0" : j.toString();
    }

    /** A counter value; the horizon stands for every value from it up. */
    private String counter(long v) {
        return l.horizon > 0 && v >= l.horizon ? ">=" + l.horizon : Long.toString(v);
    }

    /** One line per notation the fields use, for renderers. */
    static java.util.List<String> legend() {
        return java.util.List.of(
                "rqN=[t2.0* t2.1!] nr_running=2: CPU N's cfs_tasks list, head first (detach_tasks takes from the right); "
                        + "tC.i is task i of CPU C's pattern",
                "* marks rq->curr (the running task), ! a task whose affinity excludes CPU 0 (the balancing CPU), ~ a task task_hot() finds cache-hot (hot=some)",
                "{1,2} after a task: its affinity mask when it is neither every CPU nor its own CPU (masks=local, any)",
                "'+ k pulled in': tasks another level's balance moved to this CPU (counted, not named)",
                "env.loop 3 (loop_max 2): detach_tasks' counters; '>=H' is the class of every value from the horizon H up",
                "pass: what can_migrate_task saw of the current busiest since its statistics pass",
                "sd: the domain level being balanced and the idle type of the call (topology=smt, cluster)");
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
