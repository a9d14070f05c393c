package kcheck.model.rwsem;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

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
 * {@code rwsem-owner}: the reader-owned state of the rwsem owner field and writer optimistic
 * spinning (kernel/locking/rwsem-xadd.c, v4.7 to v4.8, commit 19c5d690e41697fc). See KERNEL.md
 * section 3 and docs/models/rwsem-owner.md.
 */
public final class RwsemOwnerFactory implements ModelFactory {
    public static final String NAME = "rwsem-owner";

    /** The properties, and the variants with their reference implementations. */
    private static final Catalog<RwsemVariant> CATALOG = new Catalog<RwsemVariant>(NAME)
            .property("exclusion", Kind.INVARIANT, "never a writer with readers, never two writers (a task holds the lock from the"
                    + " count step that takes it, or a waker's grant, to the count step that releases it)")
            .property("owner-sound", Kind.INVARIANT, "owner names writer T (v5.3+: without READER_OWNED) implies T holds the write"
                    + " lock")
            .property("no-spin-on-readers", Kind.PROGRESS, "the spinner (the writer holding the osq in rwsem_optimistic_spin) does"
                    + " not iterate forever while >= 1 reader and no writer hold the lock and every such reader has made its"
                    + " count step and, in v4.8+, its set_reader_owned (a cycle of such spinner steps is a lasso); v5.3+: spinning"
                    + " on readers until the reader-spin deadline passes is by design, only spinning past it counts")
            .optInProperty("no-spin-on-readers-strict", Kind.PROGRESS, "KNOWN GAP (opt-in): as no-spin-on-readers without the"
                    + " set_reader_owned clause: shows the v4.8 gap of a reader preempted between its count step and its owner"
                    + " store")
            .property("no-spin-on-readers-k2", Kind.METRIC, "KERNEL.md's count: the spinner's unqueued write-trylock loads of count"
                    + " while readers (all settled) and no writer hold the lock; reset when reader holders go 0 -> 1 and when"
                    + " the spinner takes the osq; bound K = 2 (saturates at 3)")
            .property("spin-on-running-writer", Kind.STEP, "whenever rwsem_can_spin_on_owner finds need_resched clear and loads"
                    + " owner == NULL while another writer holds the write lock (count step done, set_owner not yet) and is on"
                    + " a CPU, it returns true")
            .property("no-spin-on-preempted-owner", Kind.PROGRESS, "no task spins forever without taking the lock while a task the"
                    + " lock waits for is off its CPU (preempted, or asleep, or woken but not yet running): a holder, or, with the"
                    + " lock free and the handoff bit set, the first waiter it is for; counted only for spinners nothing else"
                    + " stops: RT tasks, or tasks ignoring a set need_resched with preemption disabled (a lasso)")
            .property("handoff", Kind.STEP, "v5.3+: while the handoff bit is set for a waiter (the first waiter when it was set),"
                    + " no other task takes the lock unless that waiter takes it in the same step (readers granted together)")
            .optInProperty("no-writer-starvation", Kind.PROGRESS, "v5.3+ design claim (opt-in; v4.x makes no such claim): no"
                    + " fair run in which the first waiter stays the same writer, its RWSEM_WAIT_TIMEOUT has passed, and it"
                    + " never takes the lock; fair = every task inside a lock or unlock call or holding the lock that can"
                    + " step on the cycle steps on it (tasks between rounds may stay idle); a lasso")
            .property("wasted-spins", Kind.METRIC, "the spinner's unqueued write-trylock loads of count on a lock held by readers"
                    + " only, counted from the readers' 0 -> 1 and the osq take: all of them, and those made once every such"
                    + " reader made its owner store (KERNEL.md's count); 3 = 3 or more (unbounded)")
            .property("missed-spins", Kind.METRIC, "per write-lock hold: writers whose rwsem_can_spin_on_owner returned false"
                    + " (need_resched clear) while the holder was a running writer that had not set owner yet, by the owner"
                    + " they loaded (NULL, or a stale READER_OWNED)")
            .property("deadlock-free", Kind.DEADLOCK, "some step is enabled until every task has finished")
            .optInProperty("reader-owned-no-writer", Kind.INVARIANT, "FALSE claim kept as a documented test (opt-in): owner =="
                    + " READER_OWNED implies no writer holds the lock (the marker is sticky; refuted on after, vacuous on before)")
            .optInProperty("null-owner-no-writer", Kind.INVARIANT, "FALSE claim kept as a documented test (opt-in): owner == NULL"
                    + " implies no writer holds the lock (a writer sets owner after its count step; refuted on both variants)")
            .variant(VariantInfo.of("before", "v4.7: owner is NULL or a writer; NULL with active count means no spinning"),
                    RwsemV47::new)
            .variant(VariantInfo.of("after", "v4.8 (19c5d690e416): readers store RWSEM_READER_OWNED; spinners stop on it"),
                    RwsemV48::new)
            .variant(VariantInfo.of("v6.12", "kernel/locking/rwsem.c of v6.12: owner flag bits, rwsem_spin_on_owner owner states,"
                    + " handoff bit, no reader spinning (removed by 617f3ef95177, v5.11), preemption off in every lock path"),
                    RwsemV612::new)
            .variant(VariantInfo.mutant("mutant-early-release", "after, but up_write releases the count before clearing owner"),
                    RwsemMutants.EarlyRelease::new)
            .variant(VariantInfo.mutant("mutant-no-reader-owned", "after, but readers never store RWSEM_READER_OWNED"),
                    RwsemMutants.NoReaderOwned::new)
            .variant(VariantInfo.mutant("mutant-trylock-ignores-readers", "after, but the unqueued trylock also takes a reader-held lock"),
                    RwsemMutants.TrylockIgnoresReaders::new)
            .variant(VariantInfo.mutant("mutant-up-read-no-wake", "before, but __up_read never calls rwsem_wake"),
                    RwsemMutants.UpReadNoWake::new);

    static String describe(String id) {
        return CATALOG.describe(id);
    }

    /**
     * Recorded programs, per implementation class and task configuration. Off when the system
     * property {@code kcheck.rwsem.programCache} is {@code false}: mutation testing (-Pmutation)
     * hot-swaps mutated reference code into one long-lived JVM, and a program recorded from one
     * mutant must not be reused for the next.
     */
    private static final Map<ProgramKey, TaskProgram> PROGRAMS = new ConcurrentHashMap<>();

    private record ProgramKey(Class<?> impl, int readers, int writers, boolean writer, int task, boolean rt, int rounds) {
    }

    private static final List<String> RT_CHOICES = List.of("none", "w0", "w1", "w2", "w0+w1", "w0+w2", "w1+w2", "all");

    /**
     * A fresh instance of the reference implementation behind a catalogue variant (the same code
     * the model records), for code that runs it directly, e.g. on real threads (one instance per
     * task: its {@link FrameLocal} fields are that task's locals).
     */
    public static RwsemVariant implementation(String variant) {
        return CATALOG.implementation(variant);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String title() {
        return "reader-owned rwsem owner field and writer optimistic spinning (kernel/locking/rwsem-xadd.c, v4.7 -> v4.8,"
                + " 19c5d690e416)";
    }

    @Override
    public List<VariantInfo> variants() {
        return CATALOG.variants();
    }

    @Override
    public List<ParamSpec> params() {
        return List.of(
                ParamSpec.integer("readers", 2, 0, 3, "number of reader tasks"),
                ParamSpec.integer("writers", 2, 1, 3, "number of writer tasks"),
                ParamSpec.choice("rt", "writers that are RT tasks (rt_task(current))", RT_CHOICES.toArray(String[]::new)),
                ParamSpec.integer("rounds", 0, 0, 3, "lock/unlock rounds per task; 0 = forever (cyclic workload)"),
                ParamSpec.choice("preempt", "which tasks may be preempted (on_cpu = 0) while they hold the lock where preemption is"
                        + " enabled: writers (the default), all (readers too), none", "writers", "all", "none"));
    }

    @Override
    public List<PropertyInfo> properties() {
        return CATALOG.properties();
    }

    @Override
    public VariantContract<RwsemVariant> variantContract() {
        return new VariantContract<>(RwsemVariant.class, CATALOG::implementation, this::create);
    }

    @Override
    public Model create(String variant, Params params, Set<String> properties) {
        variant(variant);
        return create(variant, CATALOG.implementation(variant), params, properties);
    }

    /**
     * Builds the model for any implementation of the variant contract (built in, or the
     * user's): the implementation's code is recorded into each task's program.
     */
    public Model create(String variantName, RwsemVariant impl, Params params, Set<String> properties) {
        Objects.requireNonNull(impl, "impl");
        checkSelection(properties);
        int readers = params.integer("readers");
        int writers = params.integer("writers");
        int rounds = params.integer("rounds");
        boolean[] rt = rtFlags(params.get("rt"), writers);
        RwsemLayout.Preempt preempt = RwsemLayout.Preempt.valueOf(params.get("preempt").toUpperCase(java.util.Locale.ROOT));
        RwsemDomain dom = RwsemDomain.of(impl.encoding(), readers, writers);
        TaskProgram[] prog = new TaskProgram[readers + writers];
        String what = NAME + " variant '" + variantName + "'";
        for (int t = 0; t < prog.length; t++) {
            boolean writer = t >= readers;
            int w = writer ? t - readers : dom.readersAnonymous() ? 0 : t;
            boolean isRt = writer && rt[w];
            ProgramKey key = new ProgramKey(impl.getClass(), readers, writers, writer, w, isRt, rounds);
            Function<ProgramKey, TaskProgram> record = k -> {
                synchronized (impl) {
                    return ProgramRecorder.record(impl, what, dom, k.writer(), k.task(), k.rt(), k.rounds());
                }
            };
            prog[t] = cachePrograms() ? PROGRAMS.computeIfAbsent(key, record) : record.apply(key);
        }
        return new RwsemOwnerModel(variantName, params, dom, prog, rt, preempt, Set.copyOf(properties));
    }

    private static boolean cachePrograms() {
        return Boolean.parseBoolean(System.getProperty("kcheck.rwsem.programCache", "true"));
    }

    private static boolean[] rtFlags(String rt, int writers) {
        boolean[] out = new boolean[writers];
        if (rt.equals("none")) {
            return out;
        }
        if (rt.equals("all")) {
            java.util.Arrays.fill(out, true);
            return out;
        }
        for (String part : rt.split("\\+")) {
            int w = Integer.parseInt(part.substring(1));
            if (w >= writers) {
                throw new ModelInputException(NAME + ": parameter 'rt' names writer " + w + " but writers=" + writers);
            }
            out[w] = true;
        }
        return out;
    }
}
