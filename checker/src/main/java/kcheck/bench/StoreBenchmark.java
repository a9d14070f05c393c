package kcheck.bench;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import kcheck.engine.Hashing;
import kcheck.engine.store.ExactStore;
import kcheck.engine.store.FingerprintStore;
import kcheck.engine.store.MemoryBudget;
import kcheck.engine.store.StateStore;

/**
 * The state stores alone (exact, fingerprint, compact): inserting new states (table growth
 * included) and looking up states already present, for 2-word states as the rq-lock model packs
 * them at 4 CPUs.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g", "-XX:+UseParallelGC"})
public class StoreBenchmark {
    static final int N = 1 << 20;

    @Param({"exact", "fingerprint", "compact"})
    public String store;

    long[][] states;
    long[] hashes;
    StateStore filled;

    @Setup(Level.Trial)
    public void setup() {
        SplittableRandom r = new SplittableRandom(42);
        states = new long[N][];
        hashes = new long[N];
        for (int i = 0; i < N; i++) {
            states[i] = new long[] {r.nextLong() & 0x0FFF_FFFF_FFFF_FFFFL, r.nextLong() & 0xFFFF_FFFFL};
            hashes[i] = Hashing.hash(states[i], 0, 2);
        }
        filled = create();
        insertAll(filled);
    }

    private StateStore create() {
        MemoryBudget b = new MemoryBudget(3L << 30);
        return switch (store) {
            case "exact" -> new ExactStore(2, kcheck.engine.Options.DEFAULT_MAX_STATES, b, false);
            case "compact" -> new kcheck.engine.store.CompactStore(kcheck.engine.Options.DEFAULT_MAX_STATES, b, false, false);
            default -> new FingerprintStore(kcheck.engine.Options.DEFAULT_MAX_STATES, b, false);
        };
    }

    private long insertAll(StateStore s) {
        long x = 0;
        for (int i = 0; i < N; i++) {
            x += s.add(states[i], hashes[i]);
        }
        return x;
    }

    /** Inserts 2^20 new states into an empty store (growth included). */
    @Benchmark
    @OperationsPerInvocation(N)
    public long insertNew() {
        return insertAll(create());
    }

    /** Looks up 2^20 states that are all present (the common case in a search). */
    @Benchmark
    @OperationsPerInvocation(N)
    public long lookupPresent() {
        long x = 0;
        for (int i = 0; i < N; i++) {
            x += filled.add(states[i], hashes[i]);
        }
        return x;
    }
}
