package kcheck.model.rqlock;

import static kcheck.model.rqlock.RqLockProgram.CALL;
import static kcheck.model.rqlock.RqLockProgram.NEXT_ROUND;
import static kcheck.model.rqlock.RqLockProgram.TAKE;
import static kcheck.model.rqlock.RqLockProgram.TAS;
import static kcheck.model.rqlock.RqLockProgram.TRY;
import static kcheck.model.rqlock.RqLockProgram.UNLOCK;
import static kcheck.model.rqlock.RqLockProgram.WAIT;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;

import kcheck.model.Deadlock;
import kcheck.model.FieldSink;
import kcheck.model.Invariant;
import kcheck.model.Layout;
import kcheck.model.LockSink;
import kcheck.model.Metric;
import kcheck.model.Model;
import kcheck.model.Params;
import kcheck.model.Property;
import kcheck.model.StateSink;
import kcheck.model.StepInfo;
import kcheck.model.StepProperty;
import kcheck.model.StepSink;

/**
 * The rq-lock model (KERNEL.md section 1): N CPUs, each running {@code rounds} balancing passes
 * around {@code double_lock_balance()}, over ticket or test-and-set runqueue locks.
 *
 * <p>State, per CPU: program counter into its {@link RqLockProgram}, the ticket it waits with
 * (only while waiting), the round (only with {@code rounds > 1}). Per runqueue lock: {@code next}
 * and {@code owner} (ticket) or the flag (test-and-set). Monitors, only when a selected property
 * needs them: per CPU the set of CPUs that were waiting inside {@code double_lock_balance} when it
 * entered and still are in that same wait ({@code fifo-entry}), and its bypass count
 * ({@code bypass}). Monitors are reset as soon as they are dead.
 */
final class RqLockModel implements Model {
    /** Ticket counters are kept in 4 bits: at most 8 CPUs can hold or wait for one lock. */
    static final int TICKET_BITS = 4;
    private static final int TICKET_MASK = (1 << TICKET_BITS) - 1;

    private final String variant;
    private final Params params;
    private final RqLockProgram prog;
    private final int n;
    private final int rounds;
    private final boolean ticket;
    private final boolean fifo;
    private final boolean bypass;
    private final boolean overtake;
    private final Set<String> selected;

    private final Layout.Field[] pc;
    private final Layout.Field[] round;
    private final Layout.Field[] tkt;
    private final Layout.Field[] next;
    private final Layout.Field[] owner;
    private final Layout.Field[] locked;
    private final Layout.Field[] fifoMask;
    private final Layout.Field[] byp;
    private final Layout.Field[] ovt;
    private final int width;
    private final List<Property> properties;

    /* per-thread scratch */
    private final long[] nx;
    private final int[] gs;
    private final TicketSpinlock tl = new TicketSpinlock(TICKET_BITS);
    private final TasSpinlock tas = new TasSpinlock();

    RqLockModel(String variant, Params params, RqLockProgram prog, Set<String> selected) {
        this.variant = variant;
        this.params = params;
        this.prog = prog;
        this.n = prog.cpus;
        this.rounds = params.integer("rounds");
        this.ticket = prog.ticket;
        this.selected = selected;
        this.overtake = selected.contains("overtake");
        this.fifo = selected.contains("fifo-entry") || overtake;
        this.bypass = selected.contains("bypass");

        Layout layout = new Layout();
        pc = new Layout.Field[n];
        round = new Layout.Field[n];
        tkt = new Layout.Field[n];
        next = new Layout.Field[n];
        owner = new Layout.Field[n];
        locked = new Layout.Field[n];
        fifoMask = new Layout.Field[n];
        byp = new Layout.Field[n];
        ovt = new Layout.Field[n];
        for (int c = 0; c < n; c++) {
            pc[c] = layout.fieldFor(prog.size(c) - 1);
            round[c] = layout.fieldFor(rounds - 1);
            tkt[c] = layout.field(ticket ? TICKET_BITS : 0);
        }
        for (int l = 0; l < n; l++) {
            next[l] = layout.field(ticket ? TICKET_BITS : 0);
            owner[l] = layout.field(ticket ? TICKET_BITS : 0);
            locked[l] = layout.field(ticket ? 0 : 1);
        }
        for (int c = 0; c < n; c++) {
            fifoMask[c] = layout.field(fifo ? n : 0);
            byp[c] = layout.fieldFor(bypass ? (long) rounds * (n - 1) : 0);
            ovt[c] = layout.fieldFor(overtake ? (long) rounds * (n - 1) : 0);

        }
        width = layout.words();
        nx = new long[width];
        gs = new int[n];
        properties = buildProperties();
    }

    private RqLockModel(RqLockModel m) {
        this.variant = m.variant;
        this.params = m.params;
        this.prog = m.prog;
        this.n = m.n;
        this.rounds = m.rounds;
        this.ticket = m.ticket;
        this.selected = m.selected;
        this.fifo = m.fifo;
        this.bypass = m.bypass;
        this.overtake = m.overtake;
        this.ovt = m.ovt;

        this.pc = m.pc;
        this.round = m.round;
        this.tkt = m.tkt;
        this.next = m.next;
        this.owner = m.owner;
        this.locked = m.locked;
        this.fifoMask = m.fifoMask;
        this.byp = m.byp;
        this.width = m.width;
        this.nx = new long[width];
        this.gs = new int[n];
        this.properties = m.properties;
    }

    @Override
    public Model fork() {
        return new RqLockModel(this);
    }

    @Override
    public String name() {
        return RqLockFactory.NAME;
    }

    @Override
    public String variant() {
        return variant;
    }

    @Override
    public Params params() {
        return params;
    }

    @Override
    public int width() {
        return width;
    }

    @Override
    public void initial(StateSink out) {
        out.state(new long[width]);
    }

    private int g(long[] s, int c) {
        return prog.base[c] + pc[c].getInt(s);
    }

    @Override
    public void successors(long[] s, StepSink out) {
        final int b = prog.branches;
        for (int c = 0; c < n; c++) {
            int p = pc[c].getInt(s);
            int g = prog.base[c] + p;
            int l = prog.lock[g];
            switch (prog.op[g]) {
                case TAKE -> {
                    System.arraycopy(s, 0, nx, 0, width);
                    tl.load(next[l].getInt(s), owner[l].getInt(s));
                    tkt[c].set(nx, tl.takeTicket());
                    next[l].set(nx, tl.next());
                    advance(s, c, g, 0);
                    out.step(c, p * b, nx);
                }
                case WAIT -> {
                    tl.load(next[l].getInt(s), owner[l].getInt(s));
                    if (tl.isServed(tkt[c].getInt(s))) {
                        System.arraycopy(s, 0, nx, 0, width);
                        tkt[c].set(nx, 0);
                        advance(s, c, g, 0);
                        out.step(c, p * b, nx);
                    }
                }
                case TAS -> {
                    tas.load(locked[l].get(s) != 0);
                    if (tas.trylock()) {
                        System.arraycopy(s, 0, nx, 0, width);
                        locked[l].set(nx, 1);
                        advance(s, c, g, 0);
                        out.step(c, p * b, nx);
                    }
                }
                case TRY -> {
                    System.arraycopy(s, 0, nx, 0, width);
                    boolean taken;
                    if (ticket) {
                        tl.load(next[l].getInt(s), owner[l].getInt(s));
                        taken = tl.trylock();
                        next[l].set(nx, tl.next());
                    } else {
                        tas.load(locked[l].get(s) != 0);
                        taken = tas.trylock();
                        locked[l].set(nx, tas.isLocked() ? 1 : 0);
                    }
                    int branch = taken ? 1 : 0;
                    advance(s, c, g, branch);
                    out.step(c, p * b + branch, nx);
                }
                case UNLOCK -> {
                    System.arraycopy(s, 0, nx, 0, width);
                    if (ticket) {
                        tl.load(next[l].getInt(s), owner[l].getInt(s));
                        tl.unlock();
                        owner[l].set(nx, tl.owner());
                    } else {
                        tas.load(locked[l].get(s) != 0);
                        tas.unlock();
                        locked[l].set(nx, 0);
                    }
                    advance(s, c, g, 0);
                    out.step(c, p * b, nx);
                }
                case CALL -> {
                    for (int busiest = 0; busiest < n; busiest++) {
                        if (prog.target[g * b + busiest] == RqLockProgram.NONE) {
                            continue;
                        }
                        System.arraycopy(s, 0, nx, 0, width);
                        advance(s, c, g, busiest);
                        out.step(c, p * b + busiest, nx);
                    }
                }
                default -> {
                }
            }
        }
    }

    /** Moves CPU {@code c} along branch {@code branch} of instruction {@code g}, updating monitors in {@code nx}. */
    private void advance(long[] s, int c, int g, int branch) {
        int e = g * prog.branches + branch;
        if (fifo && prog.waitsFor[g] >= 0) {
            long clear = ~(1L << c);
            for (int a = 0; a < n; a++) {
                fifoMask[a].set(nx, fifoMask[a].get(nx) & clear);
            }
        }
        if (prog.op[g] == CALL && overtake) {
            ovt[c].set(nx, 0);
        }
        if (prog.op[g] == CALL && fifo) {
            /* only waiters for a lock this call can return holding (this_rq, busiest) can be overtaken by it */
            int locks = (1 << c) | (1 << branch);
            long waiting = 0;
            for (int a = 0; a < n; a++) {
                int l = a == c ? -1 : prog.waitsFor[g(s, a)];
                if (l >= 0 && (locks & (1 << l)) != 0) {
                    waiting |= 1L << a;
                }
            }
            fifoMask[c].set(nx, waiting);
        }
        if (prog.ret[e] >= 0) {
            if (overtake) {
                long mask = fifoMask[c].get(s);
                int heldAfter = prog.held[prog.base[c] + targetPc(c, s, e)];
                for (int a = 0; a < n; a++) {
                    if ((mask & (1L << a)) != 0) {
                        int l = prog.waitsFor[g(s, a)];
                        long v = ovt[a].get(nx);
                        if (l >= 0 && (heldAfter & (1 << l)) != 0 && v < ovt[a].max()) {
                            ovt[a].set(nx, v + 1);
                        }
                    }
                }
                ovt[c].set(nx, 0);
            }
            if (fifo) {
                fifoMask[c].set(nx, 0);
            }
            if (bypass) {
                for (int a = 0; a < n; a++) {
                    if (a != c && prog.inside[g(s, a)]) {
                        long v = byp[a].get(nx);
                        if (v < byp[a].max()) {
                            byp[a].set(nx, v + 1);
                        }
                    }
                }
                byp[c].set(nx, 0);
            }
        }
        int t = prog.target[e];
        if (t == NEXT_ROUND) {
            int r = round[c].getInt(s);
            if (r + 1 < rounds) {
                round[c].set(nx, r + 1);
                pc[c].set(nx, 0);
            } else {
                round[c].set(nx, 0);
                pc[c].set(nx, prog.donePc[c]);
            }
        } else {
            pc[c].set(nx, t);
        }
    }

    /** The local pc edge {@code e} of CPU {@code c} leads to (resolving the end of a pass). */
    private int targetPc(int c, long[] s, int e) {
        int t = prog.target[e];
        if (t != NEXT_ROUND) {
            return t;
        }
        return round[c].getInt(s) + 1 < rounds ? 0 : prog.donePc[c];
    }

    @Override
    public boolean isFinal(long[] s) {
        for (int c = 0; c < n; c++) {
            if (pc[c].getInt(s) != prog.donePc[c]) {
                return false;
            }
        }
        return true;
    }

    @Override
    public List<String> reductions() {
        String por = "partial-order (ample sets of one CPU's invisible steps on lock words no other CPU will touch)";
        return ticket ? List.of("ticket-shift (ticket counters kept relative to owner: a bisimulation)", por) : List.of(por);
    }

    @Override
    public boolean partialOrder() {
        return true;
    }

    @Override
    public boolean acyclic() {
        return true;
    }

    /**
     * A CPU's next step is visible if it can change what a selected property observes.
     * mutual-exclusion observes only "some lock has two holders": a lock step changes that only if
     * another CPU holds the same lock now, and no other CPU can touch that lock's words before
     * the step runs (that is what makes it part of an ample set), so that stays true wherever
     * the reduction moves the step. holds-both-on-return and return-contract read only the
     * returning CPU's own program counter and need nothing. The monitors (fifo-entry, bypass,
     * overtake) read every CPU's wait and call status: steps that change it, calls and returns
     * are visible to them.
     */
    @Override
    public void footprints(long[] s, long[] step, long[] future) {
        boolean monitors = fifo || bypass || overtake;
        boolean me = selected.contains("mutual-exclusion");
        int b = prog.branches;
        int[] gs = this.gs;
        int heldBy = 0;
        int heldTwice = 0;
        for (int c = 0; c < n; c++) {
            int g = g(s, c);
            gs[c] = g;
            int h = prog.held[g];
            heldTwice |= heldBy & h;
            heldBy |= h;
            future[c] = round[c].getInt(s) + 1 < rounds ? prog.futureInPass[g] | prog.wholePass[c] : prog.futureInPass[g];
        }
        for (int c = 0; c < n; c++) {
            int g = gs[c];
            int own = prog.held[g];
            /* the locks some other CPU holds: held by anyone, minus those only this CPU holds */
            int others = (heldBy & ~own) | heldTwice;
            long fp = prog.touch[g];
            for (int k = 0; k < b && fp != -1L; k++) {
                int e = g * b + k;
                int t = prog.target[e];
                if (t == RqLockProgram.NONE) {
                    continue;
                }
                int heldAfter = t == NEXT_ROUND ? 0 : prog.held[prog.base[c] + t];
                if (me && ((heldAfter ^ own) & others) != 0) {
                    fp = -1L;
                } else if (monitors) {
                    int tg = prog.base[c] + (t == NEXT_ROUND ? 0 : t);
                    if (prog.ret[e] >= 0 || prog.op[g] == CALL || prog.waitsFor[g] >= 0
                            || (t != NEXT_ROUND && (prog.waitsFor[tg] >= 0 || prog.inside[tg] != prog.inside[g]))) {
                        fp = -1L;
                    }
                }
            }
            step[c] = fp;
        }
    }


    @Override
    public void canonicalize(long[] s) {
        if (!ticket) {
            return;
        }
        for (int c = 0; c < n; c++) {
            int g = g(s, c);
            if (prog.op[g] == WAIT) {
                int l = prog.lock[g];
                tkt[c].set(s, (tkt[c].getInt(s) - owner[l].getInt(s)) & TICKET_MASK);
            }
        }
        for (int l = 0; l < n; l++) {
            int o = owner[l].getInt(s);
            if (o != 0) {
                owner[l].set(s, 0);
                next[l].set(s, (next[l].getInt(s) - o) & TICKET_MASK);
            }
        }
    }

    @Override
    public List<String> actors() {
        List<String> out = new ArrayList<>();
        for (int c = 0; c < n; c++) {
            out.add("CPU " + c);
        }
        return out;
    }

    @Override
    public StepInfo describe(int actor, int action) {
        int b = prog.branches;
        int g = prog.base[actor] + action / b;
        int e = g * b + action % b;
        return new StepInfo(prog.label[e], prog.cite[g]);
    }

    @Override
    public void decode(long[] s, FieldSink out) {
        for (int c = 0; c < n; c++) {
            int g = g(s, c);
            String at = prog.pcName(c, pc[c].getInt(s));
            if (ticket && prog.op[g] == WAIT) {
                at += " (ticket " + tkt[c].getInt(s) + ")";
            }
            out.field(c, "cpu" + c + ".pc", at);
            out.field(c, "cpu" + c + ".holds", rqSet(prog.held[g]));
            if (rounds > 1) {
                out.field(c, "cpu" + c + ".round", Integer.toString(round[c].getInt(s)));
            }
            if (fifo) {
                out.field(c, "cpu" + c + ".waiting-at-entry", cpuSet(fifoMask[c].get(s)));
            }
            if (bypass) {
                out.field(c, "cpu" + c + ".bypass", Long.toString(byp[c].get(s)));
            }
            if (overtake) {
                out.field(c, "cpu" + c + ".overtaken", Long.toString(ovt[c].get(s)));
            }

        }
        for (int l = 0; l < n; l++) {
            if (ticket) {
                out.field(FieldSink.SHARED, "rq" + l + ".next", Integer.toString(next[l].getInt(s)));
                out.field(FieldSink.SHARED, "rq" + l + ".owner", Integer.toString(owner[l].getInt(s)));
            } else {
                out.field(FieldSink.SHARED, "rq" + l + ".locked", Long.toString(locked[l].get(s)));
            }
        }
    }

    /**
     * Per runqueue lock: the CPUs whose held set contains it, and the CPUs spinning on it: under
     * ticket locks those with a ticket taken, in ticket order (the order they will be served);
     * under test-and-set those about to test it while another CPU holds it (no order).
     */
    @Override
    public void locks(long[] s, LockSink out) {
        for (int l = 0; l < n; l++) {
            int[] holders = new int[n];
            int nh = 0;
            Integer[] waiting = new Integer[n];
            int nw = 0;
            for (int c = 0; c < n; c++) {
                int g = g(s, c);
                if ((prog.held[g] & (1 << l)) != 0) {
                    holders[nh++] = c;
                } else if (prog.lock[g] == l && (prog.op[g] == WAIT || prog.op[g] == TAS)) {
                    waiting[nw++] = c;
                }
            }
            if (!ticket && nh == 0) {
                nw = 0;
            }
            final int lock = l;
            Integer[] w = java.util.Arrays.copyOf(waiting, nw);
            if (ticket) {
                java.util.Arrays.sort(w, java.util.Comparator.comparingInt(c -> (tkt[c].getInt(s) - owner[lock].getInt(s)) & TICKET_MASK));
            }
            out.lock("rq" + l, java.util.Arrays.copyOf(holders, nh), java.util.Arrays.stream(w).mapToInt(Integer::intValue).toArray(),
                    ticket);
        }
    }

    private String rqSet(int mask) {
        return names("rq", mask);
    }

    private String cpuSet(long mask) {
        return names("cpu", mask);
    }

    /** The members of a bit mask over 0..n-1 as {prefix0, prefix2, ...}. */
    private String names(String prefix, long mask) {
        StringJoiner j = new StringJoiner(", ", "{", "}");
        for (int i = 0; i < n; i++) {
            if ((mask & (1L << i)) != 0) {
                j.add(prefix + i);
            }
        }
        return j.toString();
    }

    @Override
    public List<Property> properties() {
        return properties;
    }

    private List<Property> buildProperties() {
        List<Property> out = new ArrayList<>();
        for (Property p : List.of(new MutualExclusion(), Deadlock.standard(), new HoldsBothOnReturn(),
                new ReturnContract(), new FifoEntry(), new Bypass(), new Overtake())) {
            if (selected.contains(p.id())) {
                out.add(p);
            }
        }
        return out;
    }

    /** {@code mutual-exclusion}: no two CPUs hold one runqueue lock. */
    final class MutualExclusion extends Invariant {
        MutualExclusion() {
            super("mutual-exclusion", RqLockFactory.describe("mutual-exclusion"));
        }

        @Override
        public boolean holds(long[] s) {
            int seen = 0;
            for (int c = 0; c < n; c++) {
                int h = prog.held[g(s, c)];
                if ((seen & h) != 0) {
                    return false;
                }
                seen |= h;
            }
            return true;
        }

        @Override
        public String explain(long[] s) {
            for (int l = 0; l < n; l++) {
                StringJoiner who = new StringJoiner(" and ");
                int count = 0;
                for (int c = 0; c < n; c++) {
                    if ((prog.held[g(s, c)] & (1 << l)) != 0) {
                        who.add("CPU " + c);
                        count++;
                    }
                }
                if (count > 1) {
                    return who + " both hold rq[" + l + "]";
                }
            }
            return description();
        }
    }

    /** {@code holds-both-on-return}: on return the caller holds this_rq and busiest. */
    final class HoldsBothOnReturn extends StepProperty {
        HoldsBothOnReturn() {
            super("holds-both-on-return", RqLockFactory.describe("holds-both-on-return"));
        }

        @Override
        public boolean holds(long[] from, int actor, int action, long[] to) {
            int g = prog.base[actor] + action / prog.branches;
            int e = g * prog.branches + action % prog.branches;
            if (prog.ret[e] < 0) {
                return true;
            }
            int need = (1 << actor) | (1 << prog.busiest[g(to, actor)]);
            return (prog.held[g(to, actor)] & need) == need;
        }

        @Override
        public String explain(long[] from, int actor, int action, long[] to) {
            return "CPU " + actor + " returns from double_lock_balance holding " + rqSet(prog.held[g(to, actor)])
                    + ", not both rq" + actor + " and rq" + prog.busiest[g(to, actor)];
        }
    }

    /** {@code return-contract}: return 0 implies this_rq was held throughout the call. */
    final class ReturnContract extends StepProperty {
        ReturnContract() {
            super("return-contract", RqLockFactory.describe("return-contract"));
        }

        @Override
        public boolean holds(long[] from, int actor, int action, long[] to) {
            int g = prog.base[actor] + action / prog.branches;
            int e = g * prog.branches + action % prog.branches;
            return prog.ret[e] != 0 || !prog.dropped[g(to, actor)];
        }

        @Override
        public String explain(long[] from, int actor, int action, long[] to) {
            return "CPU " + actor + " returns 0 from double_lock_balance although it released rq" + actor + " during the call";
        }
    }

    /**
     * {@code fifo-entry}: if CPU a, inside double_lock_balance, waits for lock L when CPU b
     * enters, b does not return holding L while a is still in that same wait.
     */
    final class FifoEntry extends StepProperty {
        FifoEntry() {
            super("fifo-entry", RqLockFactory.describe("fifo-entry"));
        }

        @Override
        public boolean holds(long[] from, int actor, int action, long[] to) {
            return victim(from, actor, action, to) < 0;
        }

        private int victim(long[] from, int actor, int action, long[] to) {
            int g = prog.base[actor] + action / prog.branches;
            int e = g * prog.branches + action % prog.branches;
            if (prog.ret[e] < 0) {
                return -1;
            }
            long mask = fifoMask[actor].get(from);
            int heldAfter = prog.held[g(to, actor)];
            for (int a = 0; a < n; a++) {
                if ((mask & (1L << a)) != 0) {
                    int l = prog.waitsFor[g(from, a)];
                    if (l >= 0 && (heldAfter & (1 << l)) != 0) {
                        return a;
                    }
                }
            }
            return -1;
        }

        @Override
        public String explain(long[] from, int actor, int action, long[] to) {
            int a = victim(from, actor, action, to);
            int l = prog.waitsFor[g(from, a)];
            return "CPU " + actor + " returns from double_lock_balance holding rq" + l + " while CPU " + a
                    + ", which was already waiting for rq" + l + " inside double_lock_balance when CPU " + actor
                    + " entered, still waits";
        }
    }

    /**
     * {@code bypass}: per CPU, the number of double_lock_balance returns by other CPUs while it
     * is inside its own call.
     */
    final class Bypass extends Metric {
        Bypass() {
            super("bypass", RqLockFactory.describe("bypass"));
        }

        @Override
        public int components() {
            return n;
        }

        @Override
        public String componentName(int c) {
            return "CPU " + c;
        }

        @Override
        public long value(long[] s, int c) {
            return byp[c].get(s);
        }
    }

    /**
     * {@code overtake}: per CPU id, the largest number of times one of its double_lock_balance
     * waits is overtaken: a CPU that entered double_lock_balance while it was already waiting
     * returns holding the lock it still waits for (a {@code fifo-entry} violation with this CPU
     * as the victim).
     */
    final class Overtake extends Metric {
        Overtake() {
            super("overtake", RqLockFactory.describe("overtake"));
        }

        @Override
        public int components() {
            return n;
        }

        @Override
        public String componentName(int c) {
            return "CPU " + c;
        }

        @Override
        public long value(long[] s, int c) {
            return ovt[c].get(s);
        }
    }
}
