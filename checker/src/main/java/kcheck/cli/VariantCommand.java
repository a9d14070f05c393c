package kcheck.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.Callable;

import kcheck.model.ModelFactory;
import kcheck.model.Models;
import kcheck.variantfile.VariantSource;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code kcheck variant new MODEL NAME [--from V] [-o DIR]}: start your own variant from a built-in one. */
@Command(name = "variant", mixinStandardHelpOptions = true, description = "Your own variants: 'variant new' writes a copy of a built-in one to edit.",
        subcommands = {VariantCommand.New.class})
final class VariantCommand implements Runnable {

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing subcommand: new");
    }

    /** Writes one Java source file: the reference implementation of a variant, renamed. */
    @Command(name = "new", mixinStandardHelpOptions = true, description = "Write a copy of a built-in variant's reference implementation, renamed to NAME, "
            + "to edit and check with 'kcheck check MODEL --variant-file FILE'. Never overwrites a file.")
    static final class New implements Callable<Integer> {

        @Parameters(index = "0", paramLabel = "MODEL", description = "rq-lock, cpudl, ...")
        String model;

        @Parameters(index = "1", paramLabel = "NAME", description = "name of your variant (e.g. my-fix): the class is its "
                + "CamelCase form (MyFix), the file MyFix.java")
        String name;

        @Option(names = "--from", paramLabel = "V", description = "the built-in variant to copy (default after)")
        String from = "after";

        @Option(names = {"-o", "--output-dir"}, paramLabel = "DIR", description = "directory to write into, created if missing "
                + "(default: the current one)")
        Path dir = Path.of("");

        @Override
        public Integer call() {
            ModelFactory f = Models.get(model);
            Path d = dir.toAbsolutePath().normalize();
            if (Files.exists(d) && !Files.isDirectory(d)) {
                throw new UsageException("-o " + dir + ": not a directory");
            }
            try {
                Files.createDirectories(d);
            } catch (IOException e) {
                throw new UsageException("-o " + dir + ": cannot create the directory (" + e.getMessage() + ")");
            }
            String cls = VariantSource.className(name);
            Path target = d.resolve(cls + ".java");
            VariantSource.Copy copy = VariantSource.render(f, from, name, target);
            if (Files.exists(target)) {
                throw new UsageException(target + " exists: not overwritten (choose another NAME or -o DIR)");
            }
            try {
                Files.writeString(target, copy.text(), StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            } catch (FileAlreadyExistsException e) {
                throw new UsageException(target + " exists: not overwritten (choose another NAME or -o DIR)");
            } catch (IOException e) {
                throw new UsageException("cannot write " + target + ": " + e.getMessage());
            }
            System.out.println("wrote " + target + ": variant " + name + " of " + f.name() + ", a copy of " + from + " ("
                    + copy.source().getName() + ")");
            System.out.println("edit it, then: kcheck check " + f.name() + " --variant-file " + target);
            return ExitCodes.OK;
        }
    }
}
