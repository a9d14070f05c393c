package kcheck.report;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The version and git revision this kcheck was built from (written at build time by kcheck.cli.build.Docs). */
public final class BuildInfo {
    private static final Properties P = load();

    private BuildInfo() {
    }

    private static Properties load() {
        Properties p = new Properties();
        try (InputStream in = BuildInfo.class.getResourceAsStream("/kcheck/build.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            // an unreadable resource leaves the version unknown
        }
        return p;
    }

    /** The Maven version, e.g. {@code 0.1.0-SNAPSHOT}; "unknown" outside a Maven build. */
    public static String version() {
        return P.getProperty("version", "unknown");
    }

    /** The git revision ({@code 1a2b3c4d5e6f}, "+dirty" if built with uncommitted changes), or "" if unknown. */
    public static String revision() {
        return P.getProperty("revision", "");
    }

    /** {@code kcheck 0.1.0-SNAPSHOT (git 1a2b3c4d5e6f)}. */
    public static String label() {
        return "kcheck " + version() + (revision().isEmpty() ? "" : " (git " + revision() + ")");
    }
}
