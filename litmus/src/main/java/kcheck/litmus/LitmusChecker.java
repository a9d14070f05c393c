package kcheck.litmus;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Decides a C litmus test under the Linux-kernel memory model, as herd7 does with tools/memory-model's
 * linux-kernel.cfg: parse ({@link LitmusParser}), enumerate the candidate executions ({@link Candidates}),
 * keep those the model allows ({@link Lkmm}), apply the filter and evaluate the final condition on each
 * ({@link LitmusResult}).
 */
public final class LitmusChecker {
    private LitmusChecker() {
    }

    /** Reads and decides a file; input errors are {@link LitmusException}s with file and line. */
    public static LitmusResult check(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        return decide(LitmusParser.parse(file.toString(), text));
    }

    public static LitmusResult decide(LitmusTest test) {
        long start = System.nanoTime();
        Candidates candidates = new Candidates(test);
        long[] counts = new long[3];
        boolean[] race = new boolean[1];
        Execution[] witness = new Execution[1];
        List<Map<String, Val>> witnessState = new ArrayList<>();
        candidates.forEach(x -> {
            Lkmm.Verdict v = Lkmm.check(x);
            if (!v.consistent()) {
                return;
            }
            counts[0]++;
            Map<String, Val> state = x.finalState();
            if (test.filter() != null && !test.filter().eval(state)) {
                return;
            }
            race[0] |= v.dataRace();
            if (test.condition().eval(state)) {
                counts[1]++;
                if (witness[0] == null) {
                    witness[0] = x;
                    witnessState.add(state);
                }
            } else {
                counts[2]++;
            }
        });
        long micros = (System.nanoTime() - start) / 1000;
        String w = witness[0] == null ? null : Witness.print(witness[0], witnessState.get(0), test);
        return new LitmusResult(test, LitmusResult.word(counts[1], counts[2]), candidates.explored(), counts[0], counts[1],
                counts[2], race[0], w, micros);
    }
}
