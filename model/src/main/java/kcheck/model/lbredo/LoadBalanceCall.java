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

    /** A fresh call on {@code thisCpu}, before {@code load_balance()} starts. */
    public void start(int thisCpu) {
        this.thisCpu = thisCpu;
        at = LoadBalance.ENTRY;
        env.clear();
        busiest = -1;
        ldMoved = 0;
    }
}
