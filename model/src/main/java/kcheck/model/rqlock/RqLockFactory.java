package kcheck.model.rqlock;

import java.util.List;
import java.util.Set;

import kcheck.model.Catalog;
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
 * 8f45e2b51620). See KERNEL.md section 1.
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
            .property("bypass", Kind.METRIC, "per CPU id: the largest number of double_lock_balance returns by other CPUs "
                    + "while this CPU is inside its own call")
            .property("overtake", Kind.METRIC, "per CPU id: the largest number of times, within one double_lock_balance call, "
                    + "that a CPU which entered after it was already waiting returns holding the lock it still waits for")
            .variant(VariantInfo.of("before", "2.6.27: keeps this_rq locked when busiest is the higher rq (favours low CPUs)"),
                    DoubleLockBalanceV2627::new)
            .variant(VariantInfo.of("after", "2.6.28 (8f45e2b51620): drops this_rq, then double_rq_lock takes both in order"),
                    DoubleLockBalanceV2628::new)
            .variant(VariantInfo.mutant("mutant-returns-zero", "after, but returns 0 although this_rq was dropped"),
                    RqLockMutants.ReturnsZero::new)
            .variant(VariantInfo.mutant("mutant-skips-relock", "before, but does not re-take this_rq after dropping it"),
                    RqLockMutants.SkipsRelock::new)
            .variant(VariantInfo.mutant("mutant-unordered", "after, but takes this_rq before busiest regardless of order"),
                    RqLockMutants.Unordered::new)
            .variant(VariantInfo.mutant("mutant-unlocks-this", "double_unlock_balance releases this_rq instead of busiest"),
                    RqLockMutants.UnlocksThis::new);

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
        return "fair double_lock_balance (kernel/sched.c, 2.6.27 -> 2.6.28, 8f45e2b51620)";
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
                ParamSpec.choice("lock", "runqueue lock kind", "ticket", "tas"));
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
        boolean ticket = params.get("lock").equals("ticket");
        RqLockProgram prog = new RqLockProgram(impl, variantName, cpus, ticket);
        return new RqLockModel(variantName, params, prog, Set.copyOf(properties));
    }
}
