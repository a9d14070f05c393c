package kcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

class VerifyCommandTest {
    static final Path BASELINE = Path.of("..", "kcheck-baseline.json");

    /** A baseline of one rq-lock entry at 2 CPUs, written into {@code dir}. */
    static Path oneEntryBaseline(Path dir, String variant, String property, String expected) throws java.io.IOException {
        Path b = dir.resolve("b.json");
        Files.writeString(b, "{\"format\":1,\"entries\":[{\"model\":\"rq-lock\",\"variant\":\"" + variant + "\","
                + "\"params\":{\"cpus\":\"2\"},\"property\":\"" + property + "\",\"expected\":\"" + expected + "\"}]}");
        return b;
    }

    private static int entries() throws Exception {
        return new ObjectMapper().readTree(BASELINE.toFile()).get("entries").size();
    }

    /**
     * -Dkcheck.long=true (.ci/run's long tests): the whole quick catalogue. The default build runs its
     * third shard (the cheapest: about 5 s of the 15, with rq-lock's overtake chart and both series):
     * every entry's verdict at full bounds is gated by CI's first step, {@code ./kcheck verify}.
     */
    static final boolean LONG = Boolean.getBoolean("kcheck.long");

    @Test
    void quickVerifyMatchesTheBuiltInBaselineAndWritesValidJUnitXmlMarkdownAndHtml(@TempDir Path dir) throws Exception {
        Path xml = dir.resolve("kcheck.xml");
        Path md = dir.resolve("kcheck.md");
        Path html = dir.resolve("kcheck.html");
        Path traces = dir.resolve("new/traces");
        List<String> args = new java.util.ArrayList<>(List.of("verify", "--quick", "--junit-xml", xml.toString(),
                "--markdown", md.toString(), "--html", html.toString(), "--trace-dir", traces.toString(), "--quiet"));
        if (!LONG) {
            args.addAll(List.of("--shard", "3/3"));
        }
        Cli c = Cli.run(args.toArray(String[]::new));
        assertThat(c.exit).as(c.out + c.err).isZero();
        assertThat(c.out).contains("entries from kcheck-baseline.json (built in)").contains("QUICK bounds")
                .contains("verdicts match the baseline");
        assertThat(traces).as("--trace-dir is created").isDirectory();
        try (var files = Files.list(traces)) {
            assertThat(files.count()).as("one trace per violation").isPositive();
        }
        String page = Files.readString(html);
        assertThat(page).startsWith("<!DOCTYPE html>").contains("<svg").contains("rq-lock \u00b7 overtake")
                .contains("data-series=\"before\"").contains("data-series=\"after\"").doesNotContain("src=\"http");
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(xml.toFile());
        Element suites = doc.getDocumentElement();
        assertThat(suites.getTagName()).isEqualTo("testsuites");
        NodeList cases = doc.getElementsByTagName("testcase");
        if (LONG) {
            assertThat(cases.getLength()).isEqualTo(entries());
        } else {
            assertThat(cases.getLength()).as("one shard: some entries, not all").isPositive().isLessThan(entries());
        }
        assertThat(doc.getElementsByTagName("failure").getLength()).isZero();
        assertThat(((Element) cases.item(0)).getAttribute("classname")).startsWith("kcheck.");
        assertThat(Files.readString(md)).contains("| model | property | variant |").contains("match the baseline");
    }

    @Test
    void theBuiltInBaselineIsTheRepositorysFile() {
        assertThat(kcheck.gate.Baseline.builtIn().entries()).isEqualTo(kcheck.gate.Baseline.read(BASELINE).entries());
    }

    @Test
    void aChangedExpectationFailsTheGateAndNamesTheEntry(@TempDir Path dir) throws Exception {
        ObjectMapper om = new ObjectMapper();
        ObjectNode root = (ObjectNode) om.readTree(BASELINE.toFile());
        ArrayNode entries = (ArrayNode) root.get("entries");
        // the gate's behaviour is the point, not every model: keep rq-lock's entries (the whole
        // quick catalogue runs in quickVerifyMatchesTheBuiltInBaseline...)
        for (int i = entries.size() - 1; i >= 0; i--) {
            if (!entries.get(i).get("model").asText().equals("rq-lock")) {
                entries.remove(i);
            }
        }
        ObjectNode fifo = null;
        for (var e : entries) {
            if (e.get("variant").asText().equals("before") && e.get("property").asText().equals("fifo-entry")) {
                fifo = (ObjectNode) e;
            }
        }
        fifo.put("expected", "HOLDS");
        Path copy = dir.resolve("baseline.json");
        om.writeValue(copy.toFile(), root);
        Path xml = dir.resolve("k.xml");
        Cli c = Cli.run("verify", "--baseline", copy.toString(), "--quick", "--junit-xml", xml.toString(), "--trace-dir",
                dir.resolve("t").toString(), "--quiet");
        assertThat(c.exit).isEqualTo(1);
        assertThat(c.out).contains("1 verdict(s) differ").contains("rq-lock/before/fifo-entry").contains("expected HOLDS, got VIOLATED");
        String report = Files.readString(xml);
        assertThat(report).contains("<failure message=\"rq-lock/before/fifo-entry").contains("VIOLATION of fifo-entry");
    }

    @Test
    void aBaselineWithAnUnknownModelOrMissingFileIsAnInputError(@TempDir Path dir) throws Exception {
        Path bad = dir.resolve("b.json");
        Files.writeString(bad, "{\"format\":1,\"entries\":[{\"model\":\"spin-queue\",\"variant\":\"after\",\"property\":\"x\","
                + "\"expected\":\"HOLDS\"}]}");
        Cli c = Cli.run("verify", "--baseline", bad.toString());
        assertThat(c.exit).isEqualTo(2);
        assertThat(c.err).contains("unknown model 'spin-queue'").doesNotContain("Exception");
        Cli missing = Cli.run("verify", "--baseline", dir.resolve("none.json").toString());
        assertThat(missing.exit).isEqualTo(2);
        assertThat(missing.err).contains("not found");
        Files.writeString(bad, "{\"format\":1,\"entries\":[");
        assertThat(Cli.run("verify", "--baseline", bad.toString()).err).contains("truncated JSON at line 1");
    }

    @Test
    void threeShardReportsMergeIntoOneReportOfEveryEntry(@TempDir Path dir) throws Exception {
        ObjectMapper om = new ObjectMapper();
        ObjectNode root = (ObjectNode) om.readTree(BASELINE.toFile());
        ArrayNode entries = (ArrayNode) root.get("entries");
        ArrayNode small = om.createArrayNode();
        for (var e : entries) {
            if (e.get("model").asText().equals("lb-redo") || e.get("model").asText().equals("cpudl")) {
                small.add(e);
            }
        }
        root.set("entries", small);
        Path copy = dir.resolve("baseline.json");
        om.writeValue(copy.toFile(), root);
        java.util.List<String> merge = new java.util.ArrayList<>(java.util.List.of("verify", "--baseline", copy.toString()));
        int total = 0;
        for (int i = 1; i <= 3; i++) {
            Path xml = dir.resolve("k" + i + ".xml");
            Cli c = Cli.run("verify", "--baseline", copy.toString(), "--quick", "--shard", i + "/3", "--junit-xml", xml.toString(),
                    "--trace-dir", dir.resolve("t").toString(), "--quiet");
            assertThat(c.exit).as(c.out + c.err).isZero();
            assertThat(c.out).contains("shard " + i + "/3");
            total += DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(xml.toFile())
                    .getElementsByTagName("testcase").getLength();
            merge.add("--merge-junit-xml");
            merge.add(xml.toString());
        }
        assertThat(total).isEqualTo(small.size());
        Path out = dir.resolve("merged.xml");
        merge.add("--junit-xml");
        merge.add(out.toString());
        Cli m = Cli.run(merge.toArray(String[]::new));
        assertThat(m.exit).as(m.out + m.err).isZero();
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(out.toFile());
        NodeList cases = doc.getElementsByTagName("testcase");
        assertThat(cases.getLength()).isEqualTo(small.size());
        java.util.Set<String> names = new java.util.HashSet<>();
        for (int k = 0; k < cases.getLength(); k++) {
            Element e = (Element) cases.item(k);
            names.add(e.getAttribute("classname") + " " + e.getAttribute("name"));
        }
        assertThat(names).hasSize(small.size());
        assertThat(doc.getDocumentElement().getAttribute("tests")).isEqualTo(Integer.toString(small.size()));
    }

    @Test
    void aBadShardIsAUsageError() {
        for (String bad : new String[] {"0/3", "4/3", "x", "1/0"}) {
            Cli c = Cli.run("verify", "--baseline", BASELINE.toString(), "--shard", bad);
            assertThat(c.exit).as(bad).isEqualTo(2);
            assertThat(c.err).contains("--shard").doesNotContain("Exception");
        }
    }
}
