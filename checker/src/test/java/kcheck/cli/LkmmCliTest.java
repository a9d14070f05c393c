package kcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kcheck check rq-lock --param memory-model=lkmm}: verdicts, a variant file weakening one access, and one line for bad input. */
class LkmmCliTest {
    @TempDir
    Path dir;

    @Test
    void v612QspinlockHoldsUnderLkmmAtTwoCpus() {
        Cli c = Cli.run("check", "rq-lock", "--variant", "v6.12", "--param", "lock=qspinlock", "--param", "memory-model=lkmm", "--cpus", "2");
        assertThat(c.exit).as(c.err).isEqualTo(0);
        assertThat(c.out).contains("under the Linux-kernel memory model").containsPattern("mutual-exclusion +HOLDS")
                .containsPattern("deadlock-free +HOLDS");
    }

    @Test
    void aVariantFileThatWeakensTheUnlockToWriteOnceIsViolatedWithTheExecution() throws Exception {
        Path f = dir.resolve("UnlockOnce.java");
        Files.writeString(f, """
                import kcheck.model.MemoryOrder;
                import kcheck.model.rqlock.DoubleLockBalanceV612;
                import kcheck.model.rqlock.QSpinlock;
                import kcheck.model.rqlock.RqSpinlock;

                public class UnlockOnce extends DoubleLockBalanceV612 {
                    @Override
                    public RqSpinlock spinlock(String lockParameter) {
                        return new QSpinlock() {
                            @Override
                            public int queuedSpinUnlock(Memory m) {
                                m.order(MemoryOrder.ONCE);
                                m.setWord(LOCKED, 0);
                                return DONE;
                            }
                        };
                    }
                }
                """);
        Cli c = Cli.run("check", "rq-lock", "--variant-file", f.toString(), "--param", "memory-model=lkmm", "--cpus", "2", "--json");
        assertThat(c.exit).as(c.err).isEqualTo(1);
        assertThat(c.out).contains("\"memoryModel\" : \"lkmm\"").contains("\"verdict\" : \"VIOLATED\"").contains("cpu1#");
    }

    @Test
    void aHangNamesTheSpinningCpus() {
        Cli c = Cli.run("check", "rq-lock", "--variant", "bug-95bcade33a8a", "--param", "memory-model=lkmm", "--cpus", "4", "--property",
                "deadlock-free");
        assertThat(c.exit).as(c.err).isEqualTo(1);
        assertThat(c.out).containsPattern("deadlock-free +VIOLATED +cpu\\d spins for ever on cpu\\d\\.mcs\\.")
                .contains("and no other thread will write").doesNotContain("cpuwill");
    }

    @Test
    void badLkmmRequestsAreOneLineAndExitTwo() {
        String[][] bad = {
            {"check", "rq-lock", "--param", "memory-model=tso"},
            {"check", "rq-lock", "--variant", "v6.12", "--param", "lock=ticket", "--param", "memory-model=lkmm"},
            {"check", "cpudl", "--param", "memory-model=lkmm"},
            {"check", "rq-lock", "--variant", "v6.12", "--param", "lock=qspinlock", "--param", "memory-model=lkmm", "--property", "fifo-entry"},
            {"check", "rq-lock", "--variant", "v6.12", "--param", "lock=qspinlock", "--param", "memory-model=lkmm", "--trace-out",
                "t.json"},
            {"check", "rwsem-owner", "--variant", "v6.12", "--param", "memory-model=lkmm", "--param", "rt=all"},
            {"check", "rwsem-owner", "--variant", "v6.12", "--param", "memory-model=lkmm", "--param", "rounds=0"},
            {"check", "rwsem-owner", "--variant", "v5.4", "--param", "memory-model=lkmm"},
            {"check", "rwsem-owner", "--variant", "v6.12", "--param", "memory-model=lkmm", "--property", "owner-sound"}};
        for (String[] args : bad) {
            Cli c = Cli.run(args);
            assertThat(c.exit).as(String.join(" ", args) + ": " + c.err).isEqualTo(2);
            assertThat(c.err.strip().lines().count()).as(c.err).isEqualTo(1);
        }
    }

    @Test
    void memoryModelScIsWhatEveryModelIs() {
        Cli c = Cli.run("check", "rq-lock", "--variant", "after", "--cpus", "2", "--param", "memory-model=sc", "--property", "mutual-exclusion");
        assertThat(c.exit).as(c.err).isEqualTo(0);
    }

    @Test
    void rwsemBarrierBugIsViolatedWithTheTasksNamed() {
        Cli c = Cli.run("check", "rwsem-owner", "--variant", "bug-99143f82a255", "--param", "memory-model=lkmm", "--json");
        assertThat(c.exit).as(c.err).isEqualTo(1);
        assertThat(c.out).contains("\"memoryModel\" : \"lkmm\"").contains("\"verdict\" : \"VIOLATED\"").contains("t0\\n")
                .contains("rwsem_down_read_slowpath").doesNotContain("thread 0");
    }

    @Test
    void anRwsemVariantFileThatLeavesOutAnOrderingIsOneLineAndExitTwo() throws Exception {
        Path f = dir.resolve("NoOrder.java");
        Files.writeString(f, """
                import kcheck.model.rwsem.RwSem;
                import kcheck.model.rwsem.RwsemV612;

                public class NoOrder extends RwsemV612 {
                    @Override
                    protected void rwsemClearOwner(RwSem sem) {
                        sem.writeOwner(0);
                    }
                }
                """);
        Cli c = Cli.run("check", "rwsem-owner", "--variant-file", f.toString(), "--param", "memory-model=lkmm");
        assertThat(c.exit).as(c.out).isEqualTo(2);
        assertThat(c.err.strip().lines().count()).as(c.err).isEqualTo(1);
        assertThat(c.err).contains("states no ordering").doesNotContain("internal error");
    }

    @Test
    void aVariantFileThatCatchesTheEndOfARunIsOneLineAndExitTwo() throws Exception {
        Path f = dir.resolve("Swallow.java");
        Files.writeString(f, """
                import kcheck.model.MemoryOrder;
                import kcheck.model.rwsem.RwSem;
                import kcheck.model.rwsem.RwsemV612;

                public class Swallow extends RwsemV612 {
                    @Override
                    protected void rwsemClearOwner(RwSem sem) {
                        try {
                            sem.order(MemoryOrder.ONCE);
                            sem.readOwner();
                        } catch (RuntimeException e) {
                            /* swallowed */
                        }
                        sem.order(MemoryOrder.ONCE);
                        sem.writeOwner(0);
                    }
                }
                """);
        Cli c = Cli.run("check", "rwsem-owner", "--variant-file", f.toString(), "--param", "memory-model=lkmm");
        assertThat(c.exit).as(c.out).isEqualTo(2);
        assertThat(c.err.strip().lines().count()).as(c.err).isEqualTo(1);
        assertThat(c.err).contains("caught the exception that ends a run");
    }
}
