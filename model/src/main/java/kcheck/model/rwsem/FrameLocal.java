package kcheck.model.rwsem;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a field of a {@link RwsemVariant} that holds a local variable of a kernel function
 * (named as in the kernel, e.g. {@code rwsem_optimistic_spin}) whose value lives across an
 * atomic step. The recorder treats the field as part of the program position while that
 * function is on the call stack, and ignores it otherwise (a dead local).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
public @interface FrameLocal {
    /** The kernel function(s) the local belongs to. */
    String[] value();
}
