package kcheck.variantfile;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;
import javax.tools.ToolProvider;

import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.CaseTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.CompoundAssignmentTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreeScanner;
import com.sun.source.util.Trees;

/**
 * Compiles one Java source file in memory with the JDK's compiler (javax.tools) against kcheck's
 * own classes, and loads the result with a fresh class loader whose parent is kcheck's. Nothing
 * is written to disk: class files go to a map, the source path is empty (javac looks for no other
 * sources), annotation processing is off.
 */
final class InMemoryCompiler {
    private InMemoryCompiler() {
    }

    /**
     * Compiles {@code source} (the content of {@code file}) and returns a loader that defines the
     * compiled classes.
     *
     * @param shown     how the file is named in diagnostics (as the user gave it)
     * @param anchors   classes whose class-path entries must be visible to the compilation
     *                  (kcheck's model classes), in addition to {@code java.class.path}
     * @throws VariantFileException with the compiler's diagnostics if it does not compile, or if
     *                              this Java runtime has no compiler
     */
    static Loader compile(Path file, String shown, String source, Class<?>... anchors) {
        return compile(file, shown, source, StaticCheck.enabled(), anchors);
    }

    /**
     * As {@link #compile(Path, String, String, Class...)}; with {@code check}, the
     * {@link StaticCheck} refuses calls a variant may not make (one line naming file, line and
     * method).
     */
    static Loader compile(Path file, String shown, String source, boolean check, Class<?>... anchors) {
        List<StaticCheck.Finding> findings = new ArrayList<>();
        Loader l = compile(file, shown, source, check, findings, anchors);
        if (!findings.isEmpty()) {
            StaticCheck.Finding f = findings.get(0);
            int more = findings.size() - 1;
            throw new VariantFileException(f.message(shown)
                    + (more > 0 ? " (and " + more + " more call" + (more == 1 ? "" : "s") + " a variant may not make)" : ""),
                    List.of(), new VariantFile.Frame(shown, (int) f.line(), f.method()));
        }
        return l;
    }

    /** Compiles with the static check, returning what it refuses in source order (for tests: every finding, not the first). */
    static List<StaticCheck.Finding> findings(Path file, String source, Class<?>... anchors) {
        List<StaticCheck.Finding> findings = new ArrayList<>();
        compile(file, file.toString(), source, true, findings, anchors);
        return findings;
    }

    private static Loader compile(Path file, String shown, String source, boolean check, List<StaticCheck.Finding> findings,
                                  Class<?>... anchors) {
        JavaCompiler javac = compiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        Map<String, byte[]> classes = new LinkedHashMap<>();
        Boolean ok;
        try (StandardJavaFileManager std = javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
            std.setLocation(StandardLocation.CLASS_PATH, classPath(anchors));
            std.setLocation(StandardLocation.SOURCE_PATH, List.of());
            std.setLocation(StandardLocation.ANNOTATION_PROCESSOR_PATH, List.of());
            JavaFileManager fm = new MemoryOutput(std, classes);
            JavaFileObject unit = new Source(file.toAbsolutePath().toUri(), source);
            List<String> options = List.of("-proc:none", "-implicit:none", "-g", "-Xlint:none", "-nowarn", "-encoding", "UTF-8");
            JavaCompiler.CompilationTask task = javac.getTask(null, fm, diagnostics, options, null, List.of(unit));
            if (check && task instanceof JavacTask jt) {
                StaticCheck.attach(jt, findings);
            }
            ok = task.call();
        } catch (IOException e) {
            throw new VariantFileException("cannot set up the compiler: " + e.getMessage());
        } catch (IllegalStateException | IllegalArgumentException e) {
            throw new VariantFileException("the compiler failed on " + shown + ": " + e.getMessage());
        }
        List<Diagnostic<? extends JavaFileObject>> errors = diagnostics.getDiagnostics().stream()
                .filter(d -> d.getKind() == Diagnostic.Kind.ERROR).toList();
        if (!ok || !errors.isEmpty()) {
            List<String> lines = new ArrayList<>();
            for (Diagnostic<? extends JavaFileObject> d : errors) {
                lines.addAll(format(d, shown, source));
            }
            int n = errors.size();
            lines.add(n + " error" + (n == 1 ? "" : "s"));
            throw new VariantFileException(shown + " does not compile:", lines);
        }
        StaticCheck.sort(findings);
        return new Loader(classes, InMemoryCompiler.class.getClassLoader());
    }

    private static JavaCompiler compiler() {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new VariantFileException("this Java runtime (" + System.getProperty("java.home")
                    + ") has no compiler: --variant-file needs a JDK, not a JRE");
        }
        return javac;
    }

    /** A copy of the source with a {@link Probe} before each statement, and the line and method of each probe. */
    record Instrumented(String source, List<Site> sites) {
    }

    /** One probe: the statement's line, the method it is in, and the field it assigns ({@code env.loop = ...}: loop; else null). */
    record Site(long line, String method, String assigns) {
    }

    /**
     * Inserts {@code kcheck.variantfile.Probe.at(N);} before every statement of every block and
     * switch case (not before {@code this(...)}/{@code super(...)}, which must come first, nor
     * between the declarators of one declaration), on the statement's own line; null if the
     * source cannot be parsed.
     */
    static Instrumented instrument(String source) {
        JavaCompiler javac = compiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager std = javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
            JavaFileObject unit = new Source(URI.create("mem:///Probed.java"), source);
            JavaCompiler.CompilationTask task = javac.getTask(null, std, diagnostics, List.of("-proc:none"), null, List.of(unit));
            if (!(task instanceof JavacTask jt)) {
                return null;
            }
            List<long[]> inserts = new ArrayList<>();
            List<Site> sites = new ArrayList<>();
            SourcePositions pos = Trees.instance(jt).getSourcePositions();
            for (CompilationUnitTree cu : jt.parse()) {
                new TreeScanner<Void, Void>() {
                    private final List<String> where = new ArrayList<>();

                    @Override
                    public Void visitClass(ClassTree node, Void p) {
                        String name = node.getSimpleName().toString();
                        where.add(name.isEmpty() ? (where.isEmpty() ? "?" : where.get(where.size() - 1)) : name);
                        try {
                            return super.visitClass(node, p);
                        } finally {
                            where.remove(where.size() - 1);
                        }
                    }

                    @Override
                    public Void visitMethod(MethodTree node, Void p) {
                        String cls = where.isEmpty() ? "?" : where.get(where.size() - 1);
                        where.add(node.getName().contentEquals("<init>") ? "new " + cls + "()" : cls + "." + node.getName());
                        try {
                            return super.visitMethod(node, p);
                        } finally {
                            where.remove(where.size() - 1);
                        }
                    }

                    @Override
                    public Void visitBlock(BlockTree node, Void p) {
                        probe(node.getStatements());
                        return super.visitBlock(node, p);
                    }

                    @Override
                    public Void visitCase(CaseTree node, Void p) {
                        if (node.getStatements() != null) {
                            probe(node.getStatements());
                        }
                        return super.visitCase(node, p);
                    }

                    private void probe(List<? extends StatementTree> statements) {
                        long prevEnd = -1;
                        for (StatementTree st : statements) {
                            long start = pos.getStartPosition(cu, st);
                            long end = pos.getEndPosition(cu, st);
                            boolean ctorCall = st instanceof ExpressionStatementTree es
                                    && es.getExpression() instanceof MethodInvocationTree mi
                                    && mi.getMethodSelect() instanceof IdentifierTree id
                                    && (id.getName().contentEquals("this") || id.getName().contentEquals("super"));
                            if (start >= 0 && start > prevEnd && !ctorCall) {
                                String method = where.isEmpty() ? "?" : where.get(where.size() - 1);
                                if (!method.contains(".") && !method.startsWith("new ")) {
                                    method = method + " (initializer)";
                                }
                                inserts.add(new long[] {start, sites.size()});
                                sites.add(new Site(cu.getLineMap().getLineNumber(start), method, assignedField(st)));
                            }
                            prevEnd = Math.max(prevEnd, end);
                        }
                    }
                }.scan(cu, null);
            }
            if (diagnostics.getDiagnostics().stream().anyMatch(d -> d.getKind() == Diagnostic.Kind.ERROR)) {
                return null;
            }
            inserts.sort((a, b) -> Long.compare(b[0], a[0]));
            StringBuilder out = new StringBuilder(source);
            for (long[] ins : inserts) {
                out.insert((int) ins[0], "kcheck.variantfile.Probe.at(" + ins[1] + "); ");
            }
            return new Instrumented(out.toString(), sites);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** {@code x.f = ...;}, {@code x.f += ...;}, {@code x.f++;}: f; else null. */
    private static String assignedField(StatementTree st) {
        if (!(st instanceof ExpressionStatementTree es)) {
            return null;
        }
        ExpressionTree x = es.getExpression();
        ExpressionTree target = null;
        if (x instanceof AssignmentTree a) {
            target = a.getVariable();
        } else if (x instanceof CompoundAssignmentTree c) {
            target = c.getVariable();
        } else if (x instanceof UnaryTree u && (u.getKind() == Tree.Kind.POSTFIX_INCREMENT || u.getKind() == Tree.Kind.PREFIX_INCREMENT
                || u.getKind() == Tree.Kind.POSTFIX_DECREMENT || u.getKind() == Tree.Kind.PREFIX_DECREMENT)) {
            target = u.getExpression();
        }
        return target instanceof MemberSelectTree ms ? ms.getIdentifier().toString() : null;
    }

    /** A diagnostic as javac prints it: {@code file:line: error: message}, the source line, a caret. */
    private static List<String> format(Diagnostic<? extends JavaFileObject> d, String shown, String source) {
        List<String> out = new ArrayList<>();
        String msg = d.getMessage(Locale.ROOT);
        String[] msgLines = msg.split("\n", -1);
        if (d.getLineNumber() == Diagnostic.NOPOS) {
            out.add(shown + ": error: " + msgLines[0]);
        } else {
            out.add(shown + ":" + d.getLineNumber() + ": error: " + msgLines[0]);
        }
        for (int i = 1; i < msgLines.length; i++) {
            out.add(msgLines[i]);
        }
        if (d.getLineNumber() != Diagnostic.NOPOS) {
            String[] src = source.split("\r?\n", -1);
            int ln = (int) d.getLineNumber() - 1;
            if (ln >= 0 && ln < src.length) {
                out.add(src[ln]);
                long col = d.getColumnNumber();
                if (col != Diagnostic.NOPOS && col >= 1) {
                    StringBuilder caret = new StringBuilder();
                    for (int i = 0; i < col - 1 && i < src[ln].length(); i++) {
                        caret.append(src[ln].charAt(i) == '\t' ? '\t' : ' ');
                    }
                    out.add(caret.append('^').toString());
                }
            }
        }
        return out;
    }

    /**
     * The running CLI's class path ({@code java.class.path}: the shaded jar) plus the locations the
     * anchor classes were loaded from (under a test runner, {@code java.class.path} may be a
     * launcher jar only).
     */
    private static List<File> classPath(Class<?>... anchors) {
        Set<File> out = new LinkedHashSet<>();
        for (Class<?> c : anchors) {
            CodeSource cs = c.getProtectionDomain().getCodeSource();
            if (cs != null && cs.getLocation() != null) {
                try {
                    out.add(new File(cs.getLocation().toURI()));
                } catch (URISyntaxException | IllegalArgumentException e) {
                    // not a file location: rely on java.class.path
                }
            }
        }
        String cp = System.getProperty("java.class.path", "");
        for (String entry : cp.split(File.pathSeparator)) {
            if (!entry.isEmpty()) {
                out.add(new File(entry));
            }
        }
        return new ArrayList<>(out);
    }

    /** The source, from memory (the file's content as read and hashed once). */
    private static final class Source extends SimpleJavaFileObject {
        private final String text;

        Source(URI uri, String text) {
            super(uri, Kind.SOURCE);
            this.text = text;
        }

        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return text;
        }
    }

    /** Class files go into {@code classes} (binary name to bytes), never to disk. */
    private static final class MemoryOutput extends ForwardingJavaFileManager<StandardJavaFileManager> {
        private final Map<String, byte[]> classes;

        MemoryOutput(StandardJavaFileManager std, Map<String, byte[]> classes) {
            super(std);
            this.classes = classes;
        }

        @Override
        public JavaFileObject getJavaFileForOutput(Location location, String className, JavaFileObject.Kind kind, FileObject sibling) {
            if (kind != JavaFileObject.Kind.CLASS) {
                throw new IllegalStateException("unexpected output " + className + kind.extension);
            }
            return new SimpleJavaFileObject(URI.create("mem:///" + className.replace('.', '/') + kind.extension), kind) {
                @Override
                public OutputStream openOutputStream() {
                    return new ByteArrayOutputStream() {
                        @Override
                        public void close() {
                            classes.put(className, toByteArray());
                        }
                    };
                }
            };
        }

        @Override
        public FileObject getFileForOutput(Location location, String packageName, String relativeName, FileObject sibling) {
            throw new IllegalStateException("unexpected output " + packageName + "/" + relativeName);
        }
    }

    /** Defines the compiled classes; everything else comes from kcheck's own loader. */
    static final class Loader extends ClassLoader {
        private final Map<String, byte[]> classes;

        Loader(Map<String, byte[]> classes, ClassLoader parent) {
            super("kcheck-variant-file", parent);
            this.classes = Map.copyOf(classes);
        }

        /** Binary names of the compiled classes. */
        Set<String> names() {
            return classes.keySet();
        }

        /** Child first for the compiled classes: a user class may share its name with one of kcheck's. */
        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!classes.containsKey(name)) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    c = findClass(name);
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            byte[] b = classes.get(name);
            if (b == null) {
                throw new ClassNotFoundException(name);
            }
            return defineClass(name, b, 0, b.length);
        }
    }
}
