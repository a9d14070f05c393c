package kcheck.engine;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * Temporary directories of one search (the disk search's files without {@code --disk-dir}, a
 * partition's trace links), which may hold gigabytes: none is left behind.
 * <ul>
 * <li>{@link #release} deletes a directory when its search ends;</li>
 * <li>a shutdown hook deletes those still open when the JVM exits (System.exit, SIGTERM, a test
 * JVM ending without closing its searches);</li>
 * <li>a JVM killed with SIGKILL runs no hook: its directories carry its process id in their
 * name ({@code kcheck-disk-<pid>-<random>}), and the first {@link #create} with the same prefix
 * in a later JVM deletes those whose process is gone.</li>
 * </ul>
 * A directory the user named ({@code --disk-dir}, {@code --checkpoint}) is never made here and
 * never deleted here.
 */
public final class ScratchDirs {
    private static final Set<Path> OPEN = ConcurrentHashMap.newKeySet();
    /** Prefixes already swept by this JVM: a gone process's directories do not come back. */
    private static final Set<String> SWEPT = ConcurrentHashMap.newKeySet();
    private static final long PID = ProcessHandle.current().pid();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> OPEN.forEach(ScratchDirs::deleteTree), "kcheck-scratch-cleanup"));
    }

    private ScratchDirs() {
    }

    /** A new directory {@code <tmp>/<prefix><pid>-<random>}, deleted by {@link #release} or at exit. */
    public static Path create(String prefix) throws IOException {
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        if (SWEPT.add(tmp + "/" + prefix)) {
            sweep(tmp, prefix);
        }
        Path dir = Files.createTempDirectory(tmp, prefix + PID + "-");
        OPEN.add(dir);
        return dir;
    }

    /** Deletes {@code dir} (made by {@link #create}) and everything in it. */
    public static void release(Path dir) {
        deleteTree(dir);
        OPEN.remove(dir);
    }

    /** Deletes the directories {@code <prefix><pid>-*} in {@code tmp} whose process no longer runs. */
    static void sweep(Path tmp, String prefix) {
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(tmp, prefix + "*")) {
            for (Path p : ds) {
                String rest = p.getFileName().toString().substring(prefix.length());
                int dash = rest.indexOf('-');
                if (dash <= 0) {
                    continue; /* not one of ours (no pid in the name) */
                }
                long pid;
                try {
                    pid = Long.parseLong(rest.substring(0, dash));
                } catch (NumberFormatException e) {
                    continue;
                }
                if (pid != PID && ProcessHandle.of(pid).isEmpty() && Files.isDirectory(p)) {
                    deleteTree(p);
                }
            }
        } catch (IOException | RuntimeException e) {
            // sweeping is a courtesy: a directory we cannot list or delete stays
        }
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // left behind
                }
            });
        } catch (IOException | RuntimeException e) {
            // left behind
        }
    }
}
