package kcheck.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import kcheck.gate.Baseline;

/**
 * docs/bugs.md, the census of real bugs, stays true: every row it calls caught names a variant
 * and a property that kcheck-baseline.json expects VIOLATED (so `./kcheck verify` gates it), every
 * {@code bug-<commit>} variant of the baseline has its row, and the figures it states are the
 * counts of its rows.
 */
class BugCensusTest {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final Pattern TICKED = Pattern.compile("`([^`]+)`");
    static final Pattern FIGURES = Pattern.compile("\\*\\*rows (\\d+), caught (\\d+)");
    static final List<String> NOT_CAUGHT = List.of("not expressible", "needs a weak memory model",
            "expressible now", "not gated");

    record Row(String model, String commit, String now) {
        boolean caught() {
            return now.startsWith("caught:");
        }
    }

    @Test
    void everyCaughtRowIsGatedByTheBaseline() throws Exception {
        Baseline b = Baseline.read(ROOT.resolve("kcheck-baseline.json"));
        List<String> wrong = new ArrayList<>();
        for (Row r : rows()) {
            if (!r.caught()) {
                continue;
            }
            List<String> ticked = ticked(r.now());
            String variant = ticked.stream().filter(t -> b.entries().stream()
                    .anyMatch(e -> e.model().equals(r.model()) && e.variant().equals(t))).findFirst().orElse(null);
            if (variant == null) {
                wrong.add(r.model() + " " + r.commit() + ": names no variant of the baseline");
                continue;
            }
            if (variant.startsWith("bug-") && !r.commit().contains(variant.substring(4))) {
                wrong.add(r.model() + " " + r.commit() + ": gated as " + variant + ", another commit");
            }
            boolean gated = b.entries().stream().anyMatch(e -> e.model().equals(r.model())
                    && e.variant().equals(variant) && ticked.contains(e.property())
                    && e.expected().name().equals("VIOLATED"));
            if (!gated) {
                wrong.add(r.model() + " " + r.commit() + ": " + variant + " is expected VIOLATED on none of " + ticked);
            }
        }
        assertThat(wrong).isEmpty();
    }

    @Test
    void everyRowIsClassified() throws Exception {
        List<String> unclassified = new ArrayList<>();
        for (Row r : rows()) {
            if (!r.caught() && NOT_CAUGHT.stream().noneMatch(r.now()::startsWith)) {
                unclassified.add(r.model() + " " + r.commit() + ": " + r.now());
            }
        }
        assertThat(unclassified).isEmpty();
        assertThat(rows()).extracting(Row::model).containsAll(List.of("rq-lock", "cpudl", "rwsem-owner", "lb-redo"));
    }

    @Test
    void everyRealBugVariantOfTheBaselineHasItsRow() throws Exception {
        Baseline b = Baseline.read(ROOT.resolve("kcheck-baseline.json"));
        Set<String> gated = new TreeSet<>();
        b.entries().stream().filter(e -> e.variant().startsWith("bug-") && e.expected().name().equals("VIOLATED"))
                .forEach(e -> gated.add(e.model() + " " + e.variant()));
        Set<String> rowed = new TreeSet<>();
        for (Row r : rows()) {
            if (r.caught()) {
                ticked(r.now()).stream().filter(t -> t.startsWith("bug-")).forEach(t -> rowed.add(r.model() + " " + t));
            }
        }
        assertThat(rowed).containsAll(gated);
    }

    @Test
    void theStatedFiguresAreTheCountsOfTheRows() throws Exception {
        List<Row> rows = rows();
        Map<String, int[]> stated = new LinkedHashMap<>();
        String section = "all";
        for (String line : Files.readAllLines(ROOT.resolve("docs/bugs.md"))) {
            if (line.startsWith("## ")) {
                section = model(line);
            }
            Matcher m = FIGURES.matcher(line);
            if (m.find()) {
                stated.put(section, new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))});
            }
        }
        assertThat(stated).containsKeys("all", "rq-lock", "cpudl", "rwsem-owner", "lb-redo");
        for (var s : stated.entrySet()) {
            List<Row> in = rows.stream().filter(r -> s.getKey().equals("all") || r.model().equals(s.getKey())).toList();
            assertThat(s.getValue()).as(s.getKey()).containsExactly(in.size(), (int) in.stream().filter(Row::caught).count());
        }
    }

    static List<Row> rows() throws Exception {
        List<Row> rows = new ArrayList<>();
        String model = null;
        boolean inTable = false;
        for (String line : Files.readAllLines(ROOT.resolve("docs/bugs.md"))) {
            if (line.startsWith("## ")) {
                model = model(line);
                inTable = false;
                continue;
            }
            if (!line.startsWith("|")) {
                inTable = false;
                continue;
            }
            if (line.startsWith("| commit ")) {
                inTable = true;
                continue;
            }
            if (!inTable || line.startsWith("|---") || model == null) {
                continue;
            }
            String[] cells = line.substring(1, line.lastIndexOf('|')).split(" \\| ");
            String now = cells[cells.length - 1].trim().replace("**", "");
            rows.add(new Row(model, cells[0].trim(), now));
        }
        return rows;
    }

    static String model(String heading) {
        return heading.substring(3).trim().split(" ")[0].replace("`", "");
    }

    static List<String> ticked(String cell) {
        List<String> out = new ArrayList<>();
        Matcher m = TICKED.matcher(cell);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }
}
