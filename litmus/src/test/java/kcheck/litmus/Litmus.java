package kcheck.litmus;

/** Test helper: decides litmus text given inline. */
final class Litmus {
    private Litmus() {
    }

    static LitmusResult decide(String text) {
        return LitmusChecker.decide(LitmusParser.parse("test.litmus", text));
    }

    static String word(String text) {
        return decide(text).word();
    }
}
