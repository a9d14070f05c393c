package kcheck.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Sample test classes run through JUnit's launcher with extensions auto-detected, as in every
 * module's build: the extension comes from META-INF/services, and {@code kcheck.ci} plays
 * {@code KCHECK_CI=1}. A skip in a test method, a dynamic test, {@code @BeforeAll} or
 * {@code @AfterEach} is a skip with one printed line locally and a failure naming what is missing
 * in CI; passing and failing tests are left as they are.
 */
class NoSilentSkipTest {

    static class Samples {
        @Test
        void needsAWidget() {
            Assumptions.assumeTrue(false, "no widget at /usr/bin/widget");
        }

        @Test
        void passes() {
        }

        @Test
        void fails() {
            throw new AssertionError("a real failure");
        }

        @TestFactory
        Stream<DynamicTest> dynamic() {
            return Stream.of(dynamicTest("needs a kernel tree", () -> Assumptions.abort("KCHECK_KERNEL_TREES lists no kernel tree")));
        }
    }

    static class SkipsInBeforeAll {
        @BeforeAll
        static void needsGcc() {
            Assumptions.assumeTrue(false, "no gcc on the PATH");
        }

        @Test
        void compiles() {
        }
    }

    static class SkipsInAfterEach {
        @AfterEach
        void needsChromium() {
            Assumptions.assumeTrue(false, "no Chromium");
        }

        @Test
        void renders() {
        }
    }

    /** What each test and container ended as ("STATUS: message"), by display name, and what was printed. */
    record Outcome(Map<String, String> results, String printed) {
    }

    static Outcome run(boolean ci) {
        Map<String, String> results = new LinkedHashMap<>();
        TestExecutionListener listener = new TestExecutionListener() {
            @Override
            public void executionFinished(TestIdentifier id, TestExecutionResult r) {
                results.put(id.getDisplayName(), r.getStatus() + r.getThrowable().map(t -> ": " + t.getMessage()).orElse(""));
            }
        };
        PrintStream out = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request()
                    .selectors(selectClass(Samples.class), selectClass(SkipsInBeforeAll.class), selectClass(SkipsInAfterEach.class))
                    .configurationParameter("junit.jupiter.extensions.autodetection.enabled", "true")
                    .configurationParameter(NoSilentSkip.PARAMETER, Boolean.toString(ci)).build(), listener);
        } finally {
            System.setOut(out);
        }
        return new Outcome(results, printed.toString(StandardCharsets.UTF_8));
    }

    @Test
    void inCiASkipIsAFailureNamingWhatIsMissingWhereverTheAssumptionIs() {
        Map<String, String> r = run(true).results();
        assertThat(r).containsEntry("needsAWidget()", "FAILED: KCHECK_CI=1: no widget at /usr/bin/widget")
                .containsEntry("needs a kernel tree", "FAILED: KCHECK_CI=1: KCHECK_KERNEL_TREES lists no kernel tree")
                .containsEntry("NoSilentSkipTest$SkipsInBeforeAll", "FAILED: KCHECK_CI=1: no gcc on the PATH")
                .containsEntry("renders()", "FAILED: KCHECK_CI=1: no Chromium")
                .containsEntry("passes()", "SUCCESSFUL")
                .containsEntry("fails()", "FAILED: a real failure");
    }

    @Test
    void locallyASkipIsASkipWithOneLineSayingWhy() {
        Outcome o = run(false);
        assertThat(o.results()).containsEntry("needsAWidget()", "ABORTED: Assumption failed: no widget at /usr/bin/widget")
                .containsEntry("needs a kernel tree", "ABORTED: KCHECK_KERNEL_TREES lists no kernel tree")
                .containsEntry("NoSilentSkipTest$SkipsInBeforeAll", "ABORTED: Assumption failed: no gcc on the PATH")
                .containsEntry("passes()", "SUCCESSFUL")
                .containsEntry("fails()", "FAILED: a real failure");
        assertThat(o.printed().lines()).containsExactlyInAnyOrder(
                "[kcheck] skipped Samples needsAWidget(): no widget at /usr/bin/widget",
                "[kcheck] skipped Samples needs a kernel tree: KCHECK_KERNEL_TREES lists no kernel tree",
                "[kcheck] skipped SkipsInBeforeAll: no gcc on the PATH",
                "[kcheck] skipped SkipsInAfterEach renders(): no Chromium");
    }
}
