package kcheck.model.rqlock;

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
 * {@code rq-lock}: fair {@code double_lock_balance()} (kernel/sched.c, 2.6.27 to 2.6.28, commit
 * 8f45e2b51620), and the same function in v6.12 (kernel/sched/sched.h) over ticket, test-and-set
 * and queued spinlocks. See docs/models/rq-lock.md.
 */
public final class RqLockFactory implements ModelFactory {
    public static final String NAME = "rq-lock";

    /** The properties, and the variants with their reference implementations. */
    private static final Catalog<DoubleLockBalance> CATALOG = new Catalog<DoubleLockBalance>(NAME)
            .property("mutual-exclusion", Kind.INVARIANT, "no two CPUs hold one rq lock")
            .property("deadlock-free", Kind.DEADLOCK, "some step is enabled until every CPU has finished")
            .property("holds-both-on-return", Kind.STEP, "on return the caller holds this_rq and busiest")
            .property("return-contract", Kind.STEP, "return 0 implies this_rq was held throughout the call")
            .property("fifo-entry", Kind.STEP, "if CPU a, inside double_lock_balance, is waiting for lock L when CPU b enters "
                    + "double_lock_balance, then b does not return holding L while a is still in that same wait")
            .property("starvation-free", Kind.PROGRESS, "no fair run in which a CPU stays inside one spin_lock of an rq lock for "
                    + "ever: the CPUs balance for ever, weak fairness of the CPUs (every CPU runs on every cycle; a spinner whose "
                    + "condition is false runs its load and finds nothing changed); a lasso whose cycle leaves the watched CPU in "
                    + "its spin_lock (test-and-set fallbacks, a cmpxchg or pending loop with no bound)")
            .property("warn-unlock-unheld", Kind.STEP, "kernel/locking/lockdep.c:5284 (v6.12) print_unlock_imbalance_bug and "
                    + "kernel/locking/spinlock_debug.c:101-102 debug_spin_unlock (SPIN_BUG_ON !raw_spin_is_locked / owner != "
                    + "current): no CPU releases an rq lock (raw_spin_rq_unlock, spin_unlock) it does not hold")
            .property("sanity-lock-word", Kind.INVARIANT, "every rq lock word holds what its type means: a ticket lock's next - "
                    + "serving counts the CPUs waiting with a ticket or holding it; a qspinlock's tail names a CPU queued on it "
                    + "(a live MCS node), its pending bit belongs to a CPU in the pending path that set it, its locked byte is "
                    + "set iff a CPU holds it (or has set it as queue head before the hand-over); a test-and-set flag iff held")
            .optInProperty("bypass", Kind.METRIC, "per CPU id: the largest number of double_lock_balance returns by other CPUs "
                    + "while this CPU is inside its own call (opt-in: its counters multiply the states; with starvation-free the "
                    + "runs are infinite and the count stops at rounds * calls * (cpus - 1) + 1, meaning more than any finite run "
                    + "allows)")
            .optInProperty("overtake", Kind.METRIC, "per CPU id: the largest number of times, within one double_lock_balance call, "
                    + "that a CPU which entered after it was already waiting returns holding the lock it still waits for "
                    + "(opt-in, as bypass; with starvation-free it stops at rounds * calls * (cpus - 1) + 1)")
            .optInProperty("lockdep-subclass", Kind.STEP, "no CPU takes an rq lock (spin_lock / spin_lock_nested) at a lockdep "
                    + "subclass at which it already holds another rq lock: lockdep's 'possible recursive locking' (rq locks are one "
                    + "lock class); opt-in: variant files written before spin_lock_nested was recorded say spin_lock for both")
            .optInProperty("rq-clock-cleared", Kind.STEP, "when double_lock_balance returns, RQCF_UPDATED of this_rq and busiest "
                    + "was cleared (double_rq_clock_clear_update) since their locks were taken, so the caller's update_rq_clock "
                    + "does not WARN_DOUBLE_CLOCK; opt-in: kernels before v5.19 have no such clearing")
            .variant(VariantInfo.of("before", "2.6.27: keeps this_rq locked when busiest is the higher rq (favours low CPUs)"),
                    DoubleLockBalanceV2627::new)
            .variant(VariantInfo.of("after", "2.6.28 (8f45e2b51620): drops this_rq, then double_rq_lock takes both in order "
                    + "(preempt=n: the !CONFIG_PREEMPT body the patch left unfair)"), DoubleLockBalanceV2628::new)
            .variant(VariantInfo.of("v6.12", "v6.12 kernel/sched/sched.h: raw_spin_rq_* on __rq_lockp, double_rq_lock with "
                    + "rq_order_less (preempt=y|n: CONFIG_PREEMPTION; core-sched=pairs: SMT siblings share a lock)"),
                    DoubleLockBalanceV612::new)
            .variant(VariantInfo.mutant("mutant-returns-zero", "after, but returns 0 although this_rq was dropped"),
                    RqLockMutants.ReturnsZero::new)
            .variant(VariantInfo.mutant("mutant-skips-relock", "before, but does not re-take this_rq after dropping it"),
                    RqLockMutants.SkipsRelock::new)
            .variant(VariantInfo.mutant("mutant-unordered", "after, but takes this_rq before busiest regardless of order"),
                    RqLockMutants.Unordered::new)
            .variant(VariantInfo.mutant("mutant-unlocks-this", "double_unlock_balance releases this_rq instead of busiest"),
                    RqLockMutants.UnlocksThis::new)
            .variant(RqLockRealBugs.BUG_1B12, RqLockRealBugs.Bug1b12bbc74756::new)
            .variant(RqLockRealBugs.BUG_7F1B, RqLockRealBugs.Bug7f1b43936f0e::new)
            .variant(RqLockRealBugs.BUG_2679, RqLockRealBugs.Bug2679a83731d5::new)
            .variant(RqLockRealBugs.BUG_59FB, RqLockRealBugs.Bug59fb586b4a07::new)
            .variant(RqLockRealBugs.BUG_7AA5, RqLockRealBugs.Bug7aa54be29765::new)
            .variant(RqLockRealBugs.BUG_95BC, RqLockRealBugs.Bug95bcade33a8a::new)
            .variant(VariantInfo.mutant("mutant-split-trylock", "after, over a ticket lock (whatever 'lock' says) whose "
                    + "spin_trylock reads the lock word and claims it in two steps (a test, then a set)"), RqLockMutants.SplitTrylock::new)
            .variant(VariantInfo.mutant("mutant-qspinlock-no-undo", "v6.12 over qspinlock whose pending path does not clear the "
                    + "pending bit it set before queueing (the 'Undo PENDING if we set it' lines dropped)"),
                    RqLockMutants.QspinlockNoUndo::new)
            .variant(VariantInfo.mutant("mutant-cpu-id-order", "v6.12 whose rq_order_less ignores rq->core (CPU id only), "
                    + "the AB-BA its comment warns of under core-sched=pairs"), RqLockMutants.CpuIdOrder::new);

    static String describe(String id) {
        return CATALOG.describe(id);
    }

    /**
     * A fresh instance of the reference implementation behind a catalogue variant (the same code
     * the model records), for code that runs it directly, e.g. on real threads.
     */
    public static DoubleLockBalance implementation(String variant) {
        return CATALOG.implementation(variant);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String title() {
        return "fair double_lock_balance (kernel/sched.c, 2.6.27 -> 2.6.28, 8f45e2b51620; kernel/sched/sched.h, v6.12)";
    }

    @Override
    public List<VariantInfo> variants() {
        return CATALOG.variants();
    }

    @Override
    public List<ParamSpec> params() {
        return List.of(
                ParamSpec.integer("cpus", 2, 2, 8, "number of CPUs (and runqueues)"),
                ParamSpec.integer("rounds", 1, 1, 4, "balancing passes per CPU"),
                ParamSpec.choice("lock", "runqueue spinlock (a variant may bring its own): x86 ticket lock (2.6.25), "
                        + "test-and-set, v6.12 qspinlock, qspinlock with the virt_spin_lock test-and-set fallback",
                        RqSpinlocks.KINDS.toArray(String[]::new)),
                ParamSpec.choice("preempt", "CONFIG_PREEMPT (2.6.28) / CONFIG_PREEMPTION (v6.12): which _double_lock_balance "
                        + "body after and v6.12 have (before has one body)", "y", "n"),
                ParamSpec.choice("core-sched", "v6.12 core scheduling: SMT siblings cpu i and i + cpus/2 share one rq lock "
                        + "(__rq_lockp), locks ordered by core then CPU", "none", "pairs"),
                ParamSpec.integer("calls", 1, 1, 3, "double_lock_balance calls per hold of this_rq (pull_rt_task loops over CPUs)"),
                ParamSpec.quietChoice("fifo-monitor", "fifo-entry's monitor (a reduction, the same verdicts): each call's set of CPUs "
                        + "waiting at its entry, or one call's, the one the search chooses to watch (fewer states at 5 CPUs and more)",
                        "each", "one"));
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

    /** User variants: implementations of {@link DoubleLockBalance} ({@code variant new}, {@code --variant-file}). */
    @Override
    public VariantContract<DoubleLockBalance> variantContract() {
        return new VariantContract<>(DoubleLockBalance.class, CATALOG::implementation, this::create);
    }

    /** Builds the model for any implementation of the variant contract (built in, or the user's). */
    public Model create(String variantName, DoubleLockBalance impl, Params params, Set<String> properties) {
        checkSelection(properties);
        int cpus = params.integer("cpus");
        RqConfig config = new RqConfig(cpus, params.get("core-sched").equals("pairs"), params.get("preempt").equals("y"));
        RqSpinlock lock = impl.spinlock(params.get("lock"));
        if (lock == null) {
            throw new kcheck.model.ModelInputException("variant '" + variantName + "': spinlock(\"" + params.get("lock")
                    + "\") returned null");
        }
        RqLockProgram prog = new RqLockProgram(impl, variantName, config, lock, params.integer("calls"));
        return new RqLockModel(variantName, params, prog, Set.copyOf(properties));
    }

    /** The environment contract (docs/models/rq-lock.md, "Environment contract"). */
    @Override
    public List<EnvironmentInput> environment() {
        return ENVIRONMENT;
    }

    static final List<EnvironmentInput> ENVIRONMENT = List.of(
            EnvironmentInput.choice("which CPU runs next (the interleaving of the CPUs' atomic steps)",
                    "every lock-word and MCS-node access of kernel/locking/qspinlock.c, include/asm-generic/qspinlock.h, "
                            + "arch/x86/include/asm/qspinlock.h (v6.12) and the ticket/test-and-set ports",
                    "every interleaving, one atomic access per step; starvation-free adds weak fairness of the CPUs (every CPU "
                            + "runs on a cycle; a spin whose condition is false is a step that changes nothing)"),
            EnvironmentInput.choice("the spinlock's state seen by a trylock (raw_spin_rq_trylock / spin_trylock outcome)",
                    "kernel/sched/sched.h:3022 _double_lock_balance (!CONFIG_PREEMPTION), kernel/sched/core.c:628 "
                            + "raw_spin_rq_trylock, include/asm-generic/qspinlock.h:90 queued_spin_trylock, "
                            + "kernel/locking/qspinlock.c:443 (slowpath trylock before xchg_tail)",
                    "not a coin: the real trylock runs on the modelled lock word, so it fails exactly when another CPU's "
                            + "interleaved steps hold or queue for the lock; RecordedCode records both branches"),
            EnvironmentInput.choice("busiest: the runqueue the caller pulls from",
                    "kernel/sched/rt.c pull_rt_task / find_lock_lowest_rq, kernel/sched/deadline.c pull_dl_task (callers of "
                            + "double_lock_balance, kernel/sched/sched.h:3044)",
                    "every other CPU, one branch each per call"),
            EnvironmentInput.parameter("calls per hold of this_rq (pull_rt_task loops over the overloaded CPUs)",
                    "kernel/sched/rt.c pull_rt_task, push_rt_task retry (callers of double_lock_balance / double_unlock_balance)",
                    "calls=1..3 (default 1); rounds=1..4 passes per CPU, or for ever with starvation-free"),
            EnvironmentInput.parameter("CONFIG_PREEMPTION (which _double_lock_balance body)",
                    "kernel/sched/sched.h:2987 (#ifdef CONFIG_PREEMPTION), 2.6.28 kernel/sched.c (CONFIG_PREEMPT)",
                    "preempt=y (fair body, default) | n (trylock body)"),
            EnvironmentInput.parameter("core scheduling: sched_core_disabled(), __rq_lockp(rq), rq->core",
                    "kernel/sched/sched.h:1404/1421 and 1507/1517 (__rq_lockp), 2959 rq_order_less, 3021 and 3053, "
                            + "kernel/sched/core.c:609 and 617-625 raw_spin_rq_lock_nested, 669 double_rq_lock",
                    "core-sched=none (own locks, CPU-id order) | pairs (SMT siblings i and i+cpus/2 share the lock of rq->core)"),
            EnvironmentInput.assumption("rq->core changing while core scheduling is switched on or off (the retry loop of "
                    + "raw_spin_rq_lock_nested)",
                    "kernel/sched/core.c:617-625 raw_spin_rq_lock_nested, 636-647 raw_spin_rq_trylock",
                    "the topology is fixed for a run: sched_core_enable/disable (stop_machine + synchronize_rcu) is not "
                            + "interleaved; the loop then takes its lock on the first pass"),
            EnvironmentInput.assumption("interrupts: lockdep_assert_irqs_disabled()",
                    "kernel/sched/sched.h:3046 double_lock_balance, kernel/sched/core.c:663 double_rq_lock",
                    "every caller holds this_rq with interrupts disabled (rq locks are taken irq-safe), so the assertion holds "
                            + "by construction and no hardirq or softirq runs on a CPU inside the ported code"),
            EnvironmentInput.assumption("NMI nesting on one CPU: qspinlock's per-CPU qnodes[MAX_NODES = 4], idx in the tail, "
                    + "the idx >= MAX_NODES fallback to trylock spinning",
                    "kernel/locking/qspinlock.c:398-418 (node->count++, encode_tail(cpu, idx), the MAX_NODES fallback: "
                            + "while (!queued_spin_trylock(lock)) at 415), 562 (__this_cpu_dec of the count)",
                    "rq locks are taken with interrupts off and never from NMI, so at most one context per CPU is ever in "
                            + "rq-lock code: a hardirq may take an rq lock while its task is in another lock's slowpath (its node is "
                            + "then qnodes[1] or [2], which only renames the node: one node per CPU is exact), and an NMI nesting "
                            + "on top uses qnodes[idx+1] and another lock's word, to the rq locks a pause of that CPU, which the "
                            + "interleavings contain; an rq-lock slowpath runs at idx <= 2, so the idx >= MAX_NODES fallback is "
                            + "unreachable for rq locks (it needs NMI-in-NMI)"),
            EnvironmentInput.assumption("preemption points and need_resched",
                    "kernel/sched/core.c:608 and 634 (preempt_disable in raw_spin_rq_lock_nested / raw_spin_rq_trylock)",
                    "no preemption point: the ported functions run with preemption and interrupts disabled and read no "
                            + "need_resched"),
            EnvironmentInput.assumption("cpu_active / cpu_online of this_rq and busiest",
                    "callers only: kernel/sched/rt.c find_lock_lowest_rq / pull_rt_task, kernel/sched/deadline.c "
                            + "find_lock_later_rq (checks after double_lock_balance returns)",
                    "the ported functions read no hotplug state and every possible CPU's rq lock is a working spinlock; the "
                            + "callers' re-checks after relocking are not ported"),
            EnvironmentInput.assumption("vCPU preemption, pv_wait / pv_kick, the pv hash (paravirt qspinlock)",
                    "kernel/locking/qspinlock_paravirt.h (pv_wait_node, pv_kick_node, pv_wait_head_or_lock, pv_hash), "
                            + "kernel/locking/qspinlock.c:321 pv_enabled(), 573",
                    "not modelled: lock=qspinlock is native (pv_enabled() false), lock=qspinlock-virt is a guest without "
                            + "PARAVIRT_SPINLOCKS (virt_spin_lock's test-and-set); a host descheduling a vCPU is outside weak "
                            + "fairness of CPUs"),
            EnvironmentInput.assumption("memory ordering (acquire/release, smp_wmb before xchg_tail, smp_cond_load_*)",
                    "kernel/locking/qspinlock.c:451 smp_wmb, 460 xchg_tail and the acquire loads after it, kernel/locking/mcs_spinlock.h:32/44, include/asm-generic/qspinlock.h:123",
                    "sequential consistency: every access is atomic and at once visible; bugs of ordering need a weak memory model"),
            EnvironmentInput.assumption("_Q_PENDING_LOOPS (the bounded pending->locked wait)",
                    "kernel/locking/qspinlock.c:334-336, arch/x86/include/asm/qspinlock.h:11",
                    "untimed: the bounded loop is one load (giving up equals proceeding on a load that still reads "
                            + "_Q_PENDING_VAL)"),
            EnvironmentInput.parameter("lockdep subclass of each rq lock taken (SINGLE_DEPTH_NESTING, lock_set_subclass)",
                    "kernel/sched/sched.h:3028 and 3055, kernel/sched/core.c:670",
                    "recorded per path; checked by lockdep-subclass (opt-in)"),
            EnvironmentInput.parameter("RQCF_UPDATED of this_rq and busiest (double_rq_clock_clear_update)",
                    "kernel/sched/sched.h:3023 and 3029, kernel/sched/core.c:672",
                    "recorded per path; checked by rq-clock-cleared (opt-in: kernels before v5.19 have no clearing)"));

    @Override
    public List<String> limits() {
        return LIMITS;
    }

    /** What the model assumes of a variant (its code and its spinlock), one sentence each. */
    static final List<String> LIMITS = List.of(
            "double_lock_balance and double_unlock_balance perform at most " + RecordedCode.MAX_PATH
                    + " lock primitives on one path and have at most " + RecordedCode.MAX_RUNS
                    + " paths (so they may not loop on spin_trylock), and are deterministic given the trylock outcomes.",
            "They name runqueue locks 0..cpus-1 only.",
            "A spinlock's lock word has at most 8 fields and every field, register and node field at most 16 bits; "
                    + "a step that stores a value wider than its declared field stops the check.",
            "Ticket counters are packed in " + TicketSpinlock.BITS + " bits: at most " + ((1 << TicketSpinlock.BITS) - 1)
                    + " CPUs (the model has at most 8).",
            "A spinlock step accesses only the lock-word fields and nodes its footprint(pc) declares, and goes only where "
                    + "successors(pc) declares (partial-order reduction relies on both).",
            "A spinlock's node accesses are attributed to the lock being taken only for the built-in qspinlock; "
                    + "other locks' node steps are never reduced.");

    /** One line per notation of the rq-lock traces, for renderers and {@code kcheck list}. */
    @Override
    public List<String> legend() {
        return RqLockDecoder.LEGEND;
    }
}
