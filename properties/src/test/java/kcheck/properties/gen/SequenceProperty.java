package kcheck.properties.gen;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import org.quicktheories.QuickTheory;
import org.quicktheories.core.Gen;

import kcheck.engine.DeltaDebug;

/**
 * A property over generated sequences (operations, schedule choices), run by QuickTheories with
 * a printed seed. A failing sequence is minimised by delta debugging (QuickTheories' list
 * shrinking only drops elements from the tail) and reported as a short numbered list.
 *
 * <pre>
 * SequenceProperty.of("heap-order", ops, 0, 2000)
 *     .examples(200)
 *     .check(seq -> checkHeap(seq));   // Optional.empty() = passes, else the failure message
 * </pre>
 */
public final class SequenceProperty<T> {
    private final String name;
    private final Gen<List<T>> gen;
    private int examples = 100;
    private Long seed;
    private Function<T, String> show = String::valueOf;

    private SequenceProperty(String name, Gen<List<T>> gen) {
        this.name = name;
        this.gen = gen;
    }

    /** Sequences of {@code element} with lengths in {@code [min, max]}. */
    public static <T> SequenceProperty<T> of(String name, Gen<T> element, int min, int max) {
        return new SequenceProperty<>(name, Gens.lists(element, min, max));
    }

    public SequenceProperty<T> examples(int n) {
        this.examples = n;
        return this;
    }

    /** Fixes the seed (otherwise {@link Seeds#seed}). */
    public SequenceProperty<T> seed(long s) {
        this.seed = s;
        return this;
    }

    /** How to print one element of a minimised sequence. */
    public SequenceProperty<T> show(Function<T, String> f) {
        this.show = f;
        return this;
    }

    /** Runs the property; a failure is minimised and returned (empty if every example passed). */
    public Optional<Failure<T>> find(Function<List<T>, Optional<String>> property) {
        long s = seed != null ? seed : Seeds.seed(name);
        AtomicReference<List<T>> smallest = new AtomicReference<>();
        try {
            QuickTheory.qt().withFixedSeed(s).withExamples(examples).withShrinkCycles(50).forAll(gen).checkAssert(seq -> {
                Optional<String> f = property.apply(seq);
                if (f.isPresent()) {
                    List<T> prev = smallest.get();
                    if (prev == null || seq.size() < prev.size()) {
                        smallest.set(List.copyOf(seq));
                    }
                    throw new AssertionError(f.get());
                }
            });
        } catch (AssertionError e) {
            if (smallest.get() == null) {
                throw e;
            }
        }
        List<T> failing = smallest.get();
        if (failing == null) {
            return Optional.empty();
        }
        List<T> min = DeltaDebug.minimise(failing, l -> property.apply(l).isPresent());
        return Optional.of(new Failure<>(name, s, failing, min, property.apply(min).orElseThrow()));
    }

    /** {@link #hitRate} stops sampling after this many failing inputs: the rate is then known well enough (at least 2.5 %). */
    public static final int ENOUGH_HITS = 50;

    /**
     * The fraction of generated inputs that fail {@code property}: up to {@code samples} inputs
     * from this property's generator and seed, each checked on its own (no search stops at the
     * first failure, nothing is shrunk), fewer once {@value #ENOUGH_HITS} have failed. How easy
     * one input makes the bug: a search for a bug whose per-input rate is near 1 finds it with
     * its first input and measures nothing.
     */
    public double hitRate(int samples, Function<List<T>, Optional<String>> property) {
        long s = seed != null ? seed : Seeds.seed(name);
        int[] counts = new int[2];
        try {
            QuickTheory.qt().withFixedSeed(s).withExamples(samples).withShrinkCycles(0).forAll(gen).checkAssert(seq -> {
                counts[0]++;
                if (property.apply(seq).isPresent() && ++counts[1] == ENOUGH_HITS) {
                    throw new AssertionError("enough");
                }
            });
        } catch (AssertionError e) {
            if (counts[1] < ENOUGH_HITS) {
                throw e;
            }
        }
        return counts[0] == 0 ? 0 : (double) counts[1] / counts[0];
    }

    /** True if one of the examples fails {@code property}: the search alone, stopping at the first failure, nothing shrunk. */
    public boolean findRaw(Function<List<T>, Optional<String>> property) {
        long s = seed != null ? seed : Seeds.seed(name);
        try {
            QuickTheory.qt().withFixedSeed(s).withExamples(examples).withShrinkCycles(0).forAll(gen).checkAssert(seq -> {
                if (property.apply(seq).isPresent()) {
                    throw new AssertionError("found");
                }
            });
        } catch (AssertionError e) {
            return true;
        }
        return false;
    }

    /** Runs the property and throws an {@link AssertionError} with the minimised failure, if any. */
    public void check(Function<List<T>, Optional<String>> property) {
        find(property).ifPresent(f -> {
            throw new AssertionError(f.describe(show));
        });
    }
}
