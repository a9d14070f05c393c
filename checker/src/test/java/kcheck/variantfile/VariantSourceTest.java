package kcheck.variantfile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import kcheck.model.Model;
import kcheck.model.ModelFactory;
import kcheck.model.ModelInputException;
import kcheck.model.Models;
import kcheck.model.ParamSpec;
import kcheck.model.Params;
import kcheck.model.PropertyInfo;
import kcheck.model.VariantContract;
import kcheck.model.VariantInfo;

class VariantSourceTest {

    @Test
    void classNamesAreTheCamelCaseOfTheVariantName() {
        assertThat(VariantSource.className("mine")).isEqualTo("Mine");
        assertThat(VariantSource.className("fix-v2")).isEqualTo("FixV2");
        assertThat(VariantSource.className("keep_lower.rq")).isEqualTo("KeepLowerRq");
        assertThat(VariantSource.className("2fast")).isEqualTo("Variant2fast");
    }

    @Test
    void aNestedMutantBecomesAPublicTopLevelClassWithItsJavadocAndNoEnclosingCode() {
        VariantSource.Copy c = VariantSource.render(Models.get("rq-lock"), "mutant-unordered", "unordered", Path.of("/x/Unordered.java"));
        assertThat(c.className()).isEqualTo("Unordered");
        assertThat(c.text()).contains("/** 2.6.28 taking {@code this_rq} then busiest, ignoring the lock order")
                .contains("\npublic class Unordered extends DoubleLockBalanceV2628 {\n")
                .contains("    public static final String VARIANT = \"unordered\";\n\n    @Override\n")
                .contains("import kcheck.model.rqlock.*;").contains("kcheck check rq-lock --variant-file /x/Unordered.java")
                .doesNotContain("static final class").doesNotContain("ReturnsZero").doesNotContain("RqLockMutants()");
    }

    @Test
    void namesThatWouldBreakTheCopyAreRefused() {
        assertThatThrownBy(() -> VariantSource.render(Models.get("cpudl"), "after", "cpumask", Path.of("/x/Cpumask.java")))
                .isInstanceOf(ModelInputException.class).hasMessageContaining("would hide kcheck.model.cpudl.Cpumask");
        assertThatThrownBy(() -> VariantSource.render(Models.get("cpudl"), "after", "string", Path.of("/x/String.java")))
                .isInstanceOf(ModelInputException.class).hasMessageContaining("would hide java.lang.String");
        assertThatThrownBy(() -> VariantSource.render(Models.get("cpudl"), "after", "rfc-v2", Path.of("/x/RfcV2.java")))
                .isInstanceOf(ModelInputException.class).hasMessageContaining("'rfc-v2' is a built-in cpudl variant");
        assertThatThrownBy(() -> VariantSource.render(Models.get("cpudl"), "after", "my fix", Path.of("/x/MyFix.java")))
                .isInstanceOf(ModelInputException.class).hasMessageContaining("variant name 'my fix'");
    }

    @Test
    void theHeaderOfTheCopyListsTheModelsLimitsAndSaysCrossingOneIsNoVerdict() {
        ModelFactory cpudl = Models.get("cpudl");
        ModelFactory limited = new ModelFactory() {
            @Override
            public String name() {
                return cpudl.name();
            }

            @Override
            public String title() {
                return cpudl.title();
            }

            @Override
            public List<VariantInfo> variants() {
                return cpudl.variants();
            }

            @Override
            public List<ParamSpec> params() {
                return cpudl.params();
            }

            @Override
            public List<PropertyInfo> properties() {
                return cpudl.properties();
            }

            @Override
            public Model create(String variant, Params params, Set<String> properties) {
                return cpudl.create(variant, params, properties);
            }

            @Override
            public VariantContract<?> variantContract() {
                return cpudl.variantContract();
            }

            @Override
            public List<String> limits() {
                return List.of("the heap holds at most 8 CPUs.", "deadlines are u64 values.");
            }
        };
        String text = VariantSource.render(limited, "after", "mine", Path.of("/x/Mine.java")).text();
        assertThat(text).contains(" * Limits of the cpudl model (what it assumes of a variant; crossing one is exit 2, not a verdict):\n"
                + " *   - the heap holds at most 8 CPUs.\n *   - deadlines are u64 values.\n")
                .contains("or steps outside\n * the model's limits while it is checked (one line names the file, line and method)");
        String plain = VariantSource.render(cpudl, "after", "mine", Path.of("/x/Mine.java")).text().replaceAll("\n \\*\\s+", " ");
        for (String l : cpudl.limits()) {
            assertThat(plain).contains("- " + l);
        }
    }
}
