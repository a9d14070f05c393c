package kcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import kcheck.conform.KernelTree;
import kcheck.conform.KernelTrees;

/**
 * {@code kcheck conform cpudl} against mutants of the first {@code KCHECK_KERNEL_TREES} tree's
 * cpudeadline.c, made here by one text edit each (no kernel source is kept in the repository): a
 * C that computes another heap, hangs, crashes or writes outside its arrays diverges from the port
 * (exit 1, with the first way it goes wrong), never exit 2, which stays for a tree that cannot be
 * used ({@code ConformCliTest}). The first four are the reviewer's (issue 29); with these seeds
 * they hung kcheck or ended it with exit 2 before. The hanging mutant runs with a call timeout of
 * {@link #HANG_MS} ms (the default 1 s is ConformCFaultsCliTest's).
 */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ConformMutantCorpusTest {
    @TempDir
    Path tmp;

    /** One edit of cpudeadline.c: {@code regex} (found exactly once) replaced; the seed; what the report must say. */
    record Mutant(String name, String regex, String replacement, long seed, String expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Mutant> mutants() {
        String differ = "the C and the port differ after call ";
        return Stream.of(
                new Mutant("unsigned compare in cpudl_heapify_up", "if \\(dl_time_before\\(orig_dl, cp->elements\\[p\\]\\.dl\\)\\)",
                        "if (orig_dl < cp->elements[p].dl)", 1, differ),
                new Mutant("swapped dl_time_before arguments in cpudl_heapify",
                        "dl_time_before\\(cp->elements\\[parent\\(idx\\)\\]\\.dl,\\s*cp->elements\\[idx\\]\\.dl\\)",
                        "dl_time_before(cp->elements[idx].dl, cp->elements[parent(idx)].dl)", 20251016, differ),
                new Mutant("off-by-one child bound in cpudl_heapify_down", "\\(l < cp->size\\)", "(l <= cp->size)", 20251016, differ),
                new Mutant("swapped idx stores in cpudl_clear",
                        "(\\t*)cp->elements\\[new_cpu\\]\\.idx = old_idx;\\n(\\t*)cp->elements\\[cpu\\]\\.idx = IDX_INVALID;",
                        "$1cp->elements[cpu].idx = IDX_INVALID;\n$2cp->elements[new_cpu].idx = old_idx;", 20251016, differ),
                new Mutant("infinite loop: cpudl_heapify_up without idx = p", "(pull parent onto idx \\*/\\n(?:.*\\n){3})\\t\\tidx = p;\\n",
                        "$1", 20251016, "the C did not return within " + HANG_MS + " ms at call "),
                new Mutant("NULL dereference in cpudl_set", "__cpumask_clear_cpu\\(cpu, cp->free_cpus\\);\\n\\t\\} else \\{",
                        "__cpumask_clear_cpu(cpu, NULL);\n\t} else {", 20251016, "the C crashed with SIGSEGV at call "),
                new Mutant("abort() in cpudl_set", "cp->elements\\[old_idx\\]\\.dl = dl;", "abort();", 20251016,
                        "the C crashed with SIGABRT at call "),
                new Mutant("out-of-bounds write in cpudl_init", "for_each_possible_cpu\\(i\\)\\n", "for (i = 0; i <= (int)nr_cpu_ids; i++)\n",
                        20251016, "the C wrote bytes 12..15 past the end of a kcalloc'd array of "));
    }

    /** A copy of {@code source}'s Makefile, cpudeadline.h and cpudeadline.c with {@code m} applied, in a directory named for it. */
    private Path mutant(KernelTree source, Mutant m) throws Exception {
        Path dir = tmp.resolve(m.name().replaceAll("[^a-zA-Z0-9]+", "-"));
        Path sched = Files.createDirectories(dir.resolve("kernel/sched"));
        String c = Files.readString(source.file("kernel/sched/cpudeadline.c"), StandardCharsets.UTF_8);
        Matcher x = Pattern.compile(m.regex()).matcher(c);
        assertThat(x.results().count()).as("places to edit for '%s' in %s", m.name(), source.dir()).isEqualTo(1);
        Files.writeString(sched.resolve("cpudeadline.c"), Pattern.compile(m.regex()).matcher(c).replaceFirst(m.replacement()));
        Files.copy(source.file("kernel/sched/cpudeadline.h"), sched.resolve("cpudeadline.h"));
        Files.copy(source.file("Makefile"), dir.resolve("Makefile"));
        return dir;
    }

    /**
     * The hanging mutant's --call-timeout: its minimisation waits out one timeout per probe that hangs, so the
     * default second made it most of this class's time; the other mutants' calls return in microseconds.
     */
    static final int HANG_MS = 400;

    private static Cli conform(Path tree, long seed, boolean hangs) {
        long t0 = System.nanoTime();
        List<String> args = new java.util.ArrayList<>(List.of("conform", "cpudl", "--kernel-tree", tree.toString(), "--seed",
                Long.toString(seed), "--sequences", "2000", "--no-walk"));
        if (hangs) {
            args.addAll(List.of("--call-timeout", HANG_MS + "ms"));
        }
        Cli r = Cli.run(args.toArray(String[]::new));
        String line = r.out.lines().filter(l -> l.startsWith("DIVERGENCE") || l.startsWith("AGREE")).findFirst()
                .orElse(r.err.lines().findFirst().orElse(""));
        System.out.println(String.format(Locale.ROOT, "[kcheck conform] mutant %s: exit %d in %.1f s: %s", tree.getFileName(), r.exit,
                (System.nanoTime() - t0) / 1e9, line));
        return r;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mutants")
    void aMutantOfTheKernelsCIsADivergenceOfTheRightKind(Mutant m) throws Exception {
        Path tree = mutant(KernelTrees.orSkip("the cpudeadline.c mutant corpus").get(0), m);
        Cli r = conform(tree, m.seed(), m.expected().startsWith("the C did not return"));
        assertThat(r.exit).as(r.out + r.err).isEqualTo(1);
        assertThat(r.out).containsPattern("DIVERGENCE in generated sequence \\d+ \\(seed " + m.seed() + "\\): " + Pattern.quote(m.expected()));
        assertThat(r.err).isEmpty();
    }

    /** dl_task_fits_capacity comes from the tree's sched.h (by parsing): a change to it there is a divergence too. */
    @org.junit.jupiter.api.Test
    void aChangeToTheTreesDlTaskFitsCapacityIsSeen() throws Exception {
        KernelTree source = KernelTrees.orSkip("the cpudeadline.c mutant corpus").get(0);
        Path tree = kcheck.conform.EditedTree.copy(source, tmp.resolve("fits"), List.of("kernel/sched/cpudeadline.c",
                "kernel/sched/cpudeadline.h", "kernel/sched/sched.h"), "kernel/sched/sched.h", kcheck.conform.EditedTree.once(
                        "\treturn cap >= p->dl.dl_density >> (BW_SHIFT - SCHED_CAPACITY_SHIFT);",
                        "\treturn cap > p->dl.dl_density >> (BW_SHIFT - SCHED_CAPACITY_SHIFT);"));
        Cli r = Cli.run("conform", "cpudl", "--kernel-tree", tree.toString(), "--seed", "1", "--sequences", "2000", "--no-walk");
        assertThat(r.exit).as(r.out + r.err).isEqualTo(1);
        assertThat(r.out).contains("dl_task_fits_capacity from kernel/sched/sched.h (found by parsing)")
                .containsPattern("DIVERGENCE in generated sequence \\d+ \\(seed 1\\): the C and the port differ after call ");
    }
}
