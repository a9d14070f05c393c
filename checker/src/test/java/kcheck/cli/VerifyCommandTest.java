package kcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

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

    private static int entries() throws Exception {
        return new ObjectMapper().readTree(BASELINE.toFile()).get("entries").size();
    }

    @Test
    void quickVerifyMatchesTheBuiltInBaselineAndWritesValidJUnitXmlMarkdownAndHtml(@TempDir Path dir) throws Exception {
        Path xml = dir.resolve("kcheck.xml");
        Path md = dir.resolve("kcheck.md");
        Path html = dir.resolve("kcheck.html");
        Path traces = dir.resolve("new/traces");
        Cli c = Cli.run("verify", "--quick", "--junit-xml", xml.toString(),
                "--markdown", md.toString(), "--html", html.toString(), "--trace-dir", traces.toString(), "--quiet");
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
        assertThat(cases.getLength()).isEqualTo(entries());
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
        assertThat(Cli.run("verify", "--baseline", bad.toString()).err).contains("malformed JSON");
    }
}
