package kcheck.litmus;

import java.util.List;
import java.util.Map;

/**
 * A parsed C litmus test: its name, initial state, threads, the {@code locations}, {@code filter} and final
 * condition, and the {@code Result:} its comment predicts (herd7's word, or DEADLOCK; with DATARACE when
 * herd7 flags a data race), if any.
 *
 * @param memoryInit  initial value of each shared location named in the initial state (others start at 0)
 * @param registerInit initial register values, keyed {@code T:reg}
 * @param quantifier  {@code exists}, {@code ~exists} or {@code forall}
 * @param expected    the word of the {@code Result:} line, or null
 */
public record LitmusTest(String file, String name, Map<String, Val> memoryInit, Map<String, Val> registerInit,
        List<ThreadCode> threads, List<String> locations, Cond filter, String quantifier, Cond condition,
        String expected, boolean expectedRace) {

    /** The final condition as text, e.g. {@code (1:r0=1 /\ 1:r1=0)}. */
    public String conditionText() {
        return condition.toString();
    }

    /** One thread {@code Pn(params) { body }}. */
    public record ThreadCode(int id, List<String> params, Stmt.Block body, int line) {
    }
}
