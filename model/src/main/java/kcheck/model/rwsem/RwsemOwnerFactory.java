package kcheck.model.rwsem;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import kcheck.model.Catalog;
import kcheck.model.EnvironmentInput;
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
 * spinning (kernel/locking/rwsem-xadd.c, v4.7 to v4.8, commit 19c5d690e41697fc). See
 * docs/models/rwsem-owner.md.
 */
public final class RwsemOwnerFactory implements ModelFactory {
    public static final String NAME = "rwsem-owner";

    /** The properties, and the variants with their reference implementations. */
    private static final Catalog<RwsemVariant> CATALOG = new Catalog<RwsemVariant>(NAME)
            .property("count-sane", Kind.INVARIANT, "sem->count stays inside its meaning: no count step makes the reader count"
                    + " (v5.3+) or the active/waiting parts (xadd) negative, or adds a bias no task holds (the kernel's own"
                    + " witnesses: DEBUG_RWSEMS_WARN_ON(tmp < 0) in __up_read, kernel/locking/rwsem.c:1346, and"
                    + " WARN_ON_ONCE(*cntp < 0) in rwsem_read_trylock, :252, v6.12); the run ends at the step")
            .property("owner-deref-sane", Kind.INVARIANT, "owner->on_cpu is read only through a writer's task pointer: never"
                    + " NULL, the v4.8 RWSEM_READER_OWNED marker (an oops) or a reader's pointer with RWSEM_READER_OWNED (a hint"
                    + " whose task may have left: use after free); owner_on_cpu(), include/linux/sched.h:2200, called at kernel/locking/rwsem.c:723,781 v6.12")
            .property("warn-wait-lock-held", Kind.INVARIANT, "kernel/locking/rwsem.c:370,386,417,608 (v6.12):"
                    + " lockdep_assert_held(&sem->wait_lock) in rwsem_add_waiter, rwsem_del_waiter, rwsem_mark_wake and"
                    + " rwsem_try_write_lock never fails")
            .property("warn-preemption-disabled", Kind.INVARIANT, "kernel/locking/rwsem.c:142,148,751 (v6.12):"
                    + " lockdep_assert_preemption_disabled() in rwsem_set_owner, rwsem_clear_owner and rwsem_spin_on_owner"
                    + " never fails (v6.1+)")
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
            .property("no-spin-on-readers-k2", Kind.METRIC, "the counting form: the spinner's unqueued write-trylock loads of count"
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
            .property("handoff-has-waiter", Kind.INVARIANT, "v5.3+: whenever sem->wait_lock is free, a set RWSEM_FLAG_HANDOFF"
                    + " has a waiter in the wait list that can honour it: the bit is never left set on an empty list (rwsem_del_waiter,"
                    + " kernel/locking/rwsem.c:384-395 v6.12, clears HANDOFF with WAITERS when the list empties; d257cc8cb8d5 fixed"
                    + " a killed writer leaving 'the handoff bit set with empty wait queue')")
            .optInProperty("no-writer-starvation", Kind.PROGRESS, "v5.3+ design claim (opt-in; v4.x makes no such claim): no"
                    + " fair run in which the first waiter stays the same writer, its RWSEM_WAIT_TIMEOUT has passed, and it"
                    + " never takes the lock; fair = every task inside a lock or unlock call or holding the lock that can"
                    + " step on the cycle steps on it (tasks between rounds may stay idle); a lasso")
            .optInProperty("sleeping-writer-woken", Kind.PROGRESS, "v5.3+ (opt-in; part of no-writer-starvation): no fair run in"
                    + " which the first waiter, a writer whose RWSEM_WAIT_TIMEOUT has passed, sleeps in schedule() with no"
                    + " wake-up pending forever while the others run (a lasso)")
            .optInProperty("reader-stream-starvation", Kind.PROGRESS, "v5.3+ (opt-in; part of sleeping-writer-woken, the claim of"
                    + " 2f06f702925b): no fair run in which the first waiter, a writer whose RWSEM_WAIT_TIMEOUT has passed, sleeps"
                    + " in schedule() with no wake-up pending while count holds at least one RWSEM_READER_BIAS forever, so that"
                    + " the reader count never reaches 0 to wake it (a lasso)")
            .property("wasted-spins", Kind.METRIC, "the spinner's unqueued write-trylock loads of count on a lock held by readers"
                    + " only, counted from the readers' 0 -> 1 and the osq take: all of them, and those made once every such"
                    + " reader made its owner store (the no-spin-on-readers-k2 count); 3 = 3 or more (unbounded)")
            .property("missed-spins", Kind.METRIC, "per write-lock hold: writers whose rwsem_can_spin_on_owner returned false"
                    + " (need_resched clear) while the holder was a running writer that had not set owner yet, by the owner"
                    + " they loaded (NULL, or a stale READER_OWNED)")
            .property("no-lost-wakeup", Kind.INVARIANT, "no reader sleeps in schedule() holding the lock it was granted"
                    + " (waiter->task == NULL, its waker done with it) with no wake-up pending and on no wake queue: nothing"
                    + " would ever wake it (the lost wake-up of e158488be27b: wake_q_add found the task on another waker's"
                    + " wake_q, whose wake_up_q came before the grant); wakeups=wake-q/spurious (with wakeups=atomic a grant is"
                    + " the wake-up: holds)")
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
            .variant(VariantInfo.of("v5.4", "kernel/locking/rwsem.c of v5.4 (v5.4.286): reader optimistic spinning (v5.3 to v5.10),"
                    + " RD/WR_NONSPINNABLE owner bits, writer_wait_state handoff"), RwsemV54::new)
            .variant(VariantInfo.of("v5.4+2f06f702925b", "v5.4 with 2f06f702925b (and c8fe8b056438 it needs): readers do not spin"
                    + " on a lock other readers own"), RwsemV54Fixed::new)
            .variant(VariantInfo.of("bug-e1b98fa31664", "real bug under --param memory-model=lkmm only: e1b98fa31664 \"locking/rwsem: "
                    + "Add missing ACQUIRE to read_slowpath exit when queue is empty\" (v5.3). v6.12 without the smp_acquire__after_ctrl_dep() "
                    + "of rwsem_down_read_slowpath's queue-empty exit: the reader's critical section is not ordered after the count load "
                    + "that saw the writer gone. Under sequential consistency v6.12's program; under lkmm mutual-exclusion is VIOLATED at "
                    + "1 reader + 1 writer"), RwsemRealBugs.BugE1b98fa31664::new)
            .variant(VariantInfo.of("bug-99143f82a255", "real bug under --param memory-model=lkmm only: 99143f82a255 \"locking/rwsem: "
                    + "Add missing ACQUIRE to read_slowpath sleep loop\" (v5.3). v6.12 whose sleeping reader tests waiter.task with a plain "
                    + "load instead of smp_load_acquire(). Under sequential consistency v6.12's program; under lkmm mutual-exclusion is "
                    + "VIOLATED at 1 reader + 1 writer"), RwsemRealBugs.Bug99143f82a255::new)
            .variant(VariantInfo.realBug("2f06f702925b", "locking/rwsem: Prevent potential lock starvation", "v5.11",
                    "the v5.4 port itself (the code the fix changed, as released): readers spinning onto a reader-owned lock keep"
                    + " the reader count above zero, so a sleeping writer is never woken"), RwsemV54::new)
            .variant(VariantInfo.realBug("d257cc8cb8d5", "locking/rwsem: Make handoff bit handling more consistent", "v5.16",
                    "the v5.4 port itself with its killable paths (the code the fix replaced, as released v5.3 to v5.15): a"
                    + " killed writer takes the handoff bit back only if its own wstate says it set it, a killed reader never,"
                    + " so a list left empty keeps the handoff bit set for nobody (run with killable=all)"),
                    RwsemRealBugs.Bugd257cc8cb8d5::new)
            .variant(VariantInfo.realBug("78134300579a", "locking/rwsem: Don't call owner_on_cpu() on read-owner", "v5.3",
                    "v5.4 with the fix undone: rwsem_can_spin_on_owner() reads owner->on_cpu through a reader's stale task"
                    + " pointer (RWSEM_READER_OWNED not tested first)"), RwsemRealBugs.Bug78134300579a::new)
            .variant(VariantInfo.realBug("48dfb5d2560d", "locking/rwsem: Disable preemption while trying for rwsem lock", "v6.1",
                    "v6.12 with the fix undone: the write fast path (count cmpxchg, rwsem_set_owner) runs with preemption on"),
                    RwsemRealBugs.Bug48dfb5d2560d::new)
            .variant(VariantInfo.realBug("3f5245538a19", "locking/rwsem: Disable preemption in all down_read*() and up_read() code"
                    + " paths", "v6.3", "v6.12 with the fix undone: __down_read_common() and __up_read() run with preemption on"),
                    RwsemRealBugs.Bug3f5245538a19::new)
            .variant(VariantInfo.realBug("b613c7f31476", "locking/rwsem: Prevent non-first waiter from spinning in down_write()"
                    + " slowpath", "v6.3", "v6.12 with the fix undone: a waiter that sets the handoff bit sets its own handoff_set,"
                    + " and the first waiter inherits one"), RwsemRealBugs.Bugb613c7f31476::new)
            .variant(VariantInfo.realBug("a9e9bcb45b15", "locking/rwsem: Prevent decrement of reader count before increment",
                    "v5.1", "v4.8 with the fix undone: __rwsem_mark_wake grants the readers (waiter->task = NULL) before it raises"
                    + " the count for them (the one-pass wake of v4.9 to v5.0)"), RwsemRealBugs.Buga9e9bcb45b15::new)
            .variant(VariantInfo.realBug("39e7234f00bc", "locking/rwsem: Fix kernel crash when spinning on RWSEM_OWNER_UNKNOWN",
                    "v5.5", "v5.4 with the fix undone: a handoff writer spins with rwsem_spin_on_owner(sem, 0), which takes"
                    + " RWSEM_OWNER_UNKNOWN for a running writer and reads owner->on_cpu through it (run with owner-unknown=w0)"),
                    RwsemRealBugs.Bug39e7234f00bc::new)
            .variant(VariantInfo.mutant("mutant-wake-before-grant", "v5.4 with \"locking/rwsem: Fix (possible) missed"
                    + " wakeup\" (v5.0) undone: the 2nd pass of rwsem_mark_wake wake_q_add()s a reader before it clears"
                    + " waiter->task (a real bug, present v4.6 to v4.20; gated as a mutant because its upstream id,"
                    + " e158488be27b, could not be confirmed from a primary source)"), RwsemRealBugs.WakeBeforeGrantV54::new)
            .variant(VariantInfo.mutant("mutant-early-release", "after, but up_write releases the count before clearing owner"),
                    RwsemMutants.EarlyRelease::new)
            .variant(VariantInfo.mutant("mutant-no-reader-owned", "after, but readers never store RWSEM_READER_OWNED"),
                    RwsemMutants.NoReaderOwned::new)
            .variant(VariantInfo.mutant("mutant-trylock-ignores-readers", "after, but the unqueued trylock also takes a reader-held lock"),
                    RwsemMutants.TrylockIgnoresReaders::new)
            .variant(VariantInfo.mutant("mutant-up-read-no-wake", "before, but __up_read never calls rwsem_wake"),
                    RwsemMutants.UpReadNoWake::new)
            .variant(VariantInfo.mutant("mutant-spins-on-preempted-owner", "after, but rwsem_spin_on_owner ignores owner->on_cpu"),
                    RwsemMutants.SpinsOnPreemptedOwner::new)
            .variant(VariantInfo.mutant("mutant-killed-writer-no-cleanup", "after, but a killed writer's out_nolock only leaves"
                    + " the wait list (no -RWSEM_WAITING_BIAS, no wake): the omissions 'locking/rwsem: Fix down_write_killable()'"
                    + " (v4.7 merge window) fixed; run with killable=writers"), RwsemMutants.KilledWriterNoCleanup::new)
            .variant(VariantInfo.mutant("mutant-unqueued-ignores-handoff", "v6.12, but the unqueued trylock steals past the handoff"
                    + " bit"), RwsemMutants.UnqueuedIgnoresHandoff::new)
            .variant(VariantInfo.mutant("mutant-no-handoff-request", "v6.12, but a waiter never sets the handoff bit"),
                    RwsemMutants.NoHandoffRequest::new)
            .variant(VariantInfo.mutant("mutant-reader-spin-no-deadline", "v6.12, but a writer spins on readers without the"
                    + " rspin_threshold time limit"), RwsemMutants.ReaderSpinWithoutDeadline::new)
            .variant(VariantInfo.mutant("mutant-wake-without-wait-lock", "v6.12, but rwsem_wake calls rwsem_mark_wake without"
                    + " taking sem->wait_lock"), RwsemMutants.WakeWithoutWaitLock::new);

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

    private record ProgramKey(Class<?> impl, int readers, int writers, boolean writer, int task, boolean rt, int rounds,
                              boolean killable, Wakeups wakeups, boolean ownerUnknown, boolean handsOwnerOff) {
    }

    private static final List<String> WAKEUP_CHOICES = List.of("atomic", "wake-q", "spurious");

    private static final List<String> KILLABLE_CHOICES = List.of("none", "writers", "readers", "all");

    private static final List<String> OWNER_UNKNOWN_CHOICES = List.of("none", "w0", "w1", "w2", "all");

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
                        + " enabled: writers (the default), all (readers too), none", "writers", "all", "none"),
                ParamSpec.choice("killable", "which tasks take the lock with down_read_killable()/down_write_killable(): a fatal"
                        + " signal may arrive at any time while such a task waits in the wait list, wake it and send it down the"
                        + " out_nolock path (v6.12, v5.4, v4.8 writers and their copies; v4.7 and v4.8 readers have no"
                        + " killable path and wait uninterruptibly)",
                        KILLABLE_CHOICES.toArray(String[]::new)),
                ParamSpec.choice("wakeups", "how a sleeping waiter is woken: atomic (the default, the model before issue"
                        + " 30: the grant is the wake-up), wake-q (as the kernel: wake_q_add and the grant's waiter->task ="
                        + " NULL are separate steps of the waker, wake_up_q wakes each queued task later, a task already on a"
                        + " wake queue is not added again, a wake-up of a running task is lost; 1.5x to 4x the states, more"
                        + " for v6.12), spurious (wake-q plus the environment: schedule() may return at any time, and a task"
                        + " outside a wait loop may be put on another subsystem's wake queue, which wakes it later)",
                        WAKEUP_CHOICES.toArray(String[]::new)),
                ParamSpec.choice("owner-unknown", "which writers hold the lock as a percpu_rw_semaphore's write side and hand it"
                        + " on inside their critical section: percpu_rwsem_release() stores RWSEM_OWNER_UNKNOWN, then"
                        + " percpu_rwsem_acquire() stores current again (v5.3 to v5.7 only: the v5.4 port and its copies)",
                        OWNER_UNKNOWN_CHOICES.toArray(String[]::new)));
    }

    /** The environment contract (docs/models/rwsem-owner.md, "Environment contract": the audit behind each row). */
    private static final List<EnvironmentInput> ENVIRONMENT = List.of(
            EnvironmentInput.parameter("signal_pending_state(state, current) (fatal signal to a killable waiter)",
                    "kernel/locking/rwsem.c:1076 rwsem_down_read_slowpath, :1157 rwsem_down_write_slowpath (v6.12);"
                            + " rwsem_down_read_slowpath's wait loop and rwsem_down_write_slowpath's inner wait loop (v5.4)",
                    "killable=none|writers|readers|all: a fatal signal arrives at any time while a killable task waits in the"
                            + " list (an environment step), wakes its schedule() and stays pending; the task takes out_nolock"
                            + " (v6.12: rwsem_del_wake_waiter; v5.4: list_del, its wstate's handoff bit, WAITERS when the list"
                            + " empties; v4.8 writer: list_del, -RWSEM_WAITING_BIAS if the list empties, else __rwsem_mark_wake) and"
                            + " down_*_killable returns -EINTR; default none (killable writers multiply the states 5.8x on v6.12,"
                            + " readers=1 writers=2); v4.8 has no down_read_killable (v4.15) and the v4.7 port keeps only the"
                            + " uninterruptible entry points"),
            EnvironmentInput.assumption("signal_pending_state for TASK_INTERRUPTIBLE (down_read_interruptible)",
                    "kernel/locking/rwsem.c:1076 (v6.12; down_read_interruptible exists since v5.9, none in v5.4)",
                    "signal_pending_state(TASK_INTERRUPTIBLE) is true for any pending signal, TASK_KILLABLE only for a fatal"
                            + " one; the rwsem code that follows is the same, and the model's signal is a nondeterministic"
                            + " event at any time of the wait, so killable=readers already explores every interruptible reader's"
                            + " runs: not a separate choice"),
            EnvironmentInput.choice("time_after(jiffies, waiter->timeout) (RWSEM_WAIT_TIMEOUT)",
                    "kernel/locking/rwsem.c:463 rwsem_mark_wake, :633 rwsem_try_write_lock (v6.12); rwsem.c of v5.4",
                    "the clock is nondeterministic: each read may find the deadline passed or not, and once passed it stays"
                            + " passed (per waiter, re-armed when it queues)"),
            EnvironmentInput.choice("sched_clock() > rspin_threshold",
                    "kernel/locking/rwsem.c:874 rwsem_optimistic_spin (v6.12), v5.4 reader spinning",
                    "every read may find the reader-spin deadline passed or not (the model checks it each iteration: the"
                            + " kernel's every 16th reaches the same states)"),
            EnvironmentInput.choice("need_resched()", "kernel/locking/rwsem.c:709 rwsem_can_spin_on_owner, rwsem_spin_on_owner :781, rwsem_optimistic_spin :913 (v6.12);"
                            + " osq_lock's need_resched",
                    "an environment step sets it for a writer wherever the spin code can still read it; the scheduler clears"
                            + " it at the next schedule()/preemption"),
            EnvironmentInput.parameter("rt_or_dl_task(current), rt_task(waiter->task)",
                    "kernel/locking/rwsem.c:632 rwsem_try_write_lock, :915 rwsem_optimistic_spin (v6.12)",
                    "rt=none|w0|...|all: which writers are RT tasks (a fixed attribute of the task)"),
            EnvironmentInput.parameter("sem->owner written from outside rwsem.c: percpu_rwsem_release()/percpu_rwsem_acquire()"
                    + " (RWSEM_OWNER_UNKNOWN)",
                    "include/linux/percpu-rwsem.h percpu_rwsem_release, percpu_rwsem_acquire (v5.3 to v5.7; callers freeze_super,"
                            + " thaw_super); read by rwsem_can_spin_on_owner, rwsem_spin_on_owner, rwsem_owner_flags (v5.4)",
                    "owner-unknown=none|w0|w1|w2|all: those writers store RWSEM_OWNER_UNKNOWN, then current again, inside their"
                            + " critical section (the v5.4 port and its copies; other versions have no such owner: exit 2);"
                            + " default none"),
            EnvironmentInput.choice("owner->on_cpu (owner_on_cpu)",
                    "kernel/locking/rwsem.c:723 rwsem_can_spin_on_owner, :781 rwsem_spin_on_owner (v6.12)",
                    "on_cpu of a writer is 0 while it is preempted (an environment step) or asleep in schedule(); a read"
                            + " through any other pointer is an owner-deref-sane violation"),
            EnvironmentInput.parameter("preemption (the holder off its CPU)",
                    "every step of a task holding the lock with preemption enabled (v4.x, v5.4 fast paths; v6.12 critical"
                            + " section)",
                    "preempt=writers (default)|all|none: which holders the environment may preempt and later run again"),
            EnvironmentInput.parameter("wake-ups: wake_q_add / wake_up_q / wake_up_process, and the grant window",
                    "kernel/locking/rwsem.c:434 (writer), :546-565 (readers' 2nd pass) rwsem_mark_wake; wake_up_q :592"
                            + " rwsem_del_wake_waiter, :1027, :1065, :1138, :1212, :1233; set_current_state :1071, :1146, :1178 (v6.12); __rwsem_mark_wake and its callers"
                            + " (rwsem-xadd.c v4.8); kernel/sched/core.c wake_q_add, wake_up_q",
                    "wakeups=wake-q (opt-in, default atomic: see the end): wake_q_add and smp_store_release(&waiter->task, NULL) are separate steps of"
                            + " the waker, in the code's order, under wait_lock; wake_up_q wakes each queued task, one step each,"
                            + " where the code calls it (after wait_lock is dropped, or under it where the code does);"
                            + " wake_q_add of a task already on a wake queue does nothing (that queue's wake_up_q wakes it,"
                            + " maybe before this grant); a wake-up of a task outside its wait loop is lost (TASK_RUNNING);"
                            + " set_current_state is a step (the wakers read the task's state). The order of wake_up_q's"
                            + " tasks and of the v5.4+ 2nd pass's readers is not kept: any queued task may be next (a choice)."
                            + " Default atomic (the model before issue 30: the grant is the wake-up), because wake-q multiplies"
                            + " the states 2x (v4.7) to 6x (v4.8), and v6.12 at readers=2, writers=2 passed 8M states in 70 s"
                            + " (atomic: 14.3M in all, 60-96 s)"),
            EnvironmentInput.choice("the grant window of rwsem_mark_wake (count, waiter->task = NULL, wake)",
                    "kernel/locking/rwsem.c:519-565 rwsem_mark_wake (v6.12), __rwsem_mark_wake (v4.8)",
                    "the count step, each reader's waiter->task = NULL and (wakeups=wake-q) each wake_q_add are steps of"
                            + " the waker in the code's order (a9e9bcb45b15 shows the count window, e158488be27b the"
                            + " wake_q_add window); with wakeups=atomic a reader's grant and wake are one step"),
            EnvironmentInput.parameter("spurious wake-up (schedule() returning with nothing granted) and a task already on"
                            + " another subsystem's wake_q (wake_q_add fails, woken later by that wake_up_q)",
                    "kernel/locking/rwsem.c:1084, :1176 schedule_preempt_disabled (v6.12); schedule() in"
                            + " rwsem_down_read_failed / __rwsem_down_write_failed_common (v4.8)",
                    "wakeups=spurious: a sleeping task's schedule() may return at any time (an environment step), and a"
                            + " task outside a wait loop may be put on another subsystem's wake queue (a futex waker's), whose"
                            + " wake_up_q later wakes it (environment steps); off by default (it adds an environment step for"
                            + " every sleeper and the wake queue field of every task); both wait loops re-check after"
                            + " schedule()"),
            EnvironmentInput.assumption("memory ordering (smp_load_acquire(&waiter.task), _acquire/_release atomics)",
                    "kernel/locking/rwsem.c:1074 rwsem_down_read_slowpath, :559 rwsem_mark_wake and every atomic (v6.12)",
                    "sequential consistency: bugs of a missing barrier (99143f82a255) need a weak memory model"),
            EnvironmentInput.assumption("interrupts / NMI on the same CPU", "raw_spin_lock_irq(&sem->wait_lock) everywhere",
                    "the wait_lock is taken with interrupts off and rwsems are not taken from interrupt context"),
            EnvironmentInput.assumption("CONFIG_DEBUG_RWSEMS (is_rwsem_reader_owned checks, rwsem_clear_reader_owned)",
                    "kernel/locking/rwsem.c:1252, :1341, :1367 (v6.12)",
                    "not modelled: it changes the code (extra owner loads and stores); the count warnings it adds are"
                            + " covered by count-sane"));

    @Override
    public List<EnvironmentInput> environment() {
        return ENVIRONMENT;
    }

    @Override
    public List<PropertyInfo> properties() {
        return CATALOG.properties();
    }

    /** What the model assumes of a variant's code; each is checked where it is made (ModelLimitException). */
    static final List<String> LIMITS = List.of(
            "xadd count (v4.x): count = a + k * RWSEM_WAITING_BIAS with a <= readers + writers active biases and k <= writers"
                    + " + 1 waiting biases (one active bias per task, one waiting bias per writer and one for the wait list); a count"
                    + " step that leaves it is a count-sane violation, not a limit (only |= / &= ~ outside it stay a limit)",
            "v5.3+ count: only the WRITER_LOCKED, WAITERS and HANDOFF bits and a reader count of at most one"
                    + " RWSEM_READER_BIAS per reader (no READFAIL bit, no other bits)",
            "owner: xadd: NULL, RWSEM_READER_OWNED or a writer; v5.3+: NULL, a writer's pointer (v5.3 to v5.10 also with"
                    + " RWSEM_RD_NONSPINNABLE), or a reader's pointer with RWSEM_READER_OWNED and any NONSPINNABLE bits",
            "owner->on_cpu is read only for a writer's pointer (never NULL or a reader-owned hint)",
            "wake_up_process()/wake_q_add() of a waiter names only a writer at the front of the wait list or a reader being"
                    + " granted; a reader grant goes only to readers",
            "rwsem_first_waiter() is dereferenced only while the wait list is not empty",
            "at most 200,000 recorded program places per task (kernel locals kept across steps take finitely many values)");

    @Override
    public List<String> limits() {
        return LIMITS;
    }

    /**
     * The real bugs of the v6.x code are fixed by the v6.12 port, 2f06f702925b by the v5.4 port with
     * that fix, 39e7234f00bc by the v5.4 port itself (v5.4.286 carries it); what v5.4 (with or without it) gets wrong by v6.12; the rest by after (v4.8).
     */
    @Override
    public String fixOf(String variant) {
        return switch (variant) {
            case "bug-2f06f702925b" -> "v5.4+2f06f702925b";
            case "mutant-wake-before-grant", "bug-39e7234f00bc" -> "v5.4";
            case "bug-48dfb5d2560d", "bug-3f5245538a19", "bug-b613c7f31476", "v5.4", "v5.4+2f06f702925b" -> "v6.12";
            default -> "after";
        };
    }

    /** The notation of rwsem-owner traces, one line each. */
    @Override
    public List<String> legend() {
        return RwsemDecoder.LEGEND;
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
        boolean[] rt = writerFlags("rt", params.get("rt"), writers);
        RwsemLayout.Preempt preempt = RwsemLayout.Preempt.valueOf(params.get("preempt").toUpperCase(java.util.Locale.ROOT));
        boolean[] handsOff = writerFlags("owner-unknown", params.get("owner-unknown"), writers);
        boolean anyHandsOff = false;
        for (boolean h : handsOff) {
            anyHandsOff |= h;
        }
        if (anyHandsOff && !impl.hasOwnerUnknown()) {
            throw new ModelInputException(NAME + ": parameter 'owner-unknown' needs a version with RWSEM_OWNER_UNKNOWN (v5.3 to"
                    + " v5.7: the v5.4 port and its copies); variant '" + variantName + "' has none");
        }
        RwsemDomain dom = RwsemDomain.of(impl.encoding(), readers, writers, anyHandsOff);
        Wakeups wakeups = Wakeups.of(params.get("wakeups"));
        TaskProgram[] prog = new TaskProgram[readers + writers];
        String what = NAME + " variant '" + variantName + "'";
        for (int t = 0; t < prog.length; t++) {
            boolean writer = t >= readers;
            int w = writer ? t - readers : dom.readersAnonymous() ? 0 : t;
            boolean isRt = writer && rt[w];
            String kill = params.get("killable");
            boolean killable = kill.equals("all") || kill.equals(writer ? "writers" : "readers");
            boolean handsOwnerOff = writer && handsOff[w];
            ProgramKey key = new ProgramKey(impl.getClass(), readers, writers, writer, w, isRt, rounds, killable, wakeups,
                    anyHandsOff, handsOwnerOff);
            Function<ProgramKey, TaskProgram> record = k -> {
                synchronized (impl) {
                    return ProgramRecorder.record(impl, what, dom, k.writer(), k.task(), k.rt(), k.rounds(), k.killable(),
                            k.wakeups(), k.handsOwnerOff());
                }
            };
            prog[t] = cachePrograms() ? PROGRAMS.computeIfAbsent(key, record) : record.apply(key);
        }
        return new RwsemOwnerModel(variantName, params, dom, prog, rt, preempt, Set.copyOf(properties), wakeups);
    }

    private static boolean cachePrograms() {
        return Boolean.parseBoolean(System.getProperty("kcheck.rwsem.programCache", "true"));
    }

    /**
     * The writers a writer-set parameter ({@code rt}, {@code owner-unknown}) names: {@code none},
     * {@code all}, or writers {@code wN} joined by {@code +}.
     */
    private static boolean[] writerFlags(String param, String value, int writers) {
        boolean[] out = new boolean[writers];
        if (value.equals("none")) {
            return out;
        }
        if (value.equals("all")) {
            java.util.Arrays.fill(out, true);
            return out;
        }
        for (String part : value.split("\\+")) {
            int w = Integer.parseInt(part.substring(1));
            if (w >= writers) {
                throw new ModelInputException(NAME + ": parameter '" + param + "' names writer " + w + " but writers=" + writers);
            }
            out[w] = true;
        }
        return out;
    }
}
