package kcheck.model.rqlock;

import java.util.List;

import kcheck.model.Kernel;
import kcheck.model.ModelLimitException;

/**
 * The x86 ticket spinlock introduced in 2.6.25 ({@code lock=ticket}): two counters, {@code next}
 * (the tail: the next ticket to hand out) and {@code serving} (the kernel's {@code owner}, the
 * head: the ticket now served; not a CPU id). Counters wrap; the kernel keeps them in 8 bits
 * ({@code NR_CPUS < 256}), the model in {@value #BITS} bits, the same behaviour as long as fewer
 * than 2^{@value #BITS} CPUs hold or queue on one lock.
 *
 * <p>Steps: {@code spin_lock} is two ({@link #takeTicket}: the {@code lock xaddw}; then
 * {@link #ticketServed}: the spin loop's compare, in the step where it succeeds),
 * {@code spin_trylock} one ({@link #trylock}: one {@code cmpxchg} of the whole word) and
 * {@code spin_unlock} one ({@link #unlock}: {@code incb} of the head). The register
 * {@code ticket} holds the ticket taken while waiting.
 *
 * <p>The steps are written once, as pure functions of the counters ({@link #advance},
 * {@link #served}, {@link #free}): this class applies them to the model's packed state, and
 * {@code kcheck.model.rqlock.threads.AtomicTicketSpinlock} applies the same functions to two
 * {@code AtomicInteger}s shared by real threads. The functions accept unwrapped counter values
 * (they compare modulo 2^bits), so the atomic version may let the hardware add without masking,
 * as {@code xaddw} does.
 *
 * <p>A variant may subclass it and override one step (e.g. a {@link #trylock} that ignores the
 * queue) to see which property catches the broken lock.
 */
public class TicketSpinlock extends RqSpinlock {
    /** Counter width in the model: at most 2^4 = 16 tickets outstanding, so 8 CPUs fit with room. */
    public static final int BITS = 4;
    public static final int NEXT = 0;
    public static final int SERVING = 1;
    public static final int TICKET = 0;

    public static final int TAKE = 0;
    public static final int WAIT = 1;
    public static final int TRY = 2;
    public static final int UNLOCK = 3;

    /** The counter mask of a lock with {@code bits}-bit counters. */
    public static int mask(int bits) {
        return (1 << bits) - 1;
    }

    /** A counter after one increment ({@code xaddw} on {@code next}, {@code incb} on {@code owner}), wrapped. */
    public static int advance(int counter, int mask) {
        return (counter + 1) & mask;
    }

    /** The spin loop's exit test: is ticket {@code ticket} served when the head reads {@code owner}? */
    public static boolean served(int owner, int ticket, int mask) {
        return ((owner - ticket) & mask) == 0;
    }

    /** {@code trylock}'s test: the lock is free and nobody is queued ({@code next == owner}). */
    public static boolean free(int next, int owner, int mask) {
        return ((next - owner) & mask) == 0;
    }

    @Override
    public String name() {
        return "ticket";
    }

    @Override
    public Shape shape(int cpus) {
        if (cpus >= 1 << BITS) {
            throw new ModelLimitException("rq-lock packs ticket counters in " + BITS + " bits: at most " + ((1 << BITS) - 1)
                    + " CPUs, not " + cpus);
        }
        return new Shape(List.of(new Field("next", BITS), new Field("serving", BITS)), List.of(),
                List.of(new Field("ticket", BITS)));
    }

    @Override
    public int pcs() {
        return 4;
    }

    @Override
    public int entry(Op op) {
        return switch (op) {
            case LOCK -> TAKE;
            case TRYLOCK -> TRY;
            case UNLOCK -> UNLOCK;
        };
    }

    @Override
    public Op opOf(int pc) {
        return pc <= WAIT ? Op.LOCK : pc == TRY ? Op.TRYLOCK : Op.UNLOCK;
    }

    @Override
    public int step(int pc, Memory m) {
        return switch (pc) {
            case TAKE -> takeTicket(m);
            case WAIT -> ticketServed(m);
            case TRY -> trylock(m);
            case UNLOCK -> unlock(m);
            default -> throw new IllegalArgumentException("pc " + pc);
        };
    }

    /** The {@code lock xaddw} of {@code __ticket_spin_lock}: take ticket {@code t = next++}. */
    @Kernel(function = "__ticket_spin_lock", file = "include/asm-x86/spinlock.h", version = "v2.6.25")
    public int takeTicket(Memory m) {
        int t = m.word(NEXT);
        m.setWord(NEXT, advance(t, mask(BITS)));
        m.setReg(TICKET, t);
        return WAIT;
    }

    /** The spin loop of {@code __ticket_spin_lock}: done when the head reaches our ticket. */
    @Kernel(function = "__ticket_spin_lock", file = "include/asm-x86/spinlock.h", version = "v2.6.25")
    public int ticketServed(Memory m) {
        return served(m.word(SERVING), m.reg(TICKET), mask(BITS)) ? DONE : BLOCKED;
    }

    /**
     * {@code __ticket_spin_trylock}: if the lock is free and nobody is queued ({@code next == owner})
     * take ticket {@code next++} with one {@code cmpxchg}; otherwise fail without queueing.
     */
    @Kernel(function = "__ticket_spin_trylock", file = "include/asm-x86/spinlock.h", version = "v2.6.25")
    public int trylock(Memory m) {
        int next = m.word(NEXT);
        if (!free(next, m.word(SERVING), mask(BITS))) {
            return FAILED;
        }
        m.setWord(NEXT, advance(next, mask(BITS)));
        return DONE;
    }

    /** {@code __ticket_spin_unlock}: {@code incb owner}, serving the next ticket. */
    @Kernel(function = "__ticket_spin_unlock", file = "include/asm-x86/spinlock.h", version = "v2.6.25")
    public int unlock(Memory m) {
        m.setWord(SERVING, advance(m.word(SERVING), mask(BITS)));
        return DONE;
    }

    @Override
    public int[] successors(int pc) {
        return switch (pc) {
            case TAKE -> to(WAIT);
            case TRY -> to(FAILED, DONE);
            default -> to(DONE);
        };
    }

    @Override
    public long footprint(int pc) {
        return switch (pc) {
            case TAKE -> 1L << NEXT;
            case TRY -> (1L << NEXT) | (1L << SERVING);
            default -> 1L << SERVING;
        };
    }

    @Override
    public boolean waiting(int pc) {
        return pc == WAIT;
    }

    @Override
    public String label(int from, int to) {
        return switch (from) {
            case TAKE -> ": take ticket";
            case WAIT -> ": ticket served";
            default -> "";
        };
    }

    @Override
    public String pcName(int pc, String rq, Memory m) {
        return "waits for " + rq + " (ticket " + m.reg(TICKET) + ")";
    }

    @Override
    public String cite(int pc) {
        return citeOf(TicketSpinlock.class, switch (pc) {
            case TAKE -> "takeTicket";
            case WAIT -> "ticketServed";
            case TRY -> "trylock";
            default -> "unlock";
        });
    }

    @Override
    public String reduction() {
        return "ticket-shift (ticket counters kept relative to the one served: a bisimulation)";
    }

    /** Ticket counters relative to the ticket served (behaviour depends only on differences). */
    @Override
    public void canonicalize(Canonical c) {
        int l0 = 0;
        while (l0 < c.locks() && c.word(l0, SERVING) == 0) {
            l0++;
        }
        if (l0 == c.locks()) {
            return; /* canonical already: a step that releases no ticket lock leaves every serving counter at 0 */
        }
        int mask = mask(BITS);
        for (int cpu = 0; cpu < c.cpus(); cpu++) {
            if (c.pc(cpu) != WAIT) {
                continue;
            }
            int l = c.opLock(cpu);
            if (l >= 0) {
                c.setReg(cpu, TICKET, (c.reg(cpu, TICKET) - c.word(l, SERVING)) & mask);
            }
        }
        for (int l = 0; l < c.locks(); l++) {
            int o = c.word(l, SERVING);
            if (o != 0) {
                c.setWord(l, SERVING, 0);
                c.setWord(l, NEXT, (c.word(l, NEXT) - o) & mask);
            }
        }
    }

    /** next - serving (mod 2^BITS) counts the tickets taken and not yet released: the CPUs waiting at WAIT plus the holder. */
    @Override
    public String insane(LockState v) {
        int taken = 0;
        for (int c = 0; c < v.cpus(); c++) {
            if (v.holds(c) || v.pc(c) == WAIT) {
                taken++;
            }
        }
        int diff = (v.word(NEXT) - v.word(SERVING)) & mask(BITS);
        return diff == taken ? null : "next - serving = " + diff + " but " + taken + " CPU(s) hold a ticket (waiting or holding)";
    }
}
