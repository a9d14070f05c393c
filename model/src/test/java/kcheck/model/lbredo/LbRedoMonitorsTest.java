package kcheck.model.lbredo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;

import org.junit.jupiter.api.Test;

/** Each property alone makes exactly the monitors it reads exist. */
class LbRedoMonitorsTest {
    private static LbRedoMonitors of(String... ids) {
        return LbRedoMonitors.of(Set.of(ids));
    }

    @Test
    void eachPropertyAloneCarriesTheMonitorsItReads() {
        assertThat(of()).isEqualTo(new LbRedoMonitors(false, false, false, false, false));
        assertThat(of("terminates")).isEqualTo(new LbRedoMonitors(true, false, false, false, false));
        assertThat(of("redos")).isEqualTo(new LbRedoMonitors(true, false, false, false, false));
        assertThat(of("all-pinned-sound")).isEqualTo(new LbRedoMonitors(false, true, false, false, false));
        assertThat(of("no-spurious-redo")).isEqualTo(new LbRedoMonitors(false, true, false, false, false));
        assertThat(of("pinned-redo-kept")).isEqualTo(new LbRedoMonitors(false, true, false, false, false));
        assertThat(of("spurious-redos")).isEqualTo(new LbRedoMonitors(false, true, false, true, false));
        assertThat(of("stat-passes")).isEqualTo(new LbRedoMonitors(false, false, true, false, false));
        assertThat(of("stat-work")).isEqualTo(new LbRedoMonitors(false, false, false, false, true));
        assertThat(of("call-returns", "scan-bounded", "imbalance-kept", "newidle-pulls-here"))
                .isEqualTo(new LbRedoMonitors(false, false, false, false, false));
    }
}
