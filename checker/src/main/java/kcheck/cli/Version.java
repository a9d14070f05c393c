package kcheck.cli;

/** kcheck's version, as {@code --version} and every {@code --json} document show it. */
public final class Version {
    /** Keep equal to the project version in pom.xml (VersionTest checks it). */
    public static final String NUMBER = "0.1.0";

    private Version() {
    }
}
