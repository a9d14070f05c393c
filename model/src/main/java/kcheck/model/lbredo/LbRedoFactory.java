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
 * RFC of 2021-01-25, and v5.13 with acb4decc1e90). See KERNEL.md section 4 and
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
            .property("redos", Kind.METRIC, "goto redo executed in one load_balance call")
            .property("stat-passes", Kind.METRIC, "group statistics passes (find_busiest_group calls, each O(CPUs)) in one "
                    + "load_balance call")
            .property("spurious-redos", Kind.METRIC, "redos in one call whose pass examined no task of busiest")
            .property("stat-work", Kind.METRIC, "per-CPU statistics updates in one call: the CPUs of env->cpus summed over "
                    + "its statistics passes")
            .variant(VariantInfo.of("before", "v5.11: ALL_PINNED left set when busiest was emptied before rq_lock; redo"),
                    LoadBalanceV511::new)
            .variant(VariantInfo.of("rfc", "v5.11 + RFC v1 (2021-01-25): redo_max = 1 with ++redo_cnt < redo_max: never redoes"),
                    LoadBalanceRfc::new)
            .variant(VariantInfo.of("after", "v5.13 (acb4decc1e90): detach_tasks clears ALL_PINNED if busiest has <= 1 task"),
                    LoadBalanceV513::new)
            .variant(VariantInfo.mutant("mutant-keeps-busiest", "before, but the all-pinned branch keeps busiest in cpus"),
                    LbRedoMutants.KeepsBusiest::new)
            .variant(VariantInfo.mutant("mutant-no-loop-reset", "after, but env.loop is not reset before goto redo"),
                    LbRedoMutants.NoLoopReset::new);

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
        return "bounded redo in load_balance (kernel/sched/fair.c, v5.11 -> RFC -> v5.13, acb4decc1e90)";
    }

    @Override
    public List<VariantInfo> variants() {
        return CATALOG.variants();
    }

    @Override
    public List<ParamSpec> params() {
        return List.of(
                ParamSpec.integer("cpus", 4, 2, 16, "CPUs in the scheduling domain (CPU 0 balances)"),
                ParamSpec.integer("groups", 2, 2, 16, "sched groups, contiguous, near-equal; CPU 0's is the local one"),
                ParamSpec.choice("scenario", "race: free tasks and concurrent pulls; pinned: pinned tasks, no pulls; "
                        + "all: both", LbDomain.ALL, LbDomain.RACE, LbDomain.PINNED),
                ParamSpec.integer("tasks", 2, 2, 4, "tasks per busy CPU outside the local group"),
                new ParamSpec("pulls", "auto", "pulls other CPUs make concurrently (auto: 1 for race and all, 0 for pinned)",
                        0, 0, PULLS));
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
        return LbDomain.scenario(cpus, groups, scenario, params.integer("tasks"), p);
    }
}
