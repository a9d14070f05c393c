package kcheck.conform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

class CFunctionsTest {

    @Test
    void oneDefinitionPerConfigurationEachWithItsConditions() {
        String src = """
                #ifndef _GUARD_H
                #define _GUARD_H
                #ifdef CONFIG_PREEMPTION
                /* fair { */
                static inline int f(struct rq *a, struct rq *b)
                	__releases(a->lock)
                	__acquires(b->lock)
                {
                	return 1;
                }
                #else /* !CONFIG_PREEMPTION: */
                static inline int f(struct rq *this_rq, struct rq *busiest)
                {
                	if (x) { return "}"[0]; }
                	return '{';
                }
                #endif
                #endif
                """;
        List<CFunctions.Definition> d = CFunctions.parse("kernel/sched/sched.h", src).definitions("f");
        assertThat(d).hasSize(2);
        assertThat(d.get(0).line()).isEqualTo(5);
        assertThat(d.get(0).conditions()).containsExactly("(!defined(_GUARD_H))", "(defined(CONFIG_PREEMPTION))");
        assertThat(d.get(0).text()).startsWith("static inline int f(").endsWith("return 1;\n}");
        assertThat(d.get(1).line()).isEqualTo(12);
        assertThat(d.get(1).conditions()).containsExactly("(!defined(_GUARD_H))", "!(defined(CONFIG_PREEMPTION))");
        assertThat(d.get(1).text()).endsWith("return '{';\n}");
        assertThat(d.get(1).emit()).isEqualTo("#if (!defined(_GUARD_H))\n#if !(defined(CONFIG_PREEMPTION))\n#line 12 \"kernel/sched/sched.h\"\n"
                + d.get(1).text() + "\n#endif\n#endif\n");
    }

    @Test
    void aDeclarationACallAndAMacroAreNotDefinitions() {
        String src = """
                extern void g(struct rq *rq1, struct rq *rq2);
                #define g(x) do { g2(x); } while (0)
                DEFINE_GUARD(rq, g(a, b), h(c))
                int caller(void) { g(1, 2); return 0; }
                """;
        assertThat(CFunctions.parse("x.c", src).definitions("g")).isEmpty();
        assertThat(CFunctions.parse("x.c", src).definitions("caller")).hasSize(1);
    }

    @Test
    void aDefinitionIsFoundWhateverItsParametersAreCalledAndHowItIsLaidOut() {
        String src = """
                int x;

                void
                double_rq_lock(struct rq *first,
                               struct rq *second)   // renamed
                {
                	swap(first, second);
                }
                """;
        CFunctions.Definition d = CFunctions.parse("core.c", src).definitions("double_rq_lock").get(0);
        assertThat(d.line()).isEqualTo(3);
        assertThat(d.text()).startsWith("void\ndouble_rq_lock(").endsWith("swap(first, second);\n}");
        assertThat(d.conditions()).isEmpty();
    }

    @Test
    void elifBranchesCarryTheNegationOfTheEarlierOnes() {
        String src = "#if A\nint f(void) { return 1; }\n#elif B\nint f(void) { return 2; }\n#else\nint f(void) { return 3; }\n#endif\n";
        List<CFunctions.Definition> d = CFunctions.parse("x.c", src).definitions("f");
        assertThat(d).extracting(CFunctions.Definition::conditions).containsExactly(List.of("(A)"), List.of("!(A) && (B)"),
                List.of("!(A) && !(B)"));
    }

    @Test
    void aMissingFunctionIsNamed() {
        assertThatThrownBy(() -> CFunctions.parse("kernel/sched/core.c", "int f(void) { return 0; }").require("double_rq_lock"))
                .hasMessage("kernel/sched/core.c has no definition of double_rq_lock()");
    }
}
