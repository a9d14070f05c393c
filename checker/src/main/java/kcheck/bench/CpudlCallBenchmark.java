package kcheck.bench;

import java.util.List;
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

import kcheck.model.cpudl.Cpudl;
import kcheck.model.cpudl.CpudlFactory;
import kcheck.model.cpudl.CpudlHeap;
import kcheck.model.cpudl.CpudlWorkload;

/**
 * Time per call of the cpudl heap ports (before = v4.8, after = v4.9) on the post's workload:
 * {@value #OPS} calls, 75% {@code cpudl_set} and 25% {@code cpudl_clear} on random CPUs,
 * deadlines in [2^40, 2^40 + 2^31) (seed 20160516), applied to a fresh heap per invocation. This
 * is the Java port on this JVM (with its store counter), not the kernel: a relative figure for
 * before vs after, next to the post's rdtsc measurement. Run by {@code kcheck simulate cpudl --jmh}
 * or {@code kcheck bench --jmh --jmh-include CpudlCall}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
public class CpudlCallBenchmark {
    static final int OPS = 1 << 16;

    @Param({"before", "after"})
    public String variant;

    @Param({"8"})
    public int cpus;

    CpudlHeap heap;
    boolean[] set;
    int[] cpu;
    long[] dl;

    @Setup(Level.Trial)
    public void setup() {
        heap = CpudlFactory.implementation(variant);
        List<CpudlWorkload.Op> ops = CpudlWorkload.generate(20160516L, cpus, OPS, 1L << 40, CpudlWorkload.POST_RANGE);
        set = new boolean[OPS];
        cpu = new int[OPS];
        dl = new long[OPS];
        for (int i = 0; i < OPS; i++) {
            set[i] = ops.get(i).set();
            cpu[i] = ops.get(i).cpu();
            dl[i] = ops.get(i).dl();
        }
    }

    /** The whole sequence on a fresh heap: the score is the time per call. */
    @Benchmark
    @OperationsPerInvocation(OPS)
    public Cpudl calls() {
        Cpudl cp = Cpudl.init(cpus);
        for (int i = 0; i < OPS; i++) {
            if (set[i]) {
                heap.set(cp, cpu[i], dl[i]);
            } else {
                heap.clear(cp, cpu[i]);
            }
        }
        return cp;
    }
}
