package kcheck.conform;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import kcheck.cli.Instances;
import kcheck.cli.UsageException;
import kcheck.model.Model;
import kcheck.model.ModelFactory;
import kcheck.model.Params;
import kcheck.model.rqlock.RqLockFactory;

/**
 * Models whose CPUs run a kernel tree's own compiled C instead of a Java port
 * ({@code kcheck check MODEL --kernel-tree DIR}). Today: rq-lock, whose double_lock_balance family
 * is recorded from the C ({@link RqLockConformance#paths}) and replayed ({@link CDoubleLockBalance}).
 */
public final class CModels {
    private CModels() {
    }

    /** The rq-lock model over the tree's C; the lock stays the model's ({@code --param lock}). */
    public static Model rqLock(String model, Path dir, String variant, Path variantFile, Integer cpus, Map<String, String> params,
            List<String> properties) {
        if (!RqLockFactory.NAME.equals(model)) {
            throw new UsageException("--kernel-tree checks rq-lock's double_lock_balance family from a tree's C; " + model
                    + " has no such check (kcheck conform compares a port with the C)");
        }
        if (variant != null || variantFile != null) {
            throw new UsageException("--kernel-tree is the variant (the tree's C): --variant and --variant-file do not apply");
        }
        ModelFactory f = kcheck.model.Models.get(model);
        Params p = f.params(Instances.given(f, cpus, params));
        Set<String> props = Instances.selection(f, properties);
        f.checkProperties(props);
        KernelTree tree;
        try {
            tree = KernelTree.open(dir, null);
        } catch (KernelTree.TreeException e) {
            throw new UsageException(e.getMessage());
        }
        RqLockConformance.Config config = new RqLockConformance.Config(p.integer("cpus"), p.get("preempt").equals("y"),
                p.get("core-sched").equals("pairs"));
        List<RqLockConformance.CPath> paths;
        try {
            paths = RqLockConformance.paths(tree, config, new StopCondition(0, null, kcheck.cli.Interrupts::reason));
        } catch (CFunctions.NotFoundException | IOException e) {
            throw new UsageException("--kernel-tree: " + e.getMessage());
        } catch (CDriver.CompileException e) {
            throw new UsageException("--kernel-tree: the tree's double_lock_balance family does not compile against kcheck's shim: "
                    + e.getMessage().lines().findFirst().orElse(""));
        }
        String name = "C of " + tree.dir() + " (v" + tree.version() + ")";
        return ((RqLockFactory) f).create(name, new CDoubleLockBalance(tree.dir().toString(), paths), p, props);
    }
}
