package kcheck.variantfile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import kcheck.model.ModelInputException;
import kcheck.model.Models;

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
}
