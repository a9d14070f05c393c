package kcheck.conform;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * conform cpudl's power, measured (docs/conform-power.md, cpudl section): one-line edits of kernel/sched/cpudeadline.c
 * that change behaviour (flipped comparisons, swapped arguments and stores, removed checks, off-by-ones) must be named
 * as divergences, and behaviour-preserving rewrites must agree. The crash, hang and memory mutants are
 * ConformMutantCorpusTest's. -Dkcheck.long=true (.ci/run's long tests): every edit on every tree, 5,000 sequences and
 * the model walk; the default build: two edits on the first tree, 2,000 sequences without the walk.
 */
class CpudlConformPowerTest {
    static final boolean LONG = Boolean.getBoolean("kcheck.long");

    static final String C = "kernel/sched/cpudeadline.c";
    static final List<String> FILES = List.of(C, "kernel/sched/cpudeadline.h", "kernel/sched/sched.h");

    @TempDir
    Path work;

    /** One edit: a mutant (must diverge) or a refactor (must agree). */
    record Edit(String id, boolean mutant, String what, UnaryOperator<String> change) {
    }

    static UnaryOperator<String> once(String old, String replacement) {
        return EditedTree.once(old, replacement);
    }

    static List<Edit> edits() {
        List<Edit> e = new ArrayList<>();
        e.add(new Edit("D1", true, "cpudl_heapify_up: an unsigned comparison for dl_time_before (u64 wrap-around)",
                once("if (dl_time_before(orig_dl, cp->elements[p].dl))", "if (orig_dl < cp->elements[p].dl)")));
        e.add(new Edit("D2", true, "cpudl_heapify: dl_time_before's arguments swapped",
                once("if (idx > 0 && dl_time_before(cp->elements[parent(idx)].dl,\n\t\t\t\tcp->elements[idx].dl))",
                        "if (idx > 0 && dl_time_before(cp->elements[idx].dl,\n\t\t\t\tcp->elements[parent(idx)].dl))")));
        e.add(new Edit("D3", true, "cpudl_heapify_down: the left child's bound off by one", once("if ((l < cp->size) &&",
                "if ((l <= cp->size) &&")));
        e.add(new Edit("D4", true, "cpudl_heapify_down: the right child's bound off by one", once("if ((r < cp->size) &&",
                "if ((r <= cp->size) &&")));
        e.add(new Edit("D5", true, "cpudl_heapify_up: the loop stops one level below the root", once("} while (idx != 0);",
                "} while (idx > 1);")));
        e.add(new Edit("D6", true, "cpudl_clear: the idx stores swapped", once("\t\tcp->elements[new_cpu].idx = old_idx;\n"
                + "\t\tcp->elements[cpu].idx = IDX_INVALID;", "\t\tcp->elements[cpu].idx = IDX_INVALID;\n\t\tcp->elements[new_cpu].idx = old_idx;")));
        e.add(new Edit("D7", true, "cpudl_clear: the moved element only sifted down", once("\t\tcp->elements[cpu].idx = IDX_INVALID;\n"
                + "\t\tcpudl_heapify(cp, old_idx);", "\t\tcp->elements[cpu].idx = IDX_INVALID;\n\t\tcpudl_heapify_down(cp, old_idx);")));
        e.add(new Edit("D8", true, "cpudl_clear: the online test inverted", once("if (likely(online))", "if (likely(!online))")));
        e.add(new Edit("D9", true, "cpudl_set: a new element's CPU not cleared from free_cpus", once("\t\tcpudl_heapify_up(cp, new_idx);\n"
                + "\t\t__cpumask_clear_cpu(cpu, cp->free_cpus);\n", "\t\tcpudl_heapify_up(cp, new_idx);\n")));
        e.add(new Edit("D10", true, "cpudl_set: an existing element only sifted up", once("\t\tcp->elements[old_idx].dl = dl;\n"
                + "\t\tcpudl_heapify(cp, old_idx);", "\t\tcp->elements[old_idx].dl = dl;\n\t\tcpudl_heapify_up(cp, old_idx);")));
        e.add(new Edit("D11", true, "cpudl_find: the deadline comparison's arguments swapped",
                once("dl_time_before(dl_se->deadline, cp->elements[0].dl)", "dl_time_before(cp->elements[0].dl, dl_se->deadline)")));
        e.add(new Edit("D12", true, "cpudl_find: the task's affinity not checked for the heap's maximum",
                once("if (cpumask_test_cpu(best_cpu, &p->cpus_mask) &&\n", "if (\n")));
        e.add(new Edit("D13", true, "cpudl_find: ties of the largest capacity go to the last CPU, not the task's own",
                once("(cpu == task_cpu(p) && cap == max_cap)", "(cap == max_cap)")));
        /* equivalent: with left_child(idx) == size the loop finds no child and writes the saved values back in place */
        e.add(new Edit("D14", true, "cpudl_heapify_down: the early return off by one (equivalent)", once("if (left_child(idx) >= cp->size)",
                "if (left_child(idx) > cp->size)")));
        e.add(new Edit("DR1", false, "refactor: parent() as a division (never called for the root)", once("return (i - 1) >> 1;",
                "return (i - 1) / 2;")));
        e.add(new Edit("DR2", false, "refactor: cpudl_clear's size and idx stores in the other order", once("\t\tcp->size--;\n"
                + "\t\tcp->elements[new_cpu].idx = old_idx;", "\t\tcp->elements[new_cpu].idx = old_idx;\n\t\tcp->size--;")));
        e.add(new Edit("DR3", false, "refactor: the early return's bound negated", once("if (left_child(idx) >= cp->size)",
                "if (!(left_child(idx) < cp->size))")));
        return e;
    }

    /** conform cpudl's answer for one edit: "named: ..." or "agree (N sequences, M walk states)". */
    String answer(KernelTree tree, Edit e) throws Exception {
        Path dir = EditedTree.copy(tree, work.resolve(tree.series() + "-" + e.id()), FILES, C, e.change());
        KernelTree edited = KernelTree.open(dir, null);
        CpudlConformance.Options o = LONG ? new CpudlConformance.Options(1, 5_000, 40, true, Map.of("hotplug", "on"), 0)
                : new CpudlConformance.Options(1, 2_000, 40, false, Map.of(), 0);
        CpudlConformance.Result r = CpudlConformance.run(edited, CpudlConformance.portFor(edited), o, new PrintStream(
                java.io.OutputStream.nullOutputStream()));
        assertThat(r.stopped()).isNull();
        if (r.divergence() == null) {
            return String.format(java.util.Locale.ROOT, "agree (%,d sequences, %,d walk states)", r.sequences(), r.walkStates());
        }
        return "named: " + r.divergence().summary() + " (" + r.divergence().minimised().ops().size() + " calls)";
    }

    @Test
    void mutantsOfCpudeadlineAreNamedAndRefactorsAgree() throws Exception {
        List<KernelTree> trees = KernelTrees.orSkip("conform cpudl's power table");
        Map<String, Map<String, String>> table = new LinkedHashMap<>();
        for (KernelTree tree : LONG ? trees : trees.subList(0, 1)) {
            Map<String, String> col = new LinkedHashMap<>();
            for (Edit e : edits()) {
                if (LONG || List.of("D7", "DR1").contains(e.id())) {
                    col.put(e.id(), answer(tree, e));
                }
            }
            table.put(tree.series(), col);
            col.forEach((id, a) -> System.out.println("[kcheck conform cpudl power] " + tree.series() + " " + id + ": " + a));
            long mutants = edits().stream().filter(e -> e.mutant() && col.containsKey(e.id())).count();
            long named = edits().stream().filter(e -> e.mutant() && col.containsKey(e.id()) && col.get(e.id()).startsWith("named")).count();
            assertThat(named).as("mutants named on %s: %s", tree.dir(), col).isGreaterThanOrEqualTo((mutants * 9 + 9) / 10);
            for (Edit e : edits()) {
                if (!e.mutant() && col.containsKey(e.id())) {
                    assertThat(col.get(e.id())).as("refactor %s on %s", e.id(), tree.dir()).startsWith("agree");
                }
            }
        }
    }
}
