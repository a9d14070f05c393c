package kcheck.model.rqlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.ToIntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real C against the Java port: the primitive sequence of v6.12's {@code double_lock_balance},
 * {@code double_unlock_balance} and {@code double_rq_lock} under every outcome of their trylocks,
 * compiled with gcc at test time from a kernel tree (never copied into kcheck) against kcheck's shim
 * headers (src/test/resources/kcheck/rqlock-c), compared line by line with the recorded program of
 * {@link DoubleLockBalanceV612}: both bodies of {@code _double_lock_balance} ({@code CONFIG_PREEMPTION}
 * or not), with and without core scheduling (SMT pairs sharing a lock), on 4 CPUs.
 *
 * <p>Trees come from {@code KCHECK_KERNEL_TREES} (colon-separated unpacked kernel trees; CI sets it
 * to Debian's linux-source packages). A tree whose version has no port is skipped with a printed
 * line; with no usable tree, or no gcc, the test is skipped with a printed line saying why (under
 * KCHECK_CI=1, as in .ci/run, it fails instead).
 */
class CDoubleLockBalanceConformanceTest {
    static final String ENV = "KCHECK_KERNEL_TREES";
    private static final int CPUS = 4;

    @TempDir
    Path work;

    /** An unpacked tree and its VERSION.PATCHLEVEL from its Makefile. */
    record Tree(Path dir, String series) {
    }

    static List<Tree> trees() {
        String env = System.getenv(ENV);
        List<Tree> out = new ArrayList<>();
        if (env == null || env.isBlank()) {
            return out;
        }
        for (String d : env.split(":")) {
            if (d.isBlank()) {
                continue;
            }
            Path dir = Path.of(d);
            try {
                String mk = Files.readString(dir.resolve("Makefile"));
                Matcher v = Pattern.compile("(?m)^VERSION = (\\d+)").matcher(mk);
                Matcher p = Pattern.compile("(?m)^PATCHLEVEL = (\\d+)").matcher(mk);
                if (v.find() && p.find()) {
                    out.add(new Tree(dir, v.group(1) + "." + p.group(1)));
                } else {
                    System.out.println("[kcheck rq-lock C] " + ENV + ": skipped " + dir + ": no VERSION/PATCHLEVEL in its Makefile");
                }
            } catch (IOException e) {
                System.out.println("[kcheck rq-lock C] " + ENV + ": skipped " + dir + ": no readable Makefile");
            }
        }
        return out;
    }

    @Test
    void realCOfV612DoubleLockBalanceTakesTheSamePrimitivesAsThePort() throws Exception {
        List<Tree> usable = new ArrayList<>();
        for (Tree t : trees()) {
            if (t.series().equals("6.12")) {
                usable.add(t);
            } else {
                System.out.println("[kcheck rq-lock C] skipped " + t.dir() + ": v" + t.series()
                        + " has no rq-lock port (ports: v6.12)");
            }
        }
        assumeTrue(!usable.isEmpty(), ENV + " lists no v6.12 kernel tree (CI unpacks Debian's linux-source-6.12; "
                + "locally e.g. " + ENV + "=/usr/src/linux-source-6.12)");
        assumeTrue(gcc(), "no gcc on the PATH (Debian's build-essential; .ci/run installs it)");
        for (Tree t : usable) {
            Path dir = work.resolve("v" + t.series());
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("extracted.c"), extract(t.dir()));
            for (String name : List.of("shim.h", "harness.c")) {
                Files.copy(getClass().getResourceAsStream("/kcheck/rqlock-c/" + name), dir.resolve(name));
            }
            int lines = 0;
            for (boolean preempt : new boolean[] {true, false}) {
                Path exe = dir.resolve(preempt ? "preempt" : "nopreempt");
                run(dir, List.of("gcc", "-std=gnu11", "-O0", "-Wall", "-Wno-unused-function", preempt ? "-DCONFIG_PREEMPTION" : "-UCONFIG_PREEMPTION",
                        "-DCONFIG_SCHED_CORE", "-o", exe.toString(), "harness.c"));
                for (boolean pairs : new boolean[] {false, true}) {
                    List<String> c = run(dir, List.of(exe.toString(), Integer.toString(CPUS), pairs ? "1" : "0"));
                    List<String> java = port(new RqConfig(CPUS, pairs, preempt));
                    String config = "v" + t.series() + (preempt ? " CONFIG_PREEMPTION" : " !CONFIG_PREEMPTION")
                            + (pairs ? ", core scheduling pairs" : "");
                    assertThat(c).as("C of %s (%s) vs the Java port", t.dir(), config).containsExactlyElementsOf(java);
                    lines += c.size();
                    System.out.println("[kcheck rq-lock C] " + t.dir() + " " + config + ": " + c.size()
                            + " paths of double_lock_balance, double_unlock_balance, double_rq_lock agree with the port");
                }
            }
            assertThat(lines).isGreaterThan(100);
        }
    }

    /** The functions, taken from the tree: rq_order_less, both _double_lock_balance, double_lock_balance, double_unlock_balance, double_rq_lock. */
    static String extract(Path tree) throws IOException {
        String sched = Files.readString(tree.resolve("kernel/sched/sched.h"), StandardCharsets.UTF_8);
        String core = Files.readString(tree.resolve("kernel/sched/core.c"), StandardCharsets.UTF_8);
        StringBuilder b = new StringBuilder("/* extracted at test time from " + tree + " */\n");
        b.append(function(sched, "static inline bool rq_order_less(struct rq *rq1, struct rq *rq2)", 0)).append('\n');
        b.append(function(core, "void double_rq_lock(struct rq *rq1, struct rq *rq2)", 0)).append('\n');
        String first = function(sched, "static inline int _double_lock_balance(struct rq *this_rq, struct rq *busiest)", 0);
        String second = function(sched, "static inline int _double_lock_balance(struct rq *this_rq, struct rq *busiest)", 1);
        int i1 = sched.indexOf(first);
        int i2 = sched.indexOf(second);
        String between = sched.substring(i1 + first.length(), i2);
        if (!sched.substring(0, i1).contains("#ifdef CONFIG_PREEMPTION") || !between.contains("#else")) {
            throw new IllegalStateException("_double_lock_balance: expected the CONFIG_PREEMPTION body, #else, the other body");
        }
        b.append("#ifdef CONFIG_PREEMPTION\n").append(first).append("\n#else\n").append(second).append("\n#endif\n");
        b.append(function(sched, "static inline int double_lock_balance(struct rq *this_rq, struct rq *busiest)", 0)).append('\n');
        b.append(function(sched, "static inline void double_unlock_balance(struct rq *this_rq, struct rq *busiest)", 0)).append('\n');
        return b.toString();
    }

    /** The {@code nth} definition starting with {@code signature}, up to its matching closing brace. */
    static String function(String src, String signature, int nth) {
        int at = -1;
        for (int k = 0; k <= nth; k++) {
            at = src.indexOf(signature, at + 1);
            if (at < 0) {
                throw new IllegalStateException("not found in the tree: " + signature + " (#" + nth + ")");
            }
        }
        int open = src.indexOf('{', at);
        int depth = 0;
        for (int i = open; i < src.length(); i++) {
            char ch = src.charAt(i);
            if (ch == '{') {
                depth++;
            } else if (ch == '}' && --depth == 0) {
                return src.substring(at, i + 1);
            }
        }
        throw new IllegalStateException("unbalanced braces after " + signature);
    }

    /** The same lines from the recorded program of the Java port. */
    static List<String> port(RqConfig config) {
        DoubleLockBalanceV612 v = new DoubleLockBalanceV612();
        List<String> out = new ArrayList<>();
        for (int t = 0; t < config.cpus(); t++) {
            for (int b = 0; b < config.cpus(); b++) {
                final int tt = t;
                final int bb = b;
                if (t != b) {
                    paths("dlb " + t + " " + b + ": ", true, config, k -> v.doubleLockBalance(k, tt, bb), out);
                    paths("dub " + t + " " + b + ": ", false, config, k -> {
                        v.doubleUnlockBalance(k, tt, bb);
                        return 0;
                    }, out);
                }
                paths("drl " + t + " " + b + ": ", false, config, k -> {
                    v.doubleRqLock(k, tt, bb);
                    return 0;
                }, out);
            }
        }
        return out;
    }

    /** Appends one line per path of the recorded code, trylock-failed branch first (as the C driver explores). */
    private static void paths(String prefix, boolean returns, RqConfig config, ToIntFunction<RqLocks> code, List<String> out) {
        RecordedCode.Node root = RecordedCode.record("v6.12 port", config, code);
        walk(root, new StringBuilder(prefix), returns, out);
    }

    private static void walk(RecordedCode.Node n, StringBuilder line, boolean returns, List<String> out) {
        int mark = line.length();
        switch (n.kind) {
            case END -> out.add(line + (returns ? "return " + n.ret : "end"));
            case LOCK -> {
                line.append("lock ").append(n.rq).append(' ').append(n.subclass).append(" ; ");
                walk(n.children[0], line, returns, out);
            }
            case UNLOCK -> {
                line.append("unlock ").append(n.rq).append(" ; ");
                walk(n.children[0], line, returns, out);
            }
            case SUBCLASS -> {
                line.append("subclass ").append(n.rq).append(' ').append(n.subclass).append(" ; ");
                walk(n.children[0], line, returns, out);
            }
            case CLOCK -> {
                line.append("clock ").append(n.rq).append(" ; ");
                walk(n.children[0], line, returns, out);
            }
            case TRYLOCK -> {
                for (int o = 0; o < 2; o++) {
                    line.setLength(mark);
                    line.append("trylock ").append(n.rq).append(' ').append(o).append(" ; ");
                    walk(n.children[o], line, returns, out);
                }
            }
            default -> throw new IllegalStateException(n.kind.toString());
        }
        line.setLength(mark);
    }

    private static boolean gcc() {
        try {
            return new ProcessBuilder("gcc", "--version").redirectErrorStream(true).start().waitFor() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    private static List<String> run(Path dir, List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new AssertionError(String.join(" ", cmd) + " failed:\n" + text);
        }
        return text.isEmpty() ? List.of() : List.of(text.split("\n"));
    }

    @Test
    void extractionTakesBothBodiesInSourceOrder() {
        String src = "#ifdef CONFIG_PREEMPTION\nstatic inline int _double_lock_balance(struct rq *this_rq, struct rq *busiest)\n{ a(); }\n"
                + "#else\nstatic inline int _double_lock_balance(struct rq *this_rq, struct rq *busiest)\n{ if (x) { b(); } }\n#endif\n";
        assertThat(function(src, "static inline int _double_lock_balance(struct rq *this_rq, struct rq *busiest)", 1))
                .endsWith("{ if (x) { b(); } }");
    }
}
