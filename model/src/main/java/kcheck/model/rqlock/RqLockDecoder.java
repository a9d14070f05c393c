package kcheck.model.rqlock;

import static kcheck.model.rqlock.RqLockProgram.CALL;
import static kcheck.model.rqlock.RqLockProgram.TRY;
import static kcheck.model.rqlock.RqLockProgram.UNLOCK;

import java.util.List;

import kcheck.model.FieldSink;
import kcheck.model.StepInfo;

/** Decoding for traces: step labels and citations, and the named fields of a state. */
final class RqLockDecoder {
    /** One line per notation the rq-lock traces use. */
    static final List<String> LEGEND = List.of(
            "cpuN.pc       what CPU N does next; 'dlb(busiest=rqB): ...' = inside double_lock_balance(this_rq=rqN, busiest=rqB)",
            "cpuN.holds    the runqueue locks CPU N holds (with core-sched=pairs, a core's lock is named by its first CPU)",
            "cpuN.waiting-at-entry  CPUs that were waiting for a lock CPU N's call can return with, when N entered (fifo-entry)",
            "rqL.next      ticket lock: the next ticket to hand out (x86 'tail')",
            "rqL.serving   ticket lock: the ticket now served (x86 'owner'/head), a counter, not a CPU id",
            "rqL.locked    test-and-set flag, or qspinlock's locked byte (0/1)",
            "rqL.pending, rqL.tail  qspinlock's pending bit and queue tail (CPU id + 1; 0 = no queue)",
            "cpuN.mcs.locked, cpuN.mcs.next  CPU N's MCS node qnodes[0]: handed the queue head / successor (CPU id + 1)",
            "'A -> B'      a step's result: where the spinlock operation goes; '= 0'/'= 1' a trylock's return value",
            "'\u2192 double_lock_balance returns N'  the step that returns from the call, with its return value");

    private final RqLockLayout lay;
    private final RqLockProgram prog;
    private final RqLockSteps steps;
    private final RqLockProperties props;
    private final RqSpinlock lock;
    private final int n;

    RqLockDecoder(RqLockLayout lay, RqLockSteps steps, RqLockProperties props) {
        this.lay = lay;
        this.prog = lay.prog;
        this.steps = steps;
        this.props = props;
        this.lock = lay.spinlock;
        this.n = lay.n;
    }

    StepInfo describe(int actor, int action) {
        int g = steps.instruction(actor, action);
        if (prog.op[g] == CALL) {
            String watched = steps.startsWatch(actor, action) ? " (fifo-entry's monitor watches this call)" : "";
            return new StepInfo(prog.label[steps.edge(actor, action)] + watched, prog.cite[g]);
        }
        int sp = steps.subOf(action);
        if (steps.isSpin(actor, action)) {
            return new StepInfo(prog.head[g] + ": spins (loads, condition still false)", lock.cite(sp).isEmpty() ? prog.cite[g]
                    : lock.cite(sp) + " \u2190 " + prog.cite[g]);
        }
        int r = steps.resultOf(actor, action);
        StringBuilder label = new StringBuilder(prog.head[g]).append(lock.label(sp, r));
        if (r < 0) {
            if (prog.op[g] == TRY) {
                label.append(r == RqSpinlock.DONE ? " = 1" : " = 0");
            }
            label.append(prog.label[steps.edge(actor, action)]);
        }
        String c = lock.cite(sp);
        return new StepInfo(label.toString(), c.isEmpty() ? prog.cite[g] : c + " \u2190 " + prog.cite[g]);
    }

    /** What CPU {@code c} does next, short enough for a timeline column. */
    String pcName(long[] s, int c) {
        int g = lay.g(s, c);
        String what;
        if (prog.op[g] <= UNLOCK) {
            int sp = lay.sub[c].getInt(s);
            RqSpinlock.Op op = prog.opOf(g);
            if (sp == lock.entry(op) && !lock.waiting(sp)) {
                what = "next: " + prog.head[g];
            } else {
                what = lock.pcName(sp, "rq" + prog.lock[g], lay.new Memory().bind(s, c, prog.lock[g]));
            }
        } else {
            what = prog.op[g] == CALL ? "next: double_lock_balance" : "done";
        }
        return prog.inside[g] ? "dlb(busiest=rq" + prog.busiest[g] + "): " + what : what;
    }

    /**
     * Per runqueue lock: the CPUs whose held set contains it, and the CPUs waiting for it: under
     * ticket locks those with a ticket taken, in ticket order (the order they will be served);
     * otherwise those spinning in the lock's slowpath or test-and-set loop while another CPU holds
     * it (no order the model tracks).
     */
    void locks(long[] s, kcheck.model.LockSink out) {
        boolean ticket = lock instanceof TicketSpinlock;
        for (int l = 0; l < n; l++) {
            if (!prog.config.used(l)) {
                continue;
            }
            int[] holders = new int[n];
            int nh = 0;
            Integer[] waiting = new Integer[n];
            int nw = 0;
            for (int c = 0; c < n; c++) {
                int g = lay.g(s, c);
                if ((prog.held[g] & (1 << l)) != 0) {
                    holders[nh++] = c;
                } else if (prog.op[g] == RqLockProgram.LOCK && prog.lock[g] == l && prog.pcWaiting[lay.sub[c].getInt(s)]) {
                    waiting[nw++] = c;
                }
            }
            if (!ticket && nh == 0) {
                nw = 0;
            }
            Integer[] w = java.util.Arrays.copyOf(waiting, nw);
            if (ticket) {
                final int lockIndex = l;
                int mask = TicketSpinlock.mask(TicketSpinlock.BITS);
                java.util.Arrays.sort(w, java.util.Comparator.comparingInt(c -> (lay.reg[c][TicketSpinlock.TICKET].getInt(s)
                        - lay.word[lockIndex][TicketSpinlock.SERVING].getInt(s)) & mask));
            }
            out.lock("rq" + l, java.util.Arrays.copyOf(holders, nh), java.util.Arrays.stream(w).mapToInt(Integer::intValue).toArray(),
                    ticket);
        }
    }

    void decode(long[] s, FieldSink out) {
        RqSpinlock.Shape shape = lay.shape;
        for (int c = 0; c < n; c++) {
            int g = lay.g(s, c);
            out.field(c, "cpu" + c + ".pc", pcName(s, c));
            out.field(c, "cpu" + c + ".holds", props.rqSet(prog.held[g]));
            if (lay.rounds > 1) {
                out.field(c, "cpu" + c + ".round", Integer.toString(lay.round[c].getInt(s)));
            }
            if (lay.fifo) {
                out.field(c, "cpu" + c + ".waiting-at-entry", props.cpuSet(lay.entryMask(s, c)));
            }
            if (lay.bypass) {
                out.field(c, "cpu" + c + ".bypass", Long.toString(lay.byp[c].get(s)));
            }
            if (lay.overtake) {
                out.field(c, "cpu" + c + ".overtaken", Long.toString(lay.ovt[c].get(s)));
            }
            for (int f = 0; f < shape.node().size(); f++) {
                out.field(c, "cpu" + c + "." + shape.node().get(f).name(), Integer.toString(lay.node[c][f].getInt(s)));
            }
        }
        if (lay.watchOne) {
            /* with fifo-monitor=one (not in the legend, which describes the defaults): the watched call's CPU */
            int w = lay.watch.getInt(s);
            out.field(FieldSink.SHARED, "fifo-watch", w == 0 ? "none" : "cpu" + (w - 1));
        }
        if (lay.forever) {
            out.field(FieldSink.SHARED, "starvation-watch", "cpu" + lay.victim.getInt(s));
        }
        for (int l = 0; l < n; l++) {
            if (!prog.config.used(l)) {
                continue;
            }
            for (int f = 0; f < shape.lockWord().size(); f++) {
                out.field(FieldSink.SHARED, "rq" + l + "." + shape.lockWord().get(f).name(), Integer.toString(lay.word[l][f].getInt(s)));
            }
        }
    }
}
