package kcheck.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.Test;

import kcheck.gate.Baseline;

/**
 * The README's verdict tables say what the baseline says (and `kcheck verify` checks the
 * baseline against computed verdicts), so the README cannot drift from what kcheck computes.
 */
class ReadmeVerdictTablesTest {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    /**
     * Parameters a column without key=value means at their defaults, per model (rq-lock's and
     * rwsem-owner's newer dimensions; both models name one of them {@code preempt}, with different values).
     */
    static final java.util.Map<String, java.util.Map<String, String>> DEFAULTS = java.util.Map.of(
            "rq-lock", java.util.Map.of("preempt", "y", "core-sched", "none", "calls", "1"),
            "rwsem-owner", java.util.Map.of("preempt", "writers"));

    @Test
    void everyVerdictInTheReadmeTablesIsTheBaselinesExpectation() throws Exception {
        Baseline b = Baseline.read(ROOT.resolve("kcheck-baseline.json"));
        List<String> lines = Files.readAllLines(ROOT.resolve("README.md"));
        String model = null;
        List<String> header = null;
        int checked = 0;
        List<String> wrong = new ArrayList<>();
        for (String line : lines) {
            if (line.startsWith("#")) {
                model = null;
                header = null;
                continue;
            }
            if (line.startsWith("**") && line.contains("**")) {
                String name = line.substring(2, line.indexOf("**", 2));
                model = b.entries().stream().anyMatch(e -> e.model().equals(name)) ? name : null;
                header = null;
                continue;
            }
            if (model == null || !line.startsWith("|")) {
                if (!line.startsWith("|")) {
                    header = null;
                }
                continue;
            }
            List<String> cells = cells(line);
            if (header == null) {
                header = cells;
                continue;
            }
            if (cells.get(0).startsWith("---")) {
                continue;
            }
            String property = cells.get(0).split(" ")[0];
            for (int c = 1; c < cells.size() && c < header.size(); c++) {
                String variant = header.get(c).split("[ ,]")[0];
                boolean tas = header.get(c).contains("tas");
                /* key=value in a column header (e.g. "v6.12, lock=qspinlock preempt=n") selects the entry with those parameters */
                java.util.Map<String, String> wanted = new java.util.HashMap<>();
                java.util.regex.Matcher kv = java.util.regex.Pattern.compile("([a-z][a-z-]*)=([a-z0-9.-]+)").matcher(header.get(c));
                while (kv.find()) {
                    wanted.put(kv.group(1), kv.group(2));
                }
                String cell = cells.get(c).toUpperCase(Locale.ROOT);
                String said = cell.contains("VIOLATED") ? "VIOLATED" : cell.contains("HOLDS") ? "HOLDS" : null;
                if (said == null) {
                    continue;
                }
                final String m = model;
                var entry = b.entries().stream().filter(e -> e.model().equals(m) && e.variant().equals(variant)
                        && e.property().equals(property) && tas == "tas".equals(e.params().get("lock"))
                        && wanted.entrySet().stream().allMatch(w -> w.getValue().equals(e.params().get(w.getKey())))
                        && (!wanted.isEmpty() || e.params().keySet().stream().allMatch(k -> !defaults(m).containsKey(k)
                                || defaults(m).get(k).equals(e.params().get(k))))).findFirst();
                if (entry.isEmpty()) {
                    wrong.add(model + "/" + variant + "/" + property + ": in the README, not in the baseline");
                } else if (!entry.get().expected().name().equals(said)) {
                    wrong.add(model + "/" + variant + "/" + property + ": README " + said + ", baseline " + entry.get().expected());
                }
                checked++;
            }
        }
        assertThat(wrong).isEmpty();
        assertThat(checked).as("verdict cells found in the README").isGreaterThan(40);
    }

    private static java.util.Map<String, String> defaults(String model) {
        return DEFAULTS.getOrDefault(model, java.util.Map.of());
    }

    private static List<String> cells(String line) {
        List<String> out = new ArrayList<>();
        for (String c : line.substring(1).split("\\|")) {
            out.add(c.trim().replace("`", "").toLowerCase(Locale.ROOT).replace("**", "").trim());
        }
        return out;
    }
}
