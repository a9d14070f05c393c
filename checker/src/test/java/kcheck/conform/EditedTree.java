package kcheck.conform;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;

/** A copy of some files of a kernel tree (and its Makefile) with one of them edited: what a developer's patched tree is to conform and check. */
public final class EditedTree {
    private EditedTree() {
    }

    /** {@code files} of {@code tree} copied under {@code dir}, {@code file} changed by {@code change}; {@code dir}. */
    public static Path copy(KernelTree tree, Path dir, List<String> files, String file, UnaryOperator<String> change) throws IOException {
        Files.createDirectories(dir);
        Files.copy(tree.file("Makefile"), dir.resolve("Makefile"));
        for (String f : files) {
            String src = Files.readString(tree.file(f), StandardCharsets.UTF_8);
            Files.createDirectories(dir.resolve(f).getParent());
            Files.writeString(dir.resolve(f), f.equals(file) ? change.apply(src) : src);
        }
        return dir;
    }

    /** {@code old} must occur exactly once in the file. */
    public static UnaryOperator<String> once(String old, String replacement) {
        return src -> {
            int at = src.indexOf(old);
            if (at < 0 || src.indexOf(old, at + 1) >= 0) {
                throw new IllegalStateException("the edit's text occurs " + (at < 0 ? "nowhere" : "more than once") + ": " + old);
            }
            return src.substring(0, at) + replacement + src.substring(at + old.length());
        };
    }

    /** The double_lock_balance family's files. */
    public static final List<String> FAMILY = List.of("kernel/sched/sched.h", "kernel/sched/core.c");
}
