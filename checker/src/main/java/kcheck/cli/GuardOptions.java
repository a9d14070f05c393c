package kcheck.cli;

import java.time.Duration;

import kcheck.engine.Durations;
import kcheck.variantfile.Watchdog;
import picocli.CommandLine.Option;

/** {@code --step-timeout}: the budget of one call into a variant file's code (check, verify, replay, bench). */
final class GuardOptions {
    @Option(names = "--step-timeout", paramLabel = "DURATION", description = "with --variant-file: how long one step of your "
            + "code (the expansion of one state) may run before it is reported as stuck, exit 2 (default 10s)")
    String stepTimeout;

    /** Sets the watchdog's budget; usage error for a bad duration. */
    void apply() {
        Duration d = Watchdog.DEFAULT_STEP_TIMEOUT;
        if (stepTimeout != null) {
            try {
                d = Durations.parse(stepTimeout);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--step-timeout: " + e.getMessage());
            }
        }
        Watchdog.stepTimeout(d);
    }
}
