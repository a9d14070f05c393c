package kcheck.model.lbredo;

/**
 * One {@code load_balance()} call in progress: where it stopped ({@link #at}, a resume point of
 * {@link LoadBalance}), its {@code struct lb_env}, and the locals that live across the points
 * where other CPUs run ({@code busiest}, {@code ld_moved}).
 */
public final class LoadBalanceCall {
    public int at = LoadBalance.ENTRY;
    public final LbEnv env = new LbEnv();
    /** {@code struct rq *busiest}, as a CPU number (-1: none yet). */
    public int busiest = -1;
    /** {@code ld_moved}: tasks moved so far in this call. */
    public int ldMoved;
    /** The CPU running the call ({@code this_cpu}). */
    public int thisCpu;
    /** The {@code idle} argument: {@link LbEnv#CPU_NEWLY_IDLE}, {@link LbEnv#CPU_IDLE} or {@link LbEnv#CPU_NOT_IDLE}. */
    public int idle = LbEnv.CPU_NEWLY_IDLE;
    /** {@code *continue_balancing}: cleared when {@code should_we_balance()} says another CPU balances this domain. */
    public boolean continueBalancing = true;

    /** A fresh newly idle call on {@code thisCpu}, before {@code load_balance()} starts. */
    public void start(int thisCpu) {
        start(thisCpu, LbEnv.CPU_NEWLY_IDLE);
    }

    /** A fresh call on {@code thisCpu} with the given {@code idle} argument, before {@code load_balance()} starts. */
    public void start(int thisCpu, int idle) {
        this.thisCpu = thisCpu;
        this.idle = idle;
        at = LoadBalance.ENTRY;
        env.clear();
        busiest = -1;
        ldMoved = 0;
        continueBalancing = true;
    }
}
