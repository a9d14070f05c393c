package kcheck.conform;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The streaming half of recorded-program equivalence for concurrent code (qspinlock.c, rwsem.c): the
 * port's runs are generated on one thread and written to a compiled driver, each as its input line
 * and the 64-bit FNV-1a hash of the port's text; the driver runs the C on the input, hashes its own
 * text and prints nothing while they agree. At the first run that differs it prints {@code D N} and
 * its own lines about that run, then stops; at the end of the input {@code END N}. The runs sent
 * recently are kept (a ring) so that the one the driver names can be reported.
 *
 * @param <R> a run of the port
 */
final class HashedRuns<R> {
    /** What the driver answered: runs compared, the diverging run (or null) with the driver's lines about it, why it stopped. */
    record Answer<R>(long compared, R run, long index, List<String> lines, String stopped) {
    }

    private HashedRuns() {
    }

    /**
     * Runs the driver {@code exe} on the runs {@code source} gives, {@code input} and {@code text} of each; after a
     * {@code D} line the driver prints {@code lines} lines, which the answer keeps.
     */
    static <R> Answer<R> compare(Path exe, Path dir, Consumer<Consumer<R>> source, Function<R, String> input, Function<R, String> text,
                                 int lines, StopCondition stop, String name) throws IOException {
        Process p = new ProcessBuilder(exe.toString()).directory(dir.toFile()).redirectErrorStream(true).start();
        AtomicReference<String> why = new AtomicReference<>();
        Window<R> window = new Window<>();
        Thread writer = new Thread(() -> {
            try (BufferedWriter w = new BufferedWriter(new OutputStreamWriter(p.getOutputStream(), StandardCharsets.US_ASCII), 1 << 16)) {
                long[] n = {0};
                source.accept(r -> {
                    if ((n[0]++ & 0x3fff) == 0) {
                        String s = stop.reason();
                        if (s != null) {
                            why.compareAndSet(null, s);
                            throw new StopWriting();
                        }
                    }
                    window.remember(r);
                    try {
                        w.write(input.apply(r));
                        w.write(' ');
                        w.write(Long.toHexString(fnv1a(text.apply(r))));
                        w.write('\n');
                    } catch (IOException e) {
                        throw new StopWriting();
                    }
                });
            } catch (StopWriting | IOException e) {
                // the driver stopped at a divergence, or the run was asked to stop
            }
        }, "kcheck-conform-" + name + "-writer");
        writer.setDaemon(true);
        writer.start();
        R diverged = null;
        long index = -1;
        List<String> about = List.of();
        long compared = -1;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.US_ASCII))) {
            String line;
            while ((line = r.readLine()) != null) {
                if (line.startsWith("END ")) {
                    compared = Long.parseLong(line.substring(4).trim());
                } else if (line.startsWith("D ")) {
                    index = Long.parseLong(line.substring(2).trim());
                    List<String> got = new ArrayList<>();
                    for (int i = 0; i < lines; i++) {
                        String l = r.readLine();
                        got.add(l == null ? "" : l);
                    }
                    about = got;
                    diverged = window.find(index);
                    compared = index;
                }
            }
        }
        try {
            writer.join(TimeUnit.MINUTES.toMillis(5));
            p.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        p.destroyForcibly();
        if (index < 0 && compared < 0 && why.get() == null) {
            throw new IOException("the compiled " + name + " driver ended without an answer (exit " + p.exitValue() + ")");
        }
        return new Answer<>(Math.max(compared, 0), diverged, index, about, index < 0 ? why.get() : null);
    }

    private static final class StopWriting extends RuntimeException {
        private static final long serialVersionUID = 1L;

        StopWriting() {
            super(null, null, false, false);
        }
    }

    /** The most recent runs sent (a ring): the driver is never far behind the writer. */
    private static final class Window<R> {
        static final int KEEP = 1 << 16;
        private final Object[] ring = new Object[KEEP];
        private long count;

        synchronized void remember(R r) {
            ring[(int) (count % KEEP)] = r;
            count++;
        }

        @SuppressWarnings("unchecked")
        synchronized R find(long index) {
            return index < count && count - index <= KEEP ? (R) ring[(int) (index % KEEP)] : null;
        }
    }

    /** 64-bit FNV-1a of the ASCII text, as the drivers compute it. */
    static long fnv1a(String s) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < s.length(); i++) {
            h ^= s.charAt(i) & 0xff;
            h *= 0x100000001b3L;
        }
        return h;
    }

    /** A driver's "R ..." or "W ..." line without its tag. */
    static String body(String line) {
        return line.length() < 2 ? "" : line.substring(2);
    }
}
