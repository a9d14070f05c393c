package kcheck.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import kcheck.trace.TimelineRenderer;

/** What the command line knows about the terminal: whether stdout and stderr are one, and its width. */
final class Terminal {
    private Terminal() {
    }

    /** True if file descriptor {@code fd} (1 stdout, 2 stderr) is a terminal (Linux: /proc; elsewhere: System.console()). */
    static boolean isTerminal(int fd) {
        if ("dumb".equals(System.getenv("TERM"))) {
            return false;
        }
        try {
            Path target = Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd));
            String t = target.toString();
            return t.startsWith("/dev/pts/") || t.startsWith("/dev/tty") || t.equals("/dev/console");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return System.console() != null;
        }
    }

    /**
     * The width text output wraps to: {@code COLUMNS} if set, else the terminal's width when stdout
     * is a terminal, else {@link TimelineRenderer#DEFAULT_WIDTH}.
     */
    static int width() {
        String cols = System.getenv("COLUMNS");
        if (cols != null) {
            try {
                int c = Integer.parseInt(cols.trim());
                if (c > 0) {
                    return Math.max(TimelineRenderer.MIN_WIDTH, c);
                }
            } catch (NumberFormatException e) {
                // fall through
            }
        }
        if (isTerminal(1)) {
            int c = sttyColumns();
            if (c > 0) {
                return Math.max(TimelineRenderer.MIN_WIDTH, c);
            }
        }
        return TimelineRenderer.DEFAULT_WIDTH;
    }

    private static int sttyColumns() {
        try {
            Process p = new ProcessBuilder("sh", "-c", "stty size < /dev/tty").redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!p.waitFor(2, TimeUnit.SECONDS) || p.exitValue() != 0) {
                return -1;
            }
            String[] rc = out.split("\\s+");
            return rc.length == 2 ? Integer.parseInt(rc[1]) : -1;
        } catch (IOException | NumberFormatException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }
}
