package kcheck.junit;

import static kcheck.junit.KcheckAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import kcheck.engine.RunResult;
import kcheck.model.Model;

class ModelCheckTest {

    @ModelCheck(model = "rq-lock", variant = "after", cpus = 3, properties = {"fifo-entry", "mutual-exclusion"})
    void fairPatchIsFifoUnderTicketLocks(RunResult result) {
        assertThat(result).holds();
    }

    @ModelCheck(model = "rq-lock", variant = "before", cpus = 2, properties = "fifo-entry")
    void unfairVariantIsCaughtWithTheShortestTrace(RunResult result, Model model) {
        assertThat(result).isViolatedBy("fifo-entry").hasShortestTraceOfLength(10).withMessageContaining("CPU 0 returns");
        org.assertj.core.api.Assertions.assertThat(model.variant()).isEqualTo("before");
    }

    /** A patch author's own variant from a source file (here: an unedited copy of before, from 'kcheck variant new'). */
    @ModelCheck(model = "rq-lock", variantFile = "src/test/variants/UnfairCopy.java", cpus = 2, properties = "fifo-entry")
    void variantFilesAreCheckedLikeBuiltInVariants(RunResult result, Model model) {
        assertThat(result).isViolatedBy("fifo-entry").hasShortestTraceOfLength(10);
        org.assertj.core.api.Assertions.assertThat(model.variant()).isEqualTo("unfair-copy");
    }

    @ModelCheck(model = "rq-lock", variantFile = "src/test/variants/UnfairCopy.java", cpus = 2,
            properties = {"mutual-exclusion", "deadlock-free"})
    void variantFilesKeepTheSafetyProperties(RunResult result) {
        assertThat(result).holds();
    }

    @ModelCheck(model = "rq-lock", variant = "after", cpus = 4, properties = "mutual-exclusion", maxStates = 500)
    void limitsGiveIncomplete(RunResult result) {
        assertThat(result).isIncomplete();
    }

    @ModelCheck(model = "rq-lock", variant = "after", cpus = 3, params = "rounds=2", properties = "overtake")
    void metricMaximaCanBeAsserted(RunResult result) {
        assertThat(result).hasMetricMax("overtake", "CPU 2", 0);
    }

    @ModelCheck(model = "rq-lock", variant = "before", cpus = 2, properties = "fifo-entry")
    void assertionFailuresShowTheTimeline(RunResult result) {
        assertThatThrownBy(() -> assertThat(result).holds()).hasMessageContaining("fifo-entry is VIOLATED")
                .hasMessageContaining("| CPU 0").hasMessageContaining("VIOLATION of fifo-entry");
        assertThatThrownBy(() -> assertThat(result).isViolatedBy("fifo-entry").hasShortestTraceOfLength(3))
                .hasMessageContaining("it has 10");
        assertThatThrownBy(() -> assertThat(assertThat(result).isViolatedBy("fifo-entry").trace()).replaysOn("after").reproduces())
                .hasMessageContaining("refuses it");
    }
}
