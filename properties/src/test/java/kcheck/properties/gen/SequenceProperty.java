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

    /** Runs the property and throws an {@link AssertionError} with the minimised failure, if any. */
    public void check(Function<List<T>, Optional<String>> property) {
        find(property).ifPresent(f -> {
            throw new AssertionError(f.describe(show));
        });
    }
}
