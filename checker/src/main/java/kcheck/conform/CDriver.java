package kcheck.conform;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A kernel C file compiled with gcc against kcheck's shim headers into a small driver program
 * (sources shipped as resources under {@code kcheck/conform/}), run as a child process that reads
 * commands on stdin and answers one line per command. Commands are sent in batches; the driver
 * flushes its output on a "." line.
 */
public final class CDriver implements AutoCloseable {
    /** The compiler failed, or could not be run. */
    public static final class CompileException extends Exception {
        private static final long serialVersionUID = 1L;

        public CompileException(String message) {
            super(message);
        }
    }

    /** {@code KCHECK_CONFORM_LOG}: a file every command sent to a driver is appended to (for debugging a driver). */
    private static final String LOG = System.getenv("KCHECK_CONFORM_LOG");

    /** How long to wait for one answer of the driver. */
    private static final long ANSWER_TIMEOUT_NANOS = 30_000_000_000L;

    private final Path workDir;
    private final Process process;
    private final BufferedWriter in;
    private final BufferedReader out;

    private CDriver(Path workDir, Process process) {
        this.workDir = workDir;
        this.process = process;
        this.in = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.US_ASCII), 1 << 16);
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII), 1 << 16);
    }

    /**
     * Compiles {@code driverResource} (which includes the kernel files named by {@code defines})
     * with {@code shimResource} force-included, and starts it.
     *
     * @param resources resource names under {@code kcheck/conform/} copied into the work directory
     *                  (the first is the driver's C file, the second the shim header)
     * @param defines   {@code NAME=VALUE} preprocessor definitions
     */
    public static CDriver compileAndStart(List<String> resources, List<String> defines) throws CompileException, IOException {
        Path dir = kcheck.engine.ScratchDirs.create("kcheck-conform-");
        List<Path> files = new ArrayList<>();
        for (String r : resources) {
            try (InputStream s = CDriver.class.getResourceAsStream("/kcheck/conform/" + r)) {
                if (s == null) {
                    throw new IOException("missing resource kcheck/conform/" + r);
                }
                Path f = dir.resolve(Path.of(r).getFileName().toString());
                Files.copy(s, f);
                files.add(f);
            }
        }
        Path exe = dir.resolve("driver");
        List<String> cmd = new ArrayList<>(List.of(gcc(), "-std=gnu11", "-O2", "-w", "-include", files.get(1).toString()));
        for (String d : defines) {
            cmd.add("-D" + d);
        }
        cmd.addAll(List.of("-o", exe.toString(), files.get(0).toString()));
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        } catch (IOException e) {
            delete(dir);
            throw new CompileException("cannot run the C compiler '" + gcc() + "' (install gcc, or set KCHECK_CC): " + e.getMessage());
        }
        String msg = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int rc;
        try {
            rc = p.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while compiling");
        }
        if (rc != 0) {
            delete(dir);
            throw new CompileException(msg.isBlank() ? "the C compiler exited with " + rc : msg.strip());
        }
        Process run = new ProcessBuilder(exe.toString()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        return new CDriver(dir, run);
    }

    /** The C compiler: {@code KCHECK_CC} or {@code gcc}. */
    static String gcc() {
        String cc = System.getenv("KCHECK_CC");
        return cc == null || cc.isBlank() ? "gcc" : cc;
    }

    /** Sends {@code commands} and returns the lines they print ({@code answers} of them). */
    public List<String> run(List<String> commands, int answers) throws IOException {
        if (LOG != null) {
            Files.write(Path.of(LOG), commands, StandardCharsets.US_ASCII, java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.APPEND);
        }
        for (String c : commands) {
            in.write(c);
            in.write('\n');
        }
        in.write(".\n");
        in.flush();
        List<String> lines = new ArrayList<>(answers);
        for (int i = 0; i < answers; i++) {
            if (!out.ready()) {
                long deadline = System.nanoTime() + ANSWER_TIMEOUT_NANOS;
                while (!out.ready() && process.isAlive()) {
                    if (System.nanoTime() > deadline) {
                        process.destroyForcibly();
                        throw new IOException("the compiled driver gave no answer for " + ANSWER_TIMEOUT_NANOS / 1_000_000_000L
                                + " s (an endless loop in the C?) after " + i + " of " + answers + " answers to: "
                                + String.join("; ", commands.subList(0, Math.min(commands.size(), 40))));
                    }
                    java.util.concurrent.locks.LockSupport.parkNanos(20_000);
                }
            }
            String l = out.readLine();
            if (l == null) {
                throw new IOException("the compiled driver stopped (exit " + exitCode() + ") after " + i + " of " + answers + " answers");
            }
            lines.add(l);
        }
        return lines;
    }

    private String exitCode() {
        try {
            return process.waitFor(1, TimeUnit.SECONDS) ? Integer.toString(process.exitValue()) : "none yet";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    @Override
    public void close() {
        try {
            in.write("X\n");
            in.flush();
        } catch (IOException e) {
            // the process is gone already
        }
        try {
            if (!process.waitFor(2, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        delete(workDir);
    }

    private static void delete(Path dir) {
        kcheck.engine.ScratchDirs.release(dir);
    }
}
