package kcheck.cli;

/** The cluster named by {@code --cluster} did not come up (no workers, wrong seeds): a usage error, exit 2. */
public final class ClusterUnavailableException extends UsageException {
    public ClusterUnavailableException(String message) {
        super(message);
    }
}
