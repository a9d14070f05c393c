package kcheck.model.lbredo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import kcheck.model.Models;
import kcheck.model.Params;

/** The port's balancing walks as conform lb-redo sends them to the C: inputs, texts, pulls at the right operation. */
class LbRedoPathsTest {

    private static List<LbRedoPaths.Run> runs(Map<String, String> params, LbRedoPaths.Stats s) {
        Params p = Models.get("lb-redo").params(params);
        List<LbRedoPaths.Run> out = new ArrayList<>();
        LbRedoPaths.forEach("v6.12", p, s, out::add);
        return out;
    }

    @Test
    void aPullBetweenTheUnlockedTestAndTheLockEmptiesTheSourceAndNothingMoves() {
        LbRedoPaths.Stats s = new LbRedoPaths.Stats();
        List<LbRedoPaths.Run> all = runs(Map.of(), s);
        assertThat(s.runs).isEqualTo(all.size()).isPositive();
        /* the acb4decc1e90 race: busiest (CPU 3) read with two tasks, then one pulled before rq_lock: detach_tasks finds one */
        LbRedoPaths.Run r = all.stream().filter(x -> x.input().endsWith("S=3:1 E=2l3.3")).findFirst().orElseThrow();
        assertThat(r.text()).startsWith("find_src_group dst=0 cpus=f idle=N flags=0 ; find_src_rq ; state ")
                .contains(" ; rq_lock 3 ; rq_unlock 3 ; return 0 continue=1 ");
    }

    @Test
    void everyCallEndsWithItsReturnAndTheRunqueues() {
        for (LbRedoPaths.Run r : runs(Map.of("topology", "smt", "idle", "idle"), new LbRedoPaths.Stats())) {
            int calls = r.input().replaceAll(".* C=([^ ]*) .*", "$1").split(",").length;
            long returns = java.util.regex.Pattern.compile("(^|; )return ").matcher(r.text()).results().count();
            assertThat(returns).as(r.input()).isEqualTo(calls);
            assertThat(r.text()).containsPattern("return [0-9]+ continue=[01] 0=");
        }
    }
}
