/*
 * kcheck's stand-in for arch/x86/include/asm/qspinlock.h (written for kcheck, no kernel code):
 * the x86 parts of the lock that are inline assembly, static keys or paravirt in the kernel.
 *   - queued_fetch_set_pending_acquire: x86 sets the pending bit with "lock btsl" (a fully
 *     ordered read-modify-write of the 32-bit word returning the old bit) and then reads the
 *     word with atomic_read, a plain mov that is an acquire load under x86-TSO; here the same
 *     two accesses, with those orderings;
 *   - virt_spin_lock: false (virt_spin_lock_key off: bare metal, or a guest with paravirt
 *     spinlocks, which the port's lock=qspinlock assumes);
 *   - _Q_PENDING_LOOPS: the bounded wait for a pending->locked hand-over is one load (x86 spins
 *     up to 512 times; in an untimed model the loads in between change nothing, and the port
 *     takes giving up after the bound as one load that still reads _Q_PENDING_VAL).
 */
#ifndef KCHECK_X86_QSPINLOCK_H
#define KCHECK_X86_QSPINLOCK_H
#include <asm-generic/qspinlock_types.h>

#define _Q_PENDING_LOOPS 0

#define queued_fetch_set_pending_acquire queued_fetch_set_pending_acquire
static __always_inline u32 queued_fetch_set_pending_acquire(struct qspinlock *lock)
{
	u32 val;

	val = kcheck_btsl(&lock->val.counter, _Q_PENDING_OFFSET, KO_RMW_FULL, __FILE__, __LINE__) * _Q_PENDING_VAL;
	val |= (u32)kcheck_load(&lock->val.counter, 4, KO_ACQUIRE, __FILE__, __LINE__) & ~_Q_PENDING_MASK;

	return val;
}

#define virt_spin_lock virt_spin_lock
static inline bool virt_spin_lock(struct qspinlock *lock)
{
	return false;
}

#include <asm-generic/qspinlock.h>
#endif
