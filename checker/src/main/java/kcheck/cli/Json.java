package kcheck.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import kcheck.engine.MetricResult;
import kcheck.engine.PropertyResult;
import kcheck.engine.RunResult;
import kcheck.engine.Strategy;
import kcheck.report.TraceFactory;
import kcheck.trace.TraceIO;
import kcheck.variantfile.VariantFile;

/**
 * The {@code --json} document: {@code {"results":[{model, variant, params, property, verdict,
 * states, transitions, depth, seconds, metrics, trace, ...}]}}.
 */
final class Json {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private Json() {
    }

    /**
     * The head of every --json document: {@code {"kcheck": VERSION, "command": ..., "outcome": ...,
     * "exitCode": N}}; the command's own fields follow.
     */
    static ObjectNode document(String command, String outcome, int exitCode) {
        ObjectNode root = F.objectNode();
        root.put("kcheck", kcheck.report.BuildInfo.version());
        if (!kcheck.report.BuildInfo.revision().isEmpty()) {
            root.put("revision", kcheck.report.BuildInfo.revision());
        }
        root.put("command", command);
        root.put("outcome", outcome);
        root.put("exitCode", exitCode);
        return root;
    }

    static ObjectNode results(List<RunResult> runs, Long seed, Map<String, Path> written) {
        return results(runs, seed, written, null);
    }

    /** With a variant file (may be null): each result also names the file ({@code variantFile}) and its {@code sha256}. */
    static ObjectNode results(List<RunResult> runs, Long seed, Map<String, Path> written, VariantFile vf) {
        ObjectNode root = F.objectNode();
        ArrayNode arr = root.putArray("results");
        for (RunResult r : runs) {
            for (PropertyResult p : r.properties()) {
                arr.add(result(r, p, seed, written.get(p.id()), vf));
            }
        }
        return root;
    }

    static ObjectNode result(RunResult r, PropertyResult p, Long seed, Path traceFile) {
        return result(r, p, seed, traceFile, null);
    }

    static ObjectNode result(RunResult r, PropertyResult p, Long seed, Path traceFile, VariantFile vf) {
        RunResult.Stats s = r.stats();
        ObjectNode o = F.objectNode();
        o.put("model", r.model().name());
        o.put("variant", r.model().variant());
        if (vf != null) {
            o.put("variantFile", vf.path().toString());
            o.put("sha256", vf.sha256());
        }
        ObjectNode params = o.putObject("params");
        r.model().params().asMap().forEach(params::put);
        o.put("property", p.id());
        o.put("kind", p.kind().name().toLowerCase(java.util.Locale.ROOT));
        if (p.figure()) {
            o.putNull("verdict"); // a metric without a bound is a figure ("metrics"), not a verdict
        } else {
            o.put("verdict", p.verdict().name());
        }
        o.put("message", p.message());
        o.put("states", s.states());
        o.put("transitions", s.transitions());
        o.put("depth", s.depth());
        o.put("seconds", Math.round(s.seconds() * 1000) / 1000.0);
        Double analysis = s.analysisSeconds().get(p.id());
        if (analysis != null) {
            /* this property's cycle analysis, part of seconds, and the search's own */
            o.put("analysisSeconds", Math.round(analysis * 1000) / 1000.0);
            o.put("searchSeconds", Math.round(s.searchSeconds() * 1000) / 1000.0);
        }
        o.put("statesPerSecond", Math.round(s.statesPerSecond()));
        o.put("bytesPerState", Math.round(s.bytesPerState() * 10) / 10.0);
        o.put("strategy", s.strategy().name().toLowerCase(java.util.Locale.ROOT));
        o.put("store", s.store().name().toLowerCase(java.util.Locale.ROOT));
        o.put("workers", s.workers());
        o.put("complete", s.complete());
        if (!s.limit().isEmpty()) {
            o.put("limit", s.limit());
        }
        ArrayNode red = o.putArray("reductions");
        s.reductions().forEach(red::add);
        if (s.strategy() == Strategy.RANDOM) {
            o.put("seed", s.seed());
        }
        if (s.diskBytes() > 0) {
            o.put("diskBytes", s.diskBytes());
        }
        if (s.omission() > 0) {
            o.put("omissionProbability", s.omission());
        }
        MetricResult m = p.metric();
        if (m != null) {
            ObjectNode mo = o.putObject("metrics");
            for (int c = 0; c < m.max().length; c++) {
                if (m.max()[c] != Long.MIN_VALUE) {
                    mo.put(m.components().get(c), m.max()[c]);
                }
            }
            if (m.bound() != Long.MAX_VALUE) {
                o.put("bound", m.bound());
            }
        } else {
            o.putNull("metrics");
        }
        if (p.trace() != null) {
            o.set("trace", TraceIO.mapper().valueToTree(TraceFactory.withVariantFile(TraceFactory.of(r.model(), p, null, seed, false,
                    p.verdict().name()), vf == null ? null : vf.label())));
        } else {
            o.putNull("trace");
        }
        if (traceFile != null) {
            o.put("traceFile", traceFile.toString());
        }
        return o;
    }
}
