package kcheck.model.rwsem;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

import kcheck.model.ModelInputException;

/**
 * The kernel locals of a port ({@link RwsemVariant}): its instance fields, each a plain {@code long}, {@code int} or
 * {@code boolean} (a {@link FrameLocal} or a dead-after-use scratch value), cleared before every run of its code from
 * the start. Used wherever the code is re-run from a script of outcomes: {@link ProgramRecorder}, and the
 * memory-model=lkmm runs.
 */
public final class KernelLocals {
    private final RwsemVariant impl;
    private final List<Field> fields = new ArrayList<>();

    /** The fields of {@code impl}'s class and superclasses; {@code what} names the code in the errors. */
    public KernelLocals(RwsemVariant impl, String what) {
        this.impl = impl;
        for (Class<?> c = impl.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) || f.isSynthetic()) {
                    continue;                                       /* e.g. an inner class's reference to its outer instance */
                }
                if (Modifier.isFinal(f.getModifiers())) {
                    throw new ModelInputException(what + ": field " + f.getName() + " is final; kernel locals must be plain fields");
                }
                Class<?> t = f.getType();
                if (t != long.class && t != int.class && t != boolean.class) {
                    throw new ModelInputException(what + ": field " + f.getName() + " must be long, int or boolean (a kernel local)");
                }
                f.setAccessible(true);
                fields.add(f);
            }
        }
    }

    /** The fields, in declaration order, the subclass's first. */
    List<Field> fields() {
        return fields;
    }

    /** Every field back to 0 / false: the code starts over. */
    public void reset() {
        try {
            for (Field f : fields) {
                Class<?> t = f.getType();
                if (t == long.class) {
                    f.setLong(impl, 0);
                } else if (t == int.class) {
                    f.setInt(impl, 0);
                } else {
                    f.setBoolean(impl, false);
                }
            }
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }
}
