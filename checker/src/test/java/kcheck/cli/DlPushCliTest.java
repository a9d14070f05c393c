package kcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** dl-push on the command line: its default variant (it has no "after") and a bug's trace. */
class DlPushCliTest {

    @Test
    void checkWithoutVariantRunsTheFixedPortOfAModelWithoutAfter() {
        Cli c = Cli.run("check", "dl-push", "--quiet");
        assertThat(c.out).contains("variant v6.12-fixed").doesNotContain("VIOLATED");
        assertThat(c.exit).isZero();
        assertThat(CheckCommand.defaultVariant("rq-lock")).isEqualTo("after");
    }

    @Test
    void theFeffe5bb274dTraceShowsMigrateDisableInTheWindowAndSetTaskCpusWarn() {
        Cli c = Cli.run("check", "dl-push", "--variant", "bug-feffe5bb274d", "--property",
                "warn-set-task-cpu-migration-disabled", "--quiet");
        assertThat(c.exit).isNotZero();
        assertThat(c.out).contains("double_lock_balance = 1", "t0: migrate_disable()", "kernel/sched/core.c:3302");
    }
}
