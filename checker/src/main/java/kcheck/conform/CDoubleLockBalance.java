package kcheck.conform;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import kcheck.model.ModelInputException;
import kcheck.model.rqlock.DoubleLockBalance;
import kcheck.model.rqlock.RqLocks;

/**
 * The double_lock_balance family of a kernel tree as the CPUs' code, for
 * {@code kcheck check rq-lock --kernel-tree DIR}: the tree's C, compiled and run on every path
 * ({@link RqLockConformance#paths}), replayed primitive by primitive against the model's locks. At a
 * trylock the model's lock decides the outcome, and the replay follows the C's path with that
 * outcome; each primitive is cited with the tree line the C made it at. No Java port is involved.
 */
public final class CDoubleLockBalance implements DoubleLockBalance {
    private final Map<String, List<RqLockConformance.CPath>> byCall = new LinkedHashMap<>();
    private final String tree;

    public CDoubleLockBalance(String tree, List<RqLockConformance.CPath> paths) {
        this.tree = tree;
        for (RqLockConformance.CPath p : paths) {
            byCall.computeIfAbsent(p.call(), c -> new ArrayList<>()).add(p);
        }
    }

    @Override
    public int doubleLockBalance(RqLocks k, int thisRq, int busiest) {
        return replay(k, "dlb " + thisRq + " " + busiest);
    }

    @Override
    public void doubleUnlockBalance(RqLocks k, int thisRq, int busiest) {
        replay(k, "dub " + thisRq + " " + busiest);
    }

    /** The caller around the calls (pull_rt_task's rq_lock of this_rq): the v6.12 port's, which is the model's environment. */
    private static final kcheck.model.rqlock.DoubleLockBalanceV612 CALLER = new kcheck.model.rqlock.DoubleLockBalanceV612();

    @Override
    public void callerLock(RqLocks k, int thisRq) {
        CALLER.callerLock(k, thisRq);
    }

    @Override
    public void callerUnlock(RqLocks k, int thisRq) {
        CALLER.callerUnlock(k, thisRq);
    }

    @Override
    public String callers() {
        return CALLER.callers();
    }

    private int replay(RqLocks k, String call) {
        List<RqLockConformance.CPath> candidates = byCall.get(call);
        if (candidates == null) {
            throw new ModelInputException("the C of " + tree + " has no path of " + call + " (run with the same --cpus)");
        }
        int i = 0;
        while (true) {
            RqLockConformance.CPath first = candidates.get(0);
            if (i >= first.ops().size()) {
                String end = first.end();
                return end.startsWith("return ") ? Integer.parseInt(end.substring(7).trim()) : 0;
            }
            String op = first.ops().get(i);
            String where = i < first.where().size() ? first.where().get(i) : "";
            k.source(cite(where));
            String[] f = op.split(" ");
            final int at = i;
            switch (f[0]) {
                case "lock" -> k.spinLockNested(Integer.parseInt(f[1]), Integer.parseInt(f[2]));
                case "unlock" -> k.spinUnlock(Integer.parseInt(f[1]));
                case "subclass" -> k.lockSetSubclass(Integer.parseInt(f[1]), Integer.parseInt(f[2]));
                case "clock" -> {
                    String second = first.ops().get(i + 1);
                    k.doubleRqClockClearUpdate(Integer.parseInt(f[1]), Integer.parseInt(second.split(" ")[1]));
                    i++;
                }
                case "trylock" -> {
                    boolean ok = k.spinTrylock(Integer.parseInt(f[1]));
                    String taken = "trylock " + f[1] + " " + (ok ? 1 : 0);
                    candidates = candidates.stream().filter(p -> at < p.ops().size() && p.ops().get(at).equals(taken)).toList();
                    if (candidates.isEmpty()) {
                        throw new ModelInputException("the C of " + tree + " has no path of " + call + " with " + taken);
                    }
                }
                default -> throw new ModelInputException("the C of " + tree + ": unknown operation '" + op + "'");
            }
            i++;
        }
    }

    /** "kernel/sched/core.c:610 raw_spin_rq_lock_nested ← sched.h:1552 raw_spin_rq_lock ← core.c:668 double_rq_lock": the C's calls, innermost first. */
    static String cite(String where) {
        String[] chain = where.split(" <- ");
        StringBuilder s = new StringBuilder(chain[0].replace(" in ", " "));
        for (int i = 1; i < chain.length; i++) {
            s.append(" ← ").append(chain[i].replace("kernel/sched/", "").replace(" in ", " "));
        }
        return s.toString();
    }
}
