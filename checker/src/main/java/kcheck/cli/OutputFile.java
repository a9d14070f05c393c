package kcheck.cli;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A file an option writes ({@code render -o}, {@code verify --junit-xml/--markdown/--html},
 * {@code check --metrics-csv}, {@code simulate --csv/--svg}), checked before any work is done:
 * its directory exists and is writable, the name is not a directory (an output option names a
 * file; {@code --force} overwrites a file, never a directory), and an existing file is overwritten
 * only with {@code --force}.
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
}
