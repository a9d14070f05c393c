package kcheck.conform;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * conform rq-lock's power, measured: C mutants of the double_lock_balance family (one edit each to a
 * copy of the tree's sched.h or core.c) must be named as divergences, and behaviour-preserving
 * refactors must agree. The table is docs/conform-power.md's rq-lock section, compared with the one
 * computed here when both Debian trees (6.12 and 6.1) are listed.
 */
class RqLockConformPowerTest {
    /**
     * -Dkcheck.long=true (.ci/run's long tests): every refactor of the lock on every tree, and the
     * committed table compared with the computed one. The default build runs every mutant and the
     * family's refactors on every tree, and the lock's refactors (each a whole comparison, about 5 s)
     * on the first tree only.
     */
    static final boolean LONG = Boolean.getBoolean("kcheck.long");

    @TempDir
    Path work;

    /** One edit of one file: a mutant (must diverge) or a refactor (must agree). */
    record Edit(String id, boolean mutant, String file, String what, java.util.function.UnaryOperator<String> change) {
    }

    static java.util.function.UnaryOperator<String> once(String old, String replacement) {
        return EditedTree.once(old, replacement);
    }

    /** Renames identifiers (not members: none after {@code .} or {@code ->}) within the {@code nth} definition of {@code function} only. */
    static java.util.function.UnaryOperator<String> rename(String file, String function, int nth, Map<String, String> names) {
        return src -> {
            String text = CFunctions.parse(file, src).definitions(function).get(nth).text();
            String renamed = text;
            for (Map.Entry<String, String> e : names.entrySet()) {
                renamed = renamed.replaceAll("(?<![.>])\\b" + Pattern.quote(e.getKey()) + "\\b", Matcher.quoteReplacement(e.getValue()));
            }
            return once(text, renamed).apply(src);
        };
    }

    static final String SCHED = "kernel/sched/sched.h";
    static final String CORE = "kernel/sched/core.c";
    static final String QSPIN = "kernel/locking/qspinlock.c";
    static final String MCS = "kernel/locking/mcs_spinlock.h";
    static final String GENERIC = "include/asm-generic/qspinlock.h";
    /** Every file conform rq-lock reads: a mutant tree is a copy of these. */
    static final List<String> FILES = List.of(SCHED, CORE, QSPIN, MCS, "kernel/locking/qspinlock_stat.h", "kernel/locking/lock_events.h",
            "kernel/locking/lock_events_list.h", GENERIC, "include/asm-generic/qspinlock_types.h");

    /**
     * The default build's edits (the long run makes every edit on every tree): on the first tree every mutant, the family's
     * refactors and one of the lock's (each a whole comparison of about 5 s); on the others the family's mutants.
     */
    static boolean inShortRun(Edit e, boolean firstTree) {
        if (!firstTree) {
            return e.mutant() && !lockPart(e);
        }
        return e.mutant() || !lockPart(e);
    }

    static boolean lockPart(Edit e) {
        return !e.file().startsWith("kernel/sched/");
    }

    static List<Edit> edits() {
        List<Edit> e = new ArrayList<>();
        e.add(new Edit("M1", true, SCHED, "_double_lock_balance (!PREEMPTION): `__rq_lockp(this_rq) == __rq_lockp(busiest)` flipped to `!=`",
                once("__rq_lockp(this_rq) == __rq_lockp(busiest) ||", "__rq_lockp(this_rq) != __rq_lockp(busiest) ||")));
        e.add(new Edit("M2", true, SCHED, "_double_lock_balance (!PREEMPTION): trylock of `this_rq` instead of `busiest`",
                once("likely(raw_spin_rq_trylock(busiest))", "likely(raw_spin_rq_trylock(this_rq))")));
        e.add(new Edit("M3", true, SCHED, "_double_lock_balance (!PREEMPTION): `rq_order_less` arguments swapped",
                once("if (rq_order_less(this_rq, busiest)) {", "if (rq_order_less(busiest, this_rq)) {")));
        e.add(new Edit("M4", true, SCHED, "_double_lock_balance (!PREEMPTION): `raw_spin_rq_lock_nested(busiest, SINGLE_DEPTH_NESTING)` "
                + "becomes `raw_spin_rq_lock(busiest)`", once("\t\traw_spin_rq_lock_nested(busiest, SINGLE_DEPTH_NESTING);\n",
                        "\t\traw_spin_rq_lock(busiest);\n")));
        e.add(new Edit("M5", true, SCHED, "_double_lock_balance (PREEMPTION): the unlock of `this_rq` removed",
                once("{\n\traw_spin_rq_unlock(this_rq);\n\tdouble_rq_lock(this_rq, busiest);\n\n\treturn 1;\n}\n\n#else",
                        "{\n\tdouble_rq_lock(this_rq, busiest);\n\n\treturn 1;\n}\n\n#else")));
        e.add(new Edit("M6", true, SCHED, "_double_lock_balance (!PREEMPTION): returns 0 after dropping `this_rq`",
                once("\treturn 1;\n}\n\n#endif", "\treturn 0;\n}\n\n#endif")));
        e.add(new Edit("M7", true, SCHED, "double_unlock_balance: the shared-lock check removed",
                once("\tif (__rq_lockp(this_rq) != __rq_lockp(busiest))\n\t\traw_spin_rq_unlock(busiest);",
                        "\traw_spin_rq_unlock(busiest);")));
        e.add(new Edit("M8", true, SCHED, "double_unlock_balance: `lock_set_subclass` on busiest's lock",
                once("lock_set_subclass(&__rq_lockp(this_rq)->dep_map, 0, _RET_IP_);",
                        "lock_set_subclass(&__rq_lockp(busiest)->dep_map, 0, _RET_IP_);")));
        e.add(new Edit("M9", true, SCHED, "rq_order_less: core order flipped (`<` to `>`)",
                once("if (rq1->core->cpu < rq2->core->cpu)", "if (rq1->core->cpu > rq2->core->cpu)")));
        e.add(new Edit("M10", true, SCHED, "rq_order_less: `rq1->cpu < rq2->cpu` becomes `<=` (off by one)",
                once("return rq1->cpu < rq2->cpu;", "return rq1->cpu <= rq2->cpu;")));
        e.add(new Edit("M11", true, SCHED, "double_lock_balance: `_double_lock_balance` arguments swapped",
                once("return _double_lock_balance(this_rq, busiest);", "return _double_lock_balance(busiest, this_rq);")));
        e.add(new Edit("M12", true, SCHED, "__rq_lockp (CONFIG_SCHED_CORE): `rq->core_enabled` test negated",
                once("\tif (rq->core_enabled)\n\t\treturn &rq->core->__lock;", "\tif (!rq->core_enabled)\n\t\treturn &rq->core->__lock;")));
        e.add(new Edit("M13", true, CORE, "double_rq_lock: `rq_order_less(rq2, rq1)` swapped to `(rq1, rq2)`",
                once("if (rq_order_less(rq2, rq1))", "if (rq_order_less(rq1, rq2))")));
        e.add(new Edit("M14", true, CORE, "double_rq_lock: the shared-lock check becomes `rq1 != rq2`",
                once("if (__rq_lockp(rq1) != __rq_lockp(rq2))\n\t\traw_spin_rq_lock_nested(rq2, SINGLE_DEPTH_NESTING);",
                        "if (rq1 != rq2)\n\t\traw_spin_rq_lock_nested(rq2, SINGLE_DEPTH_NESTING);")));
        e.add(new Edit("M15", true, CORE, "double_rq_lock: `double_rq_clock_clear_update` removed",
                once("\n\tdouble_rq_clock_clear_update(rq1, rq2);\n}", "\n}")));
        e.add(new Edit("M16", true, CORE, "raw_spin_rq_lock_nested (core scheduling off): subclass 0 instead of `subclass`",
                once("raw_spin_lock_nested(&rq->__lock, subclass);", "raw_spin_lock_nested(&rq->__lock, 0);")));
        e.add(new Edit("M17", true, CORE, "raw_spin_rq_trylock (core scheduling off): returns true whatever the trylock gave",
                once("ret = raw_spin_trylock(&rq->__lock);\n\t\tpreempt_enable();\n\t\treturn ret;",
                        "ret = raw_spin_trylock(&rq->__lock);\n\t\tpreempt_enable();\n\t\treturn true;")));
        e.add(new Edit("M18", true, CORE, "raw_spin_rq_unlock: unlocks `&rq->__lock` instead of `rq_lockp(rq)`",
                once("raw_spin_unlock(rq_lockp(rq));", "raw_spin_unlock(&rq->__lock);")));
        e.add(new Edit("R1", false, CORE, "double_rq_lock: parameters renamed (`rq1`, `rq2` to `first`, `second`)",
                rename(CORE, "double_rq_lock", 0, Map.of("rq1", "first", "rq2", "second"))));
        e.add(new Edit("R2", false, SCHED, "_double_lock_balance (!PREEMPTION): parameters renamed (`this_rq`, `busiest` to `dst`, `src`)",
                rename(SCHED, "_double_lock_balance", 1, Map.of("this_rq", "dst", "busiest", "src"))));
        e.add(new Edit("R3", false, SCHED, "rq_order_less: `rq1->cpu < rq2->cpu` written `rq2->cpu > rq1->cpu`",
                once("return rq1->cpu < rq2->cpu;", "return rq2->cpu > rq1->cpu;")));
        e.add(new Edit("R4", false, CORE, "double_rq_lock: braces and a comment around the swap (lines shift)",
                once("if (rq_order_less(rq2, rq1))\n\t\tswap(rq1, rq2);",
                        "if (rq_order_less(rq2, rq1)) {\n\t\t/* lower first */\n\t\tswap(rq1, rq2);\n\t}")));
        e.add(new Edit("R5", false, SCHED, "double_unlock_balance: the test through a local `bool shared`",
                once("\tif (__rq_lockp(this_rq) != __rq_lockp(busiest))\n\t\traw_spin_rq_unlock(busiest);",
                        "\tbool shared = __rq_lockp(this_rq) == __rq_lockp(busiest);\n\n\tif (!shared)\n\t\traw_spin_rq_unlock(busiest);")));
        e.add(new Edit("R6", false, CORE, "double_rq_lock: the shared-lock test with its operands swapped",
                once("\tif (__rq_lockp(rq1) != __rq_lockp(rq2))", "\tif (__rq_lockp(rq2) != __rq_lockp(rq1))")));
        e.add(new Edit("Q1", true, QSPIN, "queued_spin_lock_slowpath: the `smp_wmb()` before `xchg_tail` removed",
                once("\tsmp_wmb();\n", "\n")));
        e.add(new Edit("Q2", true, QSPIN, "clear_pending: stores 1 (`WRITE_ONCE(lock->pending, 1)`)",
                once("WRITE_ONCE(lock->pending, 0);", "WRITE_ONCE(lock->pending, 1);")));
        e.add(new Edit("Q3", true, QSPIN, "clear_pending_set_locked: stores the locked byte only (pending left set)",
                once("WRITE_ONCE(lock->locked_pending, _Q_LOCKED_VAL);", "WRITE_ONCE(lock->locked, _Q_LOCKED_VAL);")));
        e.add(new Edit("Q4", true, QSPIN, "set_locked: `smp_store_release` instead of `WRITE_ONCE`",
                once("WRITE_ONCE(lock->locked, _Q_LOCKED_VAL);", "smp_store_release(&lock->locked, _Q_LOCKED_VAL);")));
        e.add(new Edit("Q5", true, QSPIN, "queued_spin_lock_slowpath: queue only on a tail (`val & _Q_TAIL_MASK` for `val & ~_Q_LOCKED_MASK`)",
                once("if (val & ~_Q_LOCKED_MASK)\n\t\tgoto queue;", "if (val & _Q_TAIL_MASK)\n\t\tgoto queue;")));
        e.add(new Edit("Q6", true, QSPIN, "queued_spin_lock_slowpath: the head's wait for the owner and pending without ACQUIRE",
                once("val = atomic_cond_read_acquire(&lock->val, !(VAL & _Q_LOCKED_PENDING_MASK));",
                        "val = atomic_cond_read_relaxed(&lock->val, !(VAL & _Q_LOCKED_PENDING_MASK));")));
        e.add(new Edit("Q7", true, QSPIN, "queued_spin_lock_slowpath: `(val & _Q_TAIL_MASK) == tail` flipped to `!=`",
                once("if ((val & _Q_TAIL_MASK) == tail) {", "if ((val & _Q_TAIL_MASK) != tail) {")));
        e.add(new Edit("Q8", true, QSPIN, "encode_tail: `cpu << _Q_TAIL_CPU_OFFSET` (off by one: CPU 0's tail is no tail)",
                once("tail  = (cpu + 1) << _Q_TAIL_CPU_OFFSET;", "tail  = cpu << _Q_TAIL_CPU_OFFSET;")));
        e.add(new Edit("Q9", true, QSPIN, "queued_spin_lock_slowpath: the hand-over to the next waiter without RELEASE (`WRITE_ONCE`)",
                once("arch_mcs_spin_unlock_contended(&next->locked);", "WRITE_ONCE(next->locked, 1);")));
        e.add(new Edit("Q10", true, QSPIN, "queued_spin_lock_slowpath: the successor's `READ_ONCE(node->next)` after the MCS wait removed",
                once("next = READ_ONCE(node->next);", "next = NULL;")));
        e.add(new Edit("Q11", true, QSPIN, "queued_spin_lock_slowpath: `node->locked = 0` removed",
                once("node->locked = 0;", ";")));
        e.add(new Edit("Q12", true, QSPIN, "queued_spin_lock_slowpath: the link to the predecessor stores the predecessor itself",
                once("WRITE_ONCE(prev->next, node);", "WRITE_ONCE(prev->next, prev);")));
        e.add(new Edit("Q13", true, GENERIC, "queued_spin_unlock: `WRITE_ONCE` instead of `smp_store_release`",
                once("smp_store_release(&lock->locked, 0);", "WRITE_ONCE(lock->locked, 0);")));
        e.add(new Edit("Q14", true, GENERIC, "queued_spin_trylock: the early `return 0` on a non-zero word removed",
                once("\tif (unlikely(val))\n\t\treturn 0;\n", "")));
        e.add(new Edit("Q15", true, MCS, "arch_mcs_spin_lock_contended: `smp_cond_load_relaxed` (no ACQUIRE on the MCS hand-over)",
                once("smp_cond_load_acquire(l, VAL);", "smp_cond_load_relaxed(l, VAL);")));
        e.add(new Edit("QR1", false, QSPIN, "queued_spin_lock_slowpath: parameters renamed (`lock`, `val` to `l`, `v`)",
                rename(QSPIN, "queued_spin_lock_slowpath", 0, Map.of("lock", "l", "val", "v"))));
        e.add(new Edit("QR2", false, QSPIN, "encode_tail: one expression instead of two statements",
                once("tail  = (cpu + 1) << _Q_TAIL_CPU_OFFSET;\n\ttail |= idx << _Q_TAIL_IDX_OFFSET; /* assume < 4 */",
                        "tail = ((cpu + 1) << _Q_TAIL_CPU_OFFSET) | (idx << _Q_TAIL_IDX_OFFSET);")));
        e.add(new Edit("QR4", false, QSPIN, "queued_spin_lock_slowpath: the CPU number through a local in its own block",
                once("\ttail = encode_tail(smp_processor_id(), idx);",
                        "\t{\n\t\tint my_cpu = smp_processor_id();\n\n\t\ttail = encode_tail(my_cpu, idx);\n\t}")));
        e.add(new Edit("QR3", false, GENERIC, "queued_spin_trylock: the test and the cmpxchg in one condition",
                once("\tif (unlikely(val))\n\t\treturn 0;\n\n\treturn likely(atomic_try_cmpxchg_acquire(&lock->val, &val, _Q_LOCKED_VAL));",
                        "\tif (!val && atomic_try_cmpxchg_acquire(&lock->val, &val, _Q_LOCKED_VAL))\n\t\treturn 1;\n\treturn 0;")));
        return e;
    }

    /** conform rq-lock's answer for one edit of {@code tree}, as the table shows it. */
    String answer(KernelTree tree, Edit edit) throws Exception {
        Path dir = EditedTree.copy(tree, work.resolve(tree.series() + "-" + edit.id()), FILES, edit.file(), edit.change());
        if (lockPart(edit)) {
            QspinlockConformance.Result q = QspinlockConformance.run(KernelTree.open(dir, null), 2, StopCondition.NEVER);
            assertThat(q.stopped()).isNull();
            return summary(q);
        }
        RqLockConformance.Result r = RqLockConformance.run(KernelTree.open(dir, null), 4, StopCondition.NEVER, null);
        assertThat(r.complete()).isTrue();
        return summary(r);
    }

    /** "named: 2 CPUs, !PREEMPTION, core pairs; double_rq_lock(0, 1) op 1, C `lock 1 0`, port `lock 0 0`; core.c:668" or "agree (180 paths)". */
    static String summary(RqLockConformance.Result r) {
        RqLockConformance.Divergence d = r.divergence();
        if (d == null) {
            return "agree (" + r.coverage().stream().mapToInt(RqLockConformance.Coverage::compared).sum() + " paths)";
        }
        RqLockConformance.Config c = d.config();
        StringBuilder b = new StringBuilder("named: " + c.cpus() + " CPUs, " + (c.preempt() ? "PREEMPTION" : "!PREEMPTION")
                + (c.pairs() ? ", core pairs" : "") + "; ");
        if (d.call().isEmpty()) {
            return b.append(d.reason()).toString();
        }
        List<String> co = RqLockConformance.ops(d.c().isEmpty() ? d.call() + ":" : d.c());
        List<String> jo = RqLockConformance.ops(d.java().isEmpty() ? d.call() + ":" : d.java());
        b.append('`').append(d.call()).append("` op ").append(d.at() + 1).append(": C `")
                .append(d.at() < co.size() ? co.get(d.at()) : "-").append("`, port `").append(d.at() < jo.size() ? jo.get(d.at()) : "-")
                .append('`');
        if (d.at() < d.cWhere().size()) {
            b.append("; ").append(d.cWhere().get(d.at()).replace("kernel/sched/", "").replace(" in ", " ").replace(" <- ", " ← "));
        }
        return b.toString();
    }

    /** "named: queued_spin_lock on cpu 0 of 2, op 6: C `...`, port `...`; qspinlock.c:183" or "agree (532,818 runs)". */
    static String summary(QspinlockConformance.Result q) {
        QspinlockConformance.Divergence d = q.divergence();
        if (d == null) {
            return String.format(java.util.Locale.ROOT, "agree (%,d runs)", q.compared());
        }
        String[] in = d.input().split(" ");
        String op = switch (in[0]) {
            case "L" -> "queued_spin_lock";
            case "T" -> "queued_spin_trylock";
            default -> "queued_spin_unlock";
        };
        List<String> co = OpText.ops(d.c());
        List<String> jo = OpText.ops(d.port());
        int at = OpText.firstDifference(co, jo);
        return "named: " + op + " on cpu " + in[1] + " of " + in[2] + (d.variant() ? " (variant)" : "") + " op " + (at + 1) + ": C `"
                + (at < co.size() ? co.get(at) : "-") + "`, port `" + (at < jo.size() ? jo.get(at) : "-") + "`"
                + (at < d.where().size() ? "; " + d.where().get(at).replace("kernel/locking/", "").replace("include/asm-generic/", "asm-generic/")
                : "");
    }

    @Test
    void mutantsOfTheDoubleLockBalanceFamilyAndQspinlockAreNamedAndRefactorsAgree() throws Exception {
        Map<String, Map<String, String>> table = new LinkedHashMap<>();
        List<KernelTree> trees = KernelTrees.orSkip("conform rq-lock's power table");
        for (KernelTree tree : trees) {
            Map<String, String> col = new LinkedHashMap<>();
            for (Edit e : edits()) {
                if (LONG || inShortRun(e, tree == trees.get(0))) {
                    col.put(e.id(), answer(tree, e));
                }
            }
            table.put(tree.series(), col);
            long mutants = edits().stream().filter(e -> e.mutant() && col.containsKey(e.id())).count();
            long named = edits().stream().filter(e -> e.mutant() && col.containsKey(e.id()) && col.get(e.id()).startsWith("named")).count();
            System.out.println("[kcheck conform rq-lock power] " + tree.dir() + ": " + named + " of " + mutants + " mutants named");
            assertThat(named).as("mutants named on %s: %s", tree.dir(), col).isGreaterThanOrEqualTo((mutants * 9 + 9) / 10);
            for (Edit e : edits()) {
                if (!e.mutant() && col.containsKey(e.id())) {
                    assertThat(col.get(e.id())).as("refactor %s on %s", e.id(), tree.dir()).startsWith("agree");
                }
            }
        }
        if (!LONG) {
            System.out.println("[kcheck conform rq-lock power] short version (every mutant and the family's refactors on the first "
                    + "tree, the family's mutants on the others); the committed table is compared with -Dkcheck.long=true");
        } else if (table.containsKey("6.12") && table.containsKey("6.1")) {
            String doc = Files.readString(Path.of("..", "docs", "conform-power.md"), StandardCharsets.UTF_8);
            String computed = markdown(table);
            Files.writeString(Path.of("target", "conform-power-rq-lock.md"), computed, StandardCharsets.UTF_8);
            assertThat(section(doc)).as("docs/conform-power.md's rq-lock table (the computed one is in checker/target/conform-power-rq-lock.md)")
                    .isEqualTo(computed);
        }
    }

    static String markdown(Map<String, Map<String, String>> table) {
        StringBuilder b = new StringBuilder("| edit | file | what | 6.12 (linux-source-6.12) | 6.1 (linux-source-6.1) |\n|---|---|---|---|---|\n");
        for (Edit e : edits()) {
            b.append("| ").append(e.id()).append(" | ").append(e.file().replace("kernel/sched/", "").replace("kernel/locking/", "")
                    .replace("include/", "")).append(" | ").append(e.what()).append(" | ")
                    .append(table.get("6.12").get(e.id())).append(" | ").append(table.get("6.1").get(e.id())).append(" |\n");
        }
        return b.toString();
    }

    /** The table between the rq-lock markers of the document. */
    static String section(String doc) throws IOException {
        String begin = "<!-- rq-lock table: RqLockConformPowerTest -->\n";
        String end = "<!-- end rq-lock table -->";
        int a = doc.indexOf(begin);
        int z = doc.indexOf(end);
        if (a < 0 || z < a) {
            return "(no rq-lock table markers)";
        }
        return doc.substring(a + begin.length(), z);
    }
}
