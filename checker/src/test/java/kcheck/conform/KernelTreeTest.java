package kcheck.conform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KernelTreeTest {
    @TempDir
    Path tmp;

    private Path tree(String name, String makefile) throws IOException {
        Path d = Files.createDirectories(tmp.resolve(name));
        if (makefile != null) {
            Files.writeString(d.resolve("Makefile"), makefile);
        }
        return d;
    }

    @Test
    void theVersionComesFromTheTopLevelMakefile() throws Exception {
        Path d = tree("t", "# SPDX\nVERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 117\nEXTRAVERSION =\nNAME = Baby Opossum Posse\n");
        KernelTree t = KernelTree.open(d, null);
        assertThat(t.version()).isEqualTo("6.12.117");
        assertThat(t.series()).isEqualTo("6.12");
        assertThat(t.file("kernel/sched/cpudeadline.c")).isEqualTo(d.resolve("kernel/sched/cpudeadline.c"));
    }

    @Test
    void aGivenVersionWinsOverTheMakefileAndNeedsNone() throws Exception {
        Path d = tree("t", null);
        assertThat(KernelTree.open(d, "v6.1").version()).isEqualTo("6.1");
        assertThat(KernelTree.open(d, "6.12.3").sublevel()).isEqualTo(3);
        assertThatThrownBy(() -> KernelTree.open(d, "six")).hasMessageContaining("'six' is not of the form 6.12");
    }

    @Test
    void aTreeWithoutMakefileOrVersionLinesIsRefusedWithOneLine() throws Exception {
        Path none = tree("none", null);
        assertThatThrownBy(() -> KernelTree.open(none, null)).isInstanceOf(KernelTree.TreeException.class)
                .hasMessageContaining("has no readable Makefile (give the version with --kernel-version)");
        Path odd = tree("odd", "all:\n\techo hi\n");
        assertThatThrownBy(() -> KernelTree.open(odd, null)).hasMessageContaining("has no VERSION/PATCHLEVEL lines");
        assertThatThrownBy(() -> KernelTree.open(tmp.resolve("missing"), null)).hasMessageContaining("is not a readable directory");
    }

    @Test
    void theEnvironmentListIsColonSeparatedAndReportsWhatItSkips() throws Exception {
        Path a = tree("a", "VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 1\n");
        Path b = tree("b", "VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 2\n");
        List<String> problems = new ArrayList<>();
        List<KernelTree> trees = KernelTree.parseList(a + "::" + tmp.resolve("gone") + ":" + b + ":", problems);
        assertThat(trees).extracting(KernelTree::version).containsExactly("6.12.1", "6.1.2");
        assertThat(problems).singleElement().asString().contains("gone").contains("not a readable directory");
        assertThat(KernelTree.parseList(null, problems)).isEmpty();
    }
}
