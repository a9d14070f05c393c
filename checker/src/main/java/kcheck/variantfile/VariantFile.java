package kcheck.variantfile;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import kcheck.model.Model;
import kcheck.model.ModelInputException;
import kcheck.model.ModelLimitException;
import kcheck.model.ModelFactory;
import kcheck.model.Models;
import kcheck.model.Params;
import kcheck.model.VariantContract;
import kcheck.model.VariantInfo;

/**
 * A model variant from a Java source file ({@code --variant-file F.java}): compiled in memory
 * against kcheck's classes, loaded with its own class loader, and checked like a built-in
 * variant. It is identified by its path and the SHA-256 of its content, so a verdict can be
 * attached to a patch review and reproduced.
 *
 * <p>The file must declare a public class named like the file (any package or none) that
 * implements the model's {@link VariantContract#type() variant contract} and has a public
 * no-argument constructor. Its variant name is the value of a {@code static final String VARIANT}
 * field if it declares one (as {@code kcheck variant new} writes), else the class's simple name.
 */
public final class VariantFile {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._+-]*");

    private final Path path;
    private final String shown;
    private final String sha256;
    private final ModelFactory model;
    private final VariantContract<?> contract;
    private final Constructor<?> constructor;
    private final String variantName;
    private final Set<String> classNames;
    private final String source;
    private final Class<?>[] anchors;
    private final Path given;
    /** The copy with line probes, compiled on the first failure that needs it (null: not yet or not possible). */
    private volatile VariantFile probed;
    private volatile boolean probedTried;

    /** Every variant file loaded in this JVM: the shutdown hook names the file a System.exit came from. */
    private static final List<VariantFile> LOADED = new java.util.concurrent.CopyOnWriteArrayList<>();

    private VariantFile(Path path, String shown, String sha256, ModelFactory model, VariantContract<?> contract,
                        Constructor<?> constructor, String variantName, Set<String> classNames, String source, Class<?>[] anchors) {
        this.given = path;
        this.source = source;
        this.anchors = anchors;
        this.path = path.toAbsolutePath().normalize();
        this.shown = shown;
        this.sha256 = sha256;
        this.model = model;
        this.contract = contract;
        this.constructor = constructor;
        this.variantName = variantName;
        this.classNames = classNames;
    }

    /**
     * Reads, compiles and loads {@code file} as a variant of {@code expected}, or (if null) of the
     * model whose variant contract its class implements.
     *
     * @throws VariantFileException (one line, plus compiler diagnostics) if it cannot be used
     */
    public static VariantFile load(Path file, ModelFactory expected) {
        String shown = file.toString();
        String fileName = file.getFileName() == null ? "" : file.getFileName().toString();
        if (!fileName.endsWith(".java") || fileName.length() == ".java".length()) {
            throw new VariantFileException("variant file " + shown + ": must be a Java source file named CLASS.java");
        }
        if (Files.isDirectory(file)) {
            throw new VariantFileException("variant file " + shown + " is a directory");
        }
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new VariantFileException("variant file " + shown + " not found");
        } catch (AccessDeniedException e) {
            throw new VariantFileException("variant file " + shown + " is not readable");
        } catch (IOException e) {
            throw new VariantFileException("cannot read variant file " + shown + ": " + e.getMessage());
        }
        String sha = sha256(bytes);
        String source = new String(bytes, StandardCharsets.UTF_8);
        String simple = fileName.substring(0, fileName.length() - ".java".length());

        List<ModelFactory> candidates = expected != null ? List.of(expected)
                : Models.all().stream().filter(f -> f.variantContract() != null).toList();
        if (expected != null && expected.variantContract() == null) {
            throw new VariantFileException("model " + expected.name() + " does not take variant files (it declares no variant contract)");
        }
        List<Class<?>> anchors = new ArrayList<>(List.of(ModelFactory.class, VariantFile.class));
        candidates.forEach(f -> anchors.add(f.variantContract().type()));
        InMemoryCompiler.Loader loader = InMemoryCompiler.compile(file, shown, source, anchors.toArray(Class<?>[]::new));

        String binary = loader.names().stream().filter(n -> n.indexOf('$') < 0)
                .filter(n -> n.substring(n.lastIndexOf('.') + 1).equals(simple)).findFirst().orElse(null);
        if (binary == null) {
            List<String> declared = loader.names().stream().filter(n -> n.indexOf('$') < 0).toList();
            throw new VariantFileException(shown + " declares no class " + simple + " (the variant class must be named like its file"
                    + (declared.isEmpty() ? "" : "; it declares " + String.join(", ", declared)) + ")");
        }
        Class<?> cls;
        try {
            cls = Class.forName(binary, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new VariantFileException("class " + binary + " from " + shown + " cannot be loaded: " + e);
        }

        ModelFactory model = expected;
        if (model == null) {
            List<ModelFactory> impl = candidates.stream().filter(f -> f.variantContract().type().isAssignableFrom(cls)).toList();
            if (impl.size() != 1) {
                throw new VariantFileException("class " + binary + " in " + shown + (impl.isEmpty() ? " implements no model's variant contract ("
                        + String.join(", ", candidates.stream().map(f -> f.variantContract().type().getName() + " for " + f.name()).toList())
                        + ")" : " implements the variant contracts of several models: " + String.join(", ", impl.stream()
                        .map(ModelFactory::name).toList())));
            }
            model = impl.get(0);
        }
        VariantContract<?> contract = model.variantContract();
        if (!contract.type().isAssignableFrom(cls)) {
            String other = Models.all().stream().filter(f -> f.variantContract() != null && f.variantContract().type().isAssignableFrom(cls))
                    .map(f -> "; it implements " + f.variantContract().type().getName() + ", the contract of " + f.name())
                    .findFirst().orElse("");
            throw new VariantFileException("class " + binary + " in " + shown + " does not implement " + contract.type().getName()
                    + " (the variant contract of " + model.name() + ")" + other);
        }
        if (cls.isInterface() || Modifier.isAbstract(cls.getModifiers())) {
            throw new VariantFileException("class " + binary + " in " + shown + " is abstract: the variant must be a concrete class");
        }
        if (!Modifier.isPublic(cls.getModifiers())) {
            throw new VariantFileException("class " + binary + " in " + shown + " is not public: declare it 'public class " + simple + "'");
        }
        Constructor<?> ctor;
        try {
            ctor = cls.getConstructor();
        } catch (NoSuchMethodException e) {
            throw new VariantFileException("class " + binary + " in " + shown + " has no public no-argument constructor");
        } catch (LinkageError e) {
            throw new VariantFileException("class " + binary + " from " + shown + " cannot be loaded: " + e);
        }
        String name = variantName(cls, model, shown);
        VariantFile vf = new VariantFile(file, shown, sha, model, contract, ctor, name, loader.names(), source,
                anchors.toArray(Class<?>[]::new));
        LOADED.add(vf);
        vf.newInstance();
        return vf;
    }

    /** The {@code VARIANT} constant, else the class's simple name; refused if it is a built-in variant's name. */
    private static String variantName(Class<?> cls, ModelFactory model, String shown) {
        String name = cls.getSimpleName();
        String where = "class " + cls.getName() + " in " + shown;
        try {
            Field f = cls.getDeclaredField("VARIANT");
            int mod = f.getModifiers();
            if (Modifier.isStatic(mod) && f.getType() == String.class) {
                f.setAccessible(true);
                Object v = f.get(null);
                if (!(v instanceof String s) || !NAME.matcher(s).matches()) {
                    throw new VariantFileException(where + ": VARIANT must be a name of letters, digits, '.', '_', '+' and '-', got "
                            + (v == null ? "null" : "'" + v + "'"));
                }
                name = s;
                where = where + ": VARIANT";
            }
        } catch (NoSuchFieldException e) {
            // no VARIANT: the class name
        } catch (IllegalAccessException | RuntimeException | LinkageError e) {
            if (e instanceof VariantFileException v) {
                throw v;
            }
            throw new VariantFileException(where + ": cannot read VARIANT: " + e);
        }
        for (VariantInfo v : model.variants()) {
            if (v.name().equals(name)) {
                throw new VariantFileException(where + " names the variant '" + name + "', which is a built-in " + model.name()
                        + " variant: choose another name");
            }
        }
        return name;
    }

    /** Hex SHA-256 of {@code bytes}. */
    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The file's absolute path. */
    public Path path() {
        return path;
    }

    /** Hex SHA-256 of the file's content, as read and compiled. */
    public String sha256() {
        return sha256;
    }

    /** The model whose variant this is. */
    public ModelFactory model() {
        return model;
    }

    /** The name results and traces show. */
    public String variantName() {
        return variantName;
    }

    /** Binary name of the variant class. */
    public String className() {
        return constructor.getDeclaringClass().getName();
    }

    /** {@code path (sha256 HEX)}: what traces record in {@code variantFile}. */
    public String label() {
        return path + " (sha256 " + sha256 + ")";
    }

    /** The path as the user gave it (how messages name the file). */
    public String shown() {
        return shown;
    }

    /** A fresh instance of the variant class (its constructor runs inside a {@link Watchdog} section). */
    public Object newInstance() {
        Watchdog.Section s = Watchdog.current();
        s.enter(this);
        try {
            return constructor.newInstance();
        } catch (InvocationTargetException e) {
            Throwable c = e.getCause();
            Frame at = frame(c);
            throw new VariantFileException((at != null ? at.where() : shown + ": new " + constructor.getDeclaringClass().getSimpleName()
                    + "()") + ": threw " + describe(c) + "; no verdict", List.of(), at);
        } catch (ExceptionInInitializerError e) {
            Throwable c = e.getCause() != null ? e.getCause() : e;
            Frame at = frame(c);
            throw new VariantFileException((at != null ? at.where() : shown + ": class " + constructor.getDeclaringClass().getSimpleName())
                    + ": its static initialisation threw " + describe(c) + "; no verdict", List.of(), at);
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new VariantFileException("cannot create " + constructor.getDeclaringClass().getName() + " from " + shown + ": " + e);
        } finally {
            s.exit();
        }
    }

    /**
     * Builds the model instance for this variant (a fresh instance of the class each time),
     * wrapped so that the {@link Watchdog} sees its calls and failures name the file's line.
     */
    public Model create(Params params, Set<String> properties) {
        Watchdog.Section s = Watchdog.current();
        s.enter(this);
        Model m;
        try {
            m = contract.create(variantName, newInstance(), params, properties);
        } catch (VariantFileException e) {
            throw e;
        } catch (RuntimeException | StackOverflowError | LinkageError e) {
            throw failure(e, () -> {
                VariantFile p = probed();
                if (p != null) {
                    p.contract.create(variantName, p.newInstanceUnguarded(), params, properties);
                }
            });
        } finally {
            s.exit();
        }
        return new GuardedModel(m, this, new java.util.LinkedHashSet<>(properties));
    }

    /** For the probed re-run: the constructor's own exception passes through unwrapped. */
    private Object newInstanceUnguarded() {
        try {
            return constructor.newInstance();
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Runs {@code work} (a search, a replay, trace rebuilding): a failure of the variant's code, or
     * of the model on what the variant's code did, becomes a {@link VariantFileException} of one
     * line naming the file, the line and the method ({@code File.java:LINE: in Class.method: ...});
     * the error is never a verdict. A failure of kcheck's own code passes through (the CLI reports
     * it as an internal error).
     */
    public <T> T guard(Supplier<T> work) {
        try {
            return work.get();
        } catch (VariantFileException e) {
            throw e;
        } catch (GuardedModel.StepFailure e) {
            throw failure(e.getCause(), () -> reRun(e));
        } catch (RuntimeException | StackOverflowError | LinkageError e) {
            GuardedModel.StepFailure sf = find(e, GuardedModel.StepFailure.class);
            if (sf != null) {
                throw failure(sf.getCause(), () -> reRun(sf));
            }
            throw failure(e, null);
        }
    }

    /**
     * As {@link #guard(Supplier)}, for a search with a time limit (null: none): a call into the
     * variant's code still running a few seconds past it ends the run INCOMPLETE (the
     * {@link Watchdog}).
     */
    public <T> T guard(java.time.Duration timeLimit, Supplier<T> work) {
        Watchdog.timeLimit(timeLimit);
        try {
            return guard(work);
        } finally {
            Watchdog.clearTimeLimit();
        }
    }

    /** Where a variant's code is: the file as given, its line, the class and method. */
    public record Frame(String file, int line, String method) {
        /** {@code File.java:LINE: in Class.method}. */
        public String where() {
            return file + ":" + line + ": in " + method;
        }
    }

    /** True if {@code className} is one of this file's classes (or nested in one). */
    public boolean owns(String className) {
        int dollar = className.indexOf('$');
        return classNames.contains(className) || (dollar > 0 && classNames.contains(className.substring(0, dollar)));
    }

    /** The innermost frame of this file's classes in {@code stack}, or null. */
    public Frame frame(StackTraceElement[] stack) {
        for (StackTraceElement e : stack) {
            if (owns(e.getClassName())) {
                return new Frame(shown, e.getLineNumber(), method(e));
            }
        }
        return null;
    }

    /** {@code Class.method}, {@code new Class()} for a constructor, {@code Class (static initialiser)}. */
    private static String method(StackTraceElement e) {
        String cls = simpleName(e.getClassName());
        return switch (e.getMethodName()) {
            case "<init>" -> "new " + cls + "()";
            case "<clinit>" -> cls + " (static initialiser)";
            default -> cls + "." + e.getMethodName();
        };
    }

    /** The innermost frame of this file's classes in {@code t}'s stack (innermost cause first), or null. */
    Frame frame(Throwable t) {
        List<Throwable> chain = chain(t);
        for (int i = chain.size() - 1; i >= 0; i--) {
            Frame f = frame(chain.get(i).getStackTrace());
            if (f != null) {
                return f;
            }
        }
        return null;
    }

    /** The frame of any variant file loaded in this JVM, innermost first (for the shutdown hook). */
    public static Frame anyFrame(StackTraceElement[] stack) {
        for (StackTraceElement e : stack) {
            for (VariantFile vf : LOADED) {
                if (vf.owns(e.getClassName())) {
                    return new Frame(vf.shown, e.getLineNumber(), method(e));
                }
            }
        }
        return null;
    }

    /** Re-runs {@code failure}'s call on the probed copy of the file, with the same parameters and state. */
    private void reRun(GuardedModel.StepFailure failure) {
        VariantFile p = probed();
        if (p == null || failure.model == null) {
            return;
        }
        Model m = p.contract.create(variantName, p.newInstanceUnguarded(), failure.params(), failure.model.propertyIds());
        switch (failure.op) {
            case INITIAL -> m.initial(s -> { });
            case SUCCESSORS -> m.successors(failure.state.clone(), (a, b, n) -> m.canonicalize(n.clone()));
            default -> { }
        }
    }

    /** The copy of this file with line probes, compiled once (null if it cannot be). */
    private VariantFile probed() {
        if (!probedTried) {
            synchronized (this) {
                if (!probedTried) {
                    probedTried = true;
                    try {
                        InMemoryCompiler.Instrumented ins = InMemoryCompiler.instrument(source);
                        if (ins != null) {
                            InMemoryCompiler.Loader l = InMemoryCompiler.compile(given, shown, ins.source(), false, anchors);
                            Class<?> cls = Class.forName(className(), false, l);
                            VariantFile p = new VariantFile(given, shown, sha256, model, contract, cls.getConstructor(), variantName,
                                    l.names(), ins.source(), anchors);
                            p.sites = ins.sites();
                            probed = p;
                        }
                    } catch (RuntimeException | ReflectiveOperationException | LinkageError e) {
                        probed = null;
                    }
                }
            }
        }
        return probed;
    }

    private List<InMemoryCompiler.Site> sites = List.of();

    /**
     * The one-line error for {@code cause}, thrown by the variant's code or by the model on what it
     * did. When no frame of the variant is on the stack, {@code reRun} repeats the failing call on
     * the probed copy to find the variant's last statement before the failure.
     */
    private RuntimeException failure(Throwable cause, Runnable reRun) {
        Throwable c = meaningful(cause);
        Frame at = frame(c);
        boolean afterReturn = false;
        String field = null;
        if (at == null && reRun != null) {
            Probed p = probe(reRun, c);
            if (p != null) {
                at = p.frame();
                field = p.field();
                afterReturn = true;
            }
        }
        String found = field != null ? "the variant's last assignment to " + field + " before the model found it"
                : "the last line of the variant that ran before the model found it";
        if (at == null && !thrownByModel(c) && !(c instanceof ModelInputException) && !(c instanceof StackOverflowError)
                && !(c instanceof LinkageError)) {
            /* kcheck's own code failed with no frame of the variant: an internal error, which names the file */
            throw new IllegalStateException("while checking variant file " + shown + " (sha256 " + sha256 + "; a variant whose "
                    + "steps depend on anything but the state, such as a field it keeps between calls, can cause this): "
                    + describe(c), c);
        }
        String where = at != null ? at.where() : shown + ": variant " + variantName;
        String what;
        if (c instanceof ModelLimitException) {
            what = c.getMessage() + " (a limit of the " + model.name() + " model, not a violation: 'kcheck list' shows its limits"
                    + (afterReturn ? "; " + found : "") + "); no verdict";
        } else if (at != null && !afterReturn && !thrownByModel(c)) {
            what = "threw " + describe(c) + (c instanceof StackOverflowError ? " (endless recursion?)" : "") + "; no verdict";
        } else {
            what = "the " + model.name() + " model cannot follow what the variant did: " + describe(c)
                    + (afterReturn ? " (" + found + ")" : "")
                    + "; no verdict";
        }
        return new VariantFileException(where + ": " + what, List.of(), at);
    }

    /** A line found by re-running the failing call on the probed copy: the field it assigns, if that is what the model named. */
    private record Probed(Frame frame, String field) {
    }

    /**
     * Re-runs the failing call on the probed copy. If it fails the same way: the variant's last
     * assignment to a field the model's message names ({@code env.loop}, {@code loop_break} for
     * loopBreak), else the variant's last statement before the failure; null otherwise.
     */
    private Probed probe(Runnable reRun, Throwable original) {
        Probe.reset();
        try {
            reRun.run();
            return null;
        } catch (RuntimeException | StackOverflowError | LinkageError e) {
            Throwable again = meaningful(e);
            VariantFile p = probed;
            if (again.getClass() != original.getClass() || p == null) {
                return null;
            }
            java.util.Set<String> named = new java.util.HashSet<>();
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("[A-Za-z_][A-Za-z0-9_]*").matcher(String.valueOf(original.getMessage()));
            while (m.find()) {
                named.add(normal(m.group()));
            }
            int best = -1;
            long bestAt = 0;
            for (int i = 0; i < p.sites.size(); i++) {
                String f = p.sites.get(i).assigns();
                long at = Probe.ranAt(i);
                if (f != null && at > bestAt && named.contains(normal(f))) {
                    best = i;
                    bestAt = at;
                }
            }
            int site = best >= 0 ? best : Probe.last();
            if (site < 0 || site >= p.sites.size()) {
                return null;
            }
            InMemoryCompiler.Site s = p.sites.get(site);
            return new Probed(new Frame(shown, (int) s.line(), s.method()), best >= 0 ? s.assigns() : null);
        } finally {
            Probe.reset();
        }
    }

    /** loop_break, loopBreak and LOOP_BREAK are one name. */
    private static String normal(String name) {
        return name.replace("_", "").toLowerCase(java.util.Locale.ROOT);
    }

    /** The innermost frame outside the JDK is a model's (kcheck.model...). */
    private static boolean thrownByModel(Throwable t) {
        for (StackTraceElement e : t.getStackTrace()) {
            String c = e.getClassName();
            if (c.startsWith("java.") || c.startsWith("jdk.") || c.startsWith("sun.")) {
                continue;
            }
            return c.startsWith("kcheck.model.");
        }
        return false;
    }

    private static <T extends Throwable> T find(Throwable t, Class<T> type) {
        for (Throwable c : chain(t)) {
            if (type.isInstance(c)) {
                return type.cast(c);
            }
        }
        return null;
    }

    private static String simpleName(String binary) {
        String s = binary.substring(binary.lastIndexOf('.') + 1);
        int dollar = s.indexOf('$');
        return dollar > 0 && dollar + 1 < s.length() && Character.isJavaIdentifierStart(s.charAt(dollar + 1)) ? s.replace('$', '.') : s;
    }

    private static List<Throwable> chain(Throwable t) {
        List<Throwable> out = new ArrayList<>();
        Map<Throwable, Boolean> seen = new IdentityHashMap<>();
        for (Throwable c = t; c != null && seen.put(c, Boolean.TRUE) == null; c = c.getCause()) {
            out.add(c);
        }
        return out;
    }

    /** Skips wrappers whose message is only their cause's toString (as the engine's worker threads add). */
    private static Throwable meaningful(Throwable t) {
        Throwable c = t;
        while (c.getCause() != null && (c instanceof GuardedModel.StepFailure || c.getMessage() == null
                || c.getMessage().equals(c.getCause().toString()))) {
            c = c.getCause();
        }
        return c;
    }

    private static String describe(Throwable t) {
        String msg = t.getMessage();
        String s = t.getClass().getName() + (msg == null ? "" : ": " + msg);
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
