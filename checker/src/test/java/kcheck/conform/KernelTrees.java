package kcheck.conform;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;

/** The kernel trees of {@code KCHECK_KERNEL_TREES} for tests, or a skip with a printed line saying why. */
public final class KernelTrees {
    private KernelTrees() {
    }

    public static List<KernelTree> orSkip(String what) {
        List<String> problems = new ArrayList<>();
        List<KernelTree> trees = KernelTree.fromEnvironment(problems);
        problems.forEach(p -> System.out.println("[kcheck conform] " + KernelTree.ENV + ": skipped " + p));
        if (trees.isEmpty()) {
            String why = "[kcheck conform] SKIPPED " + what + ": " + KernelTree.ENV + " lists no kernel tree (CI unpacks Debian's "
                    + "linux-source-6.12 and linux-source-6.1 there; locally e.g. KCHECK_KERNEL_TREES=/usr/src/linux-source-6.12)";
            System.out.println(why);
            assumeTrue(false, why);
        }
        return trees;
    }
}
