package kcheck.model.rqlock.threads;

/** A CPU stopped waiting for a lock because its observer asked ({@link LockObserver#stopWaiting()}). */
public final class WaitAbandoned extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public WaitAbandoned(int cpu, int rq) {
        super("CPU " + cpu + " stopped waiting for rq[" + rq + "]: the run is over", null, false, false);
    }
}
