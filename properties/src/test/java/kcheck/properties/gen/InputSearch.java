package kcheck.properties.gen;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import org.quicktheories.core.Gen;

import kcheck.model.Model;

/**
 * A generated-input search as a suite runs it: one run tries up to a budget of inputs (from a
 * seed) and stops at the first that violates. Two figures describe its power on a variant:
 * {@link #perInput}, how often one input alone violates (near 1: any input finds the bug, the
 * run measures nothing; below 1 %: finding it is a search), and the fraction of runs from
 * different seeds that {@link #finds} it.
 */
public interface InputSearch {

    /** One run from {@code seed}; true if some input violates. */
    boolean finds(long seed);

    /** The fraction of {@code samples} single inputs (from {@code seed}) that violate. */
    double perInput(long seed, int samples);

    /** What a run is, in words: generator, scenario, budget. */
    String describe();

    /** Uniformly random schedules of {@code model} ({@link Schedules}): choices in [0, 2^20), lengths in [min, max]. */
    static InputSearch uniform(Model model, int min, int max, int examples) {
        return sequences(Gens.ints(0, 1 << 20), min, max, examples, c -> Schedules.run(model, c),
                examples + " uniformly random schedules of " + min + ".." + max + " steps");
    }

    /** PCT schedules of {@code model} ({@link Pct}): {@code schedules} per run. */
    static InputSearch pct(Model model, int depth, int steps, int schedules) {
        Pct pct = new Pct(model, depth, steps);
        return new InputSearch() {
            @Override
            public boolean finds(long seed) {
                for (int i = 0; i < schedules; i++) {
                    if (Schedules.run(model, pct.schedule(seed + i)).isPresent()) {
                        return true;
                    }
                }
                return false;
            }

            @Override
            public double perInput(long seed, int samples) {
                return pct.hitRate(seed, samples);
            }

            @Override
            public String describe() {
                return schedules + " PCT schedules (depth " + depth + ", " + steps + " steps)";
            }
        };
    }

    /** Generated sequences of {@code element} checked by {@code property}, as {@link SequenceProperty} runs them. */
    static <T> InputSearch sequences(Gen<T> element, int min, int max, int examples, Function<List<T>, Optional<String>> property,
                                     String description) {
        return new InputSearch() {
            @Override
            public boolean finds(long seed) {
                return SequenceProperty.of(description, element, min, max).seed(seed).examples(examples).findRaw(property);
            }

            @Override
            public double perInput(long seed, int samples) {
                return SequenceProperty.of(description, element, min, max).seed(seed).hitRate(samples, property);
            }

            @Override
            public String describe() {
                return description;
            }
        };
    }
}
