package kcheck.verdicts;

import static kcheck.verdicts.Checks.params;
import static kcheck.verdicts.Checks.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import kcheck.engine.RawTrace;
import kcheck.engine.RunResult;
import kcheck.engine.Verdict;
import kcheck.model.Model;

/** The hotplug and capacity dimensions, v6.12 and the real bugs: each bug/fix pair computed, with its trace. */
class CpudlV6VerdictTest {
    private static final Map<String, String> HOTPLUG = params("cpus", "3", "depth", "3", "hotplug", "on");
    private static final Map<String, String> BIG_LITTLE = params("cpus", "4", "depth", "2", "capacity", "big-little");

    private static List<String> labels(RunResult r, String property) {
        RawTrace t = r.property(property).trace();
        Model m = r.model();
        List<String> out = new ArrayList<>();
        for (int i = 0; i < t.length(); i++) {
            out.add(m.describe(t.actors()[i], t.actions()[i]).label());
        }
        return out;
    }

    @Test
    void v49sHotplugPathsMarkAnOfflineCpuFreeAndV612sDoNot() {
        RunResult after = run("cpudl", "after", HOTPLUG, "free-cpus");
        assertThat(after.property("free-cpus").verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(labels(after, "free-cpus")).containsExactly("rq_offline_dl(cpu=0): CPU going down", "cpudl_set(cpu=0, dl=0)",
                "cpudl_clear(cpu=0) on an offline runqueue");
        assertThat(after.property("free-cpus").message()).isEqualTo("cpu 0 is in free_cpus but its runqueue is offline");
        RunResult v612 = run("cpudl", "v6.12", HOTPLUG, "free-cpus", "find-sound", "heap-order", "index-consistent", "root-is-latest");
        for (String p : List.of("free-cpus", "find-sound", "heap-order", "index-consistent", "root-is-latest")) {
            assertThat(v612.property(p).verdict()).as(p).isEqualTo(Verdict.HOLDS);
        }
    }

    @Test
    void bug382748c05e58IsCaughtAndItsFixHolds() {
        RunResult bug = run("cpudl", "bug-382748c05e58", HOTPLUG, "free-cpus", "find-sound");
        assertThat(bug.property("free-cpus").verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(bug.property("free-cpus").trace().length()).isEqualTo(3);
        assertThat(bug.property("find-sound").verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(labels(bug, "find-sound")).last().asString().startsWith("cpudl_find(").contains("later_mask={0");
    }

    @Test
    void bug16b269436b72OffersACpuThatLeftTheRootDomain() {
        Map<String, String> p = params("cpus", "3", "depth", "2", "keys", "small", "hotplug", "on");
        RunResult bug = run("cpudl", "bug-16b269436b72", p, "free-cpus", "find-sound");
        assertThat(labels(bug, "free-cpus")).containsExactly("rq_offline_dl(cpu=0): CPU going down");
        assertThat(labels(bug, "find-sound")).hasSize(2).first().isEqualTo("rq_offline_dl(cpu=0): leaves the root domain");
        RunResult fixed = run("cpudl", "before", p, "free-cpus", "find-sound");
        assertThat(fixed.property("free-cpus").verdict()).isEqualTo(Verdict.HOLDS);
        assertThat(fixed.property("find-sound").verdict()).isEqualTo(Verdict.HOLDS);
    }

    @Test
    void withoutTheFitFallbackABigTaskFindsNoIdleLittleCpu() {
        RunResult bug = run("cpudl", "bug-23e71d8ba429", BIG_LITTLE, "find-sound");
        assertThat(labels(bug, "find-sound")).singleElement().asString().contains("density=0.75").endsWith("= 0, later_mask={}");
        RunResult v612 = run("cpudl", "v6.12", BIG_LITTLE, "find-sound", "find-capacity");
        assertThat(v612.property("find-sound").verdict()).isEqualTo(Verdict.HOLDS);
        assertThat(v612.property("find-capacity").verdict()).isEqualTo(Verdict.HOLDS);
    }

    @Test
    void findCapacityCatchesAFindThatIgnoresCapacityAndV49WhichPredatesIt() {
        for (String v : List.of("mutant-find-ignores-capacity", "after")) {
            RunResult r = run("cpudl", v, BIG_LITTLE, "find-capacity");
            assertThat(r.property("find-capacity").verdict()).as(v).isEqualTo(Verdict.VIOLATED);
            assertThat(r.property("find-capacity").message()).as(v).contains("although free CPUs {2,3} fit the task");
        }
        RunResult sym = run("cpudl", "after", Map.of("depth", "2"), "find-capacity");
        assertThat(sym.property("find-capacity").verdict()).as("vacuous without asymmetric capacities").isEqualTo(Verdict.HOLDS);
    }

    @Test
    void everyCapacityAssignmentIsAnInitialStateWithCapacityAny() {
        RunResult r = run("cpudl", "v6.12", params("cpus", "3", "depth", "1", "capacity", "any"), "find-sound", "find-capacity");
        assertThat(r.property("find-sound").verdict()).isEqualTo(Verdict.HOLDS);
        assertThat(r.property("find-capacity").verdict()).isEqualTo(Verdict.HOLDS);
        RunResult one = run("cpudl", "v6.12", params("cpus", "3", "depth", "1", "capacity", "big-little"), "find-sound");
        assertThat(r.stats().states()).isGreaterThan(one.stats().states() * 7);
    }
}
