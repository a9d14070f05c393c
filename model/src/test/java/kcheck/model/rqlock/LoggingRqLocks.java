package kcheck.model.rqlock;

import java.util.ArrayList;
import java.util.List;

/** An {@link RqLocks} that logs each primitive in call order; {@code spin_trylock} answers as told. */
final class LoggingRqLocks implements RqLocks {
    final List<String> log = new ArrayList<>();
    private final boolean trylockSucceeds;

    LoggingRqLocks(boolean trylockSucceeds) {
        this.trylockSucceeds = trylockSucceeds;
    }

    @Override
    public void spinLock(int rq) {
        log.add("lock " + rq);
    }

    @Override
    public boolean spinTrylock(int rq) {
        log.add("trylock " + rq);
        return trylockSucceeds;
    }

    @Override
    public void spinUnlock(int rq) {
        log.add("unlock " + rq);
    }
}
