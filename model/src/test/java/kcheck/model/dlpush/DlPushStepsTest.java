package kcheck.model.dlpush;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import kcheck.model.Model;
import kcheck.model.ModelFactory;
import kcheck.model.Models;
import kcheck.model.Property;
import kcheck.model.PropertyInfo;

/**
 * The two commits' own schedules, walked step by step through dl-push at its default bounds
 * (CPUs 0..2, rq A = CPU 2, tasks t0 and t1), and what each variant's push does at their end.
 */
class DlPushStepsTest {
    private static final ModelFactory F = Models.get("dl-push");

    private static Model model(String variant, String... kv) {
        Map<String, String> p = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            p.put(kv[i], kv[i + 1]);
        }
        return F.create(variant, F.params(p), Set.copyOf(F.properties().stream().map(PropertyInfo::id).toList()));
    }

    private static Map<String, String> fields(Model m, long[] s) {
        Map<String, String> f = new LinkedHashMap<>();
        m.decode(s, (actor, name, value) -> f.put(name, value));
        return f;
    }

    /** The initial state whose decoded fields include {@code want}. */
    private static long[] initial(Model m, Map<String, String> want) {
        List<long[]> found = new ArrayList<>();
        m.initial(s -> {
            if (fields(m, s).entrySet().containsAll(want.entrySet())) {
                found.add(s.clone());
            }
        });
        assertThat(found).as("initial states with %s", want).isNotEmpty();
        return found.get(0);
    }

    /** Takes, from {@code s}, the step whose label starts with {@code label}. */
    private static long[] step(Model m, long[] s, String label) {
        List<long[]> next = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        m.successors(s, (actor, action, n) -> {
            String l = m.describe(actor, action).label();
            labels.add(l);
            if (l.startsWith(label)) {
                next.add(n.clone());
            }
        });
        assertThat(next).as("a step '%s' among %s", label, labels).hasSize(1);
        return next.get(0);
    }

    private static List<String> violated(Model m, long[] s) {
        List<String> out = new ArrayList<>();
        for (Property p : m.properties()) {
            if (p instanceof kcheck.model.Invariant inv && !inv.holds(s)) {
                out.add(p.id());
            }
        }
        return out;
    }

    /** t0 queued and pushable on rq A, t1 asleep on CPU 0 with a later deadline, a task of another class on every CPU. */
    private static final Map<String, String> START = Map.of("t1.on_rq", "0", "t1.cpu", "0", "t0.dl", "0",
            "rq2 (A).curr", "-");

    private static long[] toWindow(Model m) {
        long[] s = initial(m, START);
        s = step(m, s, "next_task = pick_next_pushable_dl_task");
        s = step(m, s, "retry");
        return step(m, s, "later_rq = CPU 0; double_lock_balance = 1");
    }

    /** The pusher after the window: it locks both runqueues and re-checks; if the task passes, it pushes it. */
    private static long[] pushAfterWindow(Model m, long[] s) {
        s = step(m, s, "double_rq_lock");
        s = step(m, s, "re-check");
        if (fields(m, s).get("pc").equals("dl_task_is_earliest_deadline")) {
            s = step(m, s, "dl_task_is_earliest_deadline(task, later_rq) = 1");
            s = step(m, s, "deactivate_task");
        }
        return s;
    }

    /** feffe5bb274d's schedule: t0 runs on its CPU in the window, calls migrate_disable() and is preempted. */
    private static long[] migrateDisabledWindow(Model m) {
        long[] s = toWindow(m);
        s = step(m, s, "schedule(): t0 runs");
        s = step(m, s, "t0: migrate_disable()");
        return step(m, s, "schedule(): t0 preempted");
    }

    @Test
    void beforeFeffe5bb274dThePushMovesAMigrationDisabledTaskAndSetTaskCpuWarns() {
        Model m = model("bug-feffe5bb274d");
        long[] s = pushAfterWindow(m, migrateDisabledWindow(m));
        assertThat(fields(m, s)).containsEntry("t0.cpu", "0").containsEntry("t0.migration_disabled", "1");
        assertThat(violated(m, s)).contains("warn-set-task-cpu-migration-disabled");
    }

    @Test
    void fromFeffe5bb274dOnTheRecheckRefusesTheMigrationDisabledTask() {
        for (String v : List.of("bug-8fd5485fb4f3", "v6.12-fixed")) {
            Model m = model(v);
            long[] s = pushAfterWindow(m, migrateDisabledWindow(m));
            assertThat(fields(m, s)).as(v).containsEntry("t0.cpu", "2").containsEntry("pc", "!later_rq");
            assertThat(violated(m, s)).as(v).isEmpty();
        }
    }

    /** 8fd5485fb4f3's schedule: t0 runs on rq A's CPU, blocks, and t1 and then t0 are woken onto rq A, t0 behind t1. */
    private static long[] wokenBackBehindWindow(Model m) {
        long[] s = toWindow(m);
        s = step(m, s, "schedule(): t0 runs");
        s = step(m, s, "t0 blocks");
        s = step(m, s, "try_to_wake_up(t0) onto CPU 2, deadline rank 1");
        return s;
    }

    @Test
    void atV612ThePushMovesATaskThatLeftAndCameBackBehindAnEarlierOne() {
        Model m = model("bug-8fd5485fb4f3", "events", "4");
        long[] s = wokenBackBehindWindow(m);
        s = step(m, s, "try_to_wake_up(t1) onto CPU 2, deadline rank 0");
        assertThat(fields(m, s)).containsEntry("t0.pushable", "rq2").containsEntry("t1.pushable", "rq2").containsEntry("t1.dl", "0");
        s = pushAfterWindow(m, s);
        assertThat(fields(m, s)).containsEntry("t0.cpu", "0");
        assertThat(violated(m, s)).containsExactly("push-moves-pushable-head");
    }

    @Test
    void theFixedRecheckRefusesItAndRetriesWithTheLeftmostTask() {
        Model m = model("v6.12-fixed", "events", "4");
        long[] s = wokenBackBehindWindow(m);
        s = step(m, s, "try_to_wake_up(t1) onto CPU 2, deadline rank 0");
        s = pushAfterWindow(m, s);
        assertThat(fields(m, s)).containsEntry("pc", "!later_rq").containsEntry("t0.cpu", "2");
        s = step(m, s, "!later_rq");
        assertThat(fields(m, s)).containsEntry("pc", "retry").containsEntry("next_task", "t1");
        assertThat(violated(m, s)).isEmpty();
    }
}
