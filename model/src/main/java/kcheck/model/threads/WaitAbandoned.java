package kcheck.model.threads;

/** A thread stopped waiting because the check watching it asked (it has seen the violation it was looking for). */
public final class WaitAbandoned extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public WaitAbandoned(String who) {
        super(who + " stopped waiting: the run is over", null, false, false);
    }
}
