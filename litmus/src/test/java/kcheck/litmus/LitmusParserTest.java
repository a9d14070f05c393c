package kcheck.litmus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LitmusParserTest {

    private static final String MP = """
            C MP+test

            (*
             * Result: Sometimes DATARACE
             *)

            {
            \tx=1; y=&z; 0:r1=2;
            \tint w = 3;
            \tatomic_t v = ATOMIC_INIT(4);
            \tspinlock_t s;
            }

            P0(int *x, int **y) // comment
            {
            \tint r0 = READ_ONCE(*x);
            \t/* block comment */
            \tif (r0 == 1 && (r0 + 1) * 2 > 3)
            \t\tWRITE_ONCE(*x, 2);
            \telse {
            \t\tsmp_mb();
            \t}
            }

            P1(int *x)
            {
            \tint r0;
            \tr0 = (*x);
            }

            locations [x; 0:r0;]
            filter (0:r0=1)
            exists (0:r0=1 /\\ ~(1:r0=0 \\/ y=z)) (* note *)
            """;

    @Test
    void readsNameResultInitialStateThreadsAndClauses() {
        LitmusTest t = LitmusParser.parse("mp.litmus", MP);
        assertThat(t.name()).isEqualTo("MP+test");
        assertThat(t.expected()).isEqualTo("Sometimes");
        assertThat(t.expectedRace()).isTrue();
        assertThat(t.memoryInit()).containsEntry("x", Val.of(1)).containsEntry("y", Val.address("z"))
                .containsEntry("w", Val.of(3)).containsEntry("v", Val.of(4)).containsKey("s");
        assertThat(t.registerInit()).containsEntry("0:r1", Val.of(2));
        assertThat(t.threads()).hasSize(2);
        assertThat(t.threads().get(0).params()).containsExactly("x", "y");
        assertThat(t.locations()).containsExactly("x", "0:r0");
        assertThat(t.filter()).isNotNull();
        assertThat(t.quantifier()).isEqualTo("exists");
        assertThat(t.condition().toString()).isEqualTo("(0:r0=1 /\\ ~(1:r0=0 \\/ y=z))");
    }

    @Test
    void readsNegatedExistsAndForall() {
        String base = "C t\n{}\nP0(int *x) { WRITE_ONCE(*x, 1); }\n";
        assertThat(LitmusParser.parse("a", base + "~exists (x=1)").quantifier()).isEqualTo("~exists");
        assertThat(LitmusParser.parse("a", base + "forall (x=1 \\/ x=0)").quantifier()).isEqualTo("forall");
        assertThat(LitmusParser.parse("a", base + "exists x=1").expected()).isNull();
    }

    @Test
    void herdCommentsMayAppearInTheInitialStateAndParenthesizedDerefsInCode() {
        String text = "C t\n{\n\tx=1; (* the flag *)\n}\nP0(int *x) { int r0; r0 = (*x) + 1; }\nexists (0:r0=2)\n";
        assertThat(LitmusParser.parse("a", text).memoryInit()).containsEntry("x", Val.of(1));
        assertThat(Litmus.word(text)).isEqualTo("Always");
    }

    @Test
    void aTestWithoutFinalConditionIsDecidedForTrue() {
        String deadlock = "C self-deadlock\n(*\n * Result: DEADLOCK\n *)\n{}\nP0(spinlock_t *sl)\n{\n\tspin_lock(sl);\n"
                + "\tspin_lock(sl);\n\tspin_unlock(sl);\n\tspin_unlock(sl);\n}\n";
        LitmusResult r = Litmus.decide(deadlock);
        assertThat(r.positive() + r.negative()).isZero();
        assertThat(r.matchesExpectation()).isTrue();
        assertThat(Litmus.word("C t\n{}\nP0(int *x) { WRITE_ONCE(*x, 1); }\n")).isEqualTo("Always");
    }

    @Test
    void anAtomMayCompareTwoRegisters() {
        String text = "C t\n{ x=2; }\nP0(atomic_t *x) { int r1; r1 = atomic_dec_and_test(x); }\n"
                + "P1(atomic_t *x) { int r2; r2 = atomic_dec_and_test(x); }\nexists (x!=0 \\/ 0:r1=1:r2)\n";
        assertThat(LitmusParser.parse("a", text).condition().toString()).isEqualTo("(x!=0 \\/ 0:r1=1:r2)");
        assertThat(Litmus.word(text)).isEqualTo("Never");
    }

    @Test
    void unsupportedStatementNamesFileAndLine() {
        String text = "C t\n{}\nP0(int *x)\n{\n\twhile (1) { }\n}\nexists (x=1)\n";
        assertThatThrownBy(() -> LitmusParser.parse("bad.litmus", text)).isInstanceOf(LitmusException.class)
                .hasMessage("bad.litmus:5: unsupported statement 'while'");
    }

    @Test
    void unknownMacroNamesFileAndLine() {
        String text = "C t\n{}\nP0(int *x)\n{\n\tfoo(x);\n}\nexists (x=1)\n";
        assertThatThrownBy(() -> LitmusParser.parse("bad.litmus", text)).isInstanceOf(LitmusException.class)
                .hasMessage("bad.litmus:5: unsupported macro 'foo'");
    }

    @Test
    void wrongArityAndSyntaxErrorsAreOneLine() {
        assertThatThrownBy(() -> LitmusParser.parse("f", "C t\n{}\nP0(int *x)\n{\n\tWRITE_ONCE(*x);\n}\nexists (x=1)\n"))
                .hasMessage("f:5: 'WRITE_ONCE' takes 2 arguments, not 1");
        assertThatThrownBy(() -> LitmusParser.parse("f", "C t\n{}\nP0(int *x)\n{\n\tWRITE_ONCE(*x, 1)\n}\nexists (x=1)\n"))
                .hasMessage("f:6: expected ';' but found '}'");
        assertThatThrownBy(() -> LitmusParser.parse("f", "C t\n{}\nP0(int *x)\n{\n}\nexist (x=1)\n"))
                .hasMessage("f:6: expected 'exists', '~exists' or 'forall' but found 'exist'");
        assertThatThrownBy(() -> LitmusParser.parse("f", "X86 t\n{}\n")).hasMessageStartingWith("f:1: not a C litmus test");
    }

    @Test
    void anUndeclaredRegisterIsZeroUntilAssignedAsInHerd() {
        String text = "C t\n{ 0:r8=2; }\nP0(int *x)\n{\n\tWRITE_ONCE(*x, r9 + r8);\n\tr7 = 3;\n}\nexists (x=2 /\\ 0:r7=3)\n";
        assertThat(Litmus.word(text)).isEqualTo("Always");
    }
}
