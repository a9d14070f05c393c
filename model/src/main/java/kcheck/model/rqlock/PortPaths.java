package kcheck.model.rqlock;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * The recorded program of the v6.12 port of the double_lock_balance family
 * ({@link DoubleLockBalanceV612}) as one line per path, for comparison with the kernel's own C
 * ({@code kcheck conform rq-lock}): for every (this_rq, busiest) of the configuration's CPUs and
 * every outcome of every trylock,
 * <pre>
 *   dlb T B: trylock 1 0 ; lock 1 1 ; clock 0 ; clock 1 ; return 0
 *   dub T B: unlock 1 ; subclass 0 0 ; end
 *   drl A B: lock 0 0 ; lock 1 1 ; clock 0 ; clock 1 ; end
 * </pre>
 * Locks are named by index: with core scheduling pairs, the core's lock.
 */
public final class PortPaths {
    private PortPaths() {
    }

    /** Every path of double_lock_balance, double_unlock_balance and double_rq_lock of the port. */
    public static List<String> lines(RqConfig config) {
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

    private static void paths(String prefix, boolean returns, RqConfig config, ToIntFunction<RqLocks> code, List<String> out) {
        RecordedCode.Node root = RecordedCode.record("v6.12 port", config, code);
        walk(root, new StringBuilder(prefix), returns, out);
    }

    private static void walk(RecordedCode.Node n, StringBuilder line, boolean returns, List<String> out) {
        int mark = line.length();
        switch (n.kind) {
            case END -> out.add(line + (returns ? "return " + n.ret : "end"));
            case TRYLOCK -> {
                for (int o = 0; o < 2; o++) {
                    line.setLength(mark);
                    line.append("trylock ").append(n.rq).append(' ').append(o).append(" ; ");
                    walk(n.children[o], line, returns, out);
                }
            }
            default -> {
                line.append(text(n)).append(" ; ");
                walk(n.children[0], line, returns, out);
            }
        }
        line.setLength(mark);
    }

    /** A primitive with one successor, as the C driver prints it. */
    private static String text(RecordedCode.Node n) {
        return switch (n.kind) {
            case LOCK -> "lock " + n.rq + " " + n.subclass;
            case UNLOCK -> "unlock " + n.rq;
            case SUBCLASS -> "subclass " + n.rq + " " + n.subclass;
            case CLOCK -> "clock " + n.rq;
            default -> throw new IllegalStateException(n.kind.toString());
        };
    }
}
