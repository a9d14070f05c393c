package kcheck.cli;

import java.nio.file.Path;

import kcheck.model.ModelFactory;
import kcheck.variantfile.VariantFile;

/** The {@code --variant-file} option as the commands share it. */
final class VariantFiles {
    private VariantFiles() {
    }

    /**
     * Loads {@code file} as a variant of {@code model} (null: the model its class implements the
     * contract of); null if no file was given. {@code --variant} and {@code --variant-file}
     * exclude each other: the file is the variant.
     */
    static VariantFile load(Path file, String variant, ModelFactory model) {
        if (file == null) {
            return null;
        }
        if (variant != null) {
            throw new UsageException("--variant and --variant-file exclude each other (the file is the variant)");
        }
        return VariantFile.load(file, model);
    }

    /** Work that may throw an IOException, run under {@link VariantFile#guard}. */
    @FunctionalInterface
    interface IoWork<T> {
        T run() throws java.io.IOException;
    }

    /** {@code vf.guard(work)} for work that may throw an IOException (rethrown as it was). */
    static <T> T guard(VariantFile vf, IoWork<T> work) throws java.io.IOException {
        try {
            return vf.guard(() -> {
                try {
                    return work.run();
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
        } catch (java.io.UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** One line for the output: which file, which content. */
    static String describe(VariantFile vf) {
        return "variant " + vf.variantName() + " of " + vf.model().name() + " from " + vf.path() + " (sha256 " + vf.sha256() + ")";
    }
}
