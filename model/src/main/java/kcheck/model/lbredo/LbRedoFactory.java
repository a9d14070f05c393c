package kcheck.model.lbredo;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import kcheck.model.Catalog;
import kcheck.model.Model;
import kcheck.model.ModelFactory;
import kcheck.model.ModelInputException;
import kcheck.model.ParamSpec;
import kcheck.model.Params;
import kcheck.model.Property.Kind;
import kcheck.model.PropertyInfo;
import kcheck.model.VariantContract;
import kcheck.model.VariantInfo;

/**
 * {@code lb-redo}: the bounded redo of {@code load_balance()} (kernel/sched/fair.c, v5.11, the
 * RFC of 2021-01-25 (https://lore.kernel.org/lkml/1611554578-6464-1-git-send-email-aubrey.li@intel.com/),
 * v5.13 with acb4decc1e90, and {@code sched_balance_rq()} of v6.12), with its real bugs. See
 * docs/models/lb-redo.md.
 */
public final class LbRedoFactory implements ModelFactory {
    public static final String NAME = "lb-redo";

    /** The properties, and the variants with their reference implementations. */
    private static final Catalog<LoadBalance> CATALOG = new Catalog<LoadBalance>(NAME)
            .property("terminates", Kind.STEP, "redos per call <= |cpus0 \\ local group| - 1 (so <= |cpus0| - 1), "
                    + "and env->cpus only shrinks")
            .property("call-returns", Kind.PROGRESS, "every load_balance call returns: no reachable cycle (CPU 0 never loops "
                    + "through redo or more_balance for ever)")
            .property("all-pinned-sound", Kind.STEP, "whenever the LBF_ALL_PINNED branch is taken, at least one task of busiest "
                    + "was examined by can_migrate_task")
            .property("no-spurious-redo", Kind.STEP, "a redo happens only after at least one task of busiest was examined and "
                    + "every examined task was refused because its affinity excludes dst_cpu")
            .property("pinned-redo-kept", Kind.STEP, "when the LBF_ALL_PINNED branch is taken for busiest B after every examined "
                    + "task of B was pinned away from dst_cpu, and a CPU C != B in cpus outside the local group has "
                    + "nr_running >= 2 and a task allowed on dst_cpu, the call executes goto redo")
            .property("scan-bounded", Kind.STEP, "one detach_tasks call examines at most env->loop_max = "
                    + "min(sysctl_sched_nr_migrate, nr_running) tasks of busiest: it never goes round the runqueue again "
                    + "with the lock held")
            .property("imbalance-kept", Kind.STEP, "a load_balance call below the top domain that set sd_parent's group "
                    + "imbalance flag (a task it could not move because of affinity) returns with the flag still set, so "
                    + "the parent level sees the imbalance (holds trivially with one domain level)")
            .property("newidle-pulls-here", Kind.STEP, "a CPU_NEWLY_IDLE balance migrates tasks only to the CPU going idle, "
                    + "never to another CPU of its group (LBF_DST_PINNED is for periodic balancing)")
            .property("redos", Kind.METRIC, "goto redo executed in one load_balance call")
            .property("stat-passes", Kind.METRIC, "group statistics passes (find_busiest_group calls, each O(CPUs)) in one "
                    + "load_balance call")
            .property("spurious-redos", Kind.METRIC, "redos in one call whose pass examined no task of busiest")
            .property("stat-work", Kind.METRIC, "per-CPU statistics updates in one call: the CPUs of env->cpus summed over "
                    + "its statistics passes")
            .property(LbCheck.WARN_BUSIEST_IS_DST.id, Kind.STEP, LbCheck.WARN_BUSIEST_IS_DST.description)
            .property(LbCheck.WARN_ATTACH_TASK_RQ.id, Kind.STEP, LbCheck.WARN_ATTACH_TASK_RQ.description)
            .property(LbCheck.WARN_RQ_HELD.id, Kind.STEP, LbCheck.WARN_RQ_HELD.description)
            .property(LbCheck.WARN_RQ_LOCK_RECURSION.id, Kind.STEP, LbCheck.WARN_RQ_LOCK_RECURSION.description)
            .property(LbCheck.TASK_GONE.id, Kind.STEP, LbCheck.TASK_GONE.description)
            .property(LbCheck.NO_SELF_MIGRATION.id, Kind.STEP, LbCheck.NO_SELF_MIGRATION.description)
            .property(LbCheck.DST_IN_BALANCE_MASK.id, Kind.STEP, LbCheck.DST_IN_BALANCE_MASK.description)
            .property(LbCheck.DST_IN_CPUS.id, Kind.STEP, LbCheck.DST_IN_CPUS.description)
            .property(LbCheck.SD_PARENT_NULL.id, Kind.STEP, LbCheck.SD_PARENT_NULL.description)
            .property(LbCheck.CPUS_EXIST.id, Kind.STEP, LbCheck.CPUS_EXIST.description)
            .property(LbCheck.BUSY_DEFERS.id, Kind.STEP, LbCheck.BUSY_DEFERS.description)
            .variant(VariantInfo.of("before", "v5.11: ALL_PINNED left set when busiest was emptied before rq_lock; redo"),
                    LoadBalanceV511::new)
            .variant(VariantInfo.of("rfc", "v5.11 + RFC v1 (2021-01-25): redo_max = 1 with ++redo_cnt < redo_max: never redoes"),
                    LoadBalanceRfc::new)
            .variant(VariantInfo.of("after", "v5.13 (acb4decc1e90): detach_tasks clears ALL_PINNED if busiest has <= 1 task"),
                    LoadBalanceV513::new)
            .variant(VariantInfo.of("v6.12", "sched_balance_rq of v6.12 (renamed in v6.10): group_balance_mask, "
                    + "SCHED_NR_MIGRATE_BREAK, should_we_balance bails out for a newly idle CPU with a task"),
                    SchedBalanceRqV612::new)
            .variant(VariantInfo.realBug("acb4decc1e90", "sched/fair: Reduce long-tail newly idle balance cost", "v5.13",
                    "v5.12 (the v5.13 port without acb4decc1e90's emptied-source test in detach_tasks): a pull before "
                            + "rq_lock leaves ALL_PINNED set and load_balance redoes"),
                    LbRedoRealBugs.V512::new)
            .variant(VariantInfo.realBug("65a4433aebe3", "sched/fair: Fix load_balance() affinity redo path",
                    "unconfirmed (authored 2017-06-07)",
                    "the v5.11 port with cpus = cpu_active_mask (not & sched_domain_span) and the redo while "
                            + "!cpumask_empty(cpus): one more redo with nothing left to pull from"),
                    LbRedoRealBugs.AffinityRedoPath::new)
            .variant(VariantInfo.realBug("f6cad8df6b30", "sched/fair: Fix imbalance due to CPU affinity", "v5.4",
                    "the v5.11 port whose out_balanced clears sd_parent's group imbalance although LBF_ALL_PINNED is "
                            + "still set (needs topology=smt or cluster)"),
                    LbRedoRealBugs.ImbalanceCleared::new)
            .variant(VariantInfo.realBug("2feab2492deb",
                    "Revert \"sched/fair: Make sure to try to detach at least one movable task\"", "v6.10",
                    "v6.9: the v6.12 port with b0defa7ae03e back in: detach_tasks ignores loop_max while every task "
                            + "seen was pinned and goes round the runqueue up to loop_break"),
                    LbRedoRealBugs.DetachAtLeastOne::new)
            .variant(VariantInfo.realBug("7aff2e3a56b7",
                    "sched/balancing: Prevent the reselection of a previous env.dst_cpu if some tasks are pinned", "v3.12",
                    "the v6.12 port whose LBF_DST_PINNED retry clears the new dst_cpu from env->cpus instead of the old one "
                            + "(needs masks=local and a periodic balance)"),
                    LbRedoRealBugs.ReselectDst::new)
            .variant(VariantInfo.realBug("52c3a18973d0", "sched/fair: Don't balance task to its current running CPU", "v6.5",
                    "the v6.12 port with dst_grpmask = sched_group_span(sd->groups): with overlapping groups new_dst_cpu "
                            + "can be busiest itself (needs topology=overlap and a periodic balance)"),
                    LbRedoRealBugs.DstGrpmaskSpan::new)
            .variant(VariantInfo.realBug("6d7e4782bcf5", "sched/fair: Fix the decision for load balance", "v6.7",
                    "the v6.12 port whose should_we_balance lets the first idle CPU with busy siblings and also the "
                            + "group's first CPU balance: a busy CPU 0 balances although its idle sibling does "
                            + "(needs topology=smt-llc and a periodic balance)"),
                    LbRedoRealBugs.SwbFirstIdleSmt::new)
            .variant(VariantInfo.mutant("mutant-keeps-busiest", "before, but the all-pinned branch keeps busiest in cpus"),
                    LbRedoMutants.KeepsBusiest::new)
            .variant(VariantInfo.mutant("mutant-no-loop-reset", "after, but env.loop is not reset before goto redo"),
                    LbRedoMutants.NoLoopReset::new)
            .variant(VariantInfo.mutant("mutant-scan-one-past", "v6.12, but detach_tasks stops at loop > loop_max + 1"),
                    LbRedoMutants.ScanOnePast::new)
            .variant(VariantInfo.mutant("mutant-all-pinned-clears-imbalance",
                    "v6.12, but out_all_pinned also clears sd_parent's group imbalance flag"),
                    LbRedoMutants.AllPinnedClearsImbalance::new)
            .variant(VariantInfo.mutant("mutant-newidle-new-dst",
                    "after, but can_migrate_task computes new_dst_cpu for CPU_NEWLY_IDLE too"),
                    LbRedoMutants.NewidleNewDst::new)
            .variant(VariantInfo.mutant("mutant-detach-unlocked", "v6.12, but detach_tasks runs without rq_lock(busiest)"),
                    LbRedoMutants.DetachUnlocked::new)
            .variant(VariantInfo.mutant("mutant-lock-twice", "v6.12, but more_balance takes rq_lock(busiest) twice"),
                    LbRedoMutants.LockTwice::new)
            .variant(VariantInfo.mutant("mutant-busiest-is-dst", "v6.12, but sched_balance_find_src_rq answers dst_cpu"),
                    LbRedoMutants.BusiestIsDst::new)
            .variant(VariantInfo.mutant("mutant-attach-to-src", "v6.12, but attach_tasks attaches to the source runqueue"),
                    LbRedoMutants.AttachToSrc::new)
            .variant(VariantInfo.mutant("mutant-detach-to-self", "v6.12, but detach_task calls set_task_cpu(p, src_cpu)"),
                    LbRedoMutants.DetachToSelf::new)
            .variant(VariantInfo.mutant("mutant-detach-twice", "v6.12, but detach_task dequeues the task twice"),
                    LbRedoMutants.DetachTwice::new)
            .variant(VariantInfo.mutant("mutant-no-parent-test", "v6.12, but sd_parent's imbalance is set without testing sd_parent"),
                    LbRedoMutants.NoParentTest::new)
            .variant(VariantInfo.mutant("mutant-cpus-setall", "v6.12, but env->cpus holds every bit"),
                    LbRedoMutants.CpusSetall::new)
            .variant(VariantInfo.mutant("mutant-redo-zero-imbalance", "v5.13 without \"sched/fair: Fix load_balance redo "
                            + "for !imbalance\" (mainline id unconfirmed): a busiest group is returned with imbalance 0"),
                    LbRedoMutants.RedoZeroImbalance::new);

    static String describe(String id) {
        return CATALOG.describe(id);
    }

    private static final List<String> PULLS = java.util.stream.Stream.concat(java.util.stream.Stream.of("auto"),
            java.util.stream.IntStream.rangeClosed(0, 16).mapToObj(Integer::toString)).toList();

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String title() {
        return "bounded redo in load_balance (kernel/sched/fair.c, v5.11 -> RFC -> v5.13, acb4decc1e90; sched_balance_rq v6.12)";
    }

    @Override
    public List<VariantInfo> variants() {
        return CATALOG.variants();
    }

    @Override
    public List<ParamSpec> params() {
        return List.of(
                ParamSpec.integer("cpus", 4, 2, 16, "CPUs of the machine (CPU 0 balances; with topology=flat, the domain)"),
                ParamSpec.integer("groups", 2, 2, 16, "sched groups of the top domain, contiguous, near-equal; CPU 0's is the local one"),
                ParamSpec.choice("scenario", "race: free tasks and concurrent pulls; pinned: pinned tasks, no pulls; "
                        + "all: both", LbDomain.ALL, LbDomain.RACE, LbDomain.PINNED),
                ParamSpec.integer("tasks", 2, 2, 4, "tasks per busy CPU (a CPU that can be the busiest queue at some level)"),
                new ParamSpec("pulls", "auto", "pulls other CPUs make concurrently (auto: 1 for race and all, 0 for pinned)",
                        0, 0, PULLS),
                ParamSpec.choice("topology", "flat: one domain; smt: CPU 0 balances its SMT pair, then the MC domain of "
                        + "SMT-pair groups; cluster: its cluster (one CPU per group), then the package domain of cluster groups; "
                        + "overlap: one NUMA-style domain (SD_OVERLAP) whose local group's span also holds the first CPU of the "
                        + "next group, its group_balance_mask only its own CPUs; smt-llc: three levels, SMT pair {0,1}, "
                        + "the MC domain of CPU 0's LLC {0..3} (groups: the cores {0,1} and {2,3}), the package domain "
                        + "(groups: the LLC {0..3}, the other CPUs in groups - 1 groups); each of CPUs 1..3 starts busy "
                        + "or idle (the environment chooses)",
                        LbDomain.FLAT, LbDomain.SMT, LbDomain.CLUSTER, LbDomain.OVERLAP, LbDomain.SMT_LLC),
                ParamSpec.choice("idle", "the cpu_idle_type CPU 0 balances with: newly-idle (CPU_NEWLY_IDLE), idle "
                        + "(CPU_IDLE, periodic balance of an idle CPU), not-idle (CPU_NOT_IDLE, periodic balance of a busy CPU)",
                        IDLE_NEWLY, IDLE_IDLE, IDLE_NOT),
                ParamSpec.choice("masks", "task affinity masks in the pinned patterns: own (every CPU or the task's own CPU), "
                        + "local (also own CPU + a CPU of CPU 0's group other than CPU 0: LBF_DST_PINNED), any (every mask "
                        + "over the CPUs that holds the task's own CPU; small domains)",
                        LbDomain.MASKS_OWN, LbDomain.MASKS_LOCAL, LbDomain.MASKS_ANY),
                ParamSpec.integer("nr-migrate", LbEnv.SYSCTL_SCHED_NR_MIGRATE, 1, 1024, "sysctl_sched_nr_migrate "
                        + "(debugfs sched/nr_migrate): loop_max = min(nr-migrate, nr_running); every value >= tasks is one class"),
                ParamSpec.choice("hot", "cache-hot tasks (default some): none (task_hot() false for every task), some (the environment "
                        + "chooses, per non-running task at the start of the call, whether task_hot() is true and "
                        + "nr_balance_failed <= cache_nice_tries: can_migrate_task refuses it as hot)", "some", "none"),
                ParamSpec.choice("zero-imbalance", "on: calculate_imbalance may compute 0 with a busiest group found "
                        + "(find_busiest_group then returns NULL: fair.c:11504); off: always one task", "on", "off"),
                ParamSpec.choice("nr-migrate-break", "SCHED_NR_MIGRATE_BREAK of the v6.x ports: 32, or 8 with "
                        + "CONFIG_PREEMPT_RT (v5.x has sched_nr_migrate_break = 32 built in)", "32", "8"));
    }

    static final String IDLE_NEWLY = "newly-idle";
    static final String IDLE_IDLE = "idle";
    static final String IDLE_NOT = "not-idle";

    /** Every input of the ported functions from outside the mechanism, with its call sites ({@link LbRedoEnvironment}). */
    @Override
    public List<kcheck.model.EnvironmentInput> environment() {
        return LbRedoEnvironment.rows();
    }

    @Override
    public List<String> limits() {
        return LbRedoLayout.limits();
    }

    /** The notations of lb-redo's trace fields, one line each. */
    @Override
    public List<String> legend() {
        return LbRedoDecoder.legend();
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

    /** User variants: implementations of {@link LoadBalance} ({@code variant new}, {@code --variant-file}). */
    @Override
    public VariantContract<LoadBalance> variantContract() {
        return new VariantContract<>(LoadBalance.class, CATALOG::implementation, this::create);
    }

    /** Builds the model for any implementation of the variant contract (built in, or the user's). */
    public Model create(String variantName, LoadBalance impl, Params params, Set<String> properties) {
        return new LbRedoModel(variantName, params, impl, domain(params), checked(properties));
    }

    /**
     * Builds the model over a domain given in full (generated tests): {@code params} are only
     * reported; the domain decides everything.
     */
    public Model create(String variantName, LoadBalance impl, LbDomain domain, Set<String> properties) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("domain", domain.description());
        p.put("cpus", Integer.toString(domain.nrCpus()));
        p.put("pulls", Integer.toString(domain.pulls()));
        List<ParamSpec> specs = List.of(
                new ParamSpec("domain", domain.description(), "the generated domain", 0, 0, List.of(domain.description())),
                ParamSpec.integer("cpus", domain.nrCpus(), 2, 64, "CPUs"),
                ParamSpec.integer("pulls", domain.pulls(), 0, 64, "concurrent pulls"));
        return new LbRedoModel(variantName, Params.resolve(NAME, specs, p), impl, domain, checked(properties));
    }

    /** The implementation of a built-in variant. */
    public static LoadBalance implementation(String variant) {
        return CATALOG.implementation(variant);
    }

    private Set<String> checked(Set<String> properties) {
        checkSelection(properties);
        return Set.copyOf(properties);
    }

    /** The domain {@code params} describe; bad combinations give a one-line {@link ModelInputException}. */
    static LbDomain domain(Params params) {
        int cpus = params.integer("cpus");
        int groups = params.integer("groups");
        if (groups > cpus) {
            throw new ModelInputException(NAME + ": parameter 'groups' must be at most cpus (" + cpus + "), got " + groups);
        }
        String scenario = params.get("scenario");
        String pulls = params.get("pulls");
        int p;
        if (pulls.equals("auto")) {
            p = scenario.equals(LbDomain.PINNED) ? 0 : 1;
        } else {
            p = Integer.parseInt(pulls);
            if (scenario.equals(LbDomain.PINNED) && p > 0) {
                throw new ModelInputException(NAME + ": scenario=pinned has no concurrent pulls (got pulls=" + p
                        + "); use scenario=all for pinned tasks and pulls together");
            }
        }
        String idle = params.get("idle");
        int idleType = idle.equals(IDLE_IDLE) ? LbEnv.CPU_IDLE : idle.equals(IDLE_NOT) ? LbEnv.CPU_NOT_IDLE : LbEnv.CPU_NEWLY_IDLE;
        return LbDomain.of(new LbDomain.Spec(cpus, groups, scenario, params.integer("tasks"), p, params.get("topology"),
                params.get("masks"), idleType, params.integer("nr-migrate"), Integer.parseInt(params.get("nr-migrate-break")),
                params.get("hot").equals("some"), params.get("zero-imbalance").equals("on")));
    }
}
