package kcheck.model;

/**
 * One row of a model's environment contract: an input the ported kernel code takes from outside
 * the mechanism (a signal, a wake-up, need_resched, a CPU going offline, a sched-domain flag...),
 * where the kernel reads it, and what the model does with it. Every such input at every call site
 * of the ported functions is either a nondeterministic choice of the model (on by default, or
 * behind a parameter where it multiplies the states) or an assumption, with its reason.
 *
 * @param input     what comes from outside, in kernel terms ({@code signal_pending(current)})
 * @param callSites where the ported code reads it: kernel file:line (v6.12) and function, comma separated
 * @param treatment how the model covers it
 * @param how       one sentence: the choice the model makes, the parameter that enables it, or why it is assumed
 */
public record EnvironmentInput(String input, String callSites, Treatment treatment, String how) {

    /** How the model covers an environment input. */
    public enum Treatment {
        /** A nondeterministic choice of the model at default bounds. */
        CHOICE,
        /** A nondeterministic choice behind a parameter (it multiplies the states). */
        PARAMETER,
        /** Not a choice: the model assumes a value; {@code how} says which and why. */
        ASSUMPTION;

        /** Lower-case name for text and JSON output. */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public EnvironmentInput {
        java.util.Objects.requireNonNull(input, "input");
        java.util.Objects.requireNonNull(callSites, "callSites");
        java.util.Objects.requireNonNull(treatment, "treatment");
        java.util.Objects.requireNonNull(how, "how");
    }

    public static EnvironmentInput choice(String input, String callSites, String how) {
        return new EnvironmentInput(input, callSites, Treatment.CHOICE, how);
    }

    public static EnvironmentInput parameter(String input, String callSites, String how) {
        return new EnvironmentInput(input, callSites, Treatment.PARAMETER, how);
    }

    public static EnvironmentInput assumption(String input, String callSites, String how) {
        return new EnvironmentInput(input, callSites, Treatment.ASSUMPTION, how);
    }
}
