package kcheck.litmus;

/**
 * One event of a thread's run (or an initial write), with the classes linux-kernel.bell and lock.cat put
 * it in: its kind (read, write, fence, or SRCU grace period), the annotations ({@code once},
 * {@code acquire}, {@code release}, {@code noreturn}), membership of an RMW instruction, the lock events
 * of lock.cat (LKR, LKW, UL, LF, RL, RU) and the SRCU events. Dependencies are masks of the indices of the
 * same thread's earlier reads, so a thread makes at most {@link #MAX_PER_THREAD} events.
 */
public final class Event {
    /** The most events one thread's run makes: its dependency masks are one {@code long}. */
    static final int MAX_PER_THREAD = 64;

    public enum Kind { R, W, F, SRCU_SYNC }

    public static final int ONCE = 1;
    public static final int ACQUIRE = 1 << 1;
    public static final int RELEASE = 1 << 2;
    public static final int NORETURN = 1 << 3;
    /** Part of an RMW instruction (linux-kernel.bell's {@code RMW} set), even a failed cmpxchg's read. */
    public static final int RMW = 1 << 4;
    public static final int LKR = 1 << 5;
    public static final int LKW = 1 << 6;
    public static final int UL = 1 << 7;
    public static final int LF = 1 << 8;
    public static final int RL = 1 << 9;
    public static final int RU = 1 << 10;
    public static final int SRCU_LOCK = 1 << 11;
    public static final int SRCU_UNLOCK = 1 << 12;
    public static final int IW = 1 << 13;

    final Kind kind;
    final int flags;
    /** For a fence: its linux-kernel.bell barrier name ({@code mb}, {@code rmb}, {@code rcu-lock}...). */
    final String fence;
    final String loc;
    final Val value;
    final long addr;
    final long data;
    final long ctrl;
    /** Index (in the thread) of the other event of a successful RMW pair, or -1. */
    int rmwPartner = -1;
    final int line;

    Event(Kind kind, int flags, String fence, String loc, Val value, long addr, long data, long ctrl, int line) {
        this.kind = kind;
        this.flags = flags;
        this.fence = fence;
        this.loc = loc;
        this.value = value;
        this.addr = addr;
        this.data = data;
        this.ctrl = ctrl;
        this.line = line;
    }

    boolean has(int flag) {
        return (flags & flag) != 0;
    }

    /** Lock events have no value that tests look at: they stay out of the value domains. */
    boolean isLockOp() {
        return (flags & (LKR | LKW | UL | LF | RL | RU)) != 0;
    }

    /** herd-like label: {@code W[once] x=1}, {@code R[acquire] y=0}, {@code F[mb]}, {@code LKW lck}. */
    public String label() {
        if (kind == Kind.F) {
            return "F[" + fence + "]";
        }
        if (kind == Kind.SRCU_SYNC) {
            return "SRCU[sync-srcu] " + loc;
        }
        for (String[] l : new String[][] {{"LKR", "" + LKR}, {"LKW", "" + LKW}, {"UL", "" + UL}, {"LF", "" + LF},
            {"RL", "" + RL}, {"RU", "" + RU}}) {
            if (has(Integer.parseInt(l[1]))) {
                return l[0] + " " + loc;
            }
        }
        String ann = has(IW) ? "init" : has(ACQUIRE) ? "acquire" : has(RELEASE) ? "release" : has(NORETURN) ? "noreturn"
                : has(SRCU_LOCK) ? "srcu-lock" : has(SRCU_UNLOCK) ? "srcu-unlock" : has(ONCE) ? "once" : "plain";
        return kind + (has(RMW) ? "*" : "") + "[" + ann + "] " + loc + "=" + value;
    }

    @Override
    public String toString() {
        return label();
    }
}
