package kcheck.litmus;

import java.util.Map;

/**
 * A proposition over a final state, as in a litmus test's {@code exists}, {@code forall} and
 * {@code filter} clauses: atoms {@code 0:r0=1}, {@code x=2}, {@code 0:r0=x} (an address), joined by
 * {@code /\}, {@code \/}, {@code ~} and {@code =>}.
 */
sealed interface Cond {
    boolean eval(Map<String, Val> state);

    /**
     * {@code key=value} (or {@code key!=value}); key is {@code T:reg} or a location; the value is a constant
     * or, when {@code otherKey} is not null, the final value of another register or location ({@code 0:r1=1:r2}).
     */
    record Atom(String key, Val value, String otherKey, boolean equal) implements Cond {
        @Override
        public boolean eval(Map<String, Val> state) {
            Val v = state.getOrDefault(key, Val.ZERO);
            Val w = otherKey == null ? value : state.getOrDefault(otherKey, Val.ZERO);
            return v.equals(w) == equal;
        }

        @Override
        public String toString() {
            return key + (equal ? "=" : "!=") + (otherKey == null ? value : otherKey);
        }
    }

    record And(Cond left, Cond right) implements Cond {
        @Override
        public boolean eval(Map<String, Val> state) {
            return left.eval(state) && right.eval(state);
        }

        @Override
        public String toString() {
            return "(" + left + " /\\ " + right + ")";
        }
    }

    record Or(Cond left, Cond right) implements Cond {
        @Override
        public boolean eval(Map<String, Val> state) {
            return left.eval(state) || right.eval(state);
        }

        @Override
        public String toString() {
            return "(" + left + " \\/ " + right + ")";
        }
    }

    record Not(Cond operand) implements Cond {
        @Override
        public boolean eval(Map<String, Val> state) {
            return !operand.eval(state);
        }

        @Override
        public String toString() {
            return "~" + operand;
        }
    }

    record Const(boolean value) implements Cond {
        @Override
        public boolean eval(Map<String, Val> state) {
            return value;
        }

        @Override
        public String toString() {
            return value ? "true" : "false";
        }
    }
}
