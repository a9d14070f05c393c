package kcheck.model.rwsem;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import kcheck.model.Layout;

/**
 * Which tasks the canonical forms treat as interchangeable, and when. {@link TaskSymmetry} may
 * only rename tasks of one kind (readers that store their pointer among themselves, writers with
 * the same RT flag among themselves), with each program node taken to a node doing the same thing;
 * anonymous readers are sorted instead, and not under a fair progress property, whose step classes
 * name tasks. The verdict searches reach most states by several paths, so a group that is too
 * large or a sort applied where it is not allowed went unnoticed by them (PIT: TaskSymmetry 35,
 * 75, 78, 145, 148; RwsemSymmetry 33, 65, 125).
 */
class RwsemSymmetryTest {

    private static TaskSymmetry group(RwsemRig rig) {
        return RwsemSymmetry.tasks(rig.l);
    }

    @Test
    void writersAreRenamedOnlyAmongWritersWithTheSameRtFlagAndNamedReadersAmongReaders() {
        // v6.12 readers store their task pointer (owner = reader | RWSEM_READER_OWNED): 2 readers,
        // writer 0 RT, writers 1 and 2 not. Readers 2!, non-RT writers 2!: 4 renamings.
        RwsemRig rig = new RwsemRig("v6.12", Set.of("exclusion"), "readers", "2", "writers", "3", "rt", "w0", "rounds", "0");
        assertThat(rig.l.dom.readersAnonymous()).isFalse();
        TaskSymmetry sym = group(rig);
        assertThat(sym.perms.length).as("renamings").isEqualTo(4);
        assertKinds(rig, sym);
        assertThat(sym.movesReaders(rig.l.nr)).as("some renaming swaps the readers").isTrue();
        assertThat(sym.perms[0]).as("perms[0] is the identity").containsExactly(0, 1, 2, 3, 4);
    }

    @Test
    void anonymousReadersAreNeverRenamedOnlySorted() {
        // v4.8 (xadd): readers never store their pointer; writers 1 and 2 are interchangeable.
        RwsemRig rig = new RwsemRig("after", Set.of("exclusion"), "readers", "3", "writers", "3", "rt", "w0", "rounds", "0");
        assertThat(rig.l.dom.readersAnonymous()).isTrue();
        TaskSymmetry sym = group(rig);
        assertThat(sym.perms.length).as("renamings").isEqualTo(2);
        assertKinds(rig, sym);
        assertThat(sym.movesReaders(rig.l.nr)).isFalse();
        assertThat(rig.model.reductions()).anyMatch(r -> r.startsWith("reader-symmetry"))
                .anyMatch(r -> r.startsWith("writer-symmetry"));
    }

    private static void assertKinds(RwsemRig rig, TaskSymmetry sym) {
        RwsemLayout l = rig.l;
        for (int[] pi : sym.perms) {
            for (int t = 0; t < l.n; t++) {
                if (t < l.nr) {
                    assertThat(pi[t]).as("reader %d goes to a reader", t).isLessThan(l.nr);
                    if (l.dom.readersAnonymous()) {
                        assertThat(pi[t]).as("anonymous reader %d stays", t).isEqualTo(t);
                    }
                } else {
                    assertThat(pi[t]).as("writer %d goes to a writer", t).isGreaterThanOrEqualTo(l.nr);
                    assertThat(l.rt[pi[t] - l.nr]).as("RT flag of writer %d's image", t).isEqualTo(l.rt[t - l.nr]);
                }
            }
        }
    }

    @Test
    void everyRenamingTakesEachNodeToANodeDoingTheSameThing() {
        for (RwsemRig rig : List.of(
                new RwsemRig("v6.12", Set.of("exclusion"), "readers", "2", "writers", "2", "rt", "none", "rounds", "1"),
                new RwsemRig("after", Set.of("exclusion"), "readers", "1", "writers", "2", "rt", "none", "rounds", "1"))) {
            TaskSymmetry sym = group(rig);
            assertThat(sym.trivial()).isFalse();
            for (int i = 0; i < sym.perms.length; i++) {
                for (int t = 0; t < rig.l.n; t++) {
                    TaskProgram a = rig.l.prog[t];
                    TaskProgram b = rig.l.prog[sym.perms[i][t]];
                    int[] map = sym.pcMap[i][t];
                    assertThat(map).hasSize(a.size);
                    for (int x = 0; x < a.size; x++) {
                        int y = map[x];
                        assertThat(y).as("renaming %d, task %d, node %d", i, t, x).isBetween(0, b.size - 1);
                        assertThat(b.op[y]).isEqualTo(a.op[x]);
                        assertThat(b.function[y]).isEqualTo(a.function[x]);
                    }
                    assertThat(map[a.root]).isEqualTo(b.root);
                }
            }
        }
    }

    @Test
    void theIdentityGroupRenamesNothing() {
        RwsemRig rig = new RwsemRig("v6.12", Set.of("exclusion"), "readers", "1", "writers", "2", "rt", "none", "rounds", "1");
        TaskSymmetry id = TaskSymmetry.identity(rig.l.prog);
        assertThat(id.trivial()).isTrue();
        assertThat(id.perms[0]).containsExactly(0, 1, 2);
        for (int t = 0; t < rig.l.n; t++) {
            int[] map = id.pcMap[0][t];
            assertThat(map).hasSize(rig.l.prog[t].size);
            for (int x = 0; x < map.length; x++) {
                assertThat(map[x]).isEqualTo(x);
            }
        }
    }

    /** The fields that travel with a reader when two readers trade places (RwsemSymmetry's list, written out again). */
    private static Layout.Field[][] readerFields(RwsemLayout l) {
        return new Layout.Field[][] {l.pc, l.qpos, l.woken, l.preempted, l.resched, l.timedOut, l.handoffSet, l.rdNonspinnable,
            l.obsNull, l.missNull, l.missRo};
    }

    private static long[] swapReaders(RwsemLayout l, long[] s) {
        long[] out = s.clone();
        for (Layout.Field[] f : readerFields(l)) {
            f[0].set(out, f[1].get(s));
            f[1].set(out, f[0].get(s));
        }
        return out;
    }

    @Test
    void twoAnonymousReadersThatTradePlacesHaveOneCanonicalForm() {
        RwsemRig rig = new RwsemRig("after", Set.of("exclusion"), "readers", "2", "writers", "1", "rt", "none", "rounds", "1");
        Set<List<Long>> reachable = new HashSet<>();
        List<long[]> states = rig.reachable();
        for (long[] s : states) {
            reachable.add(key(s));
        }
        int asymmetric = 0;
        for (long[] s : states) {
            long[] t = swapReaders(rig.l, s);
            assertThat(reachable).as("the readers' swap is a symmetry of the model").contains(key(t));
            long[] cs = s.clone();
            long[] ct = t.clone();
            rig.model.canonicalize(cs);
            rig.model.canonicalize(ct);
            assertThat(ct).as("canonical forms of %s and its swap", Arrays.toString(s)).containsExactly(cs);
            if (!Arrays.equals(s, t)) {
                asymmetric++;
            }
        }
        assertThat(asymmetric).as("states where the two readers differ").isPositive();
    }

    @Test
    void underAFairProgressPropertyNoStateIsRenamedOrSorted() {
        for (String[] cfg : new String[][] {{"after", "2", "1"}, {"v6.12", "1", "2"}}) {
            RwsemRig rig = new RwsemRig(cfg[0], Set.of("exclusion", "sleeping-writer-woken"), "readers", cfg[1], "writers",
                    cfg[2], "rt", "none", "rounds", "1");
            assertThat(rig.model.reductions()).noneMatch(r -> r.startsWith("reader-symmetry"))
                    .noneMatch(r -> r.contains("-symmetry:"))
                    .anyMatch(r -> r.startsWith("no task symmetry"));
            for (long[] s : rig.reachable()) {
                long[] c = s.clone();
                rig.model.canonicalize(c);
                assertThat(c).as("%s: canonical form of %s", cfg[0], Arrays.toString(s)).containsExactly(s);
            }
        }
    }

    @Test
    void namedReadersAreNotSortedButRenamed() {
        RwsemRig rig = new RwsemRig("v6.12", Set.of("exclusion"), "readers", "2", "writers", "1", "rt", "none", "rounds", "0");
        assertThat(rig.model.reductions()).noneMatch(r -> r.startsWith("reader-symmetry"))
                .anyMatch(r -> r.startsWith("task-symmetry: readers"));
    }

    private static List<Long> key(long[] s) {
        return Arrays.stream(s).boxed().toList();
    }
}
