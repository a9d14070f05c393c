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

    private VariantFile(Path path, String shown, String sha256, ModelFactory model, VariantContract<?> contract,
                        Constructor<?> constructor, String variantName, Set<String> classNames) {
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
        VariantFile vf = new VariantFile(file, shown, sha, model, contract, ctor, name, loader.names());
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

    /** A fresh instance of the variant class. */
    public Object newInstance() {
        try {
            return constructor.newInstance();
        } catch (InvocationTargetException e) {
            throw new VariantFileException("new " + constructor.getDeclaringClass().getSimpleName() + "() in " + shown + " threw "
                    + describe(e.getCause()));
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new VariantFileException("cannot create " + constructor.getDeclaringClass().getName() + " from " + shown + ": " + e);
        }
    }

    /** Builds the model instance for this variant (a fresh instance of the class each time). */
    public Model create(Params params, Set<String> properties) {
        return guard(() -> contract.create(variantName, newInstance(), params, properties));
    }

    /**
     * Runs {@code work} (model creation, a search, a replay): a failure of the user's code there
     * (an exception, an error such as a stack overflow or a package-private access) becomes a
     * {@link VariantFileException} naming the file and line; anything else passes through.
     */
    public <T> T guard(Supplier<T> work) {
        try {
            return work.get();
        } catch (RuntimeException | LinkageError | StackOverflowError e) {
            if (e instanceof VariantFileException) {
                throw e;
            }
            StackTraceElement at = userFrame(e);
            if (at == null && !(e instanceof LinkageError)) {
                throw e;
            }
            throw new VariantFileException("variant " + variantName + " (" + shown + ") failed while being checked: " + describe(meaningful(e))
                    + (at == null ? "" : " (at " + at.getFileName() + ":" + at.getLineNumber() + ", in " + simpleName(at.getClassName()) + "."
                    + at.getMethodName() + ")"));
        }
    }

    private static String simpleName(String binary) {
        return binary.substring(binary.lastIndexOf('.') + 1);
    }

    /** The first frame of the user's classes, searching the innermost cause first. */
    private StackTraceElement userFrame(Throwable t) {
        List<Throwable> chain = chain(t);
        for (int i = chain.size() - 1; i >= 0; i--) {
            for (StackTraceElement e : chain.get(i).getStackTrace()) {
                String c = e.getClassName();
                int dollar = c.indexOf('$');
                if (classNames.contains(c) || (dollar > 0 && classNames.contains(c.substring(0, dollar)))) {
                    return e;
                }
            }
        }
        return null;
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
        while (c.getCause() != null && (c.getMessage() == null || c.getMessage().equals(c.getCause().toString()))) {
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
