package kcheck.cli;

import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

import kcheck.model.Model;
import kcheck.model.ModelFactory;
import kcheck.report.Replay;
import kcheck.trace.Trace;
import kcheck.variantfile.VariantFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code kcheck replay TRACE.json [--variant V | --variant-file F.java]}: re-executes a trace.
 * Exit 1 if the recorded violation reproduces, 0 if the trace is refused (with the first step
 * that is not possible), 2 for a malformed or incompatible trace or an unusable variant file.
 */
@Command(name = "replay", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Re-execute a trace step by step (matched by actor and label) on its own variant or another one. On "
            + "its own variant a counterexample must reproduce; on the fix it must be refused (a step that is not possible "
            + "there, or a run that no longer violates): that pair is the regression proof of a patch."},
        footer = {"", "Exit codes: 1 the recorded violation reproduces; 0 the variant refuses the trace; 2 a malformed or "
            + "incompatible trace, or an unusable variant file.", "", "Examples:",
            "  kcheck replay t.json --variant after",
            "  kcheck replay corpus:rq-lock-before-fifo-entry --variant after",
            "  kcheck replay t.json --variant-file /tmp/patch/Mine.java"})
final class ReplayCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "TRACE.json", description = "a trace file, or corpus:NAME for a trace of kcheck's "
            + "built-in regression corpus (e.g. corpus:rq-lock-before-fifo-entry)")
    String trace;

    @Option(names = "--variant", paramLabel = "V", description = "variant to replay on (default: the trace's own)")
    String variant;

    @Option(names = "--variant-file", paramLabel = "FILE.java", description = "replay on your own variant (a Java source file, "
            + "see 'kcheck variant new')")
    Path variantFile;

    @Override
    public Integer call() {
        Trace t = TraceFiles.read(trace);
        ModelFactory f = Replay.factory(t);
        VariantFile vf = VariantFiles.load(variantFile, variant, f);
        Replay.Outcome o;
        if (vf != null) {
            Set<String> props = new LinkedHashSet<>(List.of(t.property()));
            f.checkProperties(props);
            Model m = vf.create(f.params(t.params() == null ? Map.of() : t.params()), props);
            o = vf.guard(() -> Replay.runOn(t, m));
        } else {
            o = Replay.run(t, variant);
        }
        System.out.println("replay of " + trace + " (" + t.model() + "/" + t.variant() + ", " + t.property() + ", "
                + t.steps().size() + " steps) on variant " + o.variant() + ":");
        if (vf != null) {
            System.out.println("  variant file: " + vf.path() + " (sha256 " + vf.sha256() + ")");
        }
        System.out.println("  " + (o.reproduced() ? "REPRODUCED: " : "REFUSED: ") + o.detail());
        boolean builtInTrace = t.variantFile() == null && f.variants().stream().anyMatch(v -> v.name().equals(t.variant()));
        if (builtInTrace && ((variant != null && !variant.equals(t.variant())) || vf != null)) {
            Replay.Outcome own = Replay.run(t, null);
            System.out.println(Replay.proof(t, own, o));
        }
        return o.reproduced() ? ExitCodes.VIOLATED : ExitCodes.OK;
    }
}
