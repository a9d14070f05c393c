package kcheck.conform;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;

/**
 * The kernel trees of {@code KCHECK_KERNEL_TREES} for tests, or a skip saying why (a failure under
 * KCHECK_CI=1, as in .ci/run, which unpacks the trees).
 */
public final class KernelTrees {
    private KernelTrees() {
    }

    public static List<KernelTree> orSkip(String what) {
        List<String> problems = new ArrayList<>();
        List<KernelTree> trees = KernelTree.fromEnvironment(problems);
        problems.forEach(p -> System.out.println("[kcheck conform] " + KernelTree.ENV + ": skipped " + p));
        if (trees.isEmpty()) {
            assumeTrue(false, KernelTree.ENV + " lists no kernel tree, so " + what + " is not run (CI unpacks Debian's "
                    + "linux-source-6.12 and linux-source-6.1 there; locally e.g. KCHECK_KERNEL_TREES=/usr/src/linux-source-6.12)");
        }
        return trees;
    }
}
