package kcheck.model.cpudl;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import kcheck.model.Invariant;
import kcheck.model.Model;
import kcheck.model.Property;

/**
 * A state the kernel would flag is a verdict on its property, never a limit of the model: each
 * kernel check and sanity property of {@link CpudlFault}, shown to fail on a variant that breaks it
 * (and to hold on the ports).
 */
class CpudlFaultTest {
    private static final CpudlFactory F = new CpudlFactory();
    private static final Set<String> FAULTS = Set.of("warn-cpu-present", "warn-find-best-cpu", "sanity-fields", "sanity-bounds",
            "bounded-work", "find-race");

    /** The explanation of the first state within two calls (and finds) that violates {@code id}, or null. */
    private static String firstViolation(CpudlHeap impl, String id, Map<String, String> params) {
        return firstViolation(impl, id, params, Set.of(id, "find-sound"));
    }

    private static String firstViolation(CpudlHeap impl, String id, Map<String, String> params, Set<String> props) {
        Model m = F.create("fault-test", impl, F.params(params), props);
        Invariant inv = null;
        for (Property p : m.properties()) {
            if (p.id().equals(id)) {
                inv = (Invariant) p;
            }
        }
        List<long[]> frontier = new ArrayList<>();
        m.initial(s -> frontier.add(s.clone()));
        for (int level = 0; level < 4; level++) {
            List<long[]> next = new ArrayList<>();
            for (long[] s : frontier) {
                if (!inv.holds(s)) {
                    return inv.explain(s);
                }
                m.successors(s, (a, action, t) -> next.add(t.clone()));
            }
            frontier.clear();
            frontier.addAll(next);
        }
        return null;
    }

    /**
     * A walk without a visited set (four levels from every initial state): about 35 s, so it runs with the long tests;
     * the default build gates the same properties HOLDING on these ports exhaustively, at larger bounds, through
     * kcheck-baseline.json ({@code ./kcheck verify}).
     */
    @Tag("long")
    @Test
    void theKernelChecksAndSanityPropertiesHoldOnThePorts() {
        for (String v : List.of("before", "after", "rfc-v2", "v6.12")) {
            for (String id : FAULTS) {
                if (v.equals("before") && id.equals("find-race")) {
                    continue; /* v4.8 before its fixes: its broken heap and free_cpus break find-race too */
                }
                assertThat(firstViolation(CpudlFactory.implementation(v), id, Map.of("cpus", "3", "hotplug", "on", "keys", "small")))
                        .as(v + " " + id).isNull();
            }
        }
    }

    @Test
    void aCallForACpuThatIsNotPresentFiresTheWarnOfCpudlClear() {
        CpudlHeap v = new CpudlV612() {
            @Override
            public void rqOfflineDl(Cpudl cp, int cpu) {
                clear(cp, cpu + 1, false); /* off by one: the last CPU's neighbour is not a CPU */
            }
        };
        assertThat(firstViolation(v, "warn-cpu-present", Map.of("cpus", "2", "hotplug", "on")))
                .isEqualTo("kernel/sched/cpudeadline.c:179/222 (v6.12) WARN_ON(!cpu_present(cpu)) fired: cpudl_set/cpudl_clear was called "
                        + "for cpu 2, not a present CPU (0..1)");
    }

    @Test
    void aRootThatIsNotACpuIsSanityFieldsAndOnAnEmptyHeapTheFindWarn() {
        CpudlHeap inHeap = new CpudlV49() {
            @Override
            public void set(Cpudl cp, int cpu, long dl) {
                super.set(cp, cpu, dl);
                cp.setCpu(0, 7);
            }
        };
        assertThat(firstViolation(inHeap, "sanity-fields", Map.of()))
                .isEqualTo("elements[0].cpu = 7 (slot 0 < size) is not a CPU id 0..3");
        CpudlHeap stale = new CpudlV49() {
            @Override
            public void clear(Cpudl cp, int cpu) {
                super.clear(cp, cpu);
                if (cp.size == 0) {
                    cp.setCpu(0, -5);
                }
            }
        };
        assertThat(firstViolation(stale, "warn-find-best-cpu", Map.of()))
                .startsWith("kernel/sched/cpudeadline.c:151 (v6.12) WARN_ON(best_cpu != -1 && !cpu_present(best_cpu)): the heap root "
                        + "elements[0].cpu = -5");
    }

    @Test
    void anIdxOrSizeOutsideItsMeaningIsSanityFields() {
        CpudlHeap idx = new CpudlV49() {
            @Override
            public void set(Cpudl cp, int cpu, long dl) {
                super.set(cp, cpu, dl);
                cp.setIdx(cpu, 9);
            }
        };
        assertThat(firstViolation(idx, "sanity-fields", Map.of()))
                .isEqualTo("elements[0].idx = 9 is neither IDX_INVALID (-1) nor a heap slot 0..3");
        CpudlHeap size = new CpudlV49() {
            @Override
            public void clear(Cpudl cp, int cpu) {
                cp.size = -1; /* cp->size-- once too often */
            }
        };
        assertThat(firstViolation(size, "sanity-fields", Map.of())).isEqualTo("cp->size = -1 is outside 0..4 (nr_cpu_ids: the number of heap entries)");
    }

    @Test
    void aRemovalWithoutTheIdxInvalidCheckReadsElementsMinusOne() {
        CpudlHeap v = new CpudlV49() {
            @Override
            public void clear(Cpudl cp, int cpu) {
                int oldIdx = cp.idx(cpu); /* no "old_idx == IDX_INVALID" check */
                int newCpu = cp.cpu(cp.size - 1);
                cp.setDl(oldIdx, cp.dl(cp.size - 1));
                cp.setCpu(oldIdx, newCpu);
                cp.size--;
                cp.setIdx(newCpu, oldIdx);
                cp.setIdx(cpu, Cpudl.IDX_INVALID);
                cpudlHeapify(cp, oldIdx);
                cp.freeCpus.setCpu(cpu);
            }
        };
        assertThat(firstViolation(v, "sanity-bounds", Map.of())).startsWith("the call accessed elements[] outside 0..3")
                .contains("index -1");
    }

    @Test
    void aHeapifyThatNeverEndsIsBoundedWorkNotAHang() {
        assertThat(firstViolation(new CpudlMutants.HeapifyUpLoops(), "bounded-work", Map.of()))
                .isEqualTo("the call did not finish within its O(log n) work bound (element accesses > 320): a heapify loop that does not end");
        CpudlHeap stores = new CpudlV49() {
            @Override
            public void set(Cpudl cp, int cpu, long dl) {
                super.set(cp, cpu, dl);
                for (int i = 0; i < 200; i++) {
                    cp.setDl(cp.idx(cpu), dl);
                }
            }
        };
        assertThat(firstViolation(stores, "bounded-work", Map.of())).startsWith("the call did not finish within its O(log n) work bound");
    }

    @Test
    void aLocklessFindRacingWithAScratchStoreIntoTheRootFiresTheFindWarn() {
        CpudlHeap v = new CpudlV612() {
            @Override
            public void set(Cpudl cp, int cpu, long dl) {
                if (cp.size > 0) {
                    int root = cp.cpu(0);
                    cp.setCpu(0, cp.nrCpus()); /* a placeholder only a lockless reader can see */
                    cp.setCpu(0, root);
                }
                super.set(cp, cpu, dl);
            }
        };
        assertThat(firstViolation(v, "warn-find-best-cpu", Map.of("cpus", "3"), Set.of("warn-find-best-cpu", "find-race")))
                .startsWith("kernel/sched/cpudeadline.c:151 (v6.12) WARN_ON(best_cpu != -1 && !cpu_present(best_cpu)): the heap root "
                        + "elements[0].cpu = 3");
        assertThat(firstViolation(v, "warn-find-best-cpu", Map.of("cpus", "3", "find-race", "off"),
                Set.of("warn-find-best-cpu", "find-race"))).as("between whole calls the placeholder is never seen").isNull();
    }

    @Test
    void aLocklessFindThatSeesAnOfflineCpuInTheRootIsFindRace() {
        CpudlHeap v = new CpudlV612() {
            @Override
            public void set(Cpudl cp, int cpu, long dl) {
                if (cp.size > 0) {
                    int root = cp.cpu(0);
                    cp.setCpu(0, 1); /* CPU 1 is down in the trace: neither free nor in the heap */
                    cp.setCpu(0, root);
                }
                super.set(cp, cpu, dl);
            }
        };
        assertThat(firstViolation(v, "find-race", Map.of("cpus", "2", "hotplug", "on", "keys", "small"), Set.of("find-race")))
                .contains("racing with this call").contains("offers cpu 1");
    }
}
