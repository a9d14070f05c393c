package kcheck.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.apache.pekko.actor.typed.ActorSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;

import kcheck.engine.Engine;
import kcheck.engine.Options;
import kcheck.engine.RunResult;

/**
 * Three cluster nodes in this JVM (three actor systems, talking over Artery TCP on loopback): on
 * every baseline group at quick bounds decided within {@link Groups#CAP} states (the default build: every
 * tenth of them; {@code -Dkcheck.long=true}, as .ci/run's long tests: all), the verdicts,
 * distinct-state counts and shortest-trace lengths of one machine; one printed line names the
 * groups left to {@code -Pcluster-full} ({@code -Dkcheck.cluster.full=true}: every group at the
 * baseline's full bounds).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LocalClusterTest {
    static final boolean FULL = Boolean.getBoolean("kcheck.cluster.full");
    static final boolean LONG = Boolean.getBoolean("kcheck.long");
    final List<ActorSystem<?>> systems = new ArrayList<>();

    @BeforeAll
    void start() {
        ActorSystem<Msg.ToPartition> first = Nodes.worker("127.0.0.1", 0, List.of());
        systems.add(first);
        for (int i = 1; i < 3; i++) {
            systems.add(Nodes.worker("127.0.0.1", 0, List.of(Nodes.self(first))));
        }
    }

    @AfterAll
    void stop() {
        systems.forEach(ActorSystem::terminate);
    }

    @TestFactory
    Stream<DynamicTest> threeNodesGiveTheOneMachineResultOnEveryBaselineGroup() {
        List<Groups.Group> groups;
        if (FULL) {
            groups = Groups.all(false);
        } else {
            /* the default build: every tenth group in baseline order (all four models stay covered); -Dkcheck.long=true: all */
            List<Groups.Group> candidates = Groups.all(true, LONG ? 1 : 10);
            if (!LONG) {
                System.out.println("[local cluster] the default build takes every tenth baseline group, " + candidates.size() + " of "
                        + Groups.count(true) + "; -Dkcheck.long=true takes all");
            }
            groups = Groups.decidedUnderCap(candidates, "local cluster");
        }
        return groups.stream().map(g -> DynamicTest.dynamicTest(g.name(), () -> {
            RunResult one = FULL ? Groups.oneMachine(g) : Groups.oneMachineUnderCap(g);
            RunResult three = PekkoCluster.run(g.model(), Options.defaults(), systems.get(0), 3);
            Groups.assertSame(g.model(), one, three);
            assertThat(three.stats().workers()).isEqualTo(3);
            if (Engine.countDependsOnOrder(g.model())) {
                // without partial-order reduction the counts must agree exactly
                Options noPor = Options.defaults().withPartialOrder(false);
                RunResult oneFull = Engine.check(g.model(), noPor.withWorkers(1));
                RunResult threeFull = PekkoCluster.run(g.model(), noPor, systems.get(0), 3);
                assertThat(threeFull.stats().complete()).isEqualTo(oneFull.stats().complete());
                if (oneFull.stats().complete()) {
                    assertThat(threeFull.stats().states()).as("distinct states without partial order")
                            .isEqualTo(oneFull.stats().states());
                }
            }
        }));
    }
}
