package kcheck.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import kcheck.trace.Trace;
import kcheck.trace.TraceFormatException;
import kcheck.trace.TraceIO;

/**
 * Reads the TRACE argument of {@code render} and {@code replay}: a file, or
 * {@code corpus:NAME}, a trace of the regression corpus built into kcheck (e.g.
 * {@code corpus:rq-lock-before-fifo-entry}), usable from any directory.
 */
final class TraceFiles {
    static final String CORPUS = "corpus:";

    private TraceFiles() {
    }

    static Trace read(String arg) {
        if (!arg.startsWith(CORPUS)) {
            Path p;
            try {
                p = Path.of(arg);
            } catch (java.nio.file.InvalidPathException e) {
                throw new TraceFormatException(arg.replace('\0', '?') + ": not a file name (" + e.getReason() + ")");
            }
            return TraceIO.read(p);
        }
        String name = arg.substring(CORPUS.length()).replaceAll("\\.json$", "");
        if (!name.matches("[a-z0-9.+-]+")) {
            throw new TraceFormatException(arg + ": not a corpus trace name (MODEL-VARIANT-PROPERTY, e.g. corpus:rq-lock-before-fifo-entry)");
        }
        try (InputStream in = TraceFiles.class.getResourceAsStream("/kcheck/corpus/" + name + ".json")) {
            if (in == null) {
                throw new TraceFormatException(arg + ": no such trace in kcheck's corpus (the files of traces/corpus/ in the "
                        + "repository, e.g. corpus:rq-lock-before-fifo-entry)");
            }
            return TraceIO.parse(arg, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new TraceFormatException(arg + ": cannot read (" + e.getMessage() + ")");
        }
    }
}
