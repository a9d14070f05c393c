package kcheck.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A file an option writes ({@code check --trace-out/--metrics-csv}, {@code render -o},
 * {@code verify --trace-dir/--corpus/--junit-xml/--markdown/--html}, {@code simulate --csv/--svg}).
 * Checked before any work is done ({@link #check}): its directory exists and is writable, the name
 * is not a directory (an output option names a file; {@code --force} overwrites a file, never a
 * directory), and an existing file is overwritten only with {@code --force}. Written after the work
 * ({@link #write}) without replacing anything, not even a file that appeared after the check
 * (another kcheck writing the same name): the text goes to a temporary file beside the target,
 * which is then linked to the target's name, an atomic step that fails if the name exists. So the
 * file under that name is either this run's, complete, or is left alone and the run says so (exit 2).
 */
final class OutputFile {
    private OutputFile() {
    }

    /**
     * Refuses a file {@code option} cannot write, or one that exists without {@code force};
     * {@code example} is a file name to suggest if {@code file} is a directory.
     */
    static void check(Path file, String option, boolean force, String example) {
        if (file == null) {
            return;
        }
        checkWritable(file, option, example);
        if (Files.exists(file) && !force) {
            throw new UsageException(option + " " + file + " exists: pass --force to overwrite it");
        }
    }

    /** Refuses a file {@code option} cannot write: it is a directory, or its directory is missing or read-only. */
    static void checkWritable(Path file, String option, String example) {
        if (file == null) {
            return;
        }
        Path abs = file.toAbsolutePath();
        if (Files.isDirectory(abs)) {
            throw new UsageException("cannot write " + option + " " + file + ": it is a directory; " + option + " names the file to "
                    + "write, e.g. " + file.resolve(example));
        }
        Path dir = abs.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new UsageException("cannot write " + option + " " + file + ": directory " + dir + " does not exist");
        }
        if (!Files.isWritable(dir)) {
            throw new UsageException("cannot write " + option + " " + file + ": directory " + dir + " is not writable");
        }
    }

    /**
     * Writes {@code text} to {@code file}; {@code option} names the file in errors
     * ({@code "--trace-out"}). Without {@code force} a file of that name, however it got there, is
     * a usage error naming it.
     */
    static void write(Path file, String text, boolean force, String option) {
        try {
            if (force) {
                Files.writeString(file, text, StandardCharsets.UTF_8);
            } else {
                writeNew(file, text);
            }
        } catch (FileAlreadyExistsException e) {
            throw new UsageException(option + " " + file + " appeared during the run (another kcheck writing the same file?): "
                    + "not overwritten and not written by this run; pass --force to overwrite it");
        } catch (IOException e) {
            throw new UsageException("cannot write " + option + " " + file + ": " + e.getMessage());
        }
    }

    /** A trace as {@code kcheck render} and {@code replay} read it. */
    static void write(Path file, kcheck.trace.Trace trace, boolean force, String option) {
        write(file, kcheck.trace.TraceIO.toJson(trace) + "\n", force, option);
    }

    private static void writeNew(Path file, String text) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Path tmp = Files.createTempFile(dir, "." + file.getFileName() + ".", ".tmp");
        try {
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            try {
                Files.createLink(file, tmp);
            } catch (FileAlreadyExistsException e) {
                throw e;
            } catch (UnsupportedOperationException | FileSystemException e) {
                /* a file system without hard links: an exclusive create is still atomic, only the content arrives after it */
                Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
