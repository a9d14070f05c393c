package kcheck.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import kcheck.trace.DotRenderer;
import kcheck.trace.HtmlRenderer;
import kcheck.trace.MailRenderer;
import kcheck.trace.TimelineRenderer;
import kcheck.trace.Trace;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code kcheck render TRACE.json [--format text|mail|html|dot] [-o FILE]}. */
@Command(name = "render", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Render a trace (written by 'check --trace-out' or 'verify --trace-dir'): a text timeline (one column "
            + "per CPU or task, wrapped to --width), a mail (72 columns, one line per step, the reproduce command), a "
            + "self-contained HTML viewer (step through it; #step=N in the URL selects a step; a lock lane chart where the "
            + "model describes its locks), or a Graphviz sequence chart (one lane per actor)."},
        footer = {"", "Examples:", "  kcheck render t.json", "  kcheck render t.json --format mail",
            "  kcheck render t.json --format html -o t.html     (open t.html#step=10)",
            "  kcheck render t.json --format dot | dot -Tsvg > t.svg",
            "  kcheck render corpus:rq-lock-before-fifo-entry --width 80"})
final class RenderCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "TRACE.json", description = "a trace file, or corpus:NAME for a trace of kcheck's "
            + "built-in regression corpus (e.g. corpus:rq-lock-before-fifo-entry)")
    String trace;

    @Option(names = "--format", paramLabel = "text|mail|html|dot", description = "output format (default text)")
    String format = "text";

    @Option(names = "--width", paramLabel = "N", description = "wrap the text timeline to N columns (default: $COLUMNS, else "
            + "the terminal's width, else 100)")
    Integer width;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "write to FILE instead of stdout (a file name: a "
            + "directory is refused)")
    Path output;

    @Option(names = "--force", description = "overwrite an existing output file (never a directory)")
    boolean force;

    @Override
    public Integer call() throws IOException {
        if (!format.equals("text") && !format.equals("mail") && !format.equals("html") && !format.equals("dot")) {
            throw new UsageException("--format must be text, mail, html or dot, got '" + format + "'");
        }
        if (width != null && width < TimelineRenderer.MIN_WIDTH) {
            throw new UsageException("--width must be at least " + TimelineRenderer.MIN_WIDTH + ", got " + width);
        }
        if (output != null) {
            OutputFile.check(output, "-o", force, exampleName());
        }
        Trace t = TraceFiles.read(trace);
        String text = switch (format) {
            case "html" -> HtmlRenderer.render(t);
            case "dot" -> DotRenderer.render(t);
            case "mail" -> MailRenderer.render(t);
            default -> TimelineRenderer.render(t, width != null ? width : Terminal.width());
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

    /** The file name to suggest when -o names a directory: the trace's name with the format's extension. */
    private String exampleName() {
        String base = trace.substring(trace.lastIndexOf(trace.startsWith(TraceFiles.CORPUS) ? ':' : '/') + 1).replace('\0', '?');
        base = base.endsWith(".json") ? base.substring(0, base.length() - 5) : base;
        base = base.isEmpty() ? "trace" : base;
        return base + switch (format) {
            case "html" -> ".html";
            case "dot" -> ".dot";
            default -> ".txt";
        };
    }
}
