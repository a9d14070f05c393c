package kcheck.model.cpudl;

import java.util.ArrayList;
import java.util.List;

import kcheck.model.Invariant;
import kcheck.model.Metric;
import kcheck.model.Property;
import kcheck.model.StepProperty;

/**
 * The property monitors of the cpudl model, on packed states: the invariants (checked through
 * {@link CpudlInvariants}, shared with the generated-input suites), the two find step
 * properties and the {@code writes} metric. Predicates run on several workers at once: each
 * thread decodes into its own {@link Scratch}.
 */
final class CpudlProperties {
    private final CpudlModel m;
    private final CpudlLayout l;
    private final List<Property> list;
    private final ThreadLocal<Scratch> scratch;

    CpudlProperties(CpudlModel m) {
        this.m = m;
        this.l = m.layout;
        final int n = m.n;
        final int w = l.width;
        this.scratch = ThreadLocal.withInitial(() -> new Scratch(n, w));
        List<Property> out = new ArrayList<>();
        for (Property p : List.of(new HeapInvariant("heap-order"), new HeapInvariant("index-consistent"),
                new HeapInvariant("root-is-latest"), new HeapInvariant("free-cpus"), new FindProperty("find-sound"),
                new FindProperty("find-capacity"), new HeapInvariant("same-heap"), new Writes(), new FaultInvariant("warn-cpu-present"),
                new FaultInvariant("warn-find-best-cpu"), new FaultInvariant("sanity-fields"), new FaultInvariant("sanity-bounds"),
                new FaultInvariant("bounded-work"), new FaultInvariant("find-race"))) {
            if (m.selected.contains(p.id())) {
                out.add(p);
            }
        }
        this.list = List.copyOf(out);
    }

    List<Property> list() {
        return list;
    }

    /** Per-thread scratch, with the packed state last decoded into it. */
    private static final class Scratch {
        final Cpudl cp;
        final Cpudl other;
        final CpudlReference ref;
        final long[] heapOf;
        final long[] refOf;
        boolean heapValid;
        boolean refValid;

        Scratch(int n, int width) {
            cp = Cpudl.init(n);
            other = Cpudl.init(n);
            ref = new CpudlReference(n);
            heapOf = new long[width];
            refOf = new long[width];
        }
    }

    /** The thread's scratch with the heap (main, and the other version's) of {@code s} decoded. */
    private Scratch heapOf(long[] s) {
        Scratch x = scratch.get();
        if (!x.heapValid || !java.util.Arrays.equals(x.heapOf, s)) {
            l.decodeMain(s, x.cp, m.asymDims ? m.fixedCapacities() : null);
            if (m.same) {
                l.decodeHeap(s, x.other, true);
            }
            System.arraycopy(s, 0, x.heapOf, 0, l.width);
            x.heapValid = true;
        }
        return x;
    }

    /** The thread's scratch with the reference map of {@code s} decoded. */
    private Scratch refOf(long[] s) {
        Scratch x = scratch.get();
        if (!x.refValid || !java.util.Arrays.equals(x.refOf, s)) {
            l.decodeRef(s, x.ref);
            System.arraycopy(s, 0, x.refOf, 0, l.width);
            x.refValid = true;
        }
        return x;
    }

    private String heapCheck(long[] s, String id) {
        Scratch x = heapOf(s);
        return switch (id) {
            case "heap-order" -> CpudlInvariants.heapOrder(x.cp);
            case "index-consistent" -> CpudlInvariants.indexConsistent(x.cp);
            case "free-cpus" -> m.hotplug ? CpudlInvariants.freeCpus(x.cp, refOf(s).ref) : CpudlInvariants.freeCpus(x.cp);
            case "root-is-latest" -> CpudlInvariants.rootIsLatest(x.cp, refOf(s).ref);
            case "same-heap" -> l.premiseOff.get(s) != 0 ? null
                    : CpudlInvariants.sameHeap(x.cp, x.other, m.variant, m.partner.version());
            default -> throw new IllegalArgumentException(id);
        };
    }

    /**
     * A kernel check or sanity property: violated exactly in the fault states of its codes
     * ({@link CpudlFault}), which a call of the variant reaches when the kernel would flag it.
     */
    private final class FaultInvariant extends Invariant {
        FaultInvariant(String id) {
            super(id, CpudlFactory.describe(id));
        }

        @Override
        public boolean holds(long[] s) {
            int code = l.faultCode(s);
            return code == CpudlFault.NONE || !id().equals(CpudlFault.property(code));
        }

        @Override
        public String explain(long[] s) {
            if (holds(s)) {
                return description();
            }
            if (l.faultCode(s) == CpudlFault.RACE) {
                /* name the racing task as a find step would */
                long task = (short) l.faultValue.getInt(s);
                String label = m.decoder.describe((int) (m.findBase + task * m.codeCount)).label();
                String find = label.substring(0, label.lastIndexOf(" = "));
                return "a lockless " + find + " racing with this call (reading free_cpus, elements[0].cpu and elements[0].dl at "
                        + "points of the call's stores) offers cpu " + l.faultArg.getInt(s) + ", which the task could use neither before "
                        + "nor after the call (not allowed, or neither free nor in the heap)";
            }
            return l.faultExplanation(s);
        }
    }

    /** An invariant checked by {@link #heapCheck}. */
    private final class HeapInvariant extends Invariant {
        HeapInvariant(String id) {
            super(id, CpudlFactory.describe(id));
        }

        @Override
        public boolean holds(long[] s) {
            return heapCheck(s, id()) == null;
        }

        @Override
        public String explain(long[] s) {
            String why = heapCheck(s, id());
            return why == null ? description() : why;
        }
    }

    /**
     * {@code find-sound}: each cpudl_find step's answer is one the reference map allows;
     * {@code find-capacity}: when a free allowed CPU fits the task, the answer fits.
     */
    private final class FindProperty extends StepProperty {
        private final boolean capacity;

        FindProperty(String id) {
            super(id, CpudlFactory.describe(id));
            this.capacity = id.equals("find-capacity");
        }

        private String check(long[] from, int action) {
            if (action < m.findBase) {
                return null;
            }
            if (capacity && !m.asymDims) {
                return null; /* symmetric capacities: the property is vacuous (no allocation on the hot path) */
            }
            if (m.findCpu && !capacity) {
                /* v4.x: the task is (deadline, affinity) only; decoded without allocating */
                int f = action - m.findBase;
                int codes = (int) m.codeCount; /* n + 2 for a v4.x find; int arithmetic, as the step number is an int */
                int code = f % codes;
                int rest = f / codes / (m.taskCpus * m.densities.length);
                int a = rest % m.affCount;
                int t = rest / m.affCount;
                int ans = code == m.n + 1 ? m.n : code - 1;
                return CpudlInvariants.findSound(ans, m.dom.value(t), m.aff[a], refOf(from).ref);
            }
            CpudlDecoder.Find f = m.decoder.find(action);
            CpudlReference ref = refOf(from).ref;
            if (capacity) {
                return CpudlInvariants.findCapacity(m.findCpu ? (f.mask() != 0 ? 1 : 0) : f.ret(), f.mask(), f.task(), ref,
                        heapOf(from).cp);
            }
            return CpudlInvariants.findSoundMask(f.ret(), f.mask(), f.task(), ref, heapOf(from).cp);
        }

        @Override
        public boolean holds(long[] from, int actor, int action, long[] to) {
            return check(from, action) == null;
        }

        @Override
        public String explain(long[] from, int actor, int action, long[] to) {
            String why = check(from, action);
            return why == null ? description() : why;
        }
    }

    /** {@code writes}: element stores of the last cpudl_set and cpudl_clear call. */
    private final class Writes extends Metric {
        Writes() {
            super("writes", CpudlFactory.describe("writes"));
        }

        @Override
        public int components() {
            return 2;
        }

        @Override
        public String componentName(int c) {
            return c == 0 ? "cpudl_set" : "cpudl_clear";
        }

        @Override
        public long value(long[] s, int c) {
            return l.depth.getInt(s) > 0 && l.opKind.getInt(s) == c ? l.writes.get(s) : 0;
        }
    }
}
