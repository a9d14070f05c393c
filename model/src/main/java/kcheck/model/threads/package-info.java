/**
 * What the real-thread versions of the reference code share: every spin loop is bounded, and
 * ends in {@link kcheck.model.threads.SpinBudgetExceeded} (a hang, reported rather than waited
 * on) or, when the check watching the run asks, in {@link kcheck.model.threads.WaitAbandoned}.
 */
package kcheck.model.threads;
