package kcheck.properties.gen;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The build pins the seed: Maven passes {@code kcheck.seed} (the parent pom's 20240611, CI's, unless
 * -Dkcheck.seed=S or KCHECK_SEED gives another) to every test JVM, so every suite of a run starts
 * from it and a local {@code mvn -B verify} repeats CI's random choices.
 */
class SeedsTest {

    @Test
    void everyMavenBuildPassesTheSeedAndEverySuiteStartsFromIt() {
        String pinned = System.getProperty("kcheck.seed");
        assertThat(pinned).as("kcheck.seed, set by the parent pom's Surefire configuration").isNotBlank();
        if (!pinned.equals("random")) {
            assertThat(Seeds.seed("seeds test, first suite")).isEqualTo(Long.parseLong(pinned));
            assertThat(Seeds.seed("seeds test, second suite")).isEqualTo(Long.parseLong(pinned));
        }
    }
}
