package kcheck.model.rwsem;

import static kcheck.model.rwsem.TaskProgram.IN_CAN_SPIN;
import static kcheck.model.rwsem.TaskProgram.OSQ;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import kcheck.model.Deadlock;
import kcheck.model.Invariant;
import kcheck.model.Metric;
import kcheck.model.Progress;
import kcheck.model.Property;
import kcheck.model.StepProperty;

/**
 * The rwsem-owner properties, each a reading of the packed state ({@link RwsemLayout}) and of the
 * monitors ({@link RwsemMonitors}). Stateless: one list shared by all forks.
 */
final class RwsemProperties {
    static final String[] COMPONENTS_WASTED = {"reader-held", "reader-held, owner stored"};
    static final String[] COMPONENTS_MISSED = {"owner NULL", "stale READER_OWNED"};

    private final RwsemLayout l;
    private final RwsemDecoder decoder;

    RwsemProperties(RwsemLayout l, RwsemDecoder decoder) {
        this.l = l;
        this.decoder = decoder;
    }

    /** The selected properties, in catalogue order. */
    List<Property> build(Set<String> selected) {
        List<Property> out = new ArrayList<>();
        for (Property p : List.of(new Exclusion(), new OwnerSound(), new NoSpinOnReaders(false), new NoSpinOnReaders(true),
                new NoSpinOnReadersK2(), new SpinOnRunningWriter(), new WastedSpins(), new MissedSpins(), Deadlock.standard(),
                new ReaderOwnedNoWriter(), new NullOwnerNoWriter())) {
            if (selected.contains(p.id())) {
                out.add(p);
            }
        }
        return out;
    }

    /** {@code exclusion}: never a writer with readers, never two writers. */
    final class Exclusion extends Invariant {
        Exclusion() {
            super("exclusion", RwsemOwnerFactory.describe("exclusion"));
        }

        @Override
        public boolean holds(long[] s) {
            int w = l.writersHolding(s);
            return w == 0 || (w == 1 && l.readersHolding(s) == 0);
        }

        @Override
        public String explain(long[] s) {
            return "the lock is held by " + decoder.holders(s) + " at once (count = " + RwsemCount.show(l.count(s)) + ")";
        }
    }

    /** {@code owner-sound}: owner names a writer only while that writer holds the write lock. */
    final class OwnerSound extends Invariant {
        OwnerSound() {
            super("owner-sound", RwsemOwnerFactory.describe("owner-sound"));
        }

        @Override
        public boolean holds(long[] s) {
            long o = l.owner.get(s);
            return o < 2 || l.heldBy(s, l.nr + RwsemCount.writerIndex(o));
        }

        @Override
        public String explain(long[] s) {
            return "owner = " + RwsemCount.showOwner(l.owner.get(s)) + " but that writer does not hold the write lock (held by "
                    + decoder.holders(s) + ")";
        }
    }

    /**
     * {@code no-spin-on-readers} (and {@code -strict}): a cycle of steps of the spinner (the
     * writer holding the osq) taken while readers, and no writer, hold the lock and (not
     * strict) every such reader has made its owner store, is a spinner that never stops.
     */
    final class NoSpinOnReaders extends Progress {
        private final boolean strict;

        NoSpinOnReaders(boolean strict) {
            super(strict ? "no-spin-on-readers-strict" : "no-spin-on-readers",
                    RwsemOwnerFactory.describe(strict ? "no-spin-on-readers-strict" : "no-spin-on-readers"));
            this.strict = strict;
        }

        @Override
        public boolean isProgress(long[] from, int actor, int action, long[] to) {
            if (action >= l.envBase || !l.isWriter(actor) || !l.prog[actor].has(l.pc[actor].getInt(from), OSQ)) {
                return true;
            }
            if (l.readersHolding(from) == 0 || l.writersHolding(from) > 0) {
                return true;
            }
            return !strict && !l.readersSettled(from);
        }
    }

    /** {@code no-spin-on-readers-k2}: KERNEL.md's count of trylock attempts on a reader-held lock, bound 2. */
    final class NoSpinOnReadersK2 extends Metric {
        NoSpinOnReadersK2() {
            super("no-spin-on-readers-k2", RwsemOwnerFactory.describe("no-spin-on-readers-k2"));
        }

        @Override
        public long value(long[] s, int c) {
            return l.k2.get(s);
        }

        @Override
        public long bound() {
            return 2;
        }

        public long saturation() {
            return RwsemLayout.SPIN_CAP;
        }
    }

    /** {@code spin-on-running-writer}: a NULL owner with a running writer in its set_owner gap makes can_spin true. */
    final class SpinOnRunningWriter extends StepProperty {
        SpinOnRunningWriter() {
            super("spin-on-running-writer", RwsemOwnerFactory.describe("spin-on-running-writer"));
        }

        @Override
        public boolean holds(long[] from, int actor, int action, long[] to) {
            if (action >= l.envBase || !l.isWriter(actor)) {
                return true;
            }
            TaskProgram tp = l.prog[actor];
            int p = action / l.slots;
            int o = action % l.slots;
            int node = l.pc[actor].getInt(to);
            if (!tp.has(p, IN_CAN_SPIN) || tp.has(node, IN_CAN_SPIN) || tp.op[node] == Op.OSQ_LOCK) {
                return true;
            }
            int w = actor - l.nr;
            boolean sawNull = l.obsNull[w].getInt(from) == 1
                    || (tp.op[p] == Op.OWNER_READ && o == RwsemCount.NULL && l.runningWriterWithoutOwner(from, w));
            return !sawNull;
        }

        @Override
        public String explain(long[] from, int actor, int action, long[] to) {
            return decoder.actor(actor) + ": rwsem_can_spin_on_owner loaded owner = NULL while another writer held the"
                    + " write lock (count step done, owner not yet set) on a CPU, and returned false: it does not spin";
        }
    }

    /**
     * {@code wasted-spins}: the spinner's unqueued trylock loads of count on a lock held by
     * readers only, since the readers took it (or the spinner took the osq): all of them, and
     * those made after every such reader stored its owner marker.
     */
    final class WastedSpins extends Metric {
        WastedSpins() {
            super("wasted-spins", RwsemOwnerFactory.describe("wasted-spins"));
        }

        @Override
        public int components() {
            return 2;
        }

        @Override
        public String componentName(int c) {
            return COMPONENTS_WASTED[c];
        }

        @Override
        public long value(long[] s, int c) {
            return c == 0 ? l.wastedAll.get(s) : l.k2.get(s);
        }

        public long saturation() {
            return RwsemLayout.SPIN_CAP;
        }
    }

    /** {@code missed-spins}: writers that declined to spin on one running writer holding the lock. */
    final class MissedSpins extends Metric {
        MissedSpins() {
            super("missed-spins", RwsemOwnerFactory.describe("missed-spins"));
        }

        @Override
        public int components() {
            return 2;
        }

        @Override
        public String componentName(int c) {
            return COMPONENTS_MISSED[c];
        }

        @Override
        public long value(long[] s, int c) {
            return c == 0 ? l.missedNull.get(s) : l.missedRo.get(s);
        }
    }

    /** The false claim {@code READER_OWNED => no writer}, kept as a documented test. */
    final class ReaderOwnedNoWriter extends Invariant {
        ReaderOwnedNoWriter() {
            super("reader-owned-no-writer", RwsemOwnerFactory.describe("reader-owned-no-writer"));
        }

        @Override
        public boolean holds(long[] s) {
            return l.owner.get(s) != RwsemCount.RWSEM_READER_OWNED || l.writersHolding(s) == 0;
        }

        @Override
        public String explain(long[] s) {
            return "owner = READER_OWNED while " + decoder.holders(s) + " holds the write lock: the marker is sticky";
        }
    }

    /** The false claim {@code owner NULL => no writer}, kept as a documented test. */
    final class NullOwnerNoWriter extends Invariant {
        NullOwnerNoWriter() {
            super("null-owner-no-writer", RwsemOwnerFactory.describe("null-owner-no-writer"));
        }

        @Override
        public boolean holds(long[] s) {
            return l.owner.get(s) != RwsemCount.NULL || l.writersHolding(s) == 0;
        }

        @Override
        public String explain(long[] s) {
            return "owner = NULL while " + decoder.holders(s) + " holds the write lock";
        }
    }
}
