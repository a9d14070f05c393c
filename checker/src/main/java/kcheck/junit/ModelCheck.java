package kcheck.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Makes a model check a JUnit 5 test. The method receives the {@link kcheck.engine.RunResult}
 * (and, if it asks, the {@link kcheck.model.Model}):
 *
 * <pre>
 * &#64;ModelCheck(model = "rq-lock", variant = "after", cpus = 3, properties = "fifo-entry")
 * void fairPatchIsFifo(RunResult result) {
 *     assertThat(result).holds();
 * }
 *
 * &#64;ModelCheck(model = "rq-lock", variantFile = "src/test/variants/MyFix.java", cpus = 3)
 * void myPatchKeepsEveryProperty(RunResult result) {
 *     assertThat(result).holds();
 * }
 * </pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@Test
@ExtendWith(ModelCheckExtension.class)
public @interface ModelCheck {
    /** Model name, e.g. {@code cpudl}. */
    String model();

    /** Variant name (default {@code after}); ignored with {@link #variantFile()}. */
    String variant() default "after";

    /**
     * Your own variant: a Java source file implementing the model's variant contract (start one
     * with {@code kcheck variant new MODEL NAME}), compiled in memory and checked exactly like a
     * built-in variant. A relative path is resolved against the working directory (under Maven
     * Surefire: the module's directory), e.g. {@code "src/test/variants/MyFix.java"}. Empty: none.
     */
    String variantFile() default "";

    /** Number of CPUs ({@code --cpus}); 0 keeps the model's default. */
    int cpus() default 0;

    /** Further parameters as {@code KEY=VALUE}. */
    String[] params() default {};

    /** Properties to check; empty means all. */
    String[] properties() default {};

    /** State limit (INCOMPLETE beyond it); 0 for none. */
    long maxStates() default 0;

    /** Time limit such as {@code 30s}; empty for none. */
    String timeLimit() default "";

    /** BFS workers; 0 for the available cores. */
    int workers() default 0;
}
