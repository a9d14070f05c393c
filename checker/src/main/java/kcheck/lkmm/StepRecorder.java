package kcheck.lkmm;

import static kcheck.litmus.GraphSearch.ACQUIRE;
import static kcheck.litmus.GraphSearch.ONCE;
import static kcheck.litmus.GraphSearch.RELEASE;
import static kcheck.litmus.GraphSearch.RMW;

import java.util.List;

import kcheck.litmus.GraphSearch.Access;
import kcheck.litmus.GraphSearch.Kind;
import kcheck.model.rqlock.RqSpinlock;
import kcheck.model.MemoryOrder;
import kcheck.model.ModelInputException;

/**
 * The memory one spinlock step runs against under {@code memory-model=lkmm}: the step's one access
 * becomes LKMM events with the ordering the port states ({@link RqSpinlock.Memory#order}), its
 * value coming from the search ({@link Inputs}).
 *
 * <p>Locations: the lock word is one location, {@code lock} (LKMM has no mixed-size accesses,
 * tools/memory-model/Documentation/explanation.txt); each node field of each CPU is one
 * ({@code cpu1.mcs.next}). A step that stores some fields of the word without loading it (qspinlock's
 * byte and half-word stores: {@code clear_pending}, {@code set_locked}, the unlock) is a
 * read-modify-write of the whole word that keeps the other fields: atomic with respect to them, as
 * the hardware's narrower store is, and relaxed on its read side (a listed assumption).
 */
final class StepRecorder implements RqSpinlock.Memory {
    /** The values the search gave, consumed in order; asking past the end stops the run. */
    static final class Inputs {
        final long[] values;
        int next;

        Inputs(long[] values) {
            this.values = values;
        }

        /** The run was stopped (a read past the values, a spin that does not exit): nothing may follow. */
        private boolean stopped;

        long take(String loc) {
            notStopped();
            if (next == values.length) {
                throw stop(new NeedInput(loc));
            }
            return values[next++];
        }

        /** {@code e}, which ends the run, noted so that code that catches it and goes on is refused. */
        RuntimeException stop(RuntimeException e) {
            stopped = true;
            return e;
        }

        /** Refuses a run that went on after it was stopped: the variant's code caught kcheck's exception. */
        void notStopped() {
            if (stopped) {
                throw new ModelInputException("the variant's code caught the exception that ends a run (thrown by a memory "
                        + "operation) and went on: a variant must let the exceptions of kcheck's calls pass");
            }
        }
    }

    /** The run has reached a read the search has not given a value yet. */
    static final class NeedInput extends RuntimeException {
        final String loc;

        NeedInput(String loc) {
            super(null, null, false, false);
            this.loc = loc;
        }
    }

    private final int cpu;
    private final int cpus;
    private final int[] regs;
    private final List<RqSpinlock.Field> word;
    private final List<RqSpinlock.Field> node;
    private final Inputs inputs;

    private MemoryOrder order;
    private String barrier;
    private String readLoc;
    private long readValue;
    private String writeLoc;
    private long writeValue;
    /** The word's fields the step stored (bit i: field i), and their values. */
    private int wordStored;
    /** The word's fields the step loaded (bit i: field i). */
    private int wordLoaded;
    private boolean wholeWord;
    /** The load only composes a store of some fields (no load in the C). */
    private boolean composing;
    private final int[] stored;

    StepRecorder(int cpu, int cpus, int[] regs, RqSpinlock.Shape shape, Inputs inputs) {
        this.cpu = cpu;
        this.cpus = cpus;
        this.regs = regs;
        this.word = shape.lockWord();
        this.node = shape.node();
        this.inputs = inputs;
        this.stored = new int[word.size()];
    }

    static String nodeLoc(int cpu, RqSpinlock.Field f) {
        return "cpu" + cpu + "." + f.name();
    }

    @Override
    public int cpu() {
        return cpu;
    }

    @Override
    public int cpus() {
        return cpus;
    }

    @Override
    public int word(int field) {
        wordLoaded |= 1 << field;
        long w = wordValue();
        return field(w, field);
    }

    @Override
    public void setWord(int field, int value) {
        access(LockWord.LOC, true);
        wordStored |= 1 << field;
        stored[field] = value;
    }

    @Override
    public int node(int c, int field) {
        String loc = nodeLoc(c, node.get(field));
        if (loc.equals(writeLoc)) {
            return (int) writeValue;
        }
        read(loc);
        return (int) readValue;
    }

    @Override
    public void setNode(int c, int field, int value) {
        access(nodeLoc(c, node.get(field)), true);
        writeValue = value;
    }

    @Override
    public int reg(int field) {
        return regs[field];
    }

    @Override
    public void setReg(int field, int value) {
        regs[field] = value;
    }

    @Override
    public void order(MemoryOrder o) {
        order = o;
    }

    @Override
    public void barrier(String fence) {
        barrier = fence;
    }

    @Override
    public void wholeWord() {
        wholeWord = true;
    }

    /** The word as the step sees it: the value it loaded with its own stores over it. */
    private long wordValue() {
        if (readLoc == null) {
            read(LockWord.LOC);
        }
        long w = readValue;
        for (int f = 0; f < word.size(); f++) {
            if ((wordStored >> f & 1) != 0) {
                w = with(w, f, stored[f]);
            }
        }
        return w;
    }

    /** The step's load of {@code loc}: its value from the search, once per step. */
    private void read(String loc) {
        access(loc, false);
        if (readLoc == null) {
            readValue = inputs.take(loc);
            readLoc = loc;
        }
    }

    /** Notes the step's one location; a second is a port error (one shared-memory access per step). */
    private void access(String loc, boolean write) {
        for (String other : new String[] {readLoc, writeLoc}) {
            if (other != null && !other.equals(loc)) {
                throw new IllegalStateException("a step accesses " + other + " and " + loc + ": one shared-memory access per step");
            }
        }
        if (write) {
            writeLoc = loc;
        }
    }

    private int field(long w, int f) {
        return (int) (w >> LockWord.offset(word, f) & ((1L << word.get(f).bits()) - 1));
    }

    private long with(long w, int f, int v) {
        int off = LockWord.offset(word, f);
        long mask = ((1L << word.get(f).bits()) - 1) << off;
        return (w & ~mask) | ((long) v << off & mask);
    }

    /**
     * The step's events, appended to {@code out} ({@code ctrl}: the earlier reads its thread branched on).
     * A store of word fields with no load before it takes the word's value here (the read of its RMW).
     * Returns the index of the step's read in {@code out}, or -1.
     */
    int finish(List<Access> out, long ctrl, String label) {
        boolean wordStore = wordStored != 0;
        if (wordStore && readLoc == null) {
            composing = true;
            read(LockWord.LOC);
        }
        if (readLoc == null && writeLoc == null) {
            if (barrier != null) {
                out.add(new Access(Kind.FENCE, null, 0, 0, barrier, ctrl, 0, -1, label));
            }
            return -1;
        }
        if (order == null) {
            throw new ModelInputException("the step at '" + label + "' accesses " + (readLoc != null ? readLoc : writeLoc)
                    + " without stating its ordering (RqSpinlock.Memory.order) under memory-model=lkmm");
        }
        boolean rmwOrder = order.name().startsWith("RMW_");
        boolean writes = writeLoc != null;
        boolean rmw = writes && readLoc != null;
        boolean full = order == MemoryOrder.RMW_FULL && writes;
        if (barrier != null) {
            out.add(new Access(Kind.FENCE, null, 0, 0, barrier, ctrl, 0, -1, label));
        }
        if (full) {
            out.add(new Access(Kind.FENCE, null, 0, 0, "mb", ctrl, 0, -1, label));
        }
        int r = -1;
        if (readLoc != null) {
            int flags = readFlags(rmw, rmwOrder, writes);
            r = out.size();
            long parts = !readLoc.equals(LockWord.LOC) ? Access.ALL : wholeWord ? allFields() : composing ? 0 : wordLoaded;
            out.add(new Access(Kind.READ, readLoc, readValue, flags, null, ctrl, 0, rmw ? r + 1 : -1, label, parts));
        }
        if (writes) {
            long value = writeLoc.equals(LockWord.LOC) ? wordValue() : writeValue;
            int flags = writeFlags(rmw && !composing); /* a partial store is no RMW: its read is the search's only */
            long parts = !writeLoc.equals(LockWord.LOC) ? Access.ALL : wholeWord ? allFields() : wordStored;
            out.add(new Access(Kind.WRITE, writeLoc, value, flags, null, ctrl, 0, rmw ? r : -1, label, parts));
        }
        if (full) {
            out.add(new Access(Kind.FENCE, null, 0, 0, "mb", ctrl, 0, -1, label));
        }
        return r;
    }

    private long allFields() {
        return (1L << word.size()) - 1;
    }

    private int readFlags(boolean rmw, boolean rmwOrder, boolean writes) {
        if (rmwOrder || rmw) {
            /* a conditional RMW that fails orders nothing; a successful _acquire one is an acquire read */
            return RMW | (order == MemoryOrder.RMW_ACQUIRE && writes ? ACQUIRE
                    : ONCE);
        }
        return switch (order) {
            case PLAIN -> 0;
            case ACQUIRE -> ACQUIRE;
            default -> ONCE;
        };
    }

    private int writeFlags(boolean rmw) {
        int base = switch (order) {
            case PLAIN -> 0;
            case RELEASE, RMW_RELEASE -> RELEASE;
            default -> ONCE;
        };
        return rmw ? base | RMW : base;
    }
}
