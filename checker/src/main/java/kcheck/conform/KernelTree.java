package kcheck.conform;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An unpacked kernel source tree and its version, read from the top-level Makefile
 * ({@code VERSION}, {@code PATCHLEVEL}, {@code SUBLEVEL}), or given. Also locates the trees listed
 * in {@code KCHECK_KERNEL_TREES} (colon-separated directories; CI sets it to the unpacked Debian
 * linux-source packages). Used by every conformance check that compiles a kernel file.
 *
 * @param dir      the tree's top directory
 * @param major    VERSION
 * @param minor    PATCHLEVEL
 * @param sublevel SUBLEVEL (-1 if unknown, e.g. a version given as "6.12")
 */
public record KernelTree(Path dir, int major, int minor, int sublevel) {

    /** The environment variable listing kernel trees. */
    public static final String ENV = "KCHECK_KERNEL_TREES";

    private static final Pattern VERSION = Pattern.compile("^v?(\\d+)\\.(\\d+)(?:\\.(\\d+))?$");

    /** A tree that cannot be used: unreadable, no Makefile, no version in it, a malformed version. */
    public static final class TreeException extends Exception {
        private static final long serialVersionUID = 1L;

        public TreeException(String message) {
            super(message);
        }
    }

    /** "6.12" (major.minor). */
    public String series() {
        return major + "." + minor;
    }

    /** "6.12.117", or "6.12" without a sublevel. */
    public String version() {
        return sublevel >= 0 ? series() + "." + sublevel : series();
    }

    /** {@code dir/relative}. */
    public Path file(String relative) {
        return dir.resolve(relative);
    }

    /**
     * The tree at {@code dir} with the version from its Makefile, or from {@code given}
     * ("6.12", "v6.12.117") when not null.
     */
    public static KernelTree open(Path dir, String given) throws TreeException {
        if (!Files.isDirectory(dir)) {
            throw new TreeException("kernel tree " + dir + " is not a readable directory");
        }
        if (given != null) {
            Matcher m = VERSION.matcher(given.trim());
            if (!m.matches()) {
                throw new TreeException("kernel version '" + given + "' is not of the form 6.12 or 6.12.117");
            }
            return new KernelTree(dir, Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                    m.group(3) == null ? -1 : Integer.parseInt(m.group(3)));
        }
        Path makefile = dir.resolve("Makefile");
        List<String> lines;
        try {
            lines = Files.readAllLines(makefile, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new TreeException("kernel tree " + dir + " has no readable Makefile (give the version with --kernel-version)");
        }
        Integer v = field(lines, "VERSION");
        Integer p = field(lines, "PATCHLEVEL");
        Integer s = field(lines, "SUBLEVEL");
        if (v == null || p == null) {
            throw new TreeException(makefile + " has no VERSION/PATCHLEVEL lines (give the version with --kernel-version)");
        }
        return new KernelTree(dir, v, p, s == null ? -1 : s);
    }

    private static Integer field(List<String> lines, String name) {
        Pattern p = Pattern.compile("^" + name + "\\s*=\\s*(\\d+)\\s*$");
        for (String l : lines) {
            Matcher m = p.matcher(l);
            if (m.matches()) {
                return Integer.parseInt(m.group(1));
            }
        }
        return null;
    }

    /**
     * The trees listed in {@code value} (the content of {@link #ENV}: directories separated by
     * ':'; empty entries ignored). A listed directory that is not a readable tree is reported in
     * {@code problems} and skipped.
     */
    public static List<KernelTree> parseList(String value, List<String> problems) {
        List<KernelTree> out = new ArrayList<>();
        if (value == null) {
            return out;
        }
        for (String part : value.split(":")) {
            if (part.isBlank()) {
                continue;
            }
            try {
                out.add(open(Path.of(part.trim()), null));
            } catch (TreeException e) {
                problems.add(e.getMessage());
            }
        }
        return out;
    }

    /** The trees of {@link #ENV} in this process's environment. */
    public static List<KernelTree> fromEnvironment(List<String> problems) {
        return parseList(System.getenv(ENV), problems);
    }
}
