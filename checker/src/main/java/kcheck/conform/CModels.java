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

    /** The model over the tree's C: rq-lock or cpudl. */
    public static Model create(String model, Path dir, String variant, Path variantFile, Integer cpus, Map<String, String> params,
            List<String> properties) {
        if (variant != null || variantFile != null) {
            throw new UsageException("--kernel-tree is the variant (the tree's C): --variant and --variant-file do not apply");
        }
        if (RqLockFactory.NAME.equals(model)) {
            return rqLock(model, dir, cpus, params, properties);
        }
        if (kcheck.model.cpudl.CpudlFactory.NAME.equals(model)) {
            return cpudl(model, dir, cpus, params, properties);
        }
        throw new UsageException("--kernel-tree runs a tree's C as the model for rq-lock and cpudl; " + model
                + " has none (kcheck conform compares ports with the C where it can)");
    }

    /** Properties the C cannot be checked for, and why. */
    static final Map<String, String> CPUDL_NOT_ON_C = Map.of(
            "writes", "the C's stores are not counted (only the fields it changed are seen)",
            "warn-cpu-present", "the C's WARN_ON is not reported by the driver",
            "warn-find-best-cpu", "the C's WARN_ON is not reported by the driver",
            "find-race", "a lockless cpudl_find racing with a call needs the call's intermediate views, which the C does not give");

    /** The cpudl model whose heap is the tree's cpudeadline.c ({@link CCpudlHeap}). */
    static Model cpudl(String model, Path dir, Integer cpus, Map<String, String> params, List<String> properties) {
        ModelFactory f = kcheck.model.Models.get(model);
        Map<String, String> given = new java.util.LinkedHashMap<>(Instances.given(f, cpus, params));
        given.putIfAbsent("find-race", "off");
        Params p = f.params(given);
        if (p.get("find-race").equals("on")) {
            throw new UsageException("--kernel-tree: find-race=on " + CPUDL_NOT_ON_C.get("find-race"));
        }
        Set<String> props = new java.util.LinkedHashSet<>(Instances.selection(f, properties));
        for (String named : properties == null ? List.<String>of() : properties) {
            if (CPUDL_NOT_ON_C.containsKey(named)) {
                throw new UsageException("--kernel-tree: " + named + " is not checked on the C: " + CPUDL_NOT_ON_C.get(named));
            }
        }
        if (props.removeAll(CPUDL_NOT_ON_C.keySet())) {
            System.err.println("kcheck: --kernel-tree: not checked on the C: writes, warn-cpu-present, warn-find-best-cpu (see docs/conform.md)");
        }
        f.checkProperties(props);
        KernelTree tree;
        CpudlConformance.Port port;
        try {
            tree = KernelTree.open(dir, null);
            port = CpudlConformance.portFor(tree);
        } catch (KernelTree.TreeException | CpudlConformance.NoPortException e) {
            throw new UsageException(e.getMessage());
        }
        CDriver program;
        try {
            program = CpudlConformance.compile(tree, port, new StopCondition(0, null, kcheck.cli.Interrupts::reason));
        } catch (CDriver.CompileException e) {
            throw new UsageException("--kernel-tree: the tree's cpudeadline.c does not compile against kcheck's shim: "
                    + e.getMessage().lines().findFirst().orElse(""));
        } catch (IOException | DriverProcess.Stopped e) {
            throw new UsageException("--kernel-tree: " + e.getMessage());
        }
        CCpudlHeap heap = new CCpudlHeap(program, port, tree.dir().toString(), CpudlConformance.Options.CALL_TIMEOUT_MILLIS);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            heap.close();
            program.close();
        }));
        String name = "C of " + tree.dir() + " (v" + tree.version() + ")";
        return ((kcheck.model.cpudl.CpudlFactory) f).create(name, heap, p, props);
    }

    /** The rq-lock model over the tree's C; the lock stays the model's ({@code --param lock}). */
    static Model rqLock(String model, Path dir, Integer cpus, Map<String, String> params, List<String> properties) {
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
