/**
 * The rq-lock reference code on real JVM threads: runqueue locks built on atomics that apply the
 * step functions of {@link kcheck.model.rqlock.TicketSpinlock} and
 * {@link kcheck.model.rqlock.TasSpinlock}, an {@link kcheck.model.rqlock.RqLocks} backed by them,
 * and the scenario's balancing pass. The reference implementations themselves
 * ({@code DoubleLockBalanceV2627}, {@code DoubleLockBalanceV2628}, {@code DoubleRqLock}) run
 * unchanged: the explicit-state model records them against a recording {@code RqLocks}, real
 * threads run them against {@link kcheck.model.rqlock.threads.AtomicRqLocks}.
 *
 * <p>Every spin loop is bounded by a spin budget; exceeding it throws
 * {@link kcheck.model.threads.SpinBudgetExceeded}, so a hang is reported, not waited on.
 */
package kcheck.model.rqlock.threads;
