package kcheck.testkit;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.util.Locale;
import java.util.Optional;

import org.junit.jupiter.api.extension.DynamicTestInvocationContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * A test that cannot run here (no Chromium, no kernel tree, no gcc...) aborts through a JUnit
 * assumption whose message says what is missing. This extension, registered for every module's
 * tests (META-INF/services, with {@code junit.jupiter.extensions.autodetection.enabled} in the
 * parent pom), turns that into:
 * <ul>
 * <li>in a local build, a skip plus one printed line: {@code [kcheck] skipped CLASS NAME: WHY};</li>
 * <li>in CI ({@code KCHECK_CI=1}, which .ci/run sets), a failure {@code KCHECK_CI=1: WHY}: CI installs
 *     everything the tests need, so a test that would skip there is a broken set-up, not a pass.</li>
 * </ul>
 * Every place a test or a lifecycle method runs is covered: test methods, test factories and the
 * dynamic tests they return, test templates, {@code @BeforeAll}/{@code @BeforeEach}/
 * {@code @AfterEach}/{@code @AfterAll} and the test class's constructor. The JUnit configuration
 * parameter (or system property) {@code kcheck.ci=true|false}, when given, overrides the
 * environment (the extension's own tests use it).
 */
public final class NoSilentSkip implements InvocationInterceptor {
    /** The environment variable that marks a CI run. */
    public static final String ENV = "KCHECK_CI";
    static final String PARAMETER = "kcheck.ci";
    private static final String ASSUMPTION = "Assumption failed: ";

    @Override
    public <T> T interceptTestClassConstructor(Invocation<T> invocation, ReflectiveInvocationContext<Constructor<T>> invocationContext,
            ExtensionContext extensionContext) throws Throwable {
        return proceed(invocation, extensionContext);
    }

    @Override
    public void interceptBeforeAllMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> invocationContext,
            ExtensionContext extensionContext) throws Throwable {
        proceed(invocation, extensionContext);
    }

    @Override
    public void interceptBeforeEachMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> invocationContext,
            ExtensionContext extensionContext) throws Throwable {
        proceed(invocation, extensionContext);
    }

    @Override
    public void interceptTestMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> invocationContext,
            ExtensionContext extensionContext) throws Throwable {
        proceed(invocation, extensionContext);
    }

    @Override
    public <T> T interceptTestFactoryMethod(Invocation<T> invocation, ReflectiveInvocationContext<Method> invocationContext,
            ExtensionContext extensionContext) throws Throwable {
        return proceed(invocation, extensionContext);
    }

    @Override
    public void interceptTestTemplateMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> invocationContext,
            ExtensionContext extensionContext) throws Throwable {
        proceed(invocation, extensionContext);
    }

    @Override
    public void interceptDynamicTest(Invocation<Void> invocation, DynamicTestInvocationContext invocationContext,
            ExtensionContext extensionContext) throws Throwable {
        proceed(invocation, extensionContext);
    }

    @Override
    public void interceptAfterEachMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> invocationContext,
            ExtensionContext extensionContext) throws Throwable {
        proceed(invocation, extensionContext);
    }

    @Override
    public void interceptAfterAllMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> invocationContext,
            ExtensionContext extensionContext) throws Throwable {
        proceed(invocation, extensionContext);
    }

    private static <T> T proceed(Invocation<T> invocation, ExtensionContext context) throws Throwable {
        try {
            return invocation.proceed();
        } catch (TestAbortedException e) {
            String why = why(e.getMessage());
            if (ci(context)) {
                throw new AssertionFailedError(ENV + "=1: " + why, e);
            }
            System.out.println("[kcheck] skipped " + where(context) + ": " + why);
            throw e;
        }
    }

    /** What is missing: the assumption's message, without JUnit's "Assumption failed: " before it. */
    private static String why(String message) {
        if (message == null || message.isBlank()) {
            return "an assumption failed without saying what is missing";
        }
        return message.startsWith(ASSUMPTION) ? message.substring(ASSUMPTION.length()) : message;
    }

    /** True in CI: the configuration parameter {@code kcheck.ci} if given, else {@code KCHECK_CI=1} (or {@code true}). */
    static boolean ci(ExtensionContext context) {
        Optional<String> given = context.getConfigurationParameter(PARAMETER);
        String value = given.orElseGet(() -> System.getenv(ENV));
        return value != null && (value.trim().equals("1") || value.trim().toLowerCase(Locale.ROOT).equals("true"));
    }

    /** The test class, and the test's display name unless the whole class is skipped. */
    private static String where(ExtensionContext context) {
        String cls = "";
        for (Optional<ExtensionContext> c = Optional.of(context); c.isPresent() && cls.isEmpty(); c = c.get().getParent()) {
            cls = c.get().getTestClass().map(Class::getSimpleName).orElse(""); /* a dynamic test's is its factory's */
        }
        boolean wholeClass = context.getElement().filter(e -> e instanceof Class).isPresent();
        return wholeClass ? cls : (cls + " " + context.getDisplayName()).trim();
    }
}
