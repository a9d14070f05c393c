package kcheck.cli;

import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

import kcheck.engine.Options;
import kcheck.engine.PropertyResult;
import kcheck.engine.Verdict;
import kcheck.model.Model;
import kcheck.model.ModelFactory;
import kcheck.report.Replay;
import kcheck.report.TraceFactory;
import kcheck.trace.TimelineRenderer;
import kcheck.trace.Trace;
import kcheck.variantfile.VariantFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code kcheck replay TRACE.json [--variant V | --variant-file F.java] [--prove]}: re-executes a
 * trace. On its own variant it must reproduce (exit 1); if it does not, the trace is stale or
 * edited (exit 2, naming the first step that diverges). On another variant: exit 1 if it
 * reproduces there; if it is refused, that is a fact about one run (exit 3: nothing was shown
 * exhaustively), unless {@code --prove} also checks the property on that variant exhaustively at
 * the trace's bounds: exit 0 only if it HOLDS (the regression proof), 1 if another run violates it,
 * 3 if that check is INCOMPLETE.
 */
@Command(name = "replay", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Re-execute a trace step by step (matched by actor and label) on its own variant or another one. On "
            + "its own variant a counterexample must reproduce (else the trace is stale or edited). On another variant a "
            + "refusal (a step that is not possible there, or a run that no longer violates) is a fact about that one run; "
            + "--prove also checks the property there exhaustively at the trace's bounds: that is the regression proof."},
        footer = {"", "Exit codes: 1 the recorded violation reproduces (on its own variant, or still on the other one; with "
            + "--prove also: another run violates the property there); 0 with --prove only: refused, and the property holds "
            + "exhaustively (the regression proof); 3 refused without --prove (one run proves nothing), or --prove's check "
            + "was INCOMPLETE; 2 a stale or edited trace, a malformed or incompatible trace, or an unusable variant file.", "",
            "Examples:",
            "  kcheck replay t.json",
            "  kcheck replay corpus:rq-lock-before-fifo-entry --variant after --prove",
            "  kcheck replay t.json --variant-file /tmp/patch/Mine.java --prove"})
final class ReplayCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "TRACE.json", description = "a trace file, or corpus:NAME for a trace of kcheck's "
            + "built-in regression corpus (e.g. corpus:rq-lock-before-fifo-entry)")
    String trace;

    @Option(names = "--variant", paramLabel = "V", description = "variant to replay on (default: the trace's own)")
    String variant;

    @Option(names = "--variant-file", paramLabel = "FILE.java", description = "replay on your own variant (a Java source file, "
            + "see 'kcheck variant new')")
    Path variantFile;

    @Option(names = "--prove", description = "on another variant: also check the trace's property there exhaustively at the "
            + "trace's bounds; exit 0 (regression proof) only if it holds")
    boolean prove;

    @Mixin
    GuardOptions guard = new GuardOptions();

    @Override
    public Integer call() {
        guard.apply();
        Trace t = TraceFiles.read(trace);
        ModelFactory f = Replay.factory(t);
        VariantFile vf = VariantFiles.load(variantFile, variant, f);
        Set<String> props = new LinkedHashSet<>(List.of(t.property()));
        f.checkProperties(props);
        boolean own = vf != null ? sameFile(t, vf) : Replay.isOwn(t, variant);
        if (own && prove) {
            throw new UsageException("--prove needs another variant (--variant V or --variant-file FILE): on its own variant "
                    + t.variant() + " a trace must reproduce, and replay checks that without --prove");
        }
        if (!own && Replay.ownIsBuiltIn(t)) {
            Replay.Outcome home = Replay.run(t, null);
            if (!home.reproduced()) {
                throw new kcheck.model.ModelInputException(Replay.stale(trace.toString(), t, home));
            }
        }
        Model m = vf != null ? vf.create(f.params(t.params() == null ? Map.of() : t.params()), props) : Replay.model(t, variant);
        Replay.Outcome o = vf != null ? vf.guard(() -> Replay.runOn(t, m)) : Replay.runOn(t, m);
        if (own && !o.reproduced()) {
            throw new kcheck.model.ModelInputException(Replay.stale(trace.toString(), t, o));
        }
        System.out.println("replay of " + trace + " (" + t.model() + "/" + t.variant() + ", " + t.property() + ", "
                + t.steps().size() + " steps) on variant " + o.variant() + (own ? " (its own)" : "") + ":");
        if (vf != null) {
            System.out.println("  variant file: " + vf.path() + " (sha256 " + vf.sha256() + ")");
        }
        if (!own && Replay.ownIsBuiltIn(t)) {
            System.out.println("  on its own variant " + t.variant() + ": reproduces");
        }
        System.out.println("  " + (o.reproduced() ? "REPRODUCED: " : "REFUSED: ") + o.detail());
        if (own) {
            return ExitCodes.VIOLATED;
        }
        if (o.reproduced()) {
            System.out.println("The " + t.property() + " counterexample of " + t.model() + "/" + t.variant() + " also happens on "
                    + o.variant() + ": " + o.variant() + " does not exclude it.");
            return ExitCodes.VIOLATED;
        }
        if (!prove) {
            System.out.println(Replay.refusedFact(t, o));
            System.out.println("For the regression proof: kcheck replay " + trace + (vf != null ? " --variant-file " + variantFile
                    : " --variant " + variant) + " --prove");
            System.out.println("  (or: kcheck check " + t.model() + (vf != null ? " --variant-file " + variantFile : " --variant " + variant)
                    + " --property " + t.property() + Replay.paramOptions(t) + ")");
            return ExitCodes.INCOMPLETE;
        }
        /* no progress line, but a signal stops the proof's search (INCOMPLETE) */
        Options opts = Options.defaults().withWorkers(Runtime.getRuntime().availableProcessors()).withListener(ProgressPrinter.create(true));
        Model fresh = vf != null ? vf.create(f.params(t.params() == null ? Map.of() : t.params()), props) : Replay.model(t, variant);
        Replay.Proof proof = vf != null ? vf.guard(() -> Replay.prove(t, fresh, opts)) : Replay.prove(t, fresh, opts);
        System.out.println(proof.sentence());
        PropertyResult r = proof.result();
        if (r != null && r.verdict() == Verdict.VIOLATED && r.trace() != null) {
            System.out.println();
            System.out.print(TimelineRenderer.render(TraceFactory.withVariantFile(TraceFactory.of(proof.check().model(), r, null, null,
                    false, r.verdict().name()), vf == null ? null : vf.label())));
        }
        return proof.proven() ? ExitCodes.OK : r != null && r.verdict() == Verdict.VIOLATED ? ExitCodes.VIOLATED : ExitCodes.INCOMPLETE;
    }

    /** The trace was recorded on this very file (same SHA-256): its own variant. */
    private static boolean sameFile(Trace t, VariantFile vf) {
        return t.variantFile() != null && t.variantFile().contains("(sha256 " + vf.sha256() + ")")
                && t.variant().equals(vf.variantName());
    }
}
