package kcheck.properties.cpudl;

import static kcheck.model.cpudl.Deadlines.TWO_63;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

import kcheck.model.Model;
import kcheck.model.Models;
import kcheck.model.cpudl.CpudlFactory;
import kcheck.model.cpudl.CpudlHeap;
import kcheck.properties.gen.InputSearch;

/**
 * The searches of the cpudl suites ({@link CpudlSequenceProperties}, {@link CpudlModelScheduleProperties})
 * for any variant: the suites run them on before and after, the power table on every seeded
 * mutant and real-bug variant.
 */
public final class CpudlSearches {
    public static final String MODEL = "cpudl";
    public static final List<String> MODEL_SAFETY = List.of("heap-order", "index-consistent", "root-is-latest", "free-cpus",
            "find-sound", "same-heap");
    /**
     * A clock 2^32 - 2^20 ns below 2^63: a deadline (clock plus a uniform offset below 2^32)
     * reaches 2^63, where v4.8's insert goes wrong, for one set in 4,096.
     */
    public static final long RARE_CROSSING_CLOCK = TWO_63 - (1L << 32) + (1L << 20);

    private CpudlSearches() {
    }

    /**
     * The structural invariants, the root and every cpudl_find against a plain map, on 16 CPUs:
     * a run takes a clock from its seed (an edge clock or a random one) and 8 generated sequences
     * of 1..3,000 calls.
     */
    public static InputSearch invariants(String variant) {
        CpudlHeap heap = CpudlFactory.implementation(variant);
        int n = 16;
        return new InputSearch() {
            private long clock(long seed) {
                long[] c = CpudlSequenceProperties.clocks(seed);
                return c[(int) Math.floorMod(seed, (long) c.length)];
            }

            @Override
            public boolean finds(long seed) {
                long clock = clock(seed);
                return InputSearch.sequences(Call.on(n), 1, 3000, 8, calls -> CpudlSequenceProperties.check(heap, n, clock, calls), "")
                        .finds(seed);
            }

            /** Ten runs' clocks, a tenth of the samples each. */
            @Override
            public double perInput(long seed, int samples) {
                double sum = 0;
                for (int k = 0; k < 10; k++) {
                    long clock = clock(seed + k);
                    sum += InputSearch.sequences(Call.on(n), 1, 3000, 1, calls -> CpudlSequenceProperties.check(heap, n, clock, calls), "")
                            .perInput(seed + k, Math.max(1, samples / 10));
                }
                return sum / 10;
            }

            @Override
            public String describe() {
                return "16 CPUs, an edge or random clock, 8 sequences of 1..3000 calls";
            }
        };
    }

    /** The same checks with deadlines that rarely reach 2^63 ({@link #RARE_CROSSING_CLOCK}): 3,000 sequences of 1..200 calls. */
    public static InputSearch rareCrossing(String variant) {
        CpudlHeap heap = CpudlFactory.implementation(variant);
        int n = 16;
        return InputSearch.sequences(Call.uniformOn(n), 1, 200, 3000,
                calls -> CpudlSequenceProperties.check(heap, n, RARE_CROSSING_CLOCK, calls),
                "16 CPUs, clock 2^63-2^32+2^20, uniform offsets, 3000 sequences of 1..200 calls");
    }

    public static Model model(String variant, int cpus, String keys) {
        var f = Models.get(MODEL);
        return f.create(variant, f.params(Map.of("cpus", "" + cpus, "depth", "12", "keys", keys)), new LinkedHashSet<>(MODEL_SAFETY));
    }

    /** The model's safety properties on 25 uniformly random schedules of 12..40 calls, 8 CPUs, edge keys. */
    public static InputSearch modelSchedules(String variant) {
        return InputSearch.uniform(model(variant, 8, "edge"), 12, 40, 25);
    }

    /** The model's safety properties on before, 8 CPUs, edge keys: 200 uniformly random schedules of 12..40 calls. */
    public static InputSearch modelFind() {
        return InputSearch.uniform(model("before", 8, "edge"), 12, 40, 200);
    }
}
