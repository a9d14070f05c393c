package kcheck.variantfile;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import kcheck.engine.Engine;
import kcheck.engine.Options;
import kcheck.engine.PropertyResult;
import kcheck.engine.RunResult;
import kcheck.gate.Baseline;
import kcheck.model.ModelFactory;
import kcheck.model.Models;
import kcheck.model.Params;
import kcheck.model.PropertyInfo;
import kcheck.model.VariantInfo;

/**
 * For every model that declares a variant contract (a container per model), and every variant of
 * it: the file {@code kcheck variant new} writes compiles, loads as a variant of that model, and
 * gives exactly the verdicts (and state counts) of the variant it was copied from, for every
 * property, at the small ("quick") bounds of the baseline. A model that plugs in later is covered
 * without touching this test.
 */
class VariantNewCopiesTest {
    static final Path BASELINE = Path.of("..", "kcheck-baseline.json");

    @TempDir
    static Path dir;

    @Test
    void everyModelTakesVariantFiles() {
        assertThat(Models.all().stream().filter(f -> f.variantContract() != null).map(ModelFactory::name))
                .containsExactlyInAnyOrder("rq-lock", "cpudl", "lb-redo", "rwsem-owner");
    }

    /** The variants of the default build: each model's before and after (the others: {@link #everyOtherVariantsCopyCompilesAndKeepsItsSourcesVerdicts}). */
    private static final Set<String> FIRST = Set.of("before", "after");

    @TestFactory
    Stream<DynamicNode> eachModelsBeforeAndAfterCopiesCompileAndKeepTheirSourcesVerdicts() {
        return copies(true);
    }

    /** Every other variant (about 15 s): in .ci/run's long tests, {@code -Dkcheck.long=true}. */
    @TestFactory
    @Tag("long")
    Stream<DynamicNode> everyOtherVariantsCopyCompilesAndKeepsItsSourcesVerdicts() {
        return copies(false);
    }

    private static Stream<DynamicNode> copies(boolean first) {
        Baseline baseline = Baseline.read(BASELINE);
        return Models.all().stream().filter(f -> f.variantContract() != null).map(f -> DynamicContainer.dynamicContainer(f.name(),
                f.variants().stream().filter(v -> FIRST.contains(v.name()) == first)
                        .map(v -> DynamicTest.dynamicTest(v.name(), () -> copyKeepsVerdicts(f, v, baseline)))));
    }

    private static void copyKeepsVerdicts(ModelFactory f, VariantInfo v, Baseline baseline) throws IOException {
        String name = "copy-of-" + v.name();
        Path sub = Files.createDirectories(dir.resolve(f.name() + "-" + v.name()));
        VariantSource.Copy copy = VariantSource.render(f, v.name(), name, sub.resolve(VariantSource.className(name) + ".java"));
        assertThat(copy.text()).doesNotContainPattern("(?m)^\\s*package ").contains("public class " + copy.className())
                .contains("VARIANT = \"" + name + "\"").contains("kcheck check " + f.name() + " --variant-file ");
        Path file = Files.writeString(sub.resolve(copy.fileName()), copy.text());

        VariantFile vf = VariantFile.load(file, null);
        assertThat(vf.model().name()).isEqualTo(f.name());
        assertThat(vf.variantName()).isEqualTo(name);

        Params params = f.params(smallBounds(f, v.name(), baseline));
        Set<String> all = new LinkedHashSet<>(f.properties().stream().map(PropertyInfo::id).toList());
        kcheck.model.Model sourceModel = f.create(v.name(), params, all);
        // one worker where the reduced count depends on the workers' timing (a cyclic model's partial-order proviso)
        Options o = Options.defaults().withWorkers(Engine.countDependsOnOrder(sourceModel) ? 1 : 2);
        RunResult source = Engine.check(sourceModel, o);
        RunResult mine = Engine.check(vf.create(params, all), o);
        // A search that stops once every property is violated may stop inside a BFS level, where the
        // count depends on the workers' timing: states are compared only when both searches were exhaustive.
        if (source.stats().complete() && mine.stats().complete()) {
            assertThat(mine.stats().states()).as("states at %s", params).isEqualTo(source.stats().states());
        }
        for (PropertyResult p : source.properties()) {
            assertThat(mine.property(p.id()).verdict()).as("%s/%s %s at %s", f.name(), name, p.id(), params).isEqualTo(p.verdict());
            if (p.metric() != null) {
                assertThat(mine.property(p.id()).metric().max()).as("%s maxima", p.id()).containsExactly(p.metric().max());
            }
        }
    }

    /** Bounds below the quick ones where those take seconds (the comparison, not the verdict, is the point here). */
    private static final Map<String, Map<String, String>> SMALLER = Map.of("cpudl", Map.of("cpus", "3", "depth", "3"),
            // every property includes starvation-free, bypass and overtake (infinite runs): 3 CPUs with calls=2 are 12 M
            // states and a cycle graph beyond the test JVM's heap
            "rq-lock", Map.of("cpus", "2"),
            // every property includes the opt-in fair ones, whose cycle analysis took minutes at 2 readers
            "rwsem-owner", Map.of("readers", "1", "writers", "1"));

    /**
     * The quick bounds of the baseline entries for this variant (else for any variant of the model,
     * else the defaults), lowered by {@link #SMALLER}.
     */
    private static Map<String, String> smallBounds(ModelFactory f, String variant, Baseline baseline) {
        List<Baseline.Entry> entries = baseline.entries().stream().filter(e -> e.model().equals(f.name())).toList();
        Map<String, String> p = entries.stream().filter(e -> e.variant().equals(variant)).findFirst()
                .or(() -> entries.stream().findFirst())
                .map(e -> e.effectiveParams(true)).orElseGet(LinkedHashMap::new);
        p.putAll(SMALLER.getOrDefault(f.name(), Map.of()));
        if (f.name().equals("rwsem-owner") && p.containsKey("rt") && !Set.of("all", "none").contains(p.get("rt"))) {
            p.put("rt", "all"); // 'rt=w1' names a writer the smaller bounds do not have
        }
        return p;
    }
}
