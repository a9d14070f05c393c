package kcheck.model;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds the {@link Kernel} citations of the reference methods on the current call stack. Used
 * when a model turns reference code into steps: each step cites the kernel functions it runs
 * inside, innermost first. Not for hot paths (it walks the stack).
 */
public final class KernelCitations {
    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

    private KernelCitations() {
    }

    /** The {@link Kernel} annotations of the methods on the stack, innermost first. */
    public static List<Kernel> onStack() {
        return WALKER.walk(frames -> {
            List<Kernel> out = new ArrayList<>();
            frames.forEach(f -> {
                Kernel k = annotation(f);
                if (k != null) {
                    out.add(k);
                }
            });
            return out;
        });
    }

    /**
     * Renders a stack of citations: the innermost function with its file and version, then the
     * callers, e.g. {@code double_rq_lock (kernel/sched.c, v2.6.28) ← double_lock_balance}.
     */
    public static String render(List<Kernel> stack) {
        if (stack.isEmpty()) {
            return "";
        }
        StringBuilder b = new StringBuilder(Kernel.Cite.of(stack.get(0)));
        String last = stack.get(0).function();
        for (int i = 1; i < stack.size(); i++) {
            String f = stack.get(i).function();
            if (!f.equals(last)) {
                b.append(" \u2190 ").append(f);
                last = f;
            }
        }
        return b.toString();
    }

    private static Kernel annotation(StackWalker.StackFrame f) {
        try {
            Class<?> c = f.getDeclaringClass();
            Method m = c.getDeclaredMethod(f.getMethodName(), f.getMethodType().parameterArray());
            Kernel k = m.getAnnotation(Kernel.class);
            return k != null ? k : null;
        } catch (NoSuchMethodException | SecurityException | UnsupportedOperationException e) {
            return null;
        }
    }
}
