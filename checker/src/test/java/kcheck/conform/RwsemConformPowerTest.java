package kcheck.conform;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * conform rwsem-owner's power, measured: C mutants of kernel/locking/rwsem.c (one edit each to a copy
 * of the tree's file) in the part conform compares must be named as divergences, behaviour-preserving
 * refactors must agree; the mutants under wait_lock (U*) are named by the comparison of the functions
 * that run with wait_lock held (rwsem_mark_wake, rwsem_try_write_lock, rwsem_del_wake_waiter) on concrete
 * wait lists. The table is docs/conform-power.md's rwsem-owner section, compared with the one
 * computed here when both Debian trees (6.12 and 6.1) are listed.
 */
class RwsemConformPowerTest {
    /**
     * -Dkcheck.long=true (.ci/run's long tests): every edit on every tree at conform's default bounds, and the committed
     * table compared with the computed one. The default build runs the in-scope mutants and one refactor on the first
     * tree, with paths of at most {@link #SHORT_OPS} operations (ConformRwsemCliTest compares both trees' own rwsem.c).
     */
    static final boolean LONG = Boolean.getBoolean("kcheck.long");
    static final int SHORT_OPS = 14;

    @TempDir
    Path work;

    /** One edit of rwsem.c: a mutant (must diverge when {@code compared}), or a refactor (must agree). */
    record Edit(String id, boolean mutant, boolean compared, String what, UnaryOperator<String> change) {
    }

    static final String RWSEM = "kernel/locking/rwsem.c";
    static final List<String> FILES = List.of(RWSEM, "kernel/locking/lock_events.h", "kernel/locking/lock_events_list.h");

    static UnaryOperator<String> once(String old, String replacement) {
        return EditedTree.once(old, replacement);
    }

    static List<Edit> edits() {
        List<Edit> e = new ArrayList<>();
        e.add(new Edit("W1", true, true, "rwsem_read_trylock: the fast path tests only the writer bit (`RWSEM_READ_FAILED_MASK` to "
                + "`RWSEM_WRITER_MASK`)", once("if (!(*cntp & RWSEM_READ_FAILED_MASK)) {", "if (!(*cntp & RWSEM_WRITER_MASK)) {")));
        e.add(new Edit("W2", true, true, "rwsem_write_trylock: the cmpxchg stores `RWSEM_WRITER_LOCKED | RWSEM_FLAG_WAITERS`",
                once("if (atomic_long_try_cmpxchg_acquire(&sem->count, &tmp, RWSEM_WRITER_LOCKED)) {",
                        "if (atomic_long_try_cmpxchg_acquire(&sem->count, &tmp, RWSEM_WRITER_LOCKED | RWSEM_FLAG_WAITERS)) {")));
        e.add(new Edit("W3", true, true, "rwsem_write_trylock: `rwsem_set_owner` removed",
                once("RWSEM_WRITER_LOCKED)) {\n\t\trwsem_set_owner(sem);\n", "RWSEM_WRITER_LOCKED)) {\n")));
        e.add(new Edit("W4", true, true, "__rwsem_set_reader_owned: the reader's RWSEM_NONSPINNABLE bit not preserved",
                once("RWSEM_READER_OWNED |\n\t\t(atomic_long_read(&sem->owner) & RWSEM_NONSPINNABLE);", "RWSEM_READER_OWNED;")));
        e.add(new Edit("W5", true, true, "rwsem_can_spin_on_owner: the `owner_on_cpu` check removed (spins on a preempted writer)",
                once("(owner && !(flags & RWSEM_READER_OWNED) && !owner_on_cpu(owner)))", "(owner && !(flags & RWSEM_READER_OWNED)))")));
        e.add(new Edit("W6", true, true, "rwsem_can_spin_on_owner: the `need_resched()` check removed",
                once("\tif (need_resched()) {\n\t\tlockevent_inc(rwsem_opt_fail);", "\tif (0) {\n\t\tlockevent_inc(rwsem_opt_fail);")));
        e.add(new Edit("W7", true, true, "rwsem_owner_state: a reader-owned lock is `OWNER_WRITER`",
                once("\t\treturn OWNER_READER;\n", "\t\treturn OWNER_WRITER;\n")));
        e.add(new Edit("W8", true, true, "rwsem_spin_on_owner: a change of the owner's flags alone does not end the spin (equivalent: "
                + "nothing sets a flag on a writer's owner word since v5.11, so the flags cannot change while the pointer stays)",
                once("if ((new != owner) || (new_flags != flags)) {", "if (new != owner) {")));
        e.add(new Edit("W9", true, true, "rwsem_try_write_lock_unqueued: the handoff bit not honoured",
                once("while (!(count & (RWSEM_LOCK_MASK|RWSEM_FLAG_HANDOFF))) {", "while (!(count & RWSEM_LOCK_MASK)) {")));
        e.add(new Edit("W10", true, true, "rwsem_optimistic_spin: the RWSEM_NONSPINNABLE test before reader spinning removed",
                once("\t\t\t\tif (rwsem_test_oflags(sem, RWSEM_NONSPINNABLE))\n\t\t\t\t\tbreak;\n", "")));
        e.add(new Edit("W11", true, true, "rwsem_down_read_slowpath: a reader steals the lock when the handoff bit is set",
                once("if (!(count & (RWSEM_WRITER_LOCKED | RWSEM_FLAG_HANDOFF))) {", "if (!(count & RWSEM_WRITER_LOCKED)) {")));
        e.add(new Edit("W12", true, true, "rwsem_down_read_slowpath: `rcnt > 1` becomes `rcnt > 0` (off by one)",
                once("(rcnt > 1) && !(count & RWSEM_WRITER_LOCKED))", "(rcnt > 0) && !(count & RWSEM_WRITER_LOCKED))")));
        e.add(new Edit("W13", true, true, "__up_read: wakes on the waiters bit whatever the lock bits",
                once("if (unlikely((tmp & (RWSEM_LOCK_MASK|RWSEM_FLAG_WAITERS)) ==\n\t\t      RWSEM_FLAG_WAITERS)) {",
                        "if (unlikely(tmp & RWSEM_FLAG_WAITERS)) {")));
        e.add(new Edit("W14", true, true, "__up_write: the owner cleared after the count (stores swapped)",
                once("\trwsem_clear_owner(sem);\n\ttmp = atomic_long_fetch_add_release(-RWSEM_WRITER_LOCKED, &sem->count);\n",
                        "\ttmp = atomic_long_fetch_add_release(-RWSEM_WRITER_LOCKED, &sem->count);\n\trwsem_clear_owner(sem);\n")));
        e.add(new Edit("W15", true, true, "__up_write: `atomic_long_add_return_release` for `atomic_long_fetch_add_release`",
                once("tmp = atomic_long_fetch_add_release(-RWSEM_WRITER_LOCKED, &sem->count);",
                        "tmp = atomic_long_add_return_release(-RWSEM_WRITER_LOCKED, &sem->count);")));
        e.add(new Edit("W16", true, true, "clear_nonspinnable: clears RWSEM_READER_OWNED instead of RWSEM_NONSPINNABLE",
                once("atomic_long_andnot(RWSEM_NONSPINNABLE, &sem->owner);", "atomic_long_andnot(RWSEM_READER_OWNED, &sem->owner);")));
        e.add(new Edit("W17", true, true, "rwsem_spin_on_owner: the `need_resched()` test of the spin removed",
                once("if (need_resched() || !owner_on_cpu(owner)) {", "if (!owner_on_cpu(owner)) {")));
        e.add(new Edit("W18", true, true, "rwsem_read_trylock: the fast path's `_acquire` dropped (`atomic_long_add_return`, fully "
                + "ordered: stronger, yet not the tree's ordering)", once("*cntp = atomic_long_add_return_acquire(RWSEM_READER_BIAS, &sem->count);",
                        "*cntp = atomic_long_add_return(RWSEM_READER_BIAS, &sem->count);")));
        e.add(new Edit("W19", true, true, "__up_write: the count's release weakened to relaxed (`atomic_long_fetch_add_relaxed`)",
                once("tmp = atomic_long_fetch_add_release(-RWSEM_WRITER_LOCKED, &sem->count);",
                        "tmp = atomic_long_fetch_add_relaxed(-RWSEM_WRITER_LOCKED, &sem->count);")));
        e.add(new Edit("WR1", false, true, "rwsem_write_trylock: the local `tmp` renamed `unlocked`",
                RqLockConformPowerTest.rename(RWSEM, "rwsem_write_trylock", 0, Map.of("tmp", "unlocked"))));
        e.add(new Edit("WR2", false, true, "__up_read: the wake condition through a local `bool wake`",
                once("\tif (unlikely((tmp & (RWSEM_LOCK_MASK|RWSEM_FLAG_WAITERS)) ==\n\t\t      RWSEM_FLAG_WAITERS)) {",
                        "\tbool wake = (tmp & (RWSEM_LOCK_MASK|RWSEM_FLAG_WAITERS)) == RWSEM_FLAG_WAITERS;\n\n\tif (unlikely(wake)) {")));
        e.add(new Edit("WR3", false, true, "rwsem_owner_state: the if chain as one conditional expression",
                once("\tif (flags & RWSEM_NONSPINNABLE)\n\t\treturn OWNER_NONSPINNABLE;\n\n\tif (flags & RWSEM_READER_OWNED)\n\t\treturn OWNER_READER;\n\n"
                        + "\treturn owner ? OWNER_WRITER : OWNER_NULL;",
                        "\treturn (flags & RWSEM_NONSPINNABLE) ? OWNER_NONSPINNABLE :\n\t       (flags & RWSEM_READER_OWNED) ? OWNER_READER :\n"
                                + "\t       owner ? OWNER_WRITER : OWNER_NULL;")));
        e.add(new Edit("WR4", false, true, "rwsem_write_trylock: `atomic_long_try_cmpxchg_acquire` written as `atomic_long_cmpxchg_acquire` "
                + "and a comparison (the same ordering)", once("if (atomic_long_try_cmpxchg_acquire(&sem->count, &tmp, RWSEM_WRITER_LOCKED)) {",
                        "if (atomic_long_cmpxchg_acquire(&sem->count, tmp, RWSEM_WRITER_LOCKED) == tmp) {")));
        e.add(new Edit("U1", true, true, "rwsem_del_waiter (under wait_lock): clears only RWSEM_FLAG_WAITERS",
                once("atomic_long_andnot(RWSEM_FLAG_HANDOFF | RWSEM_FLAG_WAITERS, &sem->count);\n\treturn false;",
                        "atomic_long_andnot(RWSEM_FLAG_WAITERS, &sem->count);\n\treturn false;")));
        e.add(new Edit("U2", true, true, "rwsem_try_write_lock (under wait_lock): the waiters bit cleared on an empty list instead of a "
                + "singular one", once("if (list_is_singular(&sem->wait_list))", "if (list_empty(&sem->wait_list))")));
        e.add(new Edit("U3", true, true, "rwsem_mark_wake (under wait_lock): a writer at the front is woken for RWSEM_WAKE_READERS too",
                once("if (wake_type == RWSEM_WAKE_ANY) {", "if (wake_type != RWSEM_WAKE_READ_OWNED) {")));
        e.add(new Edit("U4", true, true, "rwsem_mark_wake (under wait_lock): RWSEM_FLAG_WAITERS kept when the last waiters are woken",
                once("\t\tadjustment -= RWSEM_FLAG_WAITERS;\n", "")));
        e.add(new Edit("U5", true, true, "rwsem_try_write_lock (under wait_lock): the first waiter's handoff_set makes it yield too",
                once("if (first->handoff_set && (waiter != first))", "if (first->handoff_set)")));
        e.add(new Edit("U6", true, true, "rwsem_del_wake_waiter (under wait_lock): the rest woken also when the waiter was not first",
                once("if (rwsem_del_waiter(sem, waiter) && first)", "if (rwsem_del_waiter(sem, waiter))")));
        e.add(new Edit("U7", true, true, "rwsem_down_read_slowpath (under wait_lock): RWSEM_FLAG_WAITERS not set by the first waiter",
                once("\t\tadjustment += RWSEM_FLAG_WAITERS;\n", "")));
        e.add(new Edit("U8", true, true, "rwsem_down_read_slowpath: a signalled reader leaves although still queued (`waiter.task` test "
                + "inverted)", once("\t\t\tif (waiter.task)\n\t\t\t\tgoto out_nolock;", "\t\t\tif (!waiter.task)\n\t\t\t\tgoto out_nolock;")));
        e.add(new Edit("U9", true, true, "rwsem_down_read_slowpath: the sleep loop's grant test inverted",
                once("\t\tif (!smp_load_acquire(&waiter.task)) {", "\t\tif (smp_load_acquire(&waiter.task)) {")));
        e.add(new Edit("U10", true, true, "rwsem_down_write_slowpath: the first waiter does not set RWSEM_FLAG_WAITERS",
                once("\t\tatomic_long_or(RWSEM_FLAG_WAITERS, &sem->count);\n", "")));
        e.add(new Edit("U11", true, true, "rwsem_down_write_slowpath: the first-waiter test inverted",
                once("\tif (rwsem_first_waiter(sem) != &waiter) {", "\tif (rwsem_first_waiter(sem) == &waiter) {")));
        e.add(new Edit("U12", true, true, "rwsem_down_write_slowpath: the handoff spin when handoff_set is clear",
                once("\t\tif (waiter.handoff_set) {", "\t\tif (!waiter.handoff_set) {")));
        e.add(new Edit("U13", true, true, "rwsem_down_read_slowpath: the queue-empty exit's `smp_acquire__after_ctrl_dep()` removed (the "
                + "e1b98fa31664 fix undone)", once("\t\t\tsmp_acquire__after_ctrl_dep();\n", "")));
        e.add(new Edit("U14", true, true, "rwsem_mark_wake: the grant's `smp_store_release(&waiter->task, NULL)` a `WRITE_ONCE`",
                once("\t\tsmp_store_release(&waiter->task, NULL);", "\t\tWRITE_ONCE(waiter->task, NULL);")));
        e.add(new Edit("U15", true, true, "rwsem_down_read_slowpath: the sleep loop's `smp_load_acquire(&waiter.task)` a `READ_ONCE` (the "
                + "99143f82a255 fix undone)", once("\t\tif (!smp_load_acquire(&waiter.task)) {", "\t\tif (!READ_ONCE(waiter.task)) {")));
        return e;
    }

    /** conform rwsem-owner's answer for one edit of {@code tree}, as the table shows it. */
    String answer(KernelTree tree, Edit edit, int maxOps) throws Exception {
        Path dir = EditedTree.copy(tree, work.resolve(tree.series() + "-" + edit.id()), FILES, RWSEM, edit.change());
        boolean underWaitLock = edit.id().startsWith("U");
        /* the default build: the lock paths without the functions under wait_lock, those on lists of 2 waiters after paths of 4 operations */
        RwsemConformance.Result r = RwsemConformance.run(KernelTree.open(dir, null), 1, 1, RwsemConformance.HORIZON,
                LONG || !underWaitLock ? maxOps : 4, LONG ? RwsemConformance.WAITERS : underWaitLock ? 2 : 0, StopCondition.NEVER);
        assertThat(r.stopped()).isNull();
        return summary(r);
    }

    /** "named: down_write of task 1 op 4: C `jiffies`, port `on_cpu t1`; rwsem.c:1122 (port: owner_on_cpu)" or "agree (N runs)". */
    static String summary(RwsemConformance.Result r) {
        RwsemConformance.Divergence d = r.divergence();
        if (d == null) {
            return String.format(Locale.ROOT, "agree (%,d runs)", r.compared());
        }
        String[] in = d.input().split(" ");
        String op = switch (in[0]) {
            case "M" -> "rwsem_mark_wake(" + List.of("ANY", "READERS", "READ_OWNED").get(Integer.parseInt(in[1])) + ") on " + in[5].substring(1);
            case "T" -> "rwsem_try_write_lock of t" + in[1] + " on " + in[5].substring(1);
            case "D" -> "rwsem_del_wake_waiter of t" + in[1] + " on " + in[5].substring(1);
            case "S" -> "rwsem_down_read_slowpath(count " + in[5].substring(1) + (in[1].equals("1") ? ", killable" : "") + ")";
            case "X" -> "rwsem_down_write_slowpath(" + ((Integer.parseInt(in[1]) & 1) == 1 ? "killable, " : "")
                    + (Integer.parseInt(in[1]) >= 2 ? "need_resched at entry" : "need_resched") + ")";
            case "R" -> "down_read/up_read";
            case "r" -> "down_read_killable/up_read";
            case "W" -> "down_write/up_write";
            default -> "down_write_killable/up_write";
        };
        List<String> co = OpText.ops(d.c());
        List<String> jo = OpText.ops(d.port());
        int at = OpText.firstDifference(co, jo);
        return "named: " + op + " op " + (at + 1) + ": C `" + (at < co.size() ? co.get(at) : "-") + "`, port `" + (at < jo.size() ? jo.get(at)
                : "-") + "`" + (at < d.where().size() ? "; " + d.where().get(at).replace("kernel/locking/", "") : "")
                + (at < d.portWhere().size() ? " (port: " + d.portWhere().get(at).replaceAll(" \\(.*", "") + ")" : "");
    }

    /* the long run (every edit on both trees, each refactor a whole comparison of about 25 s) takes about 15 minutes on 2 cores:
     * more than the build's default timeout */
    @Test
    @Timeout(value = 30, unit = TimeUnit.MINUTES)
    void mutantsOfRwsemAreNamedWhereConformComparesAndRefactorsAgree() throws Exception {
        Map<String, Map<String, String>> table = new LinkedHashMap<>();
        List<KernelTree> trees = KernelTrees.orSkip("conform rwsem-owner's power table");
        int maxOps = LONG ? RwsemConformance.MAX_OPS : SHORT_OPS;
        for (KernelTree tree : trees) {
            Map<String, String> col = new LinkedHashMap<>();
            for (Edit e : edits()) {
                if (LONG || (tree == trees.get(0) && ((e.mutant() && e.compared() && (!e.id().startsWith("U") || e.id().equals("U3")))
                        || e.id().equals("WR1")))) {
                    col.put(e.id(), answer(tree, e, maxOps));
                }
            }
            table.put(tree.series(), col);
            if (col.isEmpty()) {
                continue;
            }
            long mutants = edits().stream().filter(e -> e.mutant() && e.compared() && col.containsKey(e.id())).count();
            long named = edits().stream().filter(e -> e.mutant() && e.compared() && col.containsKey(e.id()) && col.get(e.id()).startsWith("named"))
                    .count();
            System.out.println("[kcheck conform rwsem-owner power] " + tree.dir() + ": " + named + " of " + mutants
                    + " mutants of the compared part named; " + col);
            assertThat(named).as("mutants named on %s: %s", tree.dir(), col).isGreaterThanOrEqualTo((mutants * 9 + 9) / 10);
            for (Edit e : edits()) {
                if (!e.mutant() && col.containsKey(e.id())) {
                    assertThat(col.get(e.id())).as("refactor %s on %s", e.id(), tree.dir()).startsWith("agree");
                }
            }
        }
        if (!LONG) {
            System.out.println("[kcheck conform rwsem-owner power] short version (paths of at most " + SHORT_OPS + " operations, one "
                    + "refactor); the committed table is compared with -Dkcheck.long=true");
        } else if (table.containsKey("6.12") && table.containsKey("6.1")) {
            String doc = Files.readString(Path.of("..", "docs", "conform-power.md"), StandardCharsets.UTF_8);
            String computed = markdown(table);
            Files.writeString(Path.of("target", "conform-power-rwsem-owner.md"), computed, StandardCharsets.UTF_8);
            assertThat(section(doc)).as("docs/conform-power.md's rwsem-owner table (the computed one is in "
                    + "checker/target/conform-power-rwsem-owner.md)").isEqualTo(computed);
        }
    }

    static String markdown(Map<String, Map<String, String>> table) {
        StringBuilder b = new StringBuilder("| edit | compared | what | 6.12 (linux-source-6.12) | 6.1 (linux-source-6.1) |\n"
                + "|---|---|---|---|---|\n");
        for (Edit e : edits()) {
            b.append("| ").append(e.id()).append(" | ").append(e.id().startsWith("U") ? "yes (under wait_lock)" : e.compared() ? "yes"
                    : "no").append(" | ").append(cell(e.what()))
                    .append(" | ").append(cell(table.get("6.12").get(e.id()))).append(" | ").append(cell(table.get("6.1").get(e.id())))
                    .append(" |\n");
        }
        return b.toString();
    }

    /** A table cell: its pipes escaped. */
    static String cell(String text) {
        return text.replace("|", "\\|");
    }

    static String section(String doc) throws IOException {
        String begin = "<!-- rwsem-owner table: RwsemConformPowerTest -->\n";
        String end = "<!-- end rwsem-owner table -->";
        int a = doc.indexOf(begin);
        int z = doc.indexOf(end);
        if (a < 0 || z < a) {
            return "(no rwsem-owner table markers)";
        }
        return doc.substring(a + begin.length(), z);
    }
}
