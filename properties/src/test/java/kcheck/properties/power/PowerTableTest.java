package kcheck.properties.power;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import kcheck.engine.PropertyResult;
import kcheck.engine.Verdict;
import kcheck.gate.Baseline;
import kcheck.model.Models;
import kcheck.properties.power.PowerTable.ModelPower;

/**
 * The power table (docs/power.md): every property against every seeded mutant and real-bug
 * variant (exhaustive, at the baseline's bounds) and every generated-input search against every
 * variant. Fails if a property catches nothing, if a pair the baseline says must be caught is
 * not, if a mutant or bug variant has no baseline entry, if a "finds the bug" test presented as a
 * real search is not one (single inputs hit the bug 1 % of the time or more, or runs miss it),
 * or if docs/power.md is not what was computed (copy
 * properties/target/power.md there, or run with {@code -Dkcheck.docs=$PWD/docs}).
 */
@org.junit.jupiter.api.Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES)
@org.junit.jupiter.api.condition.EnabledIfSystemProperty(named = "kcheck.power", matches = "true",
        disabledReason = "about 4 minutes: .ci/run runs it (-Dkcheck.power=true); the default build checks every must-catch pair at quick bounds (VerifyCommandTest)")
class PowerTableTest {

    @Test
    void everyPropertyCatchesSomethingAndTheCommittedTableIsTheComputedOne() throws IOException {
        long t0 = System.nanoTime();
        Baseline baseline = Baseline.read(Path.of("..", "kcheck-baseline.json"));
        List<ModelPower> models = new PowerTable(baseline, System.out).compute();
        String table = PowerTable.markdown(models);
        Path target = Path.of("target", "power.md");
        Files.createDirectories(target.getParent());
        Files.writeString(target, table);
        String docs = System.getProperty("kcheck.docs");
        if (docs != null && !docs.isBlank()) {
            Files.writeString(Path.of(docs, "power.md"), table);
        }
        System.out.printf("[power] table computed in %.1f s, written to %s%n", (System.nanoTime() - t0) / 1e9, target.toAbsolutePath());

        List<String> problems = new ArrayList<>();
        for (ModelPower mp : models) {
            mp.unlisted.forEach(v -> problems.add(mp.model + "/" + v + " has no baseline entry: add one naming the property it must fail"));
            for (Baseline.Entry e : mp.mustCatch) {
                PowerTable.Run run = mp.runsOf(e.variant()).stream()
                        .filter(r -> r.params().equals(Models.get(e.model()).params(e.params()).asMap())).findFirst().orElse(null);
                PropertyResult p = run == null ? null : run.results().get(e.property());
                if (p == null || p.verdict() != Verdict.VIOLATED) {
                    problems.add(e.name() + " must be caught: " + (p == null ? "not run" : p.verdict() + ": " + p.message()));
                }
            }
            mp.catchingNothing().forEach(p -> problems.add(mp.model + " property " + p
                    + " catches no seeded mutant, no real-bug variant and no historical variant of the baseline"));
        }
        for (ModelPower mp : models) {
            mp.finds.forEach((f, g) -> {
                if (f.real() && (g.error() != null || g.perInput() >= PowerTable.REAL_SEARCH || g.found() < PowerTable.RUNS - 1)) {
                    problems.add(f.test() + " is presented as a real search but measured " + g);
                }
            });
        }
        assertThat(problems).as("power of the properties (table in properties/target/power.md)").isEmpty();

        String committed = Files.readString(Path.of("..", "docs", "power.md"));
        assertThat(committed).as("docs/power.md is out of date: copy properties/target/power.md there "
                + "(or run mvn -B verify -pl properties -Dtest=PowerTableTest -Dkcheck.docs=$PWD/docs)").isEqualTo(table);
    }
}
