package kcheck.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

import org.apache.pekko.actor.typed.ActorSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import kcheck.engine.Options;
import kcheck.engine.ProgressListener;
import kcheck.engine.RunResult;
import kcheck.engine.Verdict;
import kcheck.model.Model;
import kcheck.model.ModelFactory;
import kcheck.model.Models;

/**
 * Three worker JVMs ({@code kcheck worker --join}) on loopback and a coordinator in this JVM: the
 * one-machine verdicts, counts and shortest-trace lengths on one baseline group per model at quick
 * bounds ({@code -Pcluster-full}: every group at full bounds); then one worker is killed with
 * SIGKILL during a search, which ends INCOMPLETE naming the lost node.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ThreeJvmClusterTest {
    static final boolean FULL = Boolean.getBoolean("kcheck.cluster.full");
    Workers workers;
    ActorSystem<Void> coordinator;

    @BeforeAll
    void start() throws Exception {
        workers = new Workers(3);
        coordinator = Nodes.coordinator("127.0.0.1", List.of(Nodes.address(workers.seed())));
    }

    @AfterAll
    void stop() throws Exception {
        coordinator.terminate();
        workers.close();
    }

    @TestFactory
    @Order(1)
    Stream<DynamicTest> threeWorkerJvmsGiveTheOneMachineResult() {
        return (FULL ? Groups.all(false) : Groups.onePerModel(true)).stream().map(g -> DynamicTest.dynamicTest(g.name(), () -> {
            RunResult one = Groups.oneMachine(g);
            RunResult three = PekkoCluster.run(g.model(), Options.defaults(), coordinator, 3);
            Groups.assertSame(g.model(), one, three);
            assertThat(three.stats().workers()).isEqualTo(3);
        }));
    }

    @Test
    @Order(2)
    void losingANodeEndsTheSearchIncompleteNamingTheNode() {
        ModelFactory f = Models.get("rq-lock");
        Model m = f.create("after", f.params(Map.of("cpus", "3")), Set.of("mutual-exclusion", "fifo-entry"));
        AtomicBoolean killed = new AtomicBoolean();
        ProgressListener killAtDepth3 = p -> {
            if (p.depth() >= 3 && killed.compareAndSet(false, true)) {
                workers.processes.get(2).destroyForcibly();
            }
        };
        RunResult r = PekkoCluster.run(m, Options.defaults().withListener(killAtDepth3), coordinator, 3);
        assertThat(killed).isTrue();
        assertThat(r.stats().complete()).isFalse();
        assertThat(r.stats().limit()).contains("lost node").contains(":" + workers.ports.get(2));
        assertThat(r.property("mutual-exclusion").verdict()).isEqualTo(Verdict.INCOMPLETE);
    }
}
