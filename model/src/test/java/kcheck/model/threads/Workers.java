package kcheck.model.threads;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Runs test code on real threads and hands what went wrong on them back to the test thread: an
 * assertion or exception thrown on a worker is otherwise printed by the thread's default handler
 * and lost, so the test would pass. The workers are daemon threads, so one that never ends (a
 * deadlock regression, after the test's {@code @Timeout} failed it) does not keep the JVM alive.
 */
public final class Workers {
    private Workers() {
    }

    /** Work for worker {@code i}. */
    @FunctionalInterface
    public interface Work {
        void run(int i) throws Exception;
    }

    /**
     * Starts {@code n} threads named {@code name + i}, each running {@code work.run(i)}, waits for
     * all of them, and throws an {@link AssertionError} carrying the first failure (the others
     * suppressed) if any worker threw.
     */
    public static void run(String name, int n, Work work) throws InterruptedException {
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            final int k = i;
            Thread t = new Thread(() -> {
                try {
                    work.run(k);
                } catch (Throwable e) {
                    failures.add(e);
                }
            }, name + k);
            t.setDaemon(true);
            threads.add(t);
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        Throwable first = failures.poll();
        if (first != null) {
            AssertionError e = new AssertionError("a worker thread failed: " + first, first);
            failures.forEach(e::addSuppressed);
            throw e;
        }
    }
}
