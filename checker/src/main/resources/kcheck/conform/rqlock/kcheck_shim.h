/*
 * kcheck's shim for compiling the double_lock_balance family of a kernel tree (kernel/sched/sched.h,
 * kernel/sched/core.c) outside the kernel. Written for kcheck; no kernel code. Force-included
 * before the functions kcheck extracts from the tree (kcheck_extracted.c).
 *
 * What is shimmed, and why (kcheck conform rq-lock prints this list):
 *   - struct rq and raw_spinlock_t: only the fields the extracted functions read;
 *   - raw_spin_lock_nested, raw_spin_trylock, raw_spin_unlock: the lock itself, each an operation
 *     handed to the driver (a trylock's outcome is the driver's choice: every outcome is explored);
 *   - lock_set_subclass: lockdep, an operation handed to the driver;
 *   - double_rq_clock_clear_update: under CONFIG_SCHED_DEBUG it only clears a debug flag of
 *     rq->clock_update_flags; an operation handed to the driver, as the port records it;
 *   - static_branch_unlikely(&__sched_core_enabled): the static key, a driver variable;
 *   - preempt_disable, preempt_enable, preempt_enable_no_resched, lockdep_assert_irqs_disabled:
 *     no meaning in user space, no-ops;
 *   - likely, unlikely, swap, __releases, __acquires, __must_hold, SINGLE_DEPTH_NESTING, _RET_IP_:
 *     compiler and sparse annotations, as the kernel's headers define them.
 * Every operation handed to the driver carries the tree file and line it was called from.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define __releases(x)
#define __acquires(x)
#define __must_hold(x)
#define SINGLE_DEPTH_NESTING 1
#define _RET_IP_ 0UL
#define swap(a, b) do { __typeof__(a) __kcheck_tmp = (a); (a) = (b); (b) = __kcheck_tmp; } while (0)
#define lockdep_assert_irqs_disabled() do { } while (0)
#define preempt_disable() do { } while (0)
#define preempt_enable() do { } while (0)
#define preempt_enable_no_resched() do { } while (0)

struct lockdep_map { int id; };
typedef struct raw_spinlock { struct lockdep_map dep_map; int id; } raw_spinlock_t;

struct rq {
	int cpu;
	struct rq *core;
	unsigned int core_enabled;
	raw_spinlock_t __lock;
};

extern bool __sched_core_enabled;
#define static_branch_unlikely(key) (*(key))

void kcheck_lock(raw_spinlock_t *lock, int subclass, const char *file, int line, const char *func);
int kcheck_trylock(raw_spinlock_t *lock, const char *file, int line, const char *func);
void kcheck_unlock(raw_spinlock_t *lock, const char *file, int line, const char *func);
void kcheck_subclass(struct lockdep_map *map, int subclass, const char *file, int line, const char *func);
void kcheck_clock(struct rq *rq1, struct rq *rq2, const char *file, int line, const char *func);

#define raw_spin_lock_nested(lock, subclass) kcheck_lock(lock, subclass, __FILE__, __LINE__, __func__)
#define raw_spin_trylock(lock) kcheck_trylock(lock, __FILE__, __LINE__, __func__)
#define raw_spin_unlock(lock) kcheck_unlock(lock, __FILE__, __LINE__, __func__)
#define lock_set_subclass(map, subclass, ip) kcheck_subclass(map, subclass, __FILE__, __LINE__, __func__)
#define double_rq_clock_clear_update(rq1, rq2) kcheck_clock(rq1, rq2, __FILE__, __LINE__, __func__)

/* the tree's functions, declared as kernel/sched/sched.h declares them */
void raw_spin_rq_lock_nested(struct rq *rq, int subclass);
bool raw_spin_rq_trylock(struct rq *rq);
void raw_spin_rq_unlock(struct rq *rq);
void double_rq_lock(struct rq *rq1, struct rq *rq2);
static inline raw_spinlock_t *__rq_lockp(struct rq *rq);
