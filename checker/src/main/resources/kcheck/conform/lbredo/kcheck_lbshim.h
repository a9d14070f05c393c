/*
 * kcheck's shim for compiling a kernel tree's load-balancing functions outside the kernel (kcheck
 * conform lb-redo). Written for kcheck; no kernel code. What the tree's kernel/sched/fair.c
 * functions name from the rest of the kernel is here: the types (struct rq, struct task_struct,
 * struct sched_domain, struct sched_group, struct cpumask as one 64-bit word, struct list_head and
 * the list_* helpers as plain memory), and every call into the rest of the scheduler that the
 * balancing paths make, as an operation handed to the driver (kcheck_lbdriver.c): rq_lock /
 * rq_unlock, idle_cpu, task_on_cpu, deactivate_task, activate_task, set_task_cpu, schedstat_inc on
 * a task, WARN_ON_ONCE, lockdep_assert_rq_held. The statistics pass (sched_balance_find_src_group /
 * find_busiest_group, sched_balance_find_src_rq / find_busiest_queue) and task_hot() are the
 * model's abstractions, answered by the driver from the port's run (kcheck_lbenv.h).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t u8;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int64_t s64;

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define __always_inline inline __attribute__((always_inline))
#define noinline __attribute__((noinline))
#define __read_mostly
#define const_debug
#define READ_ONCE(x) (*(volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))
#define container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#define min_t(t, a, b) ((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b) ((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#define BITS_PER_LONG 64
#define preempt_disable() do { } while (0)
#define preempt_enable() do { } while (0)

#define KCHECK_MAX_CPUS 64
#define KCHECK_MAX_TASKS 64
extern int kcheck_nr_cpus;
#define nr_cpu_ids ((unsigned int)kcheck_nr_cpus)

/* ---- the driver's operations: each prints one operation of the C's text, with the tree line of its call ---- */
void kcheck_rq_lock(void *rq, const char *file, int line);
void kcheck_rq_unlock(void *rq, const char *file, int line);
void kcheck_assert_held(void *rq, const char *file, int line);
int kcheck_idle_cpu(int cpu, const char *file, int line);
int kcheck_task_on_cpu(void *rq, void *p, const char *file, int line);
void kcheck_deactivate_task(void *rq, void *p, const char *file, int line);
void kcheck_activate_task(void *rq, void *p, const char *file, int line);
void kcheck_set_task_cpu(void *p, int cpu, const char *file, int line);
void kcheck_schedstat(void *addr, const char *expr, const char *file, int line);
void kcheck_warn(const char *file, int line);
long kcheck_unmodelled(const char *what, const char *file, int line);
void kcheck_op(const char *text, const char *file, int line);

/* ---- struct cpumask: one word (at most 64 CPUs) ---- */
struct cpumask {
	unsigned long bits[1];
};
typedef struct cpumask cpumask_t;
typedef struct cpumask *cpumask_var_t;
#define to_cpumask(b) ((struct cpumask *)(b))

static inline bool cpumask_test_cpu(int cpu, const struct cpumask *m)
{
	return cpu >= 0 && cpu < 64 && (m->bits[0] >> cpu) & 1;
}
static inline bool cpumask_and(struct cpumask *d, const struct cpumask *a, const struct cpumask *b)
{
	d->bits[0] = a->bits[0] & b->bits[0];
	return d->bits[0] != 0;
}
static inline bool cpumask_andnot(struct cpumask *d, const struct cpumask *a, const struct cpumask *b)
{
	d->bits[0] = a->bits[0] & ~b->bits[0];
	return d->bits[0] != 0;
}
static inline void cpumask_copy(struct cpumask *d, const struct cpumask *s)
{
	d->bits[0] = s->bits[0];
}
static inline void __cpumask_clear_cpu(int cpu, struct cpumask *m)
{
	m->bits[0] &= ~(1UL << cpu);
}
static inline void cpumask_clear_cpu(int cpu, struct cpumask *m)
{
	m->bits[0] &= ~(1UL << cpu);
}
static inline bool cpumask_subset(const struct cpumask *a, const struct cpumask *b)
{
	return (a->bits[0] & ~b->bits[0]) == 0;
}
static inline unsigned int kcheck_next(int after, unsigned long bits)
{
	for (int c = after + 1; c < kcheck_nr_cpus; c++)
		if ((bits >> c) & 1)
			return c;
	return nr_cpu_ids;
}
static inline unsigned int cpumask_first(const struct cpumask *m)
{
	return kcheck_next(-1, m->bits[0]);
}
/* as the kernel's: the masks are read again at every step (should_we_balance narrows swb_cpus inside the loop) */
#define for_each_cpu(cpu, mask) for ((cpu) = -1; ((cpu) = kcheck_next((cpu), (mask)->bits[0])) < nr_cpu_ids;)
#define for_each_cpu_and(cpu, a, b) \
	for ((cpu) = -1; ((cpu) = kcheck_next((cpu), (a)->bits[0] & (b)->bits[0])) < nr_cpu_ids;)

extern struct cpumask kcheck_active_mask;
extern struct cpumask kcheck_smt_mask[KCHECK_MAX_CPUS];
extern struct cpumask kcheck_mask_load_balance_mask, kcheck_mask_should_we_balance_tmpmask;
#define cpu_active_mask (&kcheck_active_mask)
#define cpu_smt_mask(cpu) (&kcheck_smt_mask[(cpu)])
#define this_cpu_cpumask_var_ptr(x) (&kcheck_mask_##x)

/* ---- lists: plain memory ---- */
struct list_head {
	struct list_head *next, *prev;
};
#define LIST_HEAD_INIT(name) { &(name), &(name) }
static inline void INIT_LIST_HEAD(struct list_head *l)
{
	l->next = l;
	l->prev = l;
}
static inline int list_empty(const struct list_head *h)
{
	return h->next == h;
}
static inline void __list_add(struct list_head *n, struct list_head *prev, struct list_head *next)
{
	next->prev = n;
	n->next = next;
	n->prev = prev;
	prev->next = n;
}
static inline void list_add(struct list_head *n, struct list_head *h)
{
	__list_add(n, h, h->next);
}
static inline void list_add_tail(struct list_head *n, struct list_head *h)
{
	__list_add(n, h->prev, h);
}
static inline void __list_del_entry(struct list_head *e)
{
	e->next->prev = e->prev;
	e->prev->next = e->next;
}
static inline void list_del_init(struct list_head *e)
{
	__list_del_entry(e);
	INIT_LIST_HEAD(e);
}
static inline void list_move(struct list_head *e, struct list_head *h)
{
	__list_del_entry(e);
	list_add(e, h);
}
#define list_entry(ptr, type, member) container_of(ptr, type, member)
#define list_first_entry(ptr, type, member) list_entry((ptr)->next, type, member)
#define list_last_entry(ptr, type, member) list_entry((ptr)->prev, type, member)

/* ---- the scheduler's types: the fields the balancing functions name ---- */
#define SD_SHARE_CPUCAPACITY 0x0001
#define SD_NUMA 0x0002
#define SD_ASYM_PACKING 0x0004
#define SD_SHARE_LLC 0x0008
#define SD_SHARE_PKG_RESOURCES 0x0008
#define DEQUEUE_NOCLOCK 0x08
#define ENQUEUE_NOCLOCK 0x08

struct sched_group_capacity {
	int imbalance;
	struct cpumask cpumask; /* group_balance_mask() */
};
struct sched_group {
	struct sched_group *next;
	struct sched_group_capacity *sgc;
	struct cpumask span;
};
#define sched_group_span(sg) (&(sg)->span)
#define group_balance_mask(sg) (&(sg)->sgc->cpumask)
#define group_balance_cpu(sg) ((int)cpumask_first(group_balance_mask(sg)))

struct sched_domain {
	struct sched_domain *parent;
	struct sched_group *groups;
	int flags;
	unsigned int nr_balance_failed, cache_nice_tries, imbalance_pct;
	unsigned long balance_interval, min_interval, max_interval;
	unsigned int lb_count[4], lb_failed[4], lb_balanced[4], lb_imbalance[4], lb_gained[4], lb_hot_gained[4],
		lb_nobusyg[4], lb_nobusyq[4];
	struct cpumask span;
};
#define sched_domain_span(sd) (&(sd)->span)

struct sched_statistics {
	u64 nr_failed_migrations_affine, nr_failed_migrations_running, nr_failed_migrations_hot, nr_forced_migrations;
};
struct sched_entity {
	struct list_head group_node;
};
struct task_group;
struct task_struct {
	int kcheck_id;   /* the port's task slot */
	int kcheck_cpu;  /* task_cpu() */
	int kcheck_hot;  /* the environment's choice: task_hot() finds it cache-hot */
	int kcheck_on_rq;
	int sched_task_hot;
	const struct cpumask *cpus_ptr;
	struct cpumask cpus_mask;
	struct sched_entity se;
	struct sched_statistics stats;
};
struct cpu_stop_work {
	int kcheck_unused;
};
struct rq {
	int cpu;
	unsigned int nr_running;
	struct task_struct *curr;
	struct list_head cfs_tasks;
	int ttwu_pending;
	int active_balance;
	int push_cpu;
	struct cpu_stop_work active_balance_work;
	int kcheck_locked;
};
struct rq_flags {
	unsigned long flags;
};
extern struct rq kcheck_rqs[KCHECK_MAX_CPUS];
#define cpu_rq(cpu) (&kcheck_rqs[(cpu)])
#define cpu_of(rq) ((rq)->cpu)
#define task_cpu(p) ((p)->kcheck_cpu)
#define task_rq(p) cpu_rq(task_cpu(p))

extern unsigned int kcheck_sysctl_nr_migrate, kcheck_nr_migrate_break;
#define sysctl_sched_nr_migrate kcheck_sysctl_nr_migrate
#define SCHED_NR_MIGRATE_BREAK kcheck_nr_migrate_break

/* ---- operations ---- */
#define rq_lock_irqsave(rq, rf) kcheck_rq_lock((rq), __FILE__, __LINE__)
#define rq_lock(rq, rf) kcheck_rq_lock((rq), __FILE__, __LINE__)
#define rq_unlock(rq, rf) kcheck_rq_unlock((rq), __FILE__, __LINE__)
#define rq_unlock_irqrestore(rq, rf) kcheck_rq_unlock((rq), __FILE__, __LINE__)
#define raw_spin_rq_lock_irqsave(rq, f) do { (f) = 0; kcheck_rq_lock((rq), __FILE__, __LINE__); } while (0)
#define raw_spin_rq_unlock_irqrestore(rq, f) do { (void)(f); kcheck_rq_unlock((rq), __FILE__, __LINE__); } while (0)
#define local_irq_restore(f) do { (void)(f); } while (0)
#define update_rq_clock(rq) do { } while (0)
#define lockdep_assert_rq_held(rq) kcheck_assert_held((rq), __FILE__, __LINE__)
#define idle_cpu(cpu) kcheck_idle_cpu((cpu), __FILE__, __LINE__)
#define task_on_cpu(rq, p) kcheck_task_on_cpu((rq), (p), __FILE__, __LINE__)
#define task_running(rq, p) kcheck_task_on_cpu((rq), (p), __FILE__, __LINE__)
#define deactivate_task(rq, p, f) kcheck_deactivate_task((rq), (p), __FILE__, __LINE__)
#define activate_task(rq, p, f) kcheck_activate_task((rq), (p), __FILE__, __LINE__)
#define set_task_cpu(p, cpu) kcheck_set_task_cpu((p), (cpu), __FILE__, __LINE__)
#define schedstat_inc(v) kcheck_schedstat(&(v), #v, __FILE__, __LINE__)
#define schedstat_add(v, n) do { (void)(n); } while (0)
#define WARN_ON_ONCE(c) ({ int __w = !!(c); if (__w) kcheck_warn(__FILE__, __LINE__); __w; })
#define WARN_ON(c) WARN_ON_ONCE(c)
#define wakeup_preempt(rq, p, f) do { } while (0)
#define check_preempt_curr(rq, p, f) do { } while (0)
#define kthread_is_per_cpu(p) 0
#define task_group(p) ((struct task_group *)0)
#define sched_feat(x) 0
#define stop_one_cpu_nowait(cpu, fn, arg, work) kcheck_unmodelled("stop_one_cpu_nowait", __FILE__, __LINE__)
/* reached only for migrate_load, migrate_util and migrate_misfit, which the model's statistics pass never answers */
#define task_h_load(p) kcheck_unmodelled("task_h_load", __FILE__, __LINE__)
#define task_util_est(p) kcheck_unmodelled("task_util_est", __FILE__, __LINE__)
#define task_fits_cpu(p, cpu) kcheck_unmodelled("task_fits_cpu", __FILE__, __LINE__)
#define shr_bound(v, s) ((v) >> (s))
