package kcheck.variantfile;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompoundAssignmentTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TaskEvent;
import com.sun.source.util.TaskListener;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;

/**
 * The compile-time half of the guard around a variant file: after javac has attributed the file,
 * every method call, {@code new} and method reference is resolved to the method it names
 * ({@link Trees#getElement}), and calls a kernel function has no business making are refused
 * before anything runs: ending the JVM, starting processes or threads, reflection and class
 * loading, redirecting the standard streams, changing JVM-wide settings, file or network I/O,
 * and kcheck's own internals (anything outside {@code kcheck.model}); and writes, outside
 * construction, to fields of the file's own classes (state the model does not see, unless the
 * model declares the field as state with an annotation of its own, as rwsem-owner's
 * {@code @FrameLocal}). A refused call is one line,
 * {@code File.java:LINE: in Class.method: calls System.exit, which a variant may not do}.
 *
 * <p>It costs nothing at run time (the classes are not changed) and a few milliseconds at compile
 * time. What it cannot see (a call it does not know) is left to the run-time half: the shutdown
 * hook of the CLI and the {@link Watchdog}.
 */
final class StaticCheck {
    /** Set to {@code false} (system property {@code kcheck.guard.staticCheck}) only to test the run-time guard. */
    static final String SWITCH = "kcheck.guard.staticCheck";

    /** One refused call ({@code call}: "calls System.exit"). */
    record Finding(long line, String method, String call, String why, long start, long end) {
        String message(String shown) {
            return shown + ":" + line + ": in " + method + ": " + call + ", which a variant may not do (" + why + ")";
        }
    }

    private static final String STATE = "a step may depend on the model's state only: a field of the variant written between "
            + "calls is state the model does not see, and makes the search unsound";

    private static final String EXIT = "a variant is one kernel function: it may not end the JVM";
    private static final String PROCESS = "a variant may not start processes";
    private static final String THREADS = "a variant runs on kcheck's threads only: it may not create or control threads";
    private static final String REFLECTION = "a variant may not use reflection or load classes";
    private static final String STREAMS = "a variant may not redirect the standard streams";
    private static final String SETTINGS = "a variant may not change JVM-wide settings";
    private static final String IO = "a variant may not read or write files or use the network";
    private static final String INTERNALS = "a variant may use kcheck.model only, not kcheck's internals";

    /** Methods refused by declaring class ({@code <init>}: constructors; {@code *}: every member). */
    private static final Map<String, Map<String, String>> METHODS = Map.ofEntries(
            Map.entry("java.lang.System", Map.ofEntries(Map.entry("exit", EXIT), Map.entry("setIn", STREAMS),
                    Map.entry("setOut", STREAMS), Map.entry("setErr", STREAMS), Map.entry("setSecurityManager", SETTINGS),
                    Map.entry("setProperty", SETTINGS), Map.entry("setProperties", SETTINGS), Map.entry("clearProperty", SETTINGS),
                    Map.entry("load", REFLECTION), Map.entry("loadLibrary", REFLECTION), Map.entry("inheritedChannel", IO))),
            Map.entry("java.lang.Runtime", Map.of("exit", EXIT, "halt", EXIT, "addShutdownHook", EXIT, "removeShutdownHook", EXIT,
                    "exec", PROCESS, "load", REFLECTION, "loadLibrary", REFLECTION)),
            Map.entry("java.lang.ProcessBuilder", Map.of("*", PROCESS)),
            Map.entry("java.lang.Process", Map.of("*", PROCESS)),
            Map.entry("java.lang.ProcessHandle", Map.of("*", PROCESS)),
            Map.entry("java.lang.Thread", Map.ofEntries(Map.entry("<init>", THREADS), Map.entry("start", THREADS),
                    Map.entry("stop", THREADS), Map.entry("suspend", THREADS), Map.entry("resume", THREADS),
                    Map.entry("interrupt", THREADS), Map.entry("setDaemon", THREADS), Map.entry("setPriority", THREADS),
                    Map.entry("setName", THREADS), Map.entry("setUncaughtExceptionHandler", THREADS),
                    Map.entry("setDefaultUncaughtExceptionHandler", THREADS), Map.entry("setContextClassLoader", REFLECTION),
                    Map.entry("getContextClassLoader", REFLECTION), Map.entry("ofPlatform", THREADS), Map.entry("ofVirtual", THREADS),
                    Map.entry("startVirtualThread", THREADS))),
            Map.entry("java.lang.ThreadGroup", Map.of("*", THREADS)),
            Map.entry("java.util.concurrent.Executors", Map.of("*", THREADS)),
            Map.entry("java.util.concurrent.ThreadPoolExecutor", Map.of("<init>", THREADS)),
            Map.entry("java.util.concurrent.ScheduledThreadPoolExecutor", Map.of("<init>", THREADS)),
            Map.entry("java.util.concurrent.ForkJoinPool", Map.of("<init>", THREADS, "commonPool", THREADS)),
            Map.entry("java.util.concurrent.ForkJoinTask", Map.of("fork", THREADS, "invoke", THREADS, "invokeAll", THREADS)),
            Map.entry("java.util.concurrent.CompletableFuture", Map.of("runAsync", THREADS, "supplyAsync", THREADS)),
            Map.entry("java.util.concurrent.ThreadFactory", Map.of("newThread", THREADS)),
            Map.entry("java.util.Timer", Map.of("<init>", THREADS)),
            Map.entry("java.util.Collection", Map.of("parallelStream", THREADS)),
            Map.entry("java.util.stream.BaseStream", Map.of("parallel", THREADS)),
            Map.entry("java.lang.Class", Map.ofEntries(Map.entry("forName", REFLECTION), Map.entry("getMethod", REFLECTION),
                    Map.entry("getMethods", REFLECTION), Map.entry("getDeclaredMethod", REFLECTION),
                    Map.entry("getDeclaredMethods", REFLECTION), Map.entry("getField", REFLECTION), Map.entry("getFields", REFLECTION),
                    Map.entry("getDeclaredField", REFLECTION), Map.entry("getDeclaredFields", REFLECTION),
                    Map.entry("getConstructor", REFLECTION), Map.entry("getConstructors", REFLECTION),
                    Map.entry("getDeclaredConstructor", REFLECTION), Map.entry("getDeclaredConstructors", REFLECTION),
                    Map.entry("newInstance", REFLECTION), Map.entry("getClassLoader", REFLECTION), Map.entry("getModule", REFLECTION),
                    Map.entry("getRecordComponents", REFLECTION), Map.entry("getEnclosingMethod", REFLECTION),
                    Map.entry("getEnclosingConstructor", REFLECTION))),
            Map.entry("java.lang.ClassLoader", Map.of("*", REFLECTION)),
            Map.entry("java.lang.Module", Map.of("*", REFLECTION)),
            Map.entry("java.lang.ModuleLayer", Map.of("*", REFLECTION)),
            Map.entry("java.util.ServiceLoader", Map.of("*", REFLECTION)),
            Map.entry("java.util.Locale", Map.of("setDefault", SETTINGS)),
            Map.entry("java.util.TimeZone", Map.of("setDefault", SETTINGS)),
            Map.entry("java.io.File", Map.of("*", IO)),
            Map.entry("java.io.FileInputStream", Map.of("*", IO)),
            Map.entry("java.io.FileOutputStream", Map.of("*", IO)),
            Map.entry("java.io.FileReader", Map.of("*", IO)),
            Map.entry("java.io.FileWriter", Map.of("*", IO)),
            Map.entry("java.io.RandomAccessFile", Map.of("*", IO)));

    /** Types whose subclasses' constructors are refused like theirs (a class extending Thread, ClassLoader, ...). */
    private static final Map<String, String> SUBTYPES = Map.of("java.lang.Thread", THREADS, "java.lang.ClassLoader", REFLECTION,
            "java.util.concurrent.ExecutorService", THREADS, "java.util.Timer", THREADS);

    /** Packages refused entirely (and their subpackages). */
    private static final Map<String, String> PACKAGES = Map.ofEntries(Map.entry("java.lang.reflect", REFLECTION),
            Map.entry("java.lang.invoke", REFLECTION), Map.entry("java.nio.file", IO), Map.entry("java.nio.channels", IO),
            Map.entry("java.net", IO), Map.entry("sun", REFLECTION), Map.entry("jdk", REFLECTION), Map.entry("com.sun", REFLECTION),
            Map.entry("javax.script", REFLECTION), Map.entry("javax.tools", REFLECTION), Map.entry("java.lang.management", SETTINGS),
            Map.entry("kcheck", INTERNALS));

    /** ... except these (a variant builds on the model's public classes). */
    private static final Set<String> ALLOWED_PACKAGES = Set.of("kcheck.model");

    /** Classes whose constructors taking a file name or File open a file. */
    private static final Set<String> FILE_OPENERS = Set.of("java.io.PrintStream", "java.io.PrintWriter", "java.util.Formatter",
            "java.util.Scanner");

    private StaticCheck() {
    }

    /** Whether the check is on (always, except when a test of the run-time guard switches it off). */
    static boolean enabled() {
        return !"false".equalsIgnoreCase(System.getProperty(SWITCH));
    }

    /** In source order; of two calls starting at the same place ({@code new File(f).delete()}), the inner one first. */
    static void sort(List<Finding> findings) {
        findings.sort(java.util.Comparator.comparingLong(Finding::start).thenComparingLong(Finding::end));
    }

    /** Registers the check on {@code task}; the findings land in {@code out} as each class is analysed. */
    static void attach(JavacTask task, List<Finding> out) {
        Trees trees = Trees.instance(task);
        task.addTaskListener(new TaskListener() {
            @Override
            public void finished(TaskEvent e) {
                if (e.getKind() == TaskEvent.Kind.ANALYZE && e.getTypeElement() != null) {
                    TreePath path = trees.getPath(e.getTypeElement());
                    if (path != null) {
                        new Scanner(trees, task.getTypes(), task.getElements(), e.getCompilationUnit(), out).scan(path, null);
                    }
                }
            }
        });
    }

    private static final class Scanner extends TreePathScanner<Void, Void> {
        private final Trees trees;
        private final Types types;
        private final Elements elements;
        private final CompilationUnitTree unit;
        private final SourcePositions positions;
        private final List<Finding> out;
        private final List<String> where = new ArrayList<>();
        /** Per enclosing declaration: true inside a constructor, an initializer block or a field initializer. */
        private final List<Boolean> init = new ArrayList<>();

        Scanner(Trees trees, Types types, Elements elements, CompilationUnitTree unit, List<Finding> out) {
            this.trees = trees;
            this.types = types;
            this.elements = elements;
            this.unit = unit;
            this.positions = trees.getSourcePositions();
            this.out = out;
        }

        @Override
        public Void visitClass(ClassTree node, Void p) {
            String name = node.getSimpleName().toString();
            where.add(name.isEmpty() ? (where.isEmpty() ? "(anonymous class)" : where.get(where.size() - 1)) : name);
            try {
                return super.visitClass(node, p);
            } finally {
                where.remove(where.size() - 1);
            }
        }

        @Override
        public Void visitMethod(MethodTree node, Void p) {
            String cls = where.isEmpty() ? "?" : where.get(where.size() - 1);
            boolean ctor = node.getName().contentEquals("<init>");
            String m = ctor ? "new " + cls + "()" : cls + "." + node.getName();
            where.add(m);
            init.add(ctor);
            try {
                return super.visitMethod(node, p);
            } finally {
                where.remove(where.size() - 1);
                init.remove(init.size() - 1);
            }
        }

        @Override
        public Void visitBlock(BlockTree node, Void p) {
            boolean initializer = getCurrentPath().getParentPath() != null
                    && getCurrentPath().getParentPath().getLeaf() instanceof ClassTree;
            init.add(initializer || (!init.isEmpty() && init.get(init.size() - 1)));
            try {
                return super.visitBlock(node, p);
            } finally {
                init.remove(init.size() - 1);
            }
        }

        @Override
        public Void visitVariable(VariableTree node, Void p) {
            boolean field = getCurrentPath().getParentPath() != null && getCurrentPath().getParentPath().getLeaf() instanceof ClassTree;
            init.add(field || (!init.isEmpty() && init.get(init.size() - 1)));
            try {
                return super.visitVariable(node, p);
            } finally {
                init.remove(init.size() - 1);
            }
        }

        @Override
        public Void visitAssignment(AssignmentTree node, Void p) {
            write(node, node.getVariable());
            return super.visitAssignment(node, p);
        }

        @Override
        public Void visitCompoundAssignment(CompoundAssignmentTree node, Void p) {
            write(node, node.getVariable());
            return super.visitCompoundAssignment(node, p);
        }

        @Override
        public Void visitUnary(UnaryTree node, Void p) {
            Tree.Kind k = node.getKind();
            if (k == Tree.Kind.PREFIX_INCREMENT || k == Tree.Kind.POSTFIX_INCREMENT || k == Tree.Kind.PREFIX_DECREMENT
                    || k == Tree.Kind.POSTFIX_DECREMENT) {
                write(node, node.getExpression());
            }
            return super.visitUnary(node, p);
        }

        /** A write to a field of a class of this file, outside its construction: state the model cannot see. */
        private void write(Tree node, ExpressionTree target) {
            if (!init.isEmpty() && init.get(init.size() - 1)) {
                return;
            }
            Element el = trees.getElement(new TreePath(getCurrentPath(), target));
            if (el == null || el.getKind() != ElementKind.FIELD || !(el.getEnclosingElement() instanceof TypeElement owner)) {
                return;
            }
            TreePath decl = trees.getPath(owner);
            if (decl == null || decl.getCompilationUnit() != unit || declaredState(el)) {
                return;
            }
            long start = positions.getStartPosition(unit, node);
            String method = where.isEmpty() ? "?" : where.get(where.size() - 1);
            out.add(new Finding(unit.getLineMap().getLineNumber(start), method, "writes the field " + owner.getSimpleName() + "."
                    + el.getSimpleName(), STATE, start, positions.getEndPosition(unit, node)));
        }

        @Override
        public Void visitMethodInvocation(MethodInvocationTree node, Void p) {
            check(node);
            return super.visitMethodInvocation(node, p);
        }

        @Override
        public Void visitNewClass(NewClassTree node, Void p) {
            check(node);
            return super.visitNewClass(node, p);
        }

        @Override
        public Void visitMemberReference(MemberReferenceTree node, Void p) {
            check(node);
            return super.visitMemberReference(node, p);
        }

        private void check(Tree node) {
            Element el = trees.getElement(getCurrentPath());
            if (!(el instanceof ExecutableElement m) || !(m.getEnclosingElement() instanceof TypeElement owner)) {
                return;
            }
            String why = refused(m, owner);
            if (why == null) {
                return;
            }
            long start = positions.getStartPosition(unit, node);
            long line = unit.getLineMap().getLineNumber(start);
            String method = where.isEmpty() ? "?" : where.get(where.size() - 1);
            if (!method.contains(".") && !method.startsWith("new ")) {
                method = method + " (initializer)";
            }
            out.add(new Finding(line, method, "calls " + name(m, owner), why, start, positions.getEndPosition(unit, node)));
        }

        /**
         * A field the model declares part of the state it records, by an annotation of its own
         * (rwsem-owner's {@code @FrameLocal}: a kernel local that lives across an atomic step).
         */
        private boolean declaredState(Element field) {
            for (var a : field.getAnnotationMirrors()) {
                Element type = a.getAnnotationType().asElement();
                PackageElement pkg = elements.getPackageOf(type);
                if (pkg != null && within(pkg.getQualifiedName().toString(), "kcheck.model")) {
                    return true;
                }
            }
            return false;
        }

        /** {@code System.exit}, {@code new Thread}, {@code Method.invoke}. */
        private static String name(ExecutableElement m, TypeElement owner) {
            return m.getKind() == ElementKind.CONSTRUCTOR ? "new " + owner.getSimpleName()
                    : owner.getSimpleName() + "." + m.getSimpleName();
        }

        private String refused(ExecutableElement m, TypeElement owner) {
            String cls = owner.getQualifiedName().toString();
            String name = m.getKind() == ElementKind.CONSTRUCTOR ? "<init>" : m.getSimpleName().toString();
            PackageElement pkg = elements.getPackageOf(owner);
            String pkgName = pkg == null ? "" : pkg.getQualifiedName().toString();
            for (Map.Entry<String, String> e : PACKAGES.entrySet()) {
                if (within(pkgName, e.getKey()) && ALLOWED_PACKAGES.stream().noneMatch(a -> within(pkgName, a))) {
                    return e.getValue();
                }
            }
            if (cls.equals("java.util.Arrays") && name.startsWith("parallel")) {
                return THREADS;
            }
            if (cls.equals("java.util.concurrent.CompletableFuture") && name.endsWith("Async")) {
                return THREADS;
            }
            String why = inherited(m, owner, name);
            if (why != null) {
                return why;
            }
            if (m.getKind() == ElementKind.CONSTRUCTOR) {
                for (Map.Entry<String, String> e : SUBTYPES.entrySet()) {
                    TypeElement t = elements.getTypeElement(e.getKey());
                    if (t != null && types.isSubtype(types.erasure(owner.asType()), types.erasure(t.asType()))) {
                        return e.getValue();
                    }
                }
                if (FILE_OPENERS.contains(cls) && !m.getParameters().isEmpty()) {
                    String first = types.erasure(m.getParameters().get(0).asType()).toString();
                    if (first.equals("java.io.File") || first.equals("java.nio.file.Path")
                            || (first.equals("java.lang.String") && !cls.equals("java.util.Scanner"))) {
                        return IO;
                    }
                }
            }
            return null;
        }

        /** A refused method of the declaring class, or of a supertype it overrides (Thread.start on a subclass). */
        private String inherited(ExecutableElement m, TypeElement owner, String name) {
            String why = lookup(owner.getQualifiedName().toString(), name);
            if (why != null || m.getKind() == ElementKind.CONSTRUCTOR) {
                return why;
            }
            for (TypeMirror sup : types.directSupertypes(owner.asType())) {
                Element se = types.asElement(sup);
                if (se instanceof TypeElement st) {
                    for (Element member : st.getEnclosedElements()) {
                        if (member instanceof ExecutableElement sm && sm.getSimpleName().contentEquals(name)
                                && elements.overrides(m, sm, owner)) {
                            String w = inherited(sm, st, name);
                            if (w != null) {
                                return w;
                            }
                        }
                    }
                    String w = lookupStar(st.getQualifiedName().toString());
                    if (w != null && !st.getQualifiedName().contentEquals("java.lang.Object")) {
                        /* a member of a refused type, reached through a subtype */
                        for (Element member : st.getEnclosedElements()) {
                            if (member instanceof ExecutableElement sm && sm.getSimpleName().contentEquals(name)) {
                                return w;
                            }
                        }
                    }
                }
            }
            return null;
        }

        private static String lookup(String cls, String name) {
            Map<String, String> ms = METHODS.get(cls);
            if (ms == null) {
                return null;
            }
            String w = ms.get(name);
            return w != null ? w : ms.get("*");
        }

        private static String lookupStar(String cls) {
            Map<String, String> ms = METHODS.get(cls);
            return ms == null ? null : ms.get("*");
        }

        private static boolean within(String pkg, String prefix) {
            return pkg.equals(prefix) || pkg.startsWith(prefix + ".");
        }
    }
}
