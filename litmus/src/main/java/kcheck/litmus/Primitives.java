package kcheck.litmus;

import java.util.HashMap;
import java.util.Map;

/**
 * The kernel primitives a litmus thread may call, and the events each makes, following linux-kernel.def
 * and tools/memory-model/Documentation/herd-representation.txt: plain marked accesses, fences, RMW
 * operations (fully ordered ones between two {@code F[mb]}; {@code _relaxed}, {@code _acquire},
 * {@code _release} variants; non-returning ones with a {@code noreturn} read), conditional RMWs (a failed
 * one is a lone {@code R*[once]}), spinlocks (lock.cat's LKR/LKW, UL, LF, RL/RU) and RCU/SRCU.
 */
final class Primitives {

    enum Op { LOAD, STORE, FENCE, RMW, XCHG, CMPXCHG, ADD_UNLESS, LOCK, UNLOCK, TRYLOCK, ISLOCKED, SRCU_LOCK, SRCU_UNLOCK,
        SRCU_SYNC }

    /** What an RMW returns. */
    enum Returns { NOTHING, NEW, OLD, NEW_IS_ZERO, NEW_IS_NEGATIVE, SUCCESS }

    /**
     * One primitive. {@code ann}: once, acquire, release, mb or noreturn (the RMW's ordering), or the fence
     * name. {@code lvalue}: the location argument is an lvalue ({@code READ_ONCE(*x)}) rather than a pointer.
     * {@code ptr}: the index of the location argument; {@code val}: of the value operand (-1: the constant
     * {@code constant}).
     */
    record Spec(Op op, int arity, String ann, boolean lvalue, int ptr, int val, long constant, char arith, Returns returns) {
    }

    private static final Map<String, Spec> SPECS = new HashMap<>();

    private static void put(String name, Spec s) {
        SPECS.put(name, s);
    }

    static {
        for (String n : new String[] {"READ_ONCE", "rcu_dereference", "rcu_dereference_raw", "rcu_access_pointer"}) {
            put(n, new Spec(Op.LOAD, 1, "once", true, 0, -1, 0, ' ', Returns.OLD));
        }
        put("smp_load_acquire", new Spec(Op.LOAD, 1, "acquire", false, 0, -1, 0, ' ', Returns.OLD));
        put("atomic_read", new Spec(Op.LOAD, 1, "once", false, 0, -1, 0, ' ', Returns.OLD));
        put("atomic_read_acquire", new Spec(Op.LOAD, 1, "acquire", false, 0, -1, 0, ' ', Returns.OLD));
        put("WRITE_ONCE", new Spec(Op.STORE, 2, "once", true, 0, 1, 0, ' ', Returns.NOTHING));
        put("RCU_INIT_POINTER", new Spec(Op.STORE, 2, "once", true, 0, 1, 0, ' ', Returns.NOTHING));
        put("rcu_assign_pointer", new Spec(Op.STORE, 2, "release", true, 0, 1, 0, ' ', Returns.NOTHING));
        put("smp_store_release", new Spec(Op.STORE, 2, "release", false, 0, 1, 0, ' ', Returns.NOTHING));
        put("atomic_set", new Spec(Op.STORE, 2, "once", false, 0, 1, 0, ' ', Returns.NOTHING));
        put("atomic_set_release", new Spec(Op.STORE, 2, "release", false, 0, 1, 0, ' ', Returns.NOTHING));
        put("smp_store_mb", new Spec(Op.STORE, 2, "mb", true, 0, 1, 0, ' ', Returns.NOTHING));
        String[][] fences = {{"smp_mb", "mb"}, {"smp_rmb", "rmb"}, {"smp_wmb", "wmb"}, {"barrier", "barrier"},
            {"smp_mb__before_atomic", "before-atomic"}, {"smp_mb__after_atomic", "after-atomic"},
            {"smp_mb__after_spinlock", "after-spinlock"}, {"smp_mb__after_unlock_lock", "after-unlock-lock"},
            {"smp_mb__after_srcu_read_unlock", "after-srcu-read-unlock"}, {"rcu_read_lock", "rcu-lock"},
            {"rcu_read_unlock", "rcu-unlock"}, {"synchronize_rcu", "sync-rcu"}, {"synchronize_rcu_expedited", "sync-rcu"}};
        for (String[] f : fences) {
            put(f[0], new Spec(Op.FENCE, 0, f[1], false, -1, -1, 0, ' ', Returns.NOTHING));
        }
        String[][] variants = {{"", "mb"}, {"_relaxed", "once"}, {"_acquire", "acquire"}, {"_release", "release"}};
        String[][] ops = {{"add", "+"}, {"sub", "-"}, {"and", "&"}, {"or", "|"}, {"xor", "^"}, {"andnot", "n"}};
        for (String[] o : ops) {
            char a = o[1].charAt(0);
            put("atomic_" + o[0], new Spec(Op.RMW, 2, "noreturn", false, 1, 0, 0, a, Returns.NOTHING));
            for (String[] v : variants) {
                put("atomic_" + o[0] + "_return" + v[0], new Spec(Op.RMW, 2, v[1], false, 1, 0, 0, a, Returns.NEW));
                put("atomic_fetch_" + o[0] + v[0], new Spec(Op.RMW, 2, v[1], false, 1, 0, 0, a, Returns.OLD));
            }
        }
        for (String[] o : new String[][] {{"inc", "+"}, {"dec", "-"}}) {
            char a = o[1].charAt(0);
            put("atomic_" + o[0], new Spec(Op.RMW, 1, "noreturn", false, 0, -1, 1, a, Returns.NOTHING));
            put("atomic_" + o[0] + "_and_test", new Spec(Op.RMW, 1, "mb", false, 0, -1, 1, a, Returns.NEW_IS_ZERO));
            for (String[] v : variants) {
                put("atomic_" + o[0] + "_return" + v[0], new Spec(Op.RMW, 1, v[1], false, 0, -1, 1, a, Returns.NEW));
                put("atomic_fetch_" + o[0] + v[0], new Spec(Op.RMW, 1, v[1], false, 0, -1, 1, a, Returns.OLD));
            }
        }
        put("atomic_sub_and_test", new Spec(Op.RMW, 2, "mb", false, 1, 0, 0, '-', Returns.NEW_IS_ZERO));
        for (String[] v : variants) {
            put("atomic_add_negative" + v[0], new Spec(Op.RMW, 2, v[1], false, 1, 0, 0, '+', Returns.NEW_IS_NEGATIVE));
            put("xchg" + v[0], new Spec(Op.XCHG, 2, v[1], false, 0, 1, 0, ' ', Returns.OLD));
            put("atomic_xchg" + v[0], new Spec(Op.XCHG, 2, v[1], false, 0, 1, 0, ' ', Returns.OLD));
            put("cmpxchg" + v[0], new Spec(Op.CMPXCHG, 3, v[1], false, 0, 1, 0, ' ', Returns.OLD));
            put("atomic_cmpxchg" + v[0], new Spec(Op.CMPXCHG, 3, v[1], false, 0, 1, 0, ' ', Returns.OLD));
        }
        put("atomic_add_unless", new Spec(Op.ADD_UNLESS, 3, "mb", false, 0, 1, 0, '+', Returns.SUCCESS));
        put("atomic_fetch_add_unless", new Spec(Op.ADD_UNLESS, 3, "mb", false, 0, 1, 0, '+', Returns.OLD));
        put("atomic_inc_not_zero", new Spec(Op.ADD_UNLESS, 1, "mb", false, 0, -1, 1, '+', Returns.SUCCESS));
        for (String p : new String[] {"spin_", "raw_spin_"}) {
            put(p + "lock", new Spec(Op.LOCK, 1, "", false, 0, -1, 0, ' ', Returns.NOTHING));
            put(p + "unlock", new Spec(Op.UNLOCK, 1, "", false, 0, -1, 0, ' ', Returns.NOTHING));
            put(p + "trylock", new Spec(Op.TRYLOCK, 1, "", false, 0, -1, 0, ' ', Returns.SUCCESS));
            put(p + "is_locked", new Spec(Op.ISLOCKED, 1, "", false, 0, -1, 0, ' ', Returns.SUCCESS));
        }
        put("srcu_read_lock", new Spec(Op.SRCU_LOCK, 1, "", false, 0, -1, 0, ' ', Returns.OLD));
        put("srcu_down_read", new Spec(Op.SRCU_LOCK, 1, "", false, 0, -1, 0, ' ', Returns.OLD));
        put("srcu_read_unlock", new Spec(Op.SRCU_UNLOCK, 2, "", false, 0, 1, 0, ' ', Returns.NOTHING));
        put("srcu_up_read", new Spec(Op.SRCU_UNLOCK, 2, "", false, 0, 1, 0, ' ', Returns.NOTHING));
        put("synchronize_srcu", new Spec(Op.SRCU_SYNC, 1, "", false, 0, -1, 0, ' ', Returns.NOTHING));
        put("synchronize_srcu_expedited", new Spec(Op.SRCU_SYNC, 1, "", false, 0, -1, 0, ' ', Returns.NOTHING));
    }

    private Primitives() {
    }

    static boolean known(String name) {
        return SPECS.containsKey(name);
    }

    static int arity(String name) {
        return SPECS.get(name).arity();
    }

    static Spec spec(String name) {
        return SPECS.get(name);
    }

    /** {@code old op operand} for an RMW's arithmetic ({@code n}: and-not). */
    static long apply(char op, long old, long operand) {
        return switch (op) {
            case '+' -> old + operand;
            case '-' -> old - operand;
            case '&' -> old & operand;
            case '|' -> old | operand;
            case '^' -> old ^ operand;
            case 'n' -> old & ~operand;
            default -> throw new IllegalArgumentException("op " + op);
        };
    }
}
