package kcheck.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;

import kcheck.report.Replay;
import kcheck.trace.Trace;
import kcheck.trace.TraceIO;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code kcheck replay TRACE.json [--variant V]}: re-executes a trace. Exit 1 if the recorded
 * violation reproduces, 0 if the trace is refused (with the first step that is not possible),
 * 2 for a malformed or incompatible trace.
 */
@Command(name = "replay", description = "Re-execute a trace on its variant or another one (the regression proof).")
final class ReplayCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "TRACE.json")
    Path trace;

    @Option(names = "--variant", paramLabel = "V", description = "variant to replay on (default: the trace's own)")
    String variant;

    @Override
    public Integer call() {
        Trace t = TraceIO.read(trace);
        Replay.Outcome o = Replay.run(t, variant);
        System.out.println("replay of " + trace + " (" + t.model() + "/" + t.variant() + ", " + t.property() + ", "
                + t.steps().size() + " steps) on variant " + o.variant() + ":");
        System.out.println("  " + (o.reproduced() ? "REPRODUCED: " : "REFUSED: ") + o.detail());
        if (variant != null && !variant.equals(t.variant())) {
            Replay.Outcome own = Replay.run(t, null);
            System.out.println(Replay.proof(t, own, o));
        }
        return o.reproduced() ? ExitCodes.VIOLATED : ExitCodes.OK;
    }
}
