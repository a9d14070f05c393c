package kcheck.verdicts;

import static kcheck.verdicts.Checks.params;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import kcheck.engine.Engine;
import kcheck.engine.Options;
import kcheck.engine.PropertyResult;
import kcheck.engine.RunResult;
import kcheck.engine.Verdict;
import kcheck.model.ModelInputException;
import kcheck.model.Models;
import kcheck.model.rwsem.RwsemOwnerFactory;
import kcheck.model.rwsem.RwsemRealBugs;
import kcheck.model.rwsem.RwsemV54;
import kcheck.model.rwsem.RwsemV612;
import kcheck.model.rwsem.RwsemVariant;

/**
 * An owner value that is no task: with {@code owner-unknown}, a writer of the v5.4 port hands its
 * critical section on through percpu_rwsem_release/acquire, so the owner is RWSEM_OWNER_UNKNOWN for
 * a while. The handoff writer of 39e7234f00bc's unfixed code spins on it (owner-deref-sane); the
 * fixed code does not; without the parameter the bug is invisible.
 */
class RwsemOwnerUnknownTest {
    private static final Map<String, String> TWO_WRITERS_W0 = params("readers", "0", "writers", "2", "owner-unknown", "w0");

    private static RunResult run(RwsemVariant v, Map<String, String> p, String property) {
        RwsemOwnerFactory f = (RwsemOwnerFactory) Models.get("rwsem-owner");
        return Engine.check(f.create("owner-unknown-test", v, f.params(p), Set.of(property)), Options.defaults().withWorkers(1));
    }

    @Test
    void theHandoffWriterOfTheUnfixedCodeReadsOnCpuThroughRwsemOwnerUnknown() {
        PropertyResult r = run(new RwsemRealBugs.Bug39e7234f00bc(), TWO_WRITERS_W0, "owner-deref-sane").property("owner-deref-sane");
        assertThat(r.verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(r.message()).contains("OWNER_UNKNOWN");
    }

    @Test
    void theFixedV54CodeNeverSpinsOnRwsemOwnerUnknown() {
        RunResult r = run(new RwsemV54(), TWO_WRITERS_W0, "owner-deref-sane");
        assertThat(r.property("owner-deref-sane").verdict()).isEqualTo(Verdict.HOLDS);
        /* the hand-off adds states: the owner value is really explored */
        long closed = run(new RwsemV54(), params("readers", "0", "writers", "2"), "owner-deref-sane").stats().states();
        assertThat(r.stats().states()).isGreaterThan(closed);
    }

    @Test
    void withoutTheParameterTheUnfixedCodeHolds() {
        assertThat(run(new RwsemRealBugs.Bug39e7234f00bc(), params("readers", "0", "writers", "2"), "owner-deref-sane")
                .property("owner-deref-sane").verdict()).isEqualTo(Verdict.HOLDS);
    }

    @Test
    void aVersionWithoutRwsemOwnerUnknownRefusesTheParameterInOneLine() {
        assertThatThrownBy(() -> run(new RwsemV612(), TWO_WRITERS_W0, "owner-deref-sane"))
                .isInstanceOf(ModelInputException.class)
                .hasMessageContaining("owner-unknown")
                .hasMessageNotContaining("\n");
        assertThatThrownBy(() -> run(new RwsemV54(), params("readers", "0", "writers", "2", "owner-unknown", "w2"), "exclusion"))
                .isInstanceOf(ModelInputException.class)
                .hasMessageContaining("writer 2");
    }
}
