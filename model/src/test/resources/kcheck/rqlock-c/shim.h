/*
 * kcheck's shim for compiling the v6.12 double_lock_balance family (kernel/sched/sched.h,
 * kernel/sched/core.c) outside the kernel: written for kcheck, no kernel code. A struct rq with
 * only the fields those functions read, and raw_spin_rq_* / lock_set_subclass /
 * double_rq_clock_clear_update that log each call instead of locking; raw_spin_rq_trylock
 * returns scripted outcomes. The test (CDoubleLockBalanceConformanceTest) compares the log with
 * the recorded program of the Java port.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define likely(x) (x)
#define unlikely(x) (x)
#define __releases(x)
#define __acquires(x)
#define __must_hold(x)
#define __acquire(x) ((void)0)
#define __release(x) ((void)0)
#define SINGLE_DEPTH_NESTING 1
#define _RET_IP_ 0UL
#define swap(a, b) do { __typeof__(a) __tmp = (a); (a) = (b); (b) = __tmp; } while (0)
#define lockdep_assert_irqs_disabled() do { } while (0)

struct lockdep_map { int id; };
typedef struct raw_spinlock { struct lockdep_map dep_map; int id; } raw_spinlock_t;

struct rq {
	int cpu;
	struct rq *core;
	unsigned int core_enabled;
	raw_spinlock_t __lock;
};

/* as v6.12's CONFIG_SCHED_CORE __rq_lockp */
static inline raw_spinlock_t *__rq_lockp(struct rq *rq)
{
	if (rq->core_enabled)
		return &rq->core->__lock;
	return &rq->__lock;
}

void shim_log(const char *what, int a, int b);
bool shim_trylock_outcome(void);

static inline void raw_spin_rq_lock_nested(struct rq *rq, int subclass)
{
	shim_log("lock", __rq_lockp(rq)->id, subclass);
}

static inline void raw_spin_rq_lock(struct rq *rq)
{
	raw_spin_rq_lock_nested(rq, 0);
}

static inline bool raw_spin_rq_trylock(struct rq *rq)
{
	bool ok = shim_trylock_outcome();
	shim_log("trylock", __rq_lockp(rq)->id, ok);
	return ok;
}

static inline void raw_spin_rq_unlock(struct rq *rq)
{
	shim_log("unlock", __rq_lockp(rq)->id, -1);
}

static inline void lock_set_subclass(struct lockdep_map *map, int subclass, unsigned long ip)
{
	shim_log("subclass", map->id, subclass);
}

static inline void double_rq_clock_clear_update(struct rq *rq1, struct rq *rq2)
{
	shim_log("clock", __rq_lockp(rq1)->id, -1);
	shim_log("clock", __rq_lockp(rq2)->id, -1);
}
