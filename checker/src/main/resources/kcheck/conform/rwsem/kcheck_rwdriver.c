/*
 * kcheck's driver for a tree's kernel/locking/rwsem.c (written for kcheck, no kernel code). The
 * tree's file is compiled on its own (kcheck_rwtree.c) with -fsanitize-coverage=trace-pc, so that
 * every basic block it runs calls __sanitizer_cov_trace_pc() below: at a divergence the driver
 * prints the blocks each operation was reached through, which kcheck turns into the tree's lines
 * (the edited line is among those before the first operation that differs). Reads one run per line:
 *   TASK ID NTASKS N K E1 ... EK HASH
 * TASK: R (down_read, then up_read), r (down_read_killable, then up_read if it returned 0), W, w
 * (the same for writing); or, with wait_lock held on a wait list E1 = Lspec (kcheck_wl_setup): M
 * (rwsem_mark_wake with wake type ID, by task 0), T (rwsem_try_write_lock of waiter ID), D
 * (rwsem_del_wake_waiter of waiter ID), each followed by the wait list left ("list ..."); ID: the task's number (its task_struct is kcheck_tasks[ID]); N: the run is
 * cut after N operations (-1: it must run to the end, "done"); Ei: what the i-th read finds: cX (a
 * count, hex), oX (an owner word in the model's encoding: task t is (t + 1) << 3, hex, with the flag
 * bits), bV (a boolean), - (a read whose value does not matter: 0, or memory as it is); HASH: the
 * 64-bit FNV-1a (hex) of the port's text. A run whose C text has that hash prints nothing; the first
 * that does not prints
 *   D N            (the run's number, from 0)
 *   R op ; op ; ... ; outcome      (outcome: done, cut, or E what went wrong)
 *   W where ; where ; ...          (the tree file:line of each operation)
 *   B pc,pc,... ; pc,... ; ...     (the blocks run before each operation, and after the last)
 * and the driver stops. At the end of the input: "END N".
 */
void kcheck_wl_setup(struct rw_semaphore *sem, const char *spec, int me);
void kcheck_wl_mark_wake(struct rw_semaphore *sem, int wake_type);
int kcheck_wl_try_write_lock(struct rw_semaphore *sem);
void kcheck_wl_del_wake_waiter(struct rw_semaphore *sem);
void kcheck_wl_text(struct rw_semaphore *sem, char *buf, size_t n);
void kcheck_wl_relist(struct rw_semaphore *sem, const char *spec);
void kcheck_wl_granted(struct rw_semaphore *sem);
int kcheck_wl_down_read_slowpath(struct rw_semaphore *sem, long count, int killable);
int kcheck_wl_down_write_slowpath(struct rw_semaphore *sem, int killable);
void down_read(struct rw_semaphore *sem);
int down_read_killable(struct rw_semaphore *sem);
void up_read(struct rw_semaphore *sem);
void down_write(struct rw_semaphore *sem);
int down_write_killable(struct rw_semaphore *sem);
void up_write(struct rw_semaphore *sem);

#include <setjmp.h>

#define KCHECK_TRACED_OPS 512
#include "kcheck_drivercommon.h"

#define KCHECK_MAX_TASKS 8
struct task_struct kcheck_tasks[KCHECK_MAX_TASKS];
static struct rw_semaphore sem;
static int me, preempt, cut_at, nops;
static char entries[128][24];
static int nentries, pos;
static char line_out[16384], where_out[16384];
static jmp_buf end_run;

static void stop(const char *outcome)
{
	kcheck_add(line_out, sizeof(line_out), outcome);
	longjmp(end_run, 1);
}

struct task_struct *kcheck_current(void)
{
	return &kcheck_tasks[me];
}

int kcheck_rt(void)
{
	return 0;
}

void kcheck_op(const char *text, const char *file, int line)
{
	char w[300];
	kcheck_add(line_out, sizeof(line_out), text);
	kcheck_add(line_out, sizeof(line_out), " ; ");
	snprintf(w, sizeof(w), "%s:%d ; ", file, line);
	kcheck_add(where_out, sizeof(where_out), w);
	if (nops < 512)
		kcheck_op_pcs[nops] = kcheck_npcs;
	nops++;
	if (cut_at >= 0 && nops >= cut_at)
		stop("cut");
}

/* an owner word as text: 0 or tN, with |R (RWSEM_READER_OWNED) and |N (RWSEM_NONSPINNABLE) */
static void owner_word(char *buf, size_t n, long v)
{
	unsigned long p = (unsigned long)v & ~7UL;
	int t = -1;
	for (int i = 0; i < KCHECK_MAX_TASKS; i++)
		if (p == (unsigned long)&kcheck_tasks[i])
			t = i;
	if (p == 0)
		snprintf(buf, n, "0");
	else if (t >= 0)
		snprintf(buf, n, "t%d", t);
	else
		snprintf(buf, n, "?%lx", p);
	if (v & 1)
		kcheck_add(buf, n, "|R");
	if (v & 2)
		kcheck_add(buf, n, "|N");
	if (v & 4)
		kcheck_add(buf, n, "|4");
}

const char *kcheck_owner_text(const char *what, struct task_struct *t)
{
	static char buf[64];
	char o[40];
	owner_word(o, sizeof(o), (long)t);
	snprintf(buf, sizeof(buf), "%s %s", what, o);
	return buf;
}

/* the model's owner encoding to a pointer into kcheck_tasks */
static long owner_value(unsigned long m)
{
	long t = (long)((m & ~7UL) >> 3) - 1;
	return t < 0 ? (long)(m & 7) : (long)(uintptr_t)&kcheck_tasks[t] | (long)(m & 7);
}

/* the value the next read finds; a read the port's run has no value for (or one of another kind) ends the run */
static const char *take(char kind, const char *what, const char *file, int line)
{
	char msg[400];
	if (pos >= nentries) {
		snprintf(msg, sizeof(msg), "E %s (a read at %s:%d where the port reads nothing more)", what, file, line);
		stop(msg);
	}
	const char *e = entries[pos++];
	if (e[0] != kind && e[0] != '-' && !(kind == 't' && e[0] == 'b')) {
		snprintf(msg, sizeof(msg), "E %s (a read at %s:%d where the port reads a value of another kind, %s)", what, file, line, e);
		stop(msg);
	}
	return e;
}

long kcheck_read(const char *kind, const char *text, const char *file, int line)
{
	const char *e = take(kind[0], text, file, line);
	kcheck_op(text, file, line);
	if (e[0] == '-')
		return 0;
	long v = strtol(e + 1, NULL, 10);
	if (v == 0 && !strncmp(text, "waiter.task load", 16))
		kcheck_wl_granted(&sem);
	if (kind[0] == 't')
		return v ? 1L << 40 : 0;
	return v;
}

long kcheck_atomic(atomic_long_t *v, const char *what, long a, long b, int *ok, const char *order, const char *file, int line)
{
	char text[200], oa[40], ob[40];
	int is_owner = v == &sem.owner;
	const char *name = v == &sem.count ? "count" : is_owner ? "owner" : "?";
	int reads = !strcmp(what, "load") || !strcmp(what, "add_return") || !strcmp(what, "fetch_add") || !strcmp(what, "cmpxchg")
		|| !strcmp(what, "add");
	if (is_owner && (!strcmp(what, "store") || !strcmp(what, "cmpxchg"))) {
		owner_word(oa, sizeof(oa), a);
		owner_word(ob, sizeof(ob), b);
		if (!strcmp(what, "store"))
			snprintf(text, sizeof(text), "owner store %s", oa);
		else
			snprintf(text, sizeof(text), "owner cmpxchg %s %s", oa, ob);
	} else if (!strcmp(what, "load")) {
		snprintf(text, sizeof(text), "%s load", name);
	} else if (!strcmp(what, "cmpxchg")) {
		snprintf(text, sizeof(text), "%s cmpxchg %lx %lx", name, (unsigned long)a, (unsigned long)b);
	} else {
		snprintf(text, sizeof(text), "%s %s %lx", name, what, (unsigned long)a);
	}
	kcheck_add(text, sizeof(text), " ");
	kcheck_add(text, sizeof(text), order);
	long old = v->counter;
	if (reads) {
		const char *e = take(!strcmp(what, "add") ? '-' : is_owner ? 'o' : 'c', text, file, line);
		if (e[0] == 'c')
			old = (long)strtoul(e + 1, NULL, 16);
		else if (e[0] == 'o')
			old = owner_value(strtoul(e + 1, NULL, 16));
	}
	kcheck_op(text, file, line);
	long now = old;
	if (!strcmp(what, "store"))
		now = a;
	else if (!strcmp(what, "add") || !strcmp(what, "add_return") || !strcmp(what, "fetch_add"))
		now = old + a;
	else if (!strcmp(what, "or"))
		now = old | a;
	else if (!strcmp(what, "andnot"))
		now = old & ~a;
	else if (!strcmp(what, "cmpxchg")) {
		int eq = old == a;
		if (ok)
			*ok = eq;
		if (eq)
			now = b;
	}
	v->counter = now;
	return old;
}

void kcheck_preempt(int d)
{
	preempt += d;
}

void kcheck_assert_preempt_off(const char *file, int line)
{
	if (preempt <= 0)
		kcheck_op("warn preemption enabled", file, line);
}

void kcheck_assert_held(raw_spinlock_t *l, const char *file, int line)
{
	if (!l->kcheck_held)
		kcheck_op("warn wait_lock not held", file, line);
}

void kcheck_wait_lock(raw_spinlock_t *l, int lock, const char *file, int line)
{
	l->kcheck_held = lock;
	kcheck_op(lock ? "wait_lock lock" : "wait_lock unlock", file, line);
	/* a slow path's run gives the wait list each acquisition finds */
	if (lock && pos < nentries && entries[pos][0] == 'L')
		kcheck_wl_relist(&sem, entries[pos++] + 1);
}

int kcheck_warn(int c, const char *what, const char *file, int line)
{
	if (c)
		kcheck_op(what, file, line);
	return c;
}

int main(void)
{
	static char in[8192];
	long runs = 0;
	setvbuf(stdout, NULL, _IOFBF, 1 << 20);
	while (fgets(in, sizeof(in), stdin)) {
		char task;
		int id, n, k, off;
		if (sscanf(in, " %c %d %d %d %d%n", &task, &id, &n, &cut_at, &k, &off) != 5 || id >= KCHECK_MAX_TASKS || k > 128)
			continue;
		char *s = in + off;
		for (int i = 0; i < k; i++) {
			int used;
			if (sscanf(s, " %23s%n", entries[i], &used) != 1)
				break;
			s += used;
		}
		unsigned long long want = 0;
		sscanf(s, " %llx", &want);
		nentries = k;
		pos = 0;
		nops = 0;
		kcheck_npcs = 0;
		me = id;
		preempt = 0;
		memset(&sem, 0, sizeof(sem));
		INIT_LIST_HEAD(&sem.wait_list);
		line_out[0] = 0;
		where_out[0] = 0;
		if (task == 'S' || task == 'X') {
			/* a slow path from its entry: entries[0] is the count rwsem_read_trylock gave the reader (c...), - for the writer */
			me = 0;
			pos = 1;
			preempt = 1;
			kcheck_wl_setup(&sem, "", 0);
		}
		if (task == 'M' || task == 'T' || task == 'D') {
			/* a function under wait_lock: entries[0] is the wait list (L...), the caller is task 0 (M) or waiter `id` */
			me = task == 'M' ? 0 : id;
			pos = 1;
			preempt = 1;	/* as their callers run them: preemption disabled (v6.12's slow paths, rwsem_wake's caller) */
			kcheck_wl_setup(&sem, entries[0] + 1, me);
			sem.wait_lock.kcheck_held = 1;
		}
		if (!setjmp(end_run)) {
			if (task == 'M' || task == 'T' || task == 'D' || task == 'S' || task == 'X') {
				static char list[256];
				if (task == 'X')
					kcheck_op(kcheck_wl_down_write_slowpath(&sem, id & 1) ? "returns 1" : "returns 0", "(driver)", 0);
				else if (task == 'S')
					kcheck_op(kcheck_wl_down_read_slowpath(&sem, (long)strtoul(entries[0] + 1, NULL, 16), id) ? "returns 1"
						  : "returns 0", "(driver)", 0);
				else if (task == 'M')
					kcheck_wl_mark_wake(&sem, id);
				else if (task == 'T')
					kcheck_op(kcheck_wl_try_write_lock(&sem) ? "returns 1" : "returns 0", "(driver)", 0);
				else
					kcheck_wl_del_wake_waiter(&sem);
				kcheck_wl_text(&sem, list, sizeof(list));
				kcheck_op(list, "(driver)", 0);
			} else if (task == 'R') {
				down_read(&sem);
				up_read(&sem);
			} else if (task == 'r') {
				if (down_read_killable(&sem) == 0)
					up_read(&sem);
			} else if (task == 'W') {
				down_write(&sem);
				up_write(&sem);
			} else {
				if (down_write_killable(&sem) == 0)
					up_write(&sem);
			}
			if (cut_at >= 0)
				kcheck_add(line_out, sizeof(line_out), "E the C ends before the port's run does");
			else if (pos < nentries)
				kcheck_add(line_out, sizeof(line_out), "E the C reads fewer values than the port");
			else
				kcheck_add(line_out, sizeof(line_out), "done");
		}
		if (kcheck_fnv1a(line_out) != want) {
			printf("D %ld\nR %s\nW %s\n", runs, line_out, where_out);
			kcheck_print_blocks(nops);
			fflush(stdout);
			return 0;
		}
		runs++;
	}
	printf("END %ld\n", runs);
	fflush(stdout);
	return 0;
}
