package kcheck.conform;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * A kernel C file compiled with gcc against kcheck's shim headers into a small driver program
 * (sources shipped as resources under {@code kcheck/conform/}) that reads commands on stdin and
 * answers one line per call. {@link #start} runs it ({@link DriverProcess}); a run that crashed or
 * hung is replaced by a fresh one. Closing deletes the program.
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

    private final Path workDir;
    private final Path exe;

    private CDriver(Path workDir, Path exe) {
        this.workDir = workDir;
        this.exe = exe;
    }

    /**
     * Compiles the driver (which includes the kernel files named by {@code defines}) with the
     * shim force-included.
     *
     * @param resources resource names under {@code kcheck/conform/} copied into the work directory
     *                  (the first is the driver's C file, the second the shim header)
     * @param defines   {@code NAME=VALUE} preprocessor definitions
     * @param stop      polled while the compiler runs
     */
    static CDriver compile(List<String> resources, List<String> defines, StopCondition stop)
            throws CompileException, IOException, DriverProcess.Stopped {
        Path dir = kcheck.engine.ScratchDirs.create("kcheck-conform-");
        List<Path> files = new ArrayList<>();
        for (String r : resources) {
            Path f = dir.resolve(Path.of(r).getFileName().toString());
            copyResource(r, f);
            files.add(f);
        }
        Path exe = dir.resolve("driver");
        List<String> cmd = new ArrayList<>(List.of(gcc(), "-std=gnu11", "-O2", "-w", "-include", files.get(1).toString()));
        for (String d : defines) {
            cmd.add("-D" + d);
        }
        cmd.addAll(List.of("-o", exe.toString(), files.get(0).toString()));
        Path messages = dir.resolve("compiler.txt");
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(messages.toFile()).start();
        } catch (IOException e) {
            kcheck.engine.ScratchDirs.release(dir);
            throw new CompileException("cannot run the C compiler '" + gcc() + "' (install gcc, or set KCHECK_CC): " + e.getMessage());
        }
        try {
            while (!p.waitFor(100, TimeUnit.MILLISECONDS)) {
                String reason = stop.reason();
                if (reason != null) {
                    p.destroyForcibly();
                    p.waitFor(5, TimeUnit.SECONDS);
                    kcheck.engine.ScratchDirs.release(dir);
                    throw new DriverProcess.Stopped(reason);
                }
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            kcheck.engine.ScratchDirs.release(dir);
            throw new IOException("interrupted while compiling");
        }
        if (p.exitValue() != 0) {
            String msg = Files.readString(messages, StandardCharsets.UTF_8);
            kcheck.engine.ScratchDirs.release(dir);
            throw new CompileException(msg.isBlank() ? "the C compiler exited with " + p.exitValue() : msg.strip());
        }
        return new CDriver(dir, exe);
    }

    /** Copies the resource {@code kcheck/conform/NAME} (e.g. {@code rwsem/kcheck_rwshim.h}) to {@code to}. */
    static void copyResource(String name, Path to) throws IOException {
        try (InputStream s = CDriver.class.getResourceAsStream("/kcheck/conform/" + name)) {
            if (s == null) {
                throw new IOException("missing resource kcheck/conform/" + name);
            }
            Files.copy(s, to);
        }
    }

    /**
     * Creates each of {@code headers} (e.g. {@code linux/sched.h}) under {@code inc} as an empty file whose one comment
     * says where what it would provide is: the kernel headers a compiled tree file names, which kcheck's shim stands in for.
     */
    static void emptyHeaders(Path inc, List<String> headers, String comment) throws IOException {
        for (String h : headers) {
            Path p = inc.resolve(h);
            Files.createDirectories(p.getParent());
            Files.writeString(p, "/* kcheck: empty; " + comment + " */\n");
        }
    }

    /** Runs one compiler command in {@code dir} (at most two minutes); a failure carries its messages through {@code tidy}. */
    static void runCompiler(List<String> cmd, Path dir, UnaryOperator<String> tidy) throws IOException, CompileException {
        Process cc = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String messages = new String(cc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!cc.waitFor(120, TimeUnit.SECONDS) || cc.exitValue() != 0) {
                throw new CompileException(messages.isBlank() ? "the C compiler failed" : tidy.apply(messages).strip());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
    }

    /**
     * addr2line on {@code exe} for {@code addrs} in one call ({@code -f}: each answer's function line first, then its
     * file:line): its output lines, or none when addr2line is missing, fails or takes more than 10 s.
     */
    static List<String> addr2line(Path exe, List<String> addrs, boolean functions) {
        if (addrs.isEmpty()) {
            return List.of();
        }
        List<String> cmd = new ArrayList<>(functions ? List.of("addr2line", "-f", "-e", exe.toString()) : List.of("addr2line", "-e",
                exe.toString()));
        cmd.addAll(addrs);
        try {
            Process p = new ProcessBuilder(cmd).directory(exe.getParent().toFile()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return List.of();
            }
            return p.exitValue() == 0 ? List.of(out.split("\n")) : List.of();
        } catch (IOException e) {
            return List.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        }
    }

    /** The C compiler: {@code KCHECK_CC} or {@code gcc}. */
    static String gcc() {
        String cc = System.getenv("KCHECK_CC");
        return cc == null || cc.isBlank() ? "gcc" : cc;
    }

    /** Starts a run of the program (waiting for it to say it is ready). */
    DriverProcess start(StopCondition stop) throws IOException, DriverProcess.Stopped {
        return DriverProcess.start(exe.toString(), stop);
    }

    /** Appends {@code commands} to {@code KCHECK_CONFORM_LOG}, if set. */
    static void log(List<String> commands) throws IOException {
        if (LOG != null) {
            Files.write(Path.of(LOG), commands, StandardCharsets.US_ASCII, java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.APPEND);
        }
    }

    @Override
    public void close() {
        kcheck.engine.ScratchDirs.release(workDir);
    }
}
