package kcheck.conform;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One run of a compiled driver ({@link CDriver#start}): commands go to its stdin, its answers (one
 * line per call, written as each call returns) are read by a thread of their own, so that no read
 * ever waits without a deadline. A call that does not answer within the call timeout is a hang (the
 * process is killed; see {@link #BLOCKED_MILLIS}); an answer stream that ends early is a crash, named by the signal that ended
 * the process.
 */
final class DriverProcess implements AutoCloseable {
    /** The line a driver prints once it is running, before any command. */
    static final String READY = "kcheck-driver ready";

    /** How long a driver may take to start (exec and dynamic linking on a loaded machine): not a property of the C under test. */
    private static final long START_TIMEOUT_MILLIS = 30_000;

    /**
     * A call is a hang once it has not answered for the call timeout and the driver has then run
     * on a CPU for another half of it (a loaded machine that gives the driver no CPU does not make
     * the C hang), or once it has not answered for this long whatever its CPU time (a C blocked in
     * a system call).
     */
    private static final long BLOCKED_MILLIS = 30_000;

    /** How often a wait for an answer looks at the stop condition. */
    private static final long POLL_MILLIS = 100;

    /** The answers to a batch: the lines that came, and why the rest did not (null if they all came). */
    record Answers(List<String> lines, Fault fault) {
    }

    /** Why a driver stopped answering: it hung in a call, or ended (a signal, or an exit). */
    record Fault(Kind kind, String what) {
        enum Kind { HANG, CRASH }
    }

    /** The run was asked to stop (time limit, signal) while waiting for the driver. */
    static final class Stopped extends Exception {
        private static final long serialVersionUID = 1L;

        Stopped(String reason) {
            super(reason);
        }
    }

    /** The end of the driver's output: what it wrote after its last newline (usually nothing). */
    private record End(String partial) {
    }

    private final Process process;
    private final OutputStream in;
    private final BlockingQueue<Object> arrivals = new LinkedBlockingQueue<>();
    private final ArrayDeque<String> lines = new ArrayDeque<>();
    private End end;

    private DriverProcess(Process process) {
        this.process = process;
        this.in = process.getOutputStream();
        Thread reader = new Thread(() -> read(process.getInputStream()), "kcheck-conform-driver-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@code exe} and waits for its ready line. */
    static DriverProcess start(String exe, StopCondition stop) throws IOException, Stopped {
        DriverProcess d = new DriverProcess(new ProcessBuilder(exe).redirectError(ProcessBuilder.Redirect.DISCARD).start());
        Answers hello = d.answers(1, START_TIMEOUT_MILLIS, stop);
        if (hello.fault() != null || !hello.lines().get(0).equals(READY)) {
            d.close();
            throw new IOException("the compiled driver did not start: " + (hello.fault() == null ? "its first line was '"
                    + hello.lines().get(0) + "'" : hello.fault().kind() == Fault.Kind.HANG ? "it did not say it was ready within "
                    + START_TIMEOUT_MILLIS / 1000 + " s" : "it " + hello.fault().what()));
        }
        return d;
    }

    /** Reads the driver's stdout into whole lines until it ends. */
    private void read(InputStream s) {
        byte[] buf = new byte[1 << 16];
        StringBuilder partial = new StringBuilder();
        try {
            for (int n; (n = s.read(buf)) > 0;) {
                List<String> chunk = new ArrayList<>();
                int from = 0;
                for (int i = 0; i < n; i++) {
                    if (buf[i] == '\n') {
                        partial.append(new String(buf, from, i - from, StandardCharsets.US_ASCII));
                        chunk.add(partial.toString());
                        partial.setLength(0);
                        from = i + 1;
                    }
                }
                partial.append(new String(buf, from, n - from, StandardCharsets.US_ASCII));
                if (!chunk.isEmpty()) {
                    arrivals.add(chunk);
                }
            }
        } catch (IOException e) {
            // the process was killed or closed its output: the end of its answers
        }
        arrivals.add(new End(partial.toString()));
    }

    /**
     * Sends {@code commands} (they must fit in a pipe's buffer, about 64 KB: the driver's answers
     * are read only once they are all written) and reads {@code expected} answers, each within
     * {@code callTimeoutMillis} of the previous one.
     */
    Answers run(List<String> commands, int expected, long callTimeoutMillis, StopCondition stop) throws Stopped {
        StringBuilder b = new StringBuilder();
        for (String c : commands) {
            b.append(c).append('\n');
        }
        try {
            in.write(b.toString().getBytes(StandardCharsets.US_ASCII));
            in.flush();
        } catch (IOException e) {
            // the driver is gone (a crash in an earlier batch): reading says how it ended
        }
        return answers(expected, callTimeoutMillis, stop);
    }

    private Answers answers(int expected, long timeoutMillis, StopCondition stop) throws Stopped {
        List<String> got = new ArrayList<>(expected);
        long timeout = timeoutMillis * 1_000_000;
        long progress = System.nanoTime();
        Duration cpuAtTimeout = null;
        while (got.size() < expected) {
            if (!lines.isEmpty()) {
                got.add(lines.poll());
                continue;
            }
            if (end != null) {
                return new Answers(got, ended());
            }
            String reason = stop.reason();
            if (reason != null) {
                kill();
                throw new Stopped(reason);
            }
            long waited = System.nanoTime() - progress;
            if (waited >= timeout) {
                Duration cpu = process.toHandle().info().totalCpuDuration().orElse(null);
                boolean spinning = cpuAtTimeout != null && cpu != null && cpu.minus(cpuAtTimeout).toMillis() >= timeoutMillis / 2;
                if (cpu == null || spinning || waited >= BLOCKED_MILLIS * 1_000_000) {
                    kill();
                    return new Answers(got, new Fault(Fault.Kind.HANG, "did not return within " + timeoutMillis + " ms"));
                }
                if (cpuAtTimeout == null) {
                    cpuAtTimeout = cpu;
                }
            }
            Object a;
            try {
                a = arrivals.poll(waited >= timeout ? POLL_MILLIS * 1_000_000 : Math.min(timeout - waited, POLL_MILLIS * 1_000_000),
                        TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                kill();
                throw new Stopped("interrupted");
            }
            if (a instanceof End e) {
                end = e;
            } else if (a != null) {
                @SuppressWarnings("unchecked")
                List<String> chunk = (List<String>) a;
                lines.addAll(chunk);
                progress = System.nanoTime();
                cpuAtTimeout = null;
            }
        }
        return new Answers(got, null);
    }

    /** The driver's output ended: how the process did (it has closed its stdout, so it is exiting). */
    private Fault ended() {
        String midLine = end.partial().isEmpty() ? "" : " (in the middle of an answer)";
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                kill();
                return new Fault(Fault.Kind.CRASH, "closed its output and did not exit");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            kill();
            return new Fault(Fault.Kind.CRASH, "closed its output (interrupted while waiting for it to exit)");
        }
        int v = process.exitValue();
        /* Java reports a process ended by signal s as 128 + s */
        return new Fault(Fault.Kind.CRASH, (v > 128 ? "crashed with " + signalName(v - 128) : "exited with status " + v) + midLine);
    }

    /** SIGSEGV for 11; "signal 42" for a number without a usual name. */
    static String signalName(int signal) {
        String[] names = {null, "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE", "KILL", "USR1", "SEGV", "USR2", "PIPE", "ALRM",
            "TERM", "STKFLT", "CHLD", "CONT", "STOP", "TSTP", "TTIN", "TTOU", "URG", "XCPU", "XFSZ", "VTALRM", "PROF", "WINCH", "IO", "PWR",
            "SYS"};
        return signal > 0 && signal < names.length ? "SIG" + names[signal] : "signal " + signal;
    }

    boolean alive() {
        return end == null && process.isAlive();
    }

    private void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            try {
                in.write("X\n".getBytes(StandardCharsets.US_ASCII));
                in.flush();
            } catch (IOException e) {
                // it is gone already
            }
            try {
                if (!process.waitFor(2, TimeUnit.SECONDS)) {
                    kill();
                }
            } catch (InterruptedException e) {
                kill();
                Thread.currentThread().interrupt();
            }
        }
        try {
            in.close();
        } catch (IOException e) {
            // nothing to do
        }
    }
}
