package kcheck.model.rqlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import kcheck.model.Model;
import kcheck.model.ModelLimitException;

/** Every limit in {@link RqLockFactory#limits()} is a contract: a variant that crosses it gets a ModelLimitException saying so. */
class RqLockLimitsTest {
    private final RqLockFactory f = new RqLockFactory();

    private Model model(DoubleLockBalance impl, String... params) {
        Map<String, String> p = new java.util.HashMap<>();
        for (int i = 0; i < params.length; i += 2) {
            p.put(params[i], params[i + 1]);
        }
        return f.create("test", impl, f.params(p), Set.of("mutual-exclusion"));
    }

    /** Runs every successor of every state reachable in a few steps (enough to reach each lock step once). */
    private static void explore(Model m, int depth) {
        List<long[]> level = new java.util.ArrayList<>();
        m.initial(s -> level.add(s.clone()));
        for (int d = 0; d < depth; d++) {
            List<long[]> next = new java.util.ArrayList<>();
            for (long[] s : level) {
                m.successors(s, (a, b, n) -> next.add(n.clone()));
            }
            level.clear();
            level.addAll(next.size() > 200 ? next.subList(0, 200) : next);
        }
    }

    @Test
    void everyLimitIsListed() {
        assertThat(f.limits()).hasSize(6).allMatch(l -> l.endsWith("."));
    }

    @Test
    void tooManyPathsIsALimit() {
        // the same check as at MAX_RUNS (4096), with a bound a test can reach quickly
        assertThatThrownBy(() -> RecordedCode.record("many", RqConfig.plain(2), k -> {
            for (int i = 0; i < 5; i++) {
                if (k.spinTrylock(1)) {
                    k.spinUnlock(1);
                }
            }
            return 0;
        }, 16)).isInstanceOf(ModelLimitException.class).hasMessageContaining("at most 16 paths");
    }

    @Test
    void codeThatChangesOnARerunIsALimit() {
        DoubleLockBalance moody = new DoubleLockBalanceV2628() {
            int calls;

            @Override
            public int doubleLockBalance(RqLocks k, int thisRq, int busiest) {
                if (!k.spinTrylock(busiest)) {
                    k.spinUnlock(calls++ % 2 == 0 ? thisRq : busiest);
                }
                k.spinTrylock(thisRq);
                k.spinLock(busiest);
                return 0;
            }
        };
        assertThatThrownBy(() -> model(moody)).isInstanceOf(ModelLimitException.class).hasMessageContaining("not deterministic");
    }

    @Test
    void aRunqueueLockThatDoesNotExistIsALimit() {
        DoubleLockBalance far = new DoubleLockBalanceV2628() {
            @Override
            public int doubleLockBalance(RqLocks k, int thisRq, int busiest) {
                k.spinLock(7);
                return 0;
            }
        };
        assertThatThrownBy(() -> model(far, "cpus", "3")).isInstanceOf(ModelLimitException.class)
                .hasMessageContaining("runqueue locks 0..2").hasMessageContaining("uses lock 7");
    }

    @Test
    void aValueWiderThanItsFieldIsALimit() {
        DoubleLockBalance wide = new DoubleLockBalanceV2628() {
            @Override
            public RqSpinlock spinlock(String lock) {
                return new TasSpinlock() {
                    @Override
                    public int unlock(Memory m) {
                        m.setWord(LOCKED, 2);
                        return DONE;
                    }
                };
            }
        };
        assertThatThrownBy(() -> explore(model(wide, "cpus", "2"), 8)).isInstanceOf(ModelLimitException.class)
                .hasMessageContaining("packs locked of the lock word of rq[").hasMessageContaining("in 1 bits").hasMessageContaining("stored 2");
    }

    @Test
    void aStepOutsideItsDeclaredFootprintIsALimit() {
        DoubleLockBalance sneaky = new DoubleLockBalanceV2628() {
            @Override
            public RqSpinlock spinlock(String lock) {
                return new TicketSpinlock() {
                    @Override
                    public int unlock(Memory m) {
                        m.setWord(NEXT, m.word(NEXT));
                        return super.unlock(m);
                    }
                };
            }
        };
        assertThatThrownBy(() -> explore(model(sneaky, "cpus", "2"), 8)).isInstanceOf(ModelLimitException.class)
                .hasMessageContaining("footprint(3) does not declare");
    }

    @Test
    void aStepToAnUndeclaredSuccessorIsALimit() {
        DoubleLockBalance jumpy = new DoubleLockBalanceV2628() {
            @Override
            public RqSpinlock spinlock(String lock) {
                return new TicketSpinlock() {
                    @Override
                    public int takeTicket(Memory m) {
                        super.takeTicket(m);
                        return DONE;
                    }
                };
            }
        };
        assertThatThrownBy(() -> explore(model(jumpy, "cpus", "2"), 2)).isInstanceOf(ModelLimitException.class)
                .hasMessageContaining("went from pc 0 to -1, which successors(0) does not declare");
    }

    @Test
    void ticketCountersBoundTheCpus() {
        assertThatThrownBy(() -> new TicketSpinlock().shape(16)).isInstanceOf(ModelLimitException.class)
                .hasMessageContaining("packs ticket counters in 4 bits");
    }
}
