package kcheck.model.cpudl;

import java.util.List;
import java.util.Set;

import kcheck.model.Catalog;
import kcheck.model.EnvironmentInput;
import kcheck.model.Model;
import kcheck.model.ModelFactory;
import kcheck.model.ParamSpec;
import kcheck.model.Params;
import kcheck.model.Property.Kind;
import kcheck.model.PropertyInfo;
import kcheck.model.VariantContract;
import kcheck.model.VariantInfo;

/**
 * {@code cpudl}: the SCHED_DEADLINE CPU max-heap (kernel/sched/cpudeadline.c, v4.8, v4.9, v6.12)
 * and the hotplug paths that call it. See docs/models/cpudl.md.
 */
public final class CpudlFactory implements ModelFactory {
    public static final String NAME = "cpudl";
    /** Largest {@code --cpus}. */
    public static final int MAX_CPUS = 4096;
    /** Largest {@code depth}. */
    public static final int MAX_DEPTH = 12;

    /** The properties, and the variants with their reference implementations. */
    private static final Catalog<CpudlHeap> CATALOG = new Catalog<CpudlHeap>(NAME)
            .property("heap-order", Kind.INVARIANT, "for every heap slot h >= 1, the parent's deadline is not earlier than slot h's")
            .property("index-consistent", Kind.INVARIANT, "elements[elements[h].cpu].idx == h for h < size; a valid idx points at its "
                    + "CPU's slot; no CPU twice; size = number of CPUs with a valid idx")
            .property("root-is-latest", Kind.INVARIANT, "the root holds a (cpu, dl) of the reference map and no deadline of the map is "
                    + "later (the heap is empty iff the map is)")
            .property("free-cpus", Kind.INVARIANT, "a CPU is in free_cpus iff it has no heap entry")
            .property("find-sound", Kind.STEP, "cpudl_find returns what the reference map gives: v4.x the lowest allowed CPU without a "
                    + "deadline (and, with hotplug, an online runqueue), else the latest CPU if allowed and the task's deadline is earlier, "
                    + "else -1; v4.15+ (1/0 and later_mask) every such free CPU, with asymmetric capacities only those that fit the task or "
                    + "else the largest (task_cpu on a tie), else the latest CPU as before")
            .property("find-capacity", Kind.STEP, "with asymmetric CPU capacities, when the task may run on a free CPU whose capacity fits "
                    + "it (dl_task_fits_capacity), cpudl_find returns a CPU that fits: the CPU it returns (v4.x) or a non-empty later_mask of fitting CPUs (v4.15+)")
            .property("same-heap", Kind.INVARIANT, "while the live keys are distinct and in (0, 2^63), the checked heap and the other "
                    + "version's heap (v4.9 for a v4.8 heap such as before, v4.8 otherwise) have identical slots, index array and size after every operation")
            .property("writes", Kind.METRIC, "element field stores (elements[].cpu/.dl/.idx) of one cpudl_set or cpudl_clear call")
            .property("warn-cpu-present", Kind.INVARIANT, "kernel/sched/cpudeadline.c:179 (cpudl_clear) and :222 (cpudl_set), v6.12: "
                    + "WARN_ON(!cpu_present(cpu)) never fires: every CPU a cpudl_set/cpudl_clear call is made for is a present CPU")
            .property("warn-find-best-cpu", Kind.INVARIANT, "kernel/sched/cpudeadline.c:151 (cpudl_find), v6.12: WARN_ON(best_cpu != -1 && "
                    + "!cpu_present(best_cpu)) never fires: the heap root elements[0].cpu that cpudl_find reads is a present CPU")
            .property("sanity-fields", Kind.INVARIANT, "kernel/sched/cpudeadline.h (struct cpudl): after every call cp->size is in "
                    + "0..nr_cpu_ids, elements[h].cpu (h < size) is a CPU id, elements[c].idx is IDX_INVALID or a slot 0..nr_cpu_ids-1")
            .property("sanity-bounds", Kind.INVARIANT, "no call reads or writes elements[] outside 0..nr_cpu_ids-1 (an out-of-bounds "
                    + "access in the kernel, e.g. elements[IDX_INVALID])")
            .property("bounded-work", Kind.INVARIANT, "every cpudl_set/cpudl_clear (and rq_online_dl/rq_offline_dl) call ends within "
                    + "O(log n) work: at most 64 * (bits(nr_cpu_ids) + 2) element accesses (and, with writes, 16 + 12 * (bits + 2) "
                    + "stores): cpudl_heapify_up/down move one level per iteration and terminate")
            .property("find-race", Kind.INVARIANT, "with find-race=on: a cpudl_find running without cp->lock (kernel/sched/cpudeadline.c:116, "
                    + "v6.12) while a cpudl_set/cpudl_clear stores, reading free_cpus, elements[0].cpu, elements[0].dl at points of its "
                    + "stores in program order, offers only CPUs the task may run on that are free or in the heap before or after the "
                    + "call (a stale or torn answer is allowed: the caller re-checks under the runqueue locks); its WARN_ON at :151 does not fire")
            .variant(VariantInfo.of("before", "v4.8: swap-based sift, cpudl_set(cpu, dl, is_valid), insert stores dl = 0 first "
                    + "(wrap-around bug for dl >= 2^63)"), CpudlV48::new)
            .variant(VariantInfo.of("after", "v4.9: heapify_up/heapify_down without swaps, cpudl_set/cpudl_clear, insert appends the real dl"),
                    CpudlV49::new)
            .variant(VariantInfo.of("rfc-v2", "the July 2016 posting: heapify_up compares the slot's current dl, not the original "
                    + "(an entry climbs one level)"), CpudlRfcV2::new)
            .variant(VariantInfo.of("v6.12", "v6.12.117 (and v6.1.192): v4.9's heap, capacity-aware cpudl_find returning 1/0 with "
                    + "later_mask, cpudl_clear(cp, cpu, online)"), CpudlV612::new)
            .variant(VariantInfo.realBug("382748c05e58", "sched/deadline: only set free_cpus for online runqueues",
                    "mainline after v6.18 (tip sched/core, Oct 2025); 6.1.y and 6.12.y stable",
                    "v6.12 as released: cpudl_clear(cp, cpu) sets the free bit of a CPU whose runqueue is offline"),
                    CpudlBugs.OnlyFreeWhenOnline::new)
            .variant(VariantInfo.realBug("16b269436b72", "sched/deadline: Modify cpudl::free_cpus to reflect rd->online",
                    "before v4.8 (release not confirmed)",
                    "v4.8 heap with v3.14's hotplug paths: free_cpus set for every CPU at init, untouched by rq_online_dl/rq_offline_dl, "
                    + "cpudl_find masked with cpu_active_mask"), CpudlBugs.FreeCpusReflectOnline::new)
            .variant(VariantInfo.realBug("23e71d8ba429", "sched/deadline: Implement fallback mechanism for !fit case",
                    "tip sched/core, Jun 2020 (v5.9 merge window)",
                    "v6.12 cpudl_find without the fallback: returns 0 when free CPUs exist but none fits the task"),
                    CpudlBugs.NoFitFallback::new)
            .variant(VariantInfo.of("v4.8", "v4.8 as released: the swap-based heap of before with fix a23eadfae2fd (the insert stores "
                    + "the real dl, not 0)"), CpudlV48Rc2::new)
            .variant(VariantInfo.realBug("a23eadfae2fd", "sched/deadline: Fix wrap-around in DL heap", "mainline v4.8-rc2",
                    "v4.8 with the insert's dl = 0 store put back (the code of before): a deadline >= 2^63 is sifted down from a leaf"),
                    CpudlBugs.WrapAroundInsert::new)
            .variant(VariantInfo.mutant("mutant-clear-index-order", "v4.9, but cpudl_clear invalidates the CPU's idx before storing the "
                    + "moved CPU's idx"), CpudlMutants.ClearIndexOrder::new)
            .variant(VariantInfo.mutant("mutant-keeps-free-bit", "v4.9, but cpudl_set does not clear the CPU's free_cpus bit on insert"),
                    CpudlMutants.KeepsFreeBit::new)
            .variant(VariantInfo.mutant("mutant-find-ignores-capacity", "v6.12, but cpudl_find offers every free allowed CPU without "
                    + "checking its capacity"), CpudlMutants.FindIgnoresCapacity::new)
            .variant(VariantInfo.mutant("mutant-heapify-up-loops", "v4.9, but cpudl_heapify_up pulls the parent down without moving "
                    + "idx up: the loop never ends once an entry has to climb"), CpudlMutants.HeapifyUpLoops::new)
            .variant(VariantInfo.mutant("mutant-offline-off-by-one", "v6.12, but rq_offline_dl clears cpu + 1: the last CPU's "
                    + "neighbour is not a present CPU"), CpudlMutants.OfflineOffByOne::new)
            .variant(VariantInfo.mutant("mutant-clear-poisons-slot", "v4.9, but cpudl_clear poisons the slot it vacates with "
                    + "nr_cpu_ids: an empty heap's root is not a CPU"), CpudlMutants.ClearPoisonsVacatedSlot::new)
            .variant(VariantInfo.mutant("mutant-clear-shrinks-without-entry", "v4.9, but cpudl_clear decrements cp->size before "
                    + "its IDX_INVALID check: clearing a CPU with no entry shrinks the heap"), CpudlMutants.ClearShrinksWithoutEntry::new);

    static String describe(String id) {
        return CATALOG.describe(id);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String title() {
        return "SCHED_DEADLINE CPU max-heap (kernel/sched/cpudeadline.c, v4.8 -> v4.9, v6.12; hotplug paths of kernel/sched/deadline.c)";
    }

    @Override
    public List<VariantInfo> variants() {
        return CATALOG.variants();
    }

    @Override
    public List<ParamSpec> params() {
        return List.of(
                ParamSpec.integer("cpus", 4, 1, MAX_CPUS, "number of CPUs (heap capacity, nr_cpu_ids)"),
                ParamSpec.integer("depth", 4, 1, MAX_DEPTH, "cpudl_set/cpudl_clear calls per sequence (cpudl_find leaves the heap "
                        + "unchanged and does not count)"),
                ParamSpec.choice("keys", "deadline domain: edge = 0, 2^63, 2^63+1, 2^63+2, 2^63-1, 2^64-1, 2^64-2, 1, 2, 3; "
                        + "small = 1..5; wrap = 2^64-2, 2^64-1, 0, 1, 2", DeadlineDomain.names().toArray(String[]::new)),
                ParamSpec.choice("hotplug", "off: every runqueue online throughout; on: also rq_offline_dl (CPU going down, or the runqueue "
                        + "leaving the root domain) and rq_online_dl (back), each a call counted by depth", "off", "on"),
                ParamSpec.choice("capacity", "CPU capacities: sym = all 1024 (no asymmetric capacity); big-little = lower half 512, rest 1024; "
                        + "any = every little/big assignment as an initial state. With big-little/any each find asks for tasks of density "
                        + "0.25 and 0.75 on every task_cpu", CpudlCapacity.names().toArray(String[]::new)),
                ParamSpec.choice("find-race", "on: besides cpudl_find between whole calls, a lockless cpudl_find racing with every "
                        + "cpudl_set/cpudl_clear, on every view of free_cpus and elements[0] the call's stores expose (property find-race; "
                        + "up to 64 CPUs, off above); off: only between whole calls", "on", "off"));
    }

    @Override
    public List<String> limits() {
        return List.of(
                "Heap deadlines are packed as indices into the keys domain: a variant may store in elements[].dl only 0 or a deadline "
                        + "it was given.",
                "A cpudl_find that returns 1/0 with later_mask (findReturnsCpu() false) must return 0 or 1, and its answers are part of "
                        + "the step number: with find-sound or find-capacity selected, at most about 20 CPUs (fewer with capacity=big-little|any).");
    }

    /** The environment contract (docs/models/cpudl.md, "Environment contract", has the audit behind each row). */
    @Override
    public List<EnvironmentInput> environment() {
        String c = "kernel/sched/cpudeadline.c";
        String d = "kernel/sched/deadline.c";
        return List.of(
                EnvironmentInput.choice("cpudl_set(cp, cpu, dl) / cpudl_clear(cp, cpu, online) calls: which CPU, which deadline, when",
                        d + ":2043 inc_dl_deadline, :2058 and :2065 dec_dl_deadline",
                        "every CPU with every deadline of the keys domain, and a clear of every CPU (with or without an entry), at every step"),
                EnvironmentInput.choice("lockless cpudl_find against a concurrent cpudl_set/cpudl_clear (reads of free_cpus, elements[0].cpu, "
                        + "elements[0].dl without cp->lock)", c + ":122, :149, :153-154 cpudl_find; writers " + c + ":181, :224 under cp->lock",
                        "find-race=on (default): every view of free_cpus and elements[0] the writer's stores expose, read in program order "
                        + "(x86-TSO); property find-race"),
                EnvironmentInput.assumption("memory ordering of those racing loads and stores", c + ":122, :149, :153-154",
                        "program order on both sides (TSO): a reordering weaker architectures allow needs a weak memory model"),
                EnvironmentInput.choice("p->dl.deadline of the task being placed", c + ":154 dl_time_before(dl_se->deadline, elements[0].dl)",
                        "every deadline of the keys domain that keeps the live deadlines in one window of 2^63"),
                EnvironmentInput.choice("p->cpus_mask (affinity) of the task being placed", c + ":122 cpumask_and, :153 cpumask_test_cpu",
                        "all CPUs, each single CPU, all but one CPU, on every find"),
                EnvironmentInput.assumption("p->cpus_mask changing while cpudl_find runs", c + ":122, :153; callers " + d
                        + ":2751 find_later_rq (rq lock or p->pi_lock held)", "stable during one find: __set_cpus_allowed_ptr_locked "
                        + "(kernel/sched/core.c:3033) holds p->pi_lock and the task's rq lock, which every caller of cpudl_find holds"),
                EnvironmentInput.parameter("asymmetric CPU capacity: sched_asym_cpucap_active(), arch_scale_cpu_capacity(cpu), "
                        + "p->dl.dl_density, task_cpu(p)", c + ":126, :131 dl_task_fits_capacity (kernel/sched/sched.h:3347), :134, :137",
                        "capacity=big-little|any: little 512 / big 1024 CPUs, densities 0.25 and 0.75, every task_cpu"),
                EnvironmentInput.parameter("rq->online and the runqueue going offline/online (CPU hotplug, root-domain rebuild)",
                        d + ":2058 cpudl_clear(.., rq->online), :3148 rq_online_dl, :3160 rq_offline_dl; kernel/sched/core.c:8253 "
                        + "sched_set_rq_offline, kernel/sched/topology.c:499 rq_attach_root",
                        "hotplug=on: per CPU online / down (inactive, rq offline) / away (rq in another root domain), with cpudl_set and "
                        + "cpudl_clear on a down runqueue"),
                EnvironmentInput.assumption("the window between cpu_active going false and rq_offline_dl (and back)",
                        "kernel/sched/core.c:8253 sched_cpu_deactivate", "one step: cpu_active_mask is read only by v3.14's cpudl_find "
                        + "(bug-16b269436b72), which the model checks with both changes at once"),
                EnvironmentInput.assumption("cpu_present(cpu)", c + ":151, :179, :222 WARN_ON",
                        "every CPU below nr_cpu_ids is present (no physical hot-remove); warn-cpu-present and warn-find-best-cpu check "
                        + "that the CPU is one"),
                EnvironmentInput.assumption("u64 deadline wrap", c + ":154 and cpudl_heapify_up/down dl_time_before",
                        "live deadlines, the updated CPU's old deadline and the task's lie in one window of 2^63 (clock plus a relative "
                        + "deadline); the keys domain puts that window across 2^63 and across 2^64"),
                EnvironmentInput.parameter("nr_cpu_ids", c + ":254 cpudl_init kcalloc(nr_cpu_ids)", "cpus (1..4096; 4 by default)"),
                EnvironmentInput.assumption("cpudl_init allocation failure (-ENOMEM) and root-domain teardown",
                        c + ":247 cpudl_init, kernel/sched/topology.c:565 init_rootdomain", "allocation succeeds: the failure path is "
                        + "init_rootdomain's, outside cpudeadline.c"),
                EnvironmentInput.assumption("interrupts and other writers during a cpudl_set/cpudl_clear", c + ":181, :224 "
                        + "raw_spin_lock_irqsave(&cp->lock)", "a writer's call is atomic for other writers (the lock, interrupts off); "
                        + "only the lockless reader interleaves"),
                EnvironmentInput.assumption("cpudl_find(cp, p, NULL)", d + ":2508, :2516 check_preempt_equal_dl",
                        "not modelled: with later_mask NULL only the heap branch runs, whose reads find-sound and find-race check"));
    }

    /** The real bugs of v6.x code are fixed by the v6.12 port; the rest by after (v4.9). */
    @Override
    public String fixOf(String variant) {
        if (variant.equals("bug-a23eadfae2fd")) {
            return "v4.8";
        }
        return variant.equals("bug-382748c05e58") || variant.equals("bug-23e71d8ba429") ? "v6.12" : "after";
    }

    /** One line per notation of cpudl traces. */
    @Override
    public List<String> legend() {
        return CpudlDecoder.LEGEND;
    }

    @Override
    public List<PropertyInfo> properties() {
        return CATALOG.properties();
    }

    @Override
    public Model create(String variant, Params params, Set<String> properties) {
        variant(variant);
        return create(variant, CATALOG.implementation(variant), params, properties);
    }

    /** User variants: implementations of {@link CpudlHeap} ({@code variant new}, {@code --variant-file}). */
    @Override
    public VariantContract<CpudlHeap> variantContract() {
        return new VariantContract<>(CpudlHeap.class, CATALOG::implementation, this::create);
    }

    /** Builds the model for any implementation of the variant contract (built in, or the user's). */
    public Model create(String variantName, CpudlHeap impl, Params params, Set<String> properties) {
        checkSelection(properties);
        /* the other version of the heap: chosen by what the implementation says it is, so a user's copy of before
           (version() "v4.8") is compared with v4.9 exactly like before itself */
        CpudlHeap partner = impl.version().startsWith("v4.8") ? new CpudlV49() : new CpudlV48();
        return new CpudlModel(variantName, params, impl, partner, Set.copyOf(properties));
    }

    /** The built-in implementation of a variant (for tests and the generated-input suites). */
    public static CpudlHeap implementation(String variant) {
        return CATALOG.implementation(variant);
    }
}
