package kcheck.engine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import kcheck.model.FieldSink;
import kcheck.model.Model;
import kcheck.model.Params;
import kcheck.model.Progress;
import kcheck.model.Property;
import kcheck.model.StateSink;
import kcheck.model.StepInfo;
import kcheck.model.StepSink;

/**
 * A hand-drawn graph as a model, for the cycle analysis. Node {@code i} is the one-word state
 * {@code value[i]}; node 0 is the initial state. An edge is {@code {from, to, actor}} (the actor is
 * also the step class), or {@code {from, to, actor, 1}} for a progress step. A node's successors
 * come in the order its edges are listed, so an edge's ordinal is its place among its node's edges.
 *
 * <p>{@link #inShard} picks values by hash so that the exact store gives node {@code i} the id of
 * one's choice (0..63): a store id is {@code local * 64 + shard}, and a node alone in its shard has
 * local index 0. This is how the tests put the state with id 0, or two neighbouring ids, where
 * they want them.
 */
final class HandGraph implements Model {
    private final long[] value;
    private final Map<Long, Integer> node = new HashMap<>();
    private final List<List<int[]>> out = new ArrayList<>();
    private final long[] owed;
    private final boolean fair;
    /** Node whose value is the canonical form of node i's value (i itself if none). */
    private final int[] canonical;
    private final Progress progress;
    private final List<Property> extra = new ArrayList<>();
    /** Per node, the rank this graph claims ({@link Model#rank}); null: no claim. A graded graph has no progress property (the disk search takes it). */
    long[] ranks;
    /** Called once when the cycle analysis forks the model, before it looks at any state. */
    volatile Runnable onAnalysis = () -> { };
    /** Calls of {@link #successors} so far (the search, the cycle analysis, rebuilding traces, a second search). */
    final java.util.concurrent.atomic.AtomicLong successorCalls = new java.util.concurrent.atomic.AtomicLong();

    HandGraph(long[] value, int[][] edges, long[] owed, boolean fair) {
        this(value, edges, owed, fair, null);
    }

    HandGraph(long[] value, int[][] edges, long[] owed, boolean fair, int[] canonical) {
        this.value = value;
        this.owed = owed == null ? new long[value.length] : owed;
        this.fair = fair;
        this.canonical = canonical;
        for (int i = 0; i < value.length; i++) {
            if (node.put(value[i], i) != null) {
                throw new IllegalArgumentException("two nodes with value " + value[i]);
            }
            out.add(new ArrayList<>());
        }
        for (int[] e : edges) {
            out.get(e[0]).add(e);
        }
        this.progress = new Progress("progress", "some step makes progress") {
            @Override
            public boolean isProgress(long[] from, int actor, int action, long[] to) {
                return action == 1;
            }

            @Override
            public boolean fair() {
                return HandGraph.this.fair;
            }

            @Override
            public long owed(long[] s) {
                return HandGraph.this.owed[node.get(s[0])];
            }
        };
    }

    /** Adds a property (after the progress property). */
    HandGraph with(Property p) {
        extra.add(p);
        return this;
    }

    /** The value of node {@code i}'s state. */
    long value(int i) {
        return value[i];
    }

    /** The node of state {@code s}. */
    int node(long[] s) {
        return node.get(s[0]);
    }

    /** Nodes 0..n-1 with values in the given shards, so node i gets store id {@code shard[i]} (all shards distinct). */
    static long[] ids(int... shard) {
        long[] v = new long[shard.length];
        for (int i = 0; i < shard.length; i++) {
            v[i] = inShard(shard[i]);
        }
        return v;
    }

    /** The smallest positive value whose one-word state hashes to shard {@code k}. */
    static long inShard(int k) {
        for (long v = 1; ; v++) {
            if (Hashing.hash(new long[] {v}, 0, 1) >>> 58 == k) {
                return v;
            }
        }
    }

    /** Values 1000, 1001, ... for n nodes (ids then follow the hash). */
    static long[] plain(int n) {
        long[] v = new long[n];
        for (int i = 0; i < n; i++) {
            v[i] = 1000 + i;
        }
        return v;
    }

    /** The nodes a trace passes through. */
    List<Integer> nodes(RawTrace t) {
        List<Integer> r = new ArrayList<>();
        for (long[] s : t.states()) {
            r.add(node.get(s[0]));
        }
        return r;
    }

    PropertyResult check() {
        return Engine.check(this, Options.defaults().withWorkers(1)).property("progress");
    }

    @Override
    public String name() {
        return "hand-graph";
    }

    @Override
    public String variant() {
        return "hand-drawn";
    }

    @Override
    public Params params() {
        return Params.resolve("hand-graph", List.of(), Map.of());
    }

    @Override
    public int width() {
        return 1;
    }

    @Override
    public void initial(StateSink sink) {
        sink.state(new long[] {value[0]});
    }

    @Override
    public void successors(long[] s, StepSink sink) {
        successorCalls.incrementAndGet();
        for (int[] e : out.get(node.get(s[0]))) {
            sink.step(e[2], e.length > 3 ? e[3] : 0, new long[] {value[e[1]]});
        }
    }

    @Override
    public void canonicalize(long[] s) {
        if (canonical != null) {
            s[0] = value[canonical[node.get(s[0])]];
        }
    }

    @Override
    public List<String> reductions() {
        return canonical == null ? List.of() : List.of("twins: a twin node is stored as its original");
    }

    @Override
    public boolean isFinal(long[] s) {
        return false;
    }

    @Override
    public List<Property> properties() {
        List<Property> all = new ArrayList<>(ranks == null ? List.of(progress) : List.of());
        all.addAll(extra);
        return all;
    }

    @Override
    public List<String> actors() {
        List<String> a = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            a.add("a" + i);
        }
        return a;
    }

    @Override
    public StepInfo describe(int actor, int action) {
        return new StepInfo("step of a" + actor, "");
    }

    @Override
    public void decode(long[] s, FieldSink sink) {
        sink.field(FieldSink.SHARED, "node", Long.toString(node.get(s[0])));
    }

    @Override
    public long rank(long[] s) {
        return ranks == null ? -1 : ranks[node.get(s[0])];
    }

    @Override
    public Model fork() {
        if (StackWalker.getInstance().walk(f -> f.anyMatch(x -> x.getClassName().equals(ProgressCycles.class.getName())))) {
            onAnalysis.run();
        }
        return this;
    }
}
