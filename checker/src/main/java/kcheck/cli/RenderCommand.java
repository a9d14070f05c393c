package kcheck.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;

import kcheck.trace.TimelineRenderer;
import kcheck.trace.Trace;
import kcheck.trace.TraceIO;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code kcheck render TRACE.json}: show a trace as a timeline. */
@Command(name = "render", description = "Render a trace (text timeline).")
final class RenderCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "TRACE.json")
    Path trace;

    @Option(names = "--format", paramLabel = "text", description = "output format (default text)")
    String format = "text";

    @Override
    public Integer call() {
        Trace t = TraceIO.read(trace);
        if (!format.equals("text")) {
            throw new UsageException("--format must be text, got '" + format + "'");
        }
        System.out.print(TimelineRenderer.render(t));
        return 0;
    }
}
