package kcheck.model.lbredo;

/**
 * The variant contract of the lb-redo model: a version of {@code load_balance()}
 * (kernel/sched/fair.c) for a newly idle CPU, with its {@code detach_tasks()} and
 * {@code can_migrate_task()}.
 *
 * <p>{@code load_balance()} reads busiest's {@code nr_running} without busiest's lock, and other
 * CPUs can pull tasks from busiest before it takes the lock. So the function is cut where other
 * CPUs may act; {@link #loadBalance} runs from one cut to the next, like this:
 * <pre>
 *   ENTRY         the call: env set up, cpus = span &amp; active, then redo:
 *   REDO          redo: should_we_balance, find_busiest_group, find_busiest_queue
 *   NR_RUNNING    if (busiest-&gt;nr_running &gt; 1) ...   (the unlocked read)
 *   MORE_BALANCE  more_balance: rq_lock(busiest), detach_tasks, rq_unlock, attach_tasks
 *   AFTER_DETACH  NEED_BREAK / DST_PINNED / ALL_PINNED: goto more_balance, goto redo, or out
 * </pre>
 * The function returns the cut it stopped at (the model lets other CPUs run there) or one of
 * the {@code OUT*} exits, which end the call. Everything the kernel keeps across a cut lives in
 * {@link LoadBalanceCall} (the locals) and {@link LbEnv} ({@code struct lb_env}).
 *
 * <p>To check your own patch, copy {@link LoadBalanceV513}, change it, and build the model with
 * {@link LbRedoFactory#create(String, LoadBalance, kcheck.model.Params, java.util.Set)}.
 */
public interface LoadBalance {
    /* resume points */
    int ENTRY = 0;
    int REDO = 1;
    int NR_RUNNING = 2;
    int MORE_BALANCE = 3;
    int AFTER_DETACH = 4;
    /* exits: the call returns (ld_moved) */
    int OUT = 5;
    int OUT_BALANCED = 6;
    int OUT_ALL_PINNED = 7;

    /** Kernel names of the resume points and exits, for traces. */
    String[] LABELS = {"entry", "redo", "nr_running check", "more_balance", "after detach",
        "out", "out_balanced", "out_all_pinned"};

    /**
     * Runs {@code load_balance(dst_cpu, ..., CPU_NEWLY_IDLE)} from {@code lb.at} to the next cut;
     * returns that cut, or an exit.
     */
    int loadBalance(LoadBalanceCall lb, Sched s);

    /** True for the exits. */
    static boolean isExit(int label) {
        return label >= OUT;
    }
}
