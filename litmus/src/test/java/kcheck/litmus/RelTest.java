package kcheck.litmus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * Relations and event sets of more than 64 events: every operator across the 64-bit word boundaries of a
 * row, and litmus tests whose executions have more than 64 events.
 */
class RelTest {
    private static final int N = 150;

    private static Rel rel(int... pairs) {
        Rel r = new Rel(N);
        for (int k = 0; k < pairs.length; k += 2) {
            r.add(pairs[k], pairs[k + 1]);
        }
        return r;
    }

    @Test
    void aChainThroughThreeWordsIsAcyclicUntilItClosesAndItsClosureReachesTheEnd() {
        Rel chain = rel(0, 70, 70, 140);
        assertThat(chain.acyclic()).isTrue();
        Rel plus = chain.plus();
        assertThat(plus).isEqualTo(rel(0, 70, 70, 140, 0, 140));
        assertThat(plus.irreflexive()).isTrue();
        Rel star = chain.star();
        assertThat(star.has(0, 140)).isTrue();
        assertThat(star.has(140, 0)).isFalse();
        for (int i = 0; i < N; i++) {
            assertThat(star.has(i, i)).as("%d", i).isTrue();
        }

        Rel cycle = rel(0, 70, 70, 140, 140, 0);
        assertThat(cycle.acyclic()).isFalse();
        assertThat(cycle.plus().has(140, 140)).isTrue();
        assertThat(cycle.plus().has(70, 0)).isTrue();
        assertThat(cycle.irreflexive()).isTrue();
    }

    @Test
    void seqJoinsThroughAMiddleEventInAnotherWord() {
        Rel r = rel(0, 70, 63, 64, 64, 149, 149, 63);
        assertThat(r.seq(rel(70, 140))).isEqualTo(rel(0, 140));
        assertThat(r.seq(r)).isEqualTo(rel(63, 149, 64, 63, 149, 64));
        assertThat(Rel.seq(r, r, r)).isEqualTo(rel(63, 63, 64, 64, 149, 149));
        assertThat(r.immediate()).isEqualTo(r);
        assertThat(r.seq(new Rel(N)).isEmpty()).isTrue();
    }

    @Test
    void unionInterMinusAndInverseWorkOnEveryWordOfARow() {
        Rel a = rel(0, 1, 0, 127, 100, 149);
        Rel b = rel(0, 127, 149, 0, 100, 64);
        assertThat(a.union(b)).isEqualTo(rel(0, 1, 0, 127, 100, 149, 149, 0, 100, 64));
        assertThat(Rel.union(a, b, rel(5, 6))).isEqualTo(rel(0, 1, 0, 127, 100, 149, 149, 0, 100, 64, 5, 6));
        assertThat(a.inter(b)).isEqualTo(rel(0, 127));
        assertThat(a.minus(b)).isEqualTo(rel(0, 1, 100, 149));
        assertThat(a.inverse()).isEqualTo(rel(1, 0, 127, 0, 149, 100));
        assertThat(a.inverse().inverse()).isEqualTo(a);
        assertThat(a.copy()).isEqualTo(a).hasSameHashCodeAs(a);
        assertThat(a).isNotEqualTo(b);
    }

    @Test
    void eventSetsSelectRowsAndColumnsInEveryWord() {
        Rel r = rel(0, 70, 70, 140, 140, 0, 65, 65);
        Bits s = Bits.of(70, 140);
        assertThat(r.from(s)).isEqualTo(rel(70, 140, 140, 0));
        assertThat(r.to(s)).isEqualTo(rel(0, 70, 70, 140));
        assertThat(r.restrict(s, s)).isEqualTo(rel(70, 140));
        assertThat(r.domain()).isEqualTo(Bits.of(0, 65, 70, 140));
        assertThat(r.range()).isEqualTo(Bits.of(0, 65, 70, 140));
        assertThat(r.row(70)).isEqualTo(Bits.of(140));
        assertThat(r.row(1)).isEqualTo(Bits.EMPTY);
        assertThat(Rel.identity(N, s)).isEqualTo(rel(70, 70, 140, 140));
        Rel product = Rel.product(N, Bits.of(1, 130), s);
        assertThat(product).isEqualTo(rel(1, 70, 1, 140, 130, 70, 130, 140));
        assertThat(Rel.product(N, Bits.first(N), Bits.first(N)).minus(Rel.identity(N, Bits.first(N))).irreflexive()).isTrue();
    }

    @Test
    void bitsOfSeveralWordsCombineAndIterateInOrder() {
        Bits a = Bits.of(3, 64, 200);
        Bits b = Bits.range(60, 130);
        assertThat(b.cardinality()).isEqualTo(70);
        assertThat(b.has(59)).isFalse();
        assertThat(b.has(60) && b.has(63) && b.has(64) && b.has(129)).isTrue();
        assertThat(b.has(130)).isFalse();
        assertThat(a.and(b)).isEqualTo(Bits.of(64));
        assertThat(a.or(b).cardinality()).isEqualTo(72);
        assertThat(a.andNot(b)).isEqualTo(Bits.of(3, 200));
        assertThat(a.intersects(b)).isTrue();
        assertThat(a.intersects(Bits.of(4, 65))).isFalse();
        assertThat(Bits.union(a, b, Bits.of(255))).isEqualTo(a.or(b).or(Bits.of(255)));
        assertThat(Bits.of(200).andNot(Bits.of(200))).isEqualTo(Bits.EMPTY).hasSameHashCodeAs(Bits.EMPTY);
        assertThat(Bits.of()).isEqualTo(Bits.EMPTY);
        assertThat(Bits.range(5, 5).isEmpty()).isTrue();
        assertThat(Bits.first(N).cardinality()).isEqualTo(N);
        assertThat(Bits.first(128).has(127) && !Bits.first(128).has(128)).isTrue();
        StringBuilder order = new StringBuilder();
        for (int i = a.first(); i >= 0; i = a.next(i + 1)) {
            order.append(i).append(' ');
        }
        assertThat(order.toString()).isEqualTo("3 64 200 ");
        assertThat(a).hasToString("{3, 64, 200}");
    }

    @Test
    void theLargestRelationClosesOverItsLastEvent() {
        assertThat(Rel.MAX).isEqualTo(256);
        Rel r = new Rel(Rel.MAX);
        for (int i = 0; i + 1 < Rel.MAX; i++) {
            r.add(i, i + 1);
        }
        assertThat(r.acyclic()).isTrue();
        assertThat(r.plus().has(0, 255)).isTrue();
        r.add(255, 0);
        assertThat(r.acyclic()).isFalse();
    }

    /** Message passing from P0 to P1 after {@code padding} writes of their own locations in each. */
    private static String paddedMessagePassing(int padding, String writerFence, String readerFence) {
        StringBuilder b = new StringBuilder("C padded-MP\n{}\nP0(int *x, int *y, int *z)\n{\n");
        b.append("\tWRITE_ONCE(*z, 1);\n".repeat(padding));
        b.append("\tWRITE_ONCE(*x, 1);\n").append(writerFence).append("\tWRITE_ONCE(*y, 1);\n}\n");
        b.append("P1(int *x, int *y, int *w)\n{\n\tint r0; int r1;\n");
        b.append("\tWRITE_ONCE(*w, 1);\n".repeat(padding));
        b.append("\tr0 = READ_ONCE(*y);\n").append(readerFence).append("\tr1 = READ_ONCE(*x);\n}\n");
        return b.append("exists (1:r0=1 /\\ 1:r1=0)\n").toString();
    }

    @Test
    void messagePassingIsDecidedAlikeWhenItsExecutionsHaveMoreThan64Events() {
        // 4 initial writes + 2 x (40 + 3) events: x and y in word 0, P1's reads in word 1
        LitmusResult plain = Litmus.decide(paddedMessagePassing(40, "", ""));
        assertThat(plain.word()).isEqualTo("Sometimes");
        assertThat(plain.explored()).isEqualTo(4);
        assertThat(plain.witness()).contains("rf:").contains("co:");
        assertThat(Litmus.word(paddedMessagePassing(40, "\tsmp_wmb();\n", "\tsmp_rmb();\n"))).isEqualTo("Never");
        assertThat(Litmus.word(paddedMessagePassing(40, "\tsmp_wmb();\n", ""))).isEqualTo("Sometimes");
        assertThat(Litmus.word(paddedMessagePassing(2, "\tsmp_wmb();\n", "\tsmp_rmb();\n"))).isEqualTo("Never");
    }

    @Test
    void anExecutionOfMoreThan256EventsOrAThreadOfMoreThan64IsRefused() {
        StringBuilder b = new StringBuilder("C big\n{}\n");
        for (int t = 0; t < 5; t++) {
            b.append("P").append(t).append("(int *x").append(t).append(")\n{\n")
                    .append(("\tWRITE_ONCE(*x" + t + ", 1);\n").repeat(52)).append("}\n");
        }
        String tooBig = b.append("exists (x0=1)\n").toString();
        assertThatThrownBy(() -> Litmus.decide(tooBig)).isInstanceOf(LitmusException.class)
                .hasMessageContaining("more than 256 events in an execution (265)");
        String longThread = "C long\n{}\nP0(int *x)\n{\n" + "\tWRITE_ONCE(*x, 1);\n".repeat(65) + "}\nexists (x=1)\n";
        assertThatThrownBy(() -> Litmus.decide(longThread)).isInstanceOf(LitmusException.class)
                .hasMessageContaining("thread P0 makes more than 64 events");
    }

    /**
     * The closure (depth-first on acyclic relations, Warshall on cyclic ones) and the cycle test agree with the
     * fixpoint of r | r;r on random relations, sparse and dense, with and without cycles (seeds 0..299).
     */
    @Test
    void closureAndCycleTestAgreeWithTheFixpointOnRandomRelations() {
        for (long seed = 0; seed < 300; seed++) {
            java.util.SplittableRandom rnd = new java.util.SplittableRandom(seed);
            int n = 1 + rnd.nextInt(Rel.MAX);
            boolean dag = rnd.nextBoolean();
            double density = rnd.nextInt(4) == 0 ? 0.2 : 2.0 / n;
            Rel r = new Rel(n);
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    if ((!dag || i < j) && rnd.nextDouble() < density) {
                        r.add(i, j);
                    }
                }
            }
            Rel fix = r;
            while (true) {
                Rel next = fix.union(fix.seq(fix));
                if (next.equals(fix)) {
                    break;
                }
                fix = next;
            }
            assertThat(r.plus()).as("seed " + seed + ", n " + n).isEqualTo(fix);
            assertThat(r.acyclic()).as("seed " + seed).isEqualTo(fix.irreflexive());
            if (dag) {
                assertThat(r.acyclic()).as("seed " + seed).isTrue();
            }
        }
    }
}
