package kcheck.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import kcheck.model.Deadlock;
import kcheck.model.FieldSink;
import kcheck.model.Invariant;
import kcheck.model.Metric;
import kcheck.model.Model;
import kcheck.model.Params;
import kcheck.model.Progress;
import kcheck.model.Property;
import kcheck.model.StateSink;
import kcheck.model.StepInfo;
import kcheck.model.StepProperty;
import kcheck.model.StepSink;

/**
 * A test model whose figures are known by hand: {@code k} independent counters, each stepping
 * from 0 to {@code max} (actor i increments counter i). (max+1)^k states, k*max*(max+1)^(k-1)
 * transitions, depth k*max. Options add properties with known answers, a symmetric canonical
 * form (sorted counters), a deadlock and a wrap-around cycle.
 */
final class Counters implements Model {
    final int k;
    final int max;
    final List<Property> props = new ArrayList<>();
    boolean symmetric;
    /** Counter 0 stops (no step) at this value without being final: a deadlock. */
    int deadlockAt = -1;
    /** Counter 0 wraps from max to 0 (a cycle made of "increment" steps). */
    boolean wrap;
    /** Extra no-op step of actor 0 in every state (self-loop), labelled "idle". */
    boolean idleLoop;
    /**
     * Partial-order reduction: every counter is private to its actor except counter 0, whose
     * steps are visible (the properties of {@link #counter0IsNever} read it); a finished counter
     * will touch nothing.
     */
    boolean footprints;
    /** Every increment can also be taken by a second action, 3 ("slow increment"), to the same state. */
    boolean slowPath;
    /** Claims the grading "rank = sum of the counters" ({@link Model#rank}): true unless the counters wrap. */
    boolean graded;
    /** Further initial states (after the all-zero one). */
    final List<long[]> moreInitial = new ArrayList<>();

    Counters(int k, int max) {
        this.k = k;
        this.max = max;
    }

    Counters with(Property p) {
        props.add(p);
        return this;
    }

    /** Invariant: the counters never sum to {@code bad}. */
    Counters sumIsNever(int bad) {
        return with(new Invariant("sum-is-not-" + bad, "the counters never sum to " + bad) {
            @Override
            public boolean holds(long[] s) {
                return Arrays.stream(s).sum() != bad;
            }
        });
    }

    /** Step property: no increment takes a counter to {@code v}. */
    Counters neverStepsTo(int v) {
        return with(new StepProperty("never-" + v, "no counter is incremented to " + v) {
            @Override
            public boolean holds(long[] from, int actor, int action, long[] to) {
                return to[actor] != v || from[actor] == v;
            }
        });
    }

    /** Step property: no slow increment (see {@link #slowPath}) takes a counter to {@code v}. */
    Counters neverSlowStepsTo(int v) {
        return with(new StepProperty("never-slow-" + v, "no slow increment takes a counter to " + v) {
            @Override
            public boolean holds(long[] from, int actor, int action, long[] to) {
                return action != 3 || to[actor] != v;
            }
        });
    }

    /** Invariant: counter 0 never equals {@code bad} (only actor 0's steps are visible to it). */
    Counters counter0IsNever(int bad) {
        return with(new Invariant("c0-is-not-" + bad, "counter 0 never equals " + bad) {
            @Override
            public boolean holds(long[] s) {
                return s[0] != bad;
            }
        });
    }

    /** Metric with one component per counter: its value. */
    Counters perCounterMetric() {
        return with(new Metric("value", "each counter's value") {
            @Override
            public int components() {
                return k;
            }

            @Override
            public String componentName(int c) {
                return "counter " + c;
            }

            @Override
            public long value(long[] s, int c) {
                return s[c];
            }
        });
    }

    Counters sumMetric(long bound) {
        return with(new Metric("sum", "sum of the counters") {
            @Override
            public long value(long[] s, int c) {
                return Arrays.stream(s).sum();
            }

            @Override
            public long bound() {
                return bound;
            }
        });
    }

    Counters deadlockFree() {
        return with(Deadlock.standard());
    }

    /** Progress: only steps of actors other than 0 make progress. */
    Counters progressOutside0() {
        return with(new Progress("progress", "actor 0 alone cannot loop forever") {
            @Override
            public boolean isProgress(long[] from, int actor, int action, long[] to) {
                return actor != 0;
            }
        });
    }

    @Override
    public String name() {
        return "counters";
    }

    @Override
    public String variant() {
        return "test";
    }

    @Override
    public Params params() {
        return Params.resolve("counters", List.of(), java.util.Map.of());
    }

    @Override
    public int width() {
        return k;
    }

    @Override
    public void initial(StateSink out) {
        out.state(new long[k]);
        for (long[] s : moreInitial) {
            out.state(s.clone());
        }
    }

    private final long[] next = new long[64];

    @Override
    public void successors(long[] s, StepSink out) {
        long[] nx = Arrays.copyOf(next, k);
        for (int i = 0; i < k; i++) {
            if (i == 0 && s[0] == deadlockAt) {
                continue;
            }
            if (s[i] < max) {
                System.arraycopy(s, 0, nx, 0, k);
                nx[i]++;
                out.step(i, 0, nx);
                if (slowPath) {
                    out.step(i, 3, nx);
                }
            } else if (i == 0 && wrap) {
                System.arraycopy(s, 0, nx, 0, k);
                nx[0] = 0;
                out.step(0, 1, nx);
            }
        }
        if (idleLoop) {
            System.arraycopy(s, 0, nx, 0, k);
            out.step(0, 2, nx);
        }
    }

    @Override
    public boolean isFinal(long[] s) {
        for (long v : s) {
            if (v != max) {
                return false;
            }
        }
        return true;
    }

    @Override
    public List<Property> properties() {
        return props;
    }

    @Override
    public List<String> actors() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            out.add("counter " + i);
        }
        return out;
    }

    @Override
    public StepInfo describe(int actor, int action) {
        return new StepInfo(action == 0 ? "increment" : action == 1 ? "wrap" : action == 2 ? "idle" : "slow increment", "test");
    }

    @Override
    public void decode(long[] s, FieldSink out) {
        for (int i = 0; i < k; i++) {
            out.field(i, "c" + i, Long.toString(s[i]));
        }
    }

    @Override
    public List<String> reductions() {
        return symmetric ? List.of("sorted counters") : List.of();
    }

    @Override
    public void canonicalize(long[] s) {
        if (symmetric) {
            Arrays.sort(s);
        }
    }

    @Override
    public long rank(long[] s) {
        if (!graded) {
            return -1;
        }
        long r = 0;
        for (long v : s) {
            r += v;
        }
        return r;
    }

    @Override
    public Model fork() {
        return this;
    }

    @Override
    public boolean partialOrder() {
        return footprints;
    }

    @Override
    public void footprints(long[] s, long[] step, long[] future) {
        for (int a = 0; a < k; a++) {
            boolean done = s[a] >= max && !(a == 0 && wrap);
            step[a] = a == 0 ? -1L : 0L;
            future[a] = done ? 0L : a == 0 ? -1L : 0L;
        }
    }
}
