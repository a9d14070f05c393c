package kcheck.model;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a reference implementation method (or class) with the kernel function it mirrors, so
 * that the same citation shows up in code review, in {@code kcheck list} and on every step of a
 * trace.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface Kernel {
    /** Kernel function name, e.g. {@code double_lock_balance}. */
    String function();

    /** Source file in the kernel tree at that version, e.g. {@code kernel/sched.c}. */
    String file();

    /** Kernel version, e.g. {@code v2.6.27}. */
    String version();

    /** Commit that introduced this form, if one is named. */
    String commit() default "";

    /**
     * Line of the function's definition in {@link #file()} at {@link #version()}, 0 if not
     * confirmed. Set it only after reading that version's source; it is printed as
     * {@code file:line} in traces and mail reports.
     */
    int line() default 0;

    /** Renders the citation as "function (file, version)". */
    final class Cite {
        private Cite() {
        }

        public static String of(Kernel k) {
            return k.function() + " (" + k.file() + (k.line() > 0 ? ":" + k.line() : "") + ", " + k.version()
                    + (k.commit().isEmpty() ? "" : ", " + k.commit()) + ")";
        }
    }
}
