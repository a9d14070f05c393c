package kcheck.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import kcheck.trace.DotRenderer;
import kcheck.trace.HtmlRenderer;
import kcheck.trace.TimelineRenderer;
import kcheck.trace.Trace;
import kcheck.trace.TraceIO;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code kcheck render TRACE.json [--format text|html|dot] [-o FILE]}. */
@Command(name = "render", mixinStandardHelpOptions = true, description = "Render a trace: text timeline, self-contained HTML viewer, or Graphviz DOT.")
final class RenderCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "TRACE.json")
    Path trace;

    @Option(names = "--format", paramLabel = "text|html|dot", description = "output format (default text)")
    String format = "text";

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "write to FILE instead of stdout")
    Path output;

    @Option(names = "--force", description = "overwrite an existing output file")
    boolean force;

    @Override
    public Integer call() throws IOException {
        if (!format.equals("text") && !format.equals("html") && !format.equals("dot")) {
            throw new UsageException("--format must be text, html or dot, got '" + format + "'");
        }
        if (output != null) {
            Path dir = output.toAbsolutePath().getParent();
            if (dir == null || !Files.isDirectory(dir)) {
                throw new UsageException("cannot write " + output + ": directory " + dir + " does not exist");
            }
            if (Files.exists(output) && !force) {
                throw new UsageException(output + " exists: pass --force to overwrite it");
            }
        }
        Trace t = TraceIO.read(trace);
        String text = switch (format) {
            case "html" -> HtmlRenderer.render(t);
            case "dot" -> DotRenderer.render(t);
            default -> TimelineRenderer.render(t);
        };
        if (output == null) {
            System.out.print(text);
        } else {
            try {
                Files.writeString(output, text);
            } catch (IOException e) {
                throw new UsageException("cannot write " + output + ": " + e.getMessage());
            }
            System.out.println("wrote " + output);
        }
        return ExitCodes.OK;
    }
}
