package kcheck.mutation;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Not a test of kcheck: the last step of {@code mvn -B verify -Pmutation} (its name matches no
 * Surefire include, so only the profile runs it). Reads the {@code mutations.xml} of each PIT run
 * under {@code target/pit-reports/<run>/}, prints the score per run and per package with every
 * surviving mutant, and writes the same to {@code target/pit-reports/summary.md}.
 */
class PitSummary {

    private record Mutant(String run, String clazz, String method, int line, String mutator, String description, String status) {
        String pkg() {
            return clazz.substring(0, clazz.lastIndexOf('.'));
        }

        boolean killed() {
            return status.equals("KILLED") || status.equals("TIMED_OUT") || status.equals("MEMORY_ERROR") || status.equals("RUN_ERROR");
        }
    }

    @Test
    void summarise() throws Exception {
        Path dir = Path.of(System.getProperty("kcheck.pit.reports", "target/pit-reports"));
        List<Mutant> all = new ArrayList<>();
        try (Stream<Path> runs = Files.list(dir)) {
            for (Path run : runs.filter(Files::isDirectory).sorted().toList()) {
                Path xml = run.resolve("mutations.xml");
                if (Files.exists(xml)) {
                    all.addAll(read(run.getFileName().toString(), xml));
                }
            }
        }
        assertThat(all).as("PIT reports under %s", dir).isNotEmpty();
        String md = markdown(all);
        Files.writeString(dir.resolve("summary.md"), md);
        System.out.println(md);
    }

    private static List<Mutant> read(String run, Path xml) throws Exception {
        List<Mutant> out = new ArrayList<>();
        var doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(xml.toFile());
        NodeList ms = doc.getElementsByTagName("mutation");
        for (int i = 0; i < ms.getLength(); i++) {
            Element m = (Element) ms.item(i);
            String clazz = text(m, "mutatedClass");
            int dollar = clazz.indexOf('$');
            out.add(new Mutant(run, dollar < 0 ? clazz : clazz.substring(0, dollar), text(m, "mutatedMethod"),
                    Integer.parseInt(text(m, "lineNumber")), shortMutator(text(m, "mutator")), text(m, "description"),
                    m.getAttribute("status")));
        }
        return out;
    }

    private static String text(Element e, String tag) {
        NodeList n = e.getElementsByTagName(tag);
        return n.getLength() == 0 ? "" : n.item(0).getTextContent().trim();
    }

    private static String shortMutator(String m) {
        return m.substring(m.lastIndexOf('.') + 1);
    }

    private static String markdown(List<Mutant> all) throws IOException {
        StringBuilder b = new StringBuilder("| run | package | mutants | killed | timed out | survived | no coverage | score |\n");
        b.append("|---|---|---:|---:|---:|---:|---:|---:|\n");
        Map<String, List<Mutant>> byRunPkg = new TreeMap<>();
        Map<String, List<Mutant>> byRun = new TreeMap<>();
        for (Mutant m : all) {
            byRunPkg.computeIfAbsent(m.run() + "|" + m.pkg(), k -> new ArrayList<>()).add(m);
            byRun.computeIfAbsent(m.run(), k -> new ArrayList<>()).add(m);
        }
        for (Map.Entry<String, List<Mutant>> e : byRunPkg.entrySet()) {
            String[] k = e.getKey().split("\\|");
            row(b, k[0], "`" + k[1] + "`", e.getValue());
        }
        for (Map.Entry<String, List<Mutant>> e : byRun.entrySet()) {
            row(b, "**" + e.getKey() + "**", "all", e.getValue());
        }
        row(b, "**all**", "", all);
        b.append("\nSurvivors and mutants without coverage:\n\n| run | class:line | method | mutator | description | status |\n");
        b.append("|---|---|---|---|---|---|\n");
        all.stream().filter(m -> !m.killed())
                .sorted(java.util.Comparator.comparing(Mutant::run).thenComparing(Mutant::clazz).thenComparingInt(Mutant::line))
                .forEach(m -> b.append("| ").append(m.run()).append(" | `").append(m.clazz().substring(m.clazz().lastIndexOf('.') + 1))
                        .append(':').append(m.line()).append("` | ").append(m.method()).append(" | ").append(m.mutator()).append(" | ")
                        .append(m.description()).append(" | ").append(m.status()).append(" |\n"));
        return b.toString();
    }

    private static void row(StringBuilder b, String run, String pkg, List<Mutant> ms) {
        long killed = ms.stream().filter(m -> m.status().equals("KILLED")).count();
        long timedOut = ms.stream().filter(m -> m.killed() && !m.status().equals("KILLED")).count();
        long survived = ms.stream().filter(m -> m.status().equals("SURVIVED")).count();
        long noCov = ms.stream().filter(m -> m.status().equals("NO_COVERAGE")).count();
        b.append("| ").append(run).append(" | ").append(pkg).append(" | ").append(ms.size()).append(" | ").append(killed).append(" | ")
                .append(timedOut).append(" | ").append(survived).append(" | ").append(noCov).append(" | ")
                .append(String.format(Locale.ROOT, "%.1f %%", 100.0 * (killed + timedOut) / Math.max(1, ms.size()))).append(" |\n");
    }
}
