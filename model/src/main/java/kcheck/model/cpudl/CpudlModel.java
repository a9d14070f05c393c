package kcheck.model.cpudl;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import kcheck.model.FieldSink;
import kcheck.model.Kernel;
import kcheck.model.ModelInputException;
import kcheck.model.Model;
import kcheck.model.Params;
import kcheck.model.Property;
import kcheck.model.StateSink;
import kcheck.model.StepInfo;
import kcheck.model.StepSink;

/**
 * The cpudl model: one actor, the caller holding {@code cp->lock}, performs whole operations with
 * arguments from a finite domain: {@code cpudl_set(cpu, dl)} for every CPU and every deadline of
 * the domain, {@code cpudl_clear(cpu)} for every CPU, and (when {@code find-sound} or
 * {@code find-capacity} is selected) {@code cpudl_find} for every deadline and every affinity of
 * the domain (all CPUs, each single CPU, all but one CPU), and with asymmetric capacities every
 * task density and {@code task_cpu}. With {@code hotplug=on}, also {@code rq_offline_dl} (the CPU
 * going down, or its runqueue leaving the root domain) and {@code rq_online_dl} (coming back).
 *
 * <p>This class holds the configuration and wires the four seams together: {@link CpudlLayout}
 * (packing), {@link CpudlSteps} (step enumeration, one per thread), {@link CpudlProperties}
 * (monitors) and {@link CpudlDecoder} (fields and labels for traces).
 *
 * <p>Abstractions, each exact: heap slots {@code h >= max(size, 1)} are stored as zero (no
 * operation reads a slot beyond {@code size} that an earlier operation left there; slot 0 is
 * kept because {@code cpudl_find} reads {@code elements[0]} even when the heap is empty).
 * {@code cpudl_find} changes nothing, so its steps are self-loops that do not count towards the
 * depth. Environment assumption (docs/models/cpudl.md): live deadlines, and the deadline of a
 * task being placed, always lie within one window of 2^63, so a call that would break that is not
 * offered.
 */
public final class CpudlModel implements Model {
    final String variant;
    final Params params;
    final CpudlHeap impl;
    final CpudlHeap partner;
    final Set<String> selected;
    final int n;
    final int maxDepth;
    final DeadlineDomain dom;
    final int dn;
    final boolean findSteps;
    final boolean same;
    final boolean writesOn;
    final boolean hotplug;
    final String capacityMode;
    final boolean asymDims;
    final boolean findCpu;
    /** {@code find-race=on}: a lockless cpudl_find races with every cpudl_set/cpudl_clear ({@link CpudlRace}). */
    final boolean findRace;

    final Cpumask[] aff;
    final int affCount;
    final long[] densities;
    final int taskCpus;
    final long codeCount;

    final CpudlLayout layout;
    final int clearBase;
    final int clearOffBase;
    final int hotplugBase;
    final int raceBase;
    final int findBase;

    final String setCite;
    final String clearCite;
    final String onlineCite;
    final String offlineCite;
    final String findCite;

    final CpudlDecoder decoder;
    final CpudlProperties properties;
    private final CpudlSteps steps;

    CpudlModel(String variant, Params params, CpudlHeap impl, CpudlHeap partner, Set<String> selected) {
        this.variant = variant;
        this.params = params;
        this.impl = impl;
        this.partner = partner;
        this.selected = selected;
        this.n = params.integer("cpus");
        this.maxDepth = params.integer("depth");
        this.dom = DeadlineDomain.named(params.get("keys"));
        this.dn = dom.size();
        this.findSteps = selected.contains("find-sound") || selected.contains("find-capacity");
        this.same = selected.contains("same-heap");
        this.writesOn = selected.contains("writes");
        this.hotplug = params.asMap().getOrDefault("hotplug", "off").equals("on");
        this.capacityMode = params.asMap().getOrDefault("capacity", "sym");
        this.asymDims = !capacityMode.equals("sym");
        this.findCpu = impl.findReturnsCpu();
        /* the racing reader reads free_cpus as one word: above 64 CPUs find-race is off (documented with the parameter) */
        this.findRace = params.asMap().getOrDefault("find-race", "on").equals("on") && selected.contains("find-race") && n <= 64;

        List<Cpumask> masks = new ArrayList<>();
        Cpumask all = new Cpumask(n);
        all.setAll();
        masks.add(all);
        if (n >= 2) {
            for (int c = 0; c < n; c++) {
                Cpumask one = new Cpumask(n);
                one.setCpu(c);
                masks.add(one);
            }
        }
        if (n >= 3) {
            for (int c = 0; c < n; c++) {
                Cpumask others = new Cpumask(n);
                others.setAll();
                others.clearCpu(c);
                masks.add(others);
            }
        }
        this.aff = masks.toArray(Cpumask[]::new);
        this.affCount = aff.length;
        this.densities = asymDims ? CpudlCapacity.DENSITIES : new long[] {0};
        this.taskCpus = asymDims ? n : 1;

        this.layout = new CpudlLayout(n, maxDepth, dom, writesOn, same, hotplug, capacityMode.equals("any"));
        this.clearBase = n * dn;
        this.clearOffBase = clearBase + n;
        this.hotplugBase = clearOffBase + (hotplug ? n : 0);
        this.raceBase = hotplugBase + (hotplug ? 4 * n : 0);
        this.findBase = raceBase + (findRace ? hotplugBase : 0);
        this.codeCount = findCpu ? n + 2 : 1L << Math.min(n + 1, 62);
        if (findSteps && !findStepsFit(n, dn, findCpu, asymDims, hotplug)) {
            int max = 1;
            while (max < CpudlFactory.MAX_CPUS && findStepsFit(max + 1, dn, findCpu, asymDims, hotplug)) {
                max++;
            }
            throw new ModelInputException("cpudl: with find-sound or find-capacity, a cpudl_find step is numbered by its task and its "
                    + "answer (" + (findCpu ? "a CPU" : "the return value and later_mask, 2^(cpus+1) answers") + ") within 2^31 step "
                    + "numbers: variant " + variant + " with keys=" + params.get("keys") + " capacity=" + capacityMode + " hotplug="
                    + (hotplug ? "on" : "off") + " fits at most " + max + " CPUs, got " + n + "; use " + max + " or fewer, or "
                    + "leave find-sound and find-capacity out");
        }

        this.setCite = cite(impl, "set", "cpudl_set", Cpudl.class, int.class, long.class);
        String c3 = citeOrNull(impl, "clear", Cpudl.class, int.class, boolean.class);
        this.clearCite = c3 != null ? c3 : cite(impl, "clear", "cpudl_clear", Cpudl.class, int.class);
        this.onlineCite = cite(impl, "rqOnlineDl", "rq_online_dl", Cpudl.class, int.class, boolean.class, long.class);
        this.offlineCite = cite(impl, "rqOfflineDl", "rq_offline_dl", Cpudl.class, int.class);
        String f = citeOrNull(impl, "find", Cpudl.class, DlTask.class, Cpumask.class);
        if (f == null) {
            f = citeOrNull(impl, "find", Cpudl.class, long.class, Cpumask.class, Cpumask.class);
        }
        if (f == null) {
            f = "cpudl_find (kernel/sched/cpudeadline.c, " + impl.version() + ")";
            try {
                f = Kernel.Cite.of(CpudlFind.class.getMethod("cpudlFind", Cpudl.class, long.class, Cpumask.class, Cpumask.class)
                        .getAnnotation(Kernel.class));
            } catch (NoSuchMethodException e) {
                // keep the fallback
            }
        }
        this.findCite = f;
        this.decoder = new CpudlDecoder(this);
        this.properties = new CpudlProperties(this);
        this.steps = new CpudlSteps(this);
    }

    /**
     * True if the cpudl_find steps on {@code n} CPUs can be numbered: every task (deadline x
     * affinity x density x task_cpu) times every answer, after the other steps, within an int.
     * Mirrors the step numbering of the constructor and {@link CpudlSteps}.
     */
    static boolean findStepsFit(int n, int dn, boolean findCpu, boolean asym, boolean hotplug) {
        if (!findCpu && n > 62) {
            return false;
        }
        long affinities = 1 + (n >= 2 ? n : 0) + (n >= 3 ? n : 0);
        long tasks = dn * affinities * (asym ? CpudlCapacity.DENSITIES.length * (long) n : 1);
        long findBase = 2 * ((long) n * dn + n + (hotplug ? 5L * n : 0)); /* with find-race's steps */
        long codes = findCpu ? n + 2 : 1L << Math.min(n + 1, 62);
        return tasks <= (Integer.MAX_VALUE - findBase) / codes;
    }

    private CpudlModel(CpudlModel m) {
        this.variant = m.variant;
        this.params = m.params;
        this.impl = m.impl;
        this.partner = m.partner;
        this.selected = m.selected;
        this.n = m.n;
        this.maxDepth = m.maxDepth;
        this.dom = m.dom;
        this.dn = m.dn;
        this.findSteps = m.findSteps;
        this.same = m.same;
        this.writesOn = m.writesOn;
        this.hotplug = m.hotplug;
        this.capacityMode = m.capacityMode;
        this.asymDims = m.asymDims;
        this.findCpu = m.findCpu;
        this.aff = m.aff;
        this.affCount = m.affCount;
        this.densities = m.densities;
        this.taskCpus = m.taskCpus;
        this.codeCount = m.codeCount;
        this.layout = m.layout;
        this.clearBase = m.clearBase;
        this.clearOffBase = m.clearOffBase;
        this.hotplugBase = m.hotplugBase;
        this.raceBase = m.raceBase;
        this.findBase = m.findBase;
        this.findRace = m.findRace;
        this.setCite = m.setCite;
        this.clearCite = m.clearCite;
        this.onlineCite = m.onlineCite;
        this.offlineCite = m.offlineCite;
        this.findCite = m.findCite;
        this.decoder = m.decoder;
        this.properties = m.properties;
        this.steps = new CpudlSteps(this);
    }

    @Override
    public Model fork() {
        return new CpudlModel(this);
    }

    private static String citeOrNull(CpudlHeap impl, String method, Class<?>... types) {
        try {
            Method m = impl.getClass().getMethod(method, types);
            Kernel k = m.getAnnotation(Kernel.class);
            return k == null ? null : Kernel.Cite.of(k);
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    private static String cite(CpudlHeap impl, String method, String fallback, Class<?>... types) {
        String c = citeOrNull(impl, method, types);
        return c != null ? c : fallback + " (kernel/sched/cpudeadline.c, " + impl.version() + ")";
    }

    /** The capacities of a state without capacity bits (null when each state carries its own). */
    long[] fixedCapacities() {
        return CpudlCapacity.fixed(capacityMode, n);
    }

    @Override
    public String name() {
        return CpudlFactory.NAME;
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
        return layout.width;
    }

    @Override
    public void initial(StateSink out) {
        Cpudl init = Cpudl.init(n);
        int configs = capacityMode.equals("any") ? 1 << n : 1;
        for (int cfg = 0; cfg < configs; cfg++) {
            long[] s = new long[layout.width];
            layout.encodeMain(init, s);
            if (same) {
                layout.encodeHeap(init, s, true);
            }
            if (capacityMode.equals("any")) {
                for (int c = 0; c < n; c++) {
                    layout.big[c].set(s, (cfg >> c) & 1);
                }
            }
            out.state(s);
        }
    }

    @Override
    public void successors(long[] s, StepSink out) {
        steps.successors(s, out);
    }

    @Override
    public boolean isFinal(long[] s) {
        return layout.depth.getInt(s) == maxDepth || layout.faultCode(s) != CpudlFault.NONE;
    }

    @Override
    public List<String> actors() {
        return List.of("caller");
    }

    @Override
    public StepInfo describe(int actor, int action) {
        return decoder.describe(action);
    }

    @Override
    public void decode(long[] s, FieldSink out) {
        decoder.decode(s, out);
    }

    @Override
    public List<Property> properties() {
        return properties.list();
    }

    /**
     * The heap, {@code free_cpus} and environment of a packed state, as a {@link Cpudl} (for the
     * conformance walk, which runs the same calls through the kernel's own C).
     */
    public Cpudl heapOf(long[] s) {
        Cpudl c = Cpudl.init(n);
        layout.decodeMain(s, c, asymDims ? fixedCapacities() : null);
        return c;
    }

    /** Each call the model offers at {@code s} that changes the heap, in step order (for the conformance walk). */
    public void calls(long[] s, CpudlSteps.CallSink sink) {
        steps.calls(s, sink);
    }

    /** The variant's implementation. */
    public CpudlHeap implementation() {
        return impl;
    }
}
