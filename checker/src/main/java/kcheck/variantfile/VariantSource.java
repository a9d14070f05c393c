package kcheck.variantfile;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import kcheck.model.ModelFactory;
import kcheck.model.ModelInputException;
import kcheck.model.PropertyInfo;
import kcheck.model.VariantContract;
import kcheck.model.VariantInfo;

/**
 * The source {@code kcheck variant new} writes: a built-in variant's reference implementation
 * (read from the {@code kcheck-sources/} resources the model module packs), as a public top-level
 * class in no package, renamed, with the model's package imported, a {@code VARIANT} constant
 * holding the chosen name, and a header that says what to edit and how to run it.
 */
public final class VariantSource {
    /** Resource folder of the model sources (see the model module's pom). */
    static final String RESOURCES = "kcheck-sources/";

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._+-]*");
    private static final Pattern PACKAGE = Pattern.compile("(?m)^\\s*package\\s+([\\w.]+)\\s*;[ \\t]*\\r?\\n?");
    private static final Pattern IMPORT = Pattern.compile("(?m)^\\s*import\\s+(static\\s+)?([\\w.]+(?:\\.\\*)?)\\s*;[ \\t]*$");
    private static final Pattern MODIFIERS = Pattern.compile("((?:(?:public|protected|private|static|final|abstract|sealed|non-sealed|strictfp)\\s+)*)class\\s+");

    /** What {@link #render} produced. */
    public record Copy(String className, String fileName, String text, Class<?> source) {
    }

    private VariantSource() {
    }

    /** The Java class name for a variant name: {@code fix-v2} gives {@code FixV2}. */
    public static String className(String name) {
        StringBuilder b = new StringBuilder();
        for (String part : name.split("[^A-Za-z0-9]+")) {
            if (!part.isEmpty()) {
                b.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
            }
        }
        if (b.length() == 0 || Character.isDigit(b.charAt(0))) {
            b.insert(0, "Variant");
        }
        return b.toString();
    }

    /**
     * The copy of variant {@code from} of model {@code f}, renamed to variant {@code name}; its
     * header names {@code target} (where it will be written) in the commands it shows.
     *
     * @throws ModelInputException for a model without a contract, an unknown variant or a bad name
     */
    public static Copy render(ModelFactory f, String from, String name, Path target) {
        VariantContract<?> contract = f.variantContract();
        if (contract == null) {
            throw new ModelInputException("model " + f.name() + " does not take variant files (it declares no variant contract)");
        }
        VariantInfo fromInfo = f.variant(from);
        if (!NAME.matcher(name).matches()) {
            throw new ModelInputException("variant name '" + name + "': use letters, digits, '.', '_', '+' and '-', starting with a letter or digit");
        }
        if (f.variants().stream().anyMatch(v -> v.name().equals(name))) {
            throw new ModelInputException("'" + name + "' is a built-in " + f.name() + " variant: choose another name");
        }
        Class<?> impl = contract.implementationClass(from);
        Class<?> top = impl;
        while (top.getEnclosingClass() != null) {
            top = top.getEnclosingClass();
        }
        String file = read(top, f, from);
        String cls = className(name);
        String pkg = impl.getPackageName();
        checkClassName(cls, name, pkg, file, impl);

        Matcher pm = PACKAGE.matcher(file);
        String body = pm.find() ? file.substring(0, pm.start()) + file.substring(pm.end()) : file;
        List<String> imports = new ArrayList<>();
        Matcher im = IMPORT.matcher(body);
        int afterImports = 0;
        while (im.find()) {
            imports.add(im.group().strip());
            afterImports = im.end();
        }
        String rest = body.substring(afterImports);
        String decl = impl == top ? topLevel(rest, impl.getSimpleName()) : nested(rest, impl.getSimpleName());
        decl = publicTopLevel(decl, impl.getSimpleName());
        decl = decl.replaceAll("\\b" + Pattern.quote(impl.getSimpleName()) + "\\b", Matcher.quoteReplacement(cls));
        decl = withVariantConstant(decl, cls, name);

        StringBuilder out = new StringBuilder();
        out.append(header(f, fromInfo, name, cls, impl, contract, target));
        out.append('\n');
        List<String> statics = imports.stream().filter(s -> s.startsWith("import static")).toList();
        List<String> plain = new ArrayList<>(imports.stream().filter(s -> !s.startsWith("import static")).toList());
        if (!pkg.isEmpty()) {
            plain.add("import " + pkg + ".*;");
        }
        statics.forEach(s -> out.append(s).append('\n'));
        if (!statics.isEmpty()) {
            out.append('\n');
        }
        plain.forEach(s -> out.append(s).append('\n'));
        out.append('\n');
        out.append(decl.strip()).append('\n');
        return new Copy(cls, cls + ".java", out.toString(), impl);
    }

    private static final java.util.Map<String, java.util.Optional<String>> SHA = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * The SHA-256 of the source file of built-in variant {@code variant}'s reference
     * implementation, as packed into this build (what {@code kcheck variant new} copies); null if
     * the model takes no variant files, the variant is not built in, or the source is not packed.
     * A reviewer compares it with the file in the repository at the revision {@code --version} names.
     */
    public static String sha256(ModelFactory f, String variant) {
        return SHA.computeIfAbsent(f.name() + "/" + variant, k -> {
            try {
                VariantContract<?> contract = f.variantContract();
                if (contract == null) {
                    return java.util.Optional.empty();
                }
                Class<?> top = contract.implementationClass(variant);
                while (top.getEnclosingClass() != null) {
                    top = top.getEnclosingClass();
                }
                String res = RESOURCES + top.getName().replace('.', '/') + ".java";
                ClassLoader cl = top.getClassLoader() != null ? top.getClassLoader() : VariantSource.class.getClassLoader();
                try (InputStream in = cl.getResourceAsStream(res)) {
                    return in == null ? java.util.Optional.empty() : java.util.Optional.of(VariantFile.sha256(in.readAllBytes()));
                }
            } catch (RuntimeException | IOException e) {
                return java.util.Optional.empty();
            }
        }).orElse(null);
    }

    /** The packed source of {@code top}. */
    private static String read(Class<?> top, ModelFactory f, String from) {
        String res = RESOURCES + top.getName().replace('.', '/') + ".java";
        ClassLoader cl = top.getClassLoader() != null ? top.getClassLoader() : VariantSource.class.getClassLoader();
        try (InputStream in = cl.getResourceAsStream(res)) {
            if (in == null) {
                throw new ModelInputException("the source of " + f.name() + " variant '" + from + "' (" + top.getName()
                        + ") is not in this build (resource " + res + ")");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("\r\n", "\n");
        } catch (IOException e) {
            throw new ModelInputException("cannot read resource " + res + ": " + e.getMessage());
        }
    }

    /**
     * The class name must not shadow a type the copied code uses: a class of the model's package
     * (imported on demand), of {@code kcheck.model}, of {@code java.lang}, or one the file imports.
     */
    private static void checkClassName(String cls, String name, String pkg, String file, Class<?> impl) {
        ClassLoader cl = impl.getClassLoader();
        for (String p : List.of(pkg, "kcheck.model", "java.lang")) {
            if (exists(p + "." + cls, cl)) {
                throw new ModelInputException("variant name '" + name + "' gives class " + cls + ", which would hide " + p + "." + cls
                        + " in the copied code: choose another name");
            }
        }
        Matcher im = IMPORT.matcher(file);
        while (im.find()) {
            String imported = im.group(2);
            if (imported.endsWith("." + cls)) {
                throw new ModelInputException("variant name '" + name + "' gives class " + cls + ", which would clash with the import of "
                        + imported + ": choose another name");
            }
        }
    }

    private static boolean exists(String binary, ClassLoader cl) {
        try {
            Class.forName(binary, false, cl);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** A top-level class: everything after the imports (its javadoc, annotations and body). */
    private static String topLevel(String rest, String simple) {
        Matcher m = Pattern.compile("\\bclass\\s+" + Pattern.quote(simple) + "\\b").matcher(rest);
        if (!m.find()) {
            throw new IllegalStateException("class " + simple + " not found in its source");
        }
        return rest;
    }

    /** A nested class: its javadoc, annotations and body, taken out of the enclosing class and de-indented. */
    private static String nested(String rest, String simple) {
        Matcher m = Pattern.compile("(?m)^([ \\t]*)[^\\n]*?\\bclass\\s+" + Pattern.quote(simple) + "\\b").matcher(rest);
        if (!m.find()) {
            throw new IllegalStateException("nested class " + simple + " not found in its source");
        }
        String indent = m.group(1);
        int start = m.start();
        /* extend backwards over annotations and one javadoc comment right above the declaration */
        int lineStart = start;
        while (true) {
            int prevEnd = lineStart - 1;
            if (prevEnd <= 0) {
                break;
            }
            int prevStart = rest.lastIndexOf('\n', prevEnd - 1) + 1;
            String line = rest.substring(prevStart, prevEnd).strip();
            if (line.startsWith("@")) {
                lineStart = prevStart;
                continue;
            }
            if (line.endsWith("*/")) {
                /* the start of that comment (comments do not nest) */
                int open = rest.lastIndexOf("/*", prevEnd - 2);
                if (open >= 0) {
                    lineStart = rest.lastIndexOf('\n', open) + 1;
                }
            }
            break;
        }
        int brace = rest.indexOf('{', m.end());
        int end = matchingBrace(rest, brace);
        String text = rest.substring(lineStart, end + 1);
        StringBuilder out = new StringBuilder();
        for (String line : text.split("\n", -1)) {
            out.append(line.startsWith(indent) ? line.substring(indent.length()) : line.stripLeading()).append('\n');
        }
        return out.toString();
    }

    /** Index of the brace closing the one at {@code open}, skipping comments, strings and char literals. */
    private static int matchingBrace(String s, int open) {
        int depth = 0;
        int i = open;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '/' && i + 1 < s.length() && s.charAt(i + 1) == '/') {
                i = s.indexOf('\n', i);
                if (i < 0) {
                    break;
                }
            } else if (c == '/' && i + 1 < s.length() && s.charAt(i + 1) == '*') {
                i = s.indexOf("*/", i + 2) + 1;
                if (i <= 0) {
                    break;
                }
            } else if (s.startsWith("\"\"\"", i)) {
                i = s.indexOf("\"\"\"", i + 3) + 2;
                if (i < 2) {
                    break;
                }
            } else if (c == '"' || c == '\'') {
                i++;
                while (i < s.length() && s.charAt(i) != c) {
                    i += s.charAt(i) == '\\' ? 2 : 1;
                }
            } else if (c == '{') {
                depth++;
            } else if (c == '}') {
                depth--;
                if (depth == 0) {
                    return i;
                }
            }
            i++;
        }
        throw new IllegalStateException("unbalanced braces in the source of a nested class");
    }

    /** Rewrites the class's modifiers to {@code public} (a nested {@code static final} class becomes top level). */
    private static String publicTopLevel(String decl, String simple) {
        Matcher m = Pattern.compile(MODIFIERS.pattern() + Pattern.quote(simple) + "\\b").matcher(decl);
        if (!m.find()) {
            throw new IllegalStateException("declaration of " + simple + " not found");
        }
        return decl.substring(0, m.start()) + "public class " + simple + decl.substring(m.end());
    }

    /** Adds {@code public static final String VARIANT = "name";} after the class's opening brace. */
    private static String withVariantConstant(String decl, String cls, String name) {
        Matcher m = Pattern.compile("\\bclass\\s+" + Pattern.quote(cls) + "\\b").matcher(decl);
        if (!m.find()) {
            throw new IllegalStateException("declaration of " + cls + " not found");
        }
        int brace = decl.indexOf('{', m.end());
        String constant = "\n\n    /** The variant name kcheck shows in results and traces (not a built-in variant's name). */\n"
                + "    public static final String VARIANT = \"" + name + "\";";
        return decl.substring(0, brace + 1) + constant + (decl.startsWith("\n\n", brace + 1) ? "" : "\n") + decl.substring(brace + 1);
    }

    /** Splits a long line at spaces; command lines are never split. */
    private static List<String> wrap(String line, int width) {
        List<String> out = new ArrayList<>();
        if (line.length() <= width || line.startsWith("  kcheck ")) {
            out.add(line);
            return out;
        }
        String rest = line;
        while (rest.length() > width) {
            int cut = rest.lastIndexOf(' ', width);
            if (cut <= 0) {
                break;
            }
            out.add(rest.substring(0, cut));
            rest = rest.substring(cut + 1);
        }
        out.add(rest);
        return out;
    }

    private static String header(ModelFactory f, VariantInfo from, String name, String cls, Class<?> impl, VariantContract<?> contract,
                                 Path target) {
        String file = target.toString();
        List<String> h = new ArrayList<>();
        h.add("kcheck variant \"" + name + "\" of model " + f.name() + ": " + f.title() + ".");
        h.add("A copy of variant \"" + from.name() + "\" (" + impl.getName() + "): " + from.description() + ".");
        h.add("");
        h.add("WHAT TO EDIT: apply your patch to the methods below. They follow the kernel functions one for "
                + "one (see each @Kernel annotation; set version = \"...\" to name your patch, and traces will cite it).");
        h.add("Keep: the class name " + cls + " (it must match the file name), 'public', a public no-argument "
                + "constructor, and the class implementing " + contract.type().getName() + " (the variant contract of "
                + f.name() + "). VARIANT is the name results and traces show. The model's package is imported; "
                + "only its public classes and methods can be used here.");
        h.add("");
        h.add("HOW TO RUN IT (kcheck compiles this file in memory; nothing is rebuilt or written):");
        h.add("  kcheck check " + f.name() + " --variant-file " + file);
        PropertyInfo first = f.properties().get(0);
        h.add("  kcheck check " + f.name() + " --variant-file " + file + " --property " + first.id());
        h.add("  kcheck verify --variant-file " + file + "          (the baseline entries of \"after\", with this variant)");
        h.add("  kcheck replay TRACE.json --variant-file " + file + "   (does a counterexample still reproduce?)");
        h.add("  kcheck bench --variant-file " + file);
        h.add("Exit codes: 0 every checked property holds, 1 a property is violated (the trace is printed),");
        h.add("2 the file does not compile or is not a " + f.name() + " variant, or its code fails, hangs or steps outside");
        h.add("the model's limits while it is checked (one line names the file, line and method), 3 a search limit was hit.");
        if (!f.limits().isEmpty()) {
            h.add("");
            h.add("Limits of the " + f.name() + " model (what it assumes of a variant; crossing one is exit 2, not a verdict):");
            for (String l : f.limits()) {
                h.add("  - " + l);
            }
        }
        h.add("");
        h.add("Properties of " + f.name() + ":");
        for (PropertyInfo p : f.properties()) {
            h.add("  " + p.id() + " (" + p.kind().name().toLowerCase(Locale.ROOT) + ")");
        }
        StringBuilder b = new StringBuilder("/*\n");
        for (String line : h) {
            /* a list item ("  - ...") continues under its text */
            String hang = line.startsWith("  - ") ? "    " : "";
            List<String> parts = wrap(line, 96 - hang.length());
            for (int i = 0; i < parts.size(); i++) {
                String w = i == 0 ? parts.get(i) : hang + parts.get(i);
                b.append(w.isEmpty() ? " *" : " * " + w).append('\n');
            }
        }
        return b.append(" */\n").toString();
    }
}
