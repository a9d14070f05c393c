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

    /** One line for the output: which file, which content. */
    static String describe(VariantFile vf) {
        return "variant " + vf.variantName() + " of " + vf.model().name() + " from " + vf.path() + " (sha256 " + vf.sha256() + ")";
    }
}
