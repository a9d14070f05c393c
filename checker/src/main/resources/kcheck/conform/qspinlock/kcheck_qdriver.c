/*
 * kcheck's driver for a tree's qspinlock.c (written for kcheck, no kernel code). The tree's file
 * is included by path (KCHECK_QSPINLOCK_C) after kcheck_qshim.h. Reads one run per line on stdin:
 *   OP CPU NCPUS K E1 ... EK
 * OP: L (queued_spin_lock), T (queued_spin_trylock), U (queued_spin_unlock); each Ei is the value
 * the i-th load or read-modify-write finds: wL.P.T for the lock word (locked, pending, tail as
 * CPU + 1, index 0), nV for an MCS node field (locked: V; next: 0 for NULL or CPU + 1 for that
 * CPU's node); HASH is the 64-bit FNV-1a hash (hex) of the text the port gives for the run. A run
 * whose text has that hash prints nothing; the first that does not prints
 *   D N                              (N: the run's number, from 0)
 *   R op ; op ; ... ; outcome        (outcome: done, return N, spins, or E what went wrong)
 *   W where ; where ; ...            (the tree file:line of each operation)
 * and the driver stops. At the end of the input: "END N" (the number of runs).
 */
#include KCHECK_QSPINLOCK_C

#include <setjmp.h>
#include "kcheck_drivercommon.h"

int kcheck_cpu;
static int ncpus;
static struct qspinlock lock;
static struct qnode kcheck_nodes[KCHECK_MAX_CPUS][MAX_NODES];
static struct { int locked; struct mcs_spinlock *next; } snap[KCHECK_MAX_CPUS][MAX_NODES];

static char entries[64][16];
static int nentries, pos;
static char line_out[8192], where_out[8192];
static const char *fence;
static jmp_buf end_run;

void *kcheck_percpu(void *p, int cpu)
{
	return (char *)kcheck_nodes[cpu] + ((char *)p - (char *)qnodes);
}

static void emit(const char *op, const char *file, int line)
{
	char w[300];
	if (fence) {
		kcheck_add(line_out, sizeof(line_out), fence);
		kcheck_add(line_out, sizeof(line_out), "; ");
		fence = NULL;
	}
	kcheck_add(line_out, sizeof(line_out), op);
	kcheck_add(line_out, sizeof(line_out), " ; ");
	if (line > 0)
		snprintf(w, sizeof(w), "%s:%d ; ", file, line);
	else
		snprintf(w, sizeof(w), "%s ; ", file);
	kcheck_add(where_out, sizeof(where_out), w);
}

static void stop(const char *outcome)
{
	kcheck_add(line_out, sizeof(line_out), outcome);
	longjmp(end_run, 1);
}

static int node_of(const volatile void *p, int *cpu, int *idx, const char **field)
{
	char *b = (char *)kcheck_nodes, *q = (char *)p;
	if (q < b || q >= b + sizeof(kcheck_nodes))
		return 0;
	size_t off = q - b;
	*cpu = off / sizeof(kcheck_nodes[0]);
	off -= *cpu * sizeof(kcheck_nodes[0]);
	*idx = off / sizeof(struct qnode);
	off -= *idx * sizeof(struct qnode);
	*field = off == offsetof(struct mcs_spinlock, locked) ? "locked" : off == offsetof(struct mcs_spinlock, next) ? "next" : "count";
	return 1;
}

static void node_name(char *buf, size_t n, int cpu, int idx, const char *field)
{
	if (idx == 0)
		snprintf(buf, n, "node%d.%s", cpu, field);
	else
		snprintf(buf, n, "node%d/%d.%s", cpu, idx, field);
}

static void pointer_text(char *buf, size_t n, struct mcs_spinlock *p)
{
	int c, i;
	const char *f;
	if (!p)
		snprintf(buf, n, "0");
	else if (node_of(p, &c, &i, &f) && (char *)p == (char *)&kcheck_nodes[c][i].mcs)
		snprintf(buf, n, i == 0 ? "%d" : "%d/%d", c + 1, i);
	else
		snprintf(buf, n, "?");
}

/* plain stores to the MCS nodes since the last operation */
static void plain_stores(void)
{
	char op[96], v[32], name[48];
	for (int c = 0; c < ncpus; c++)
		for (int i = 0; i < MAX_NODES; i++) {
			struct mcs_spinlock *m = &kcheck_nodes[c][i].mcs;
			if (m->locked != snap[c][i].locked) {
				node_name(name, sizeof(name), c, i, "locked");
				snprintf(op, sizeof(op), "%s store PLAIN w=%d", name, m->locked);
				emit(op, "(a plain store)", 0);
				snap[c][i].locked = m->locked;
			}
			if (m->next != snap[c][i].next) {
				node_name(name, sizeof(name), c, i, "next");
				pointer_text(v, sizeof(v), m->next);
				snprintf(op, sizeof(op), "%s store PLAIN w=%s", name, v);
				emit(op, "(a plain store)", 0);
				snap[c][i].next = m->next;
			}
		}
}

static void resnap(void)
{
	for (int c = 0; c < ncpus; c++)
		for (int i = 0; i < MAX_NODES; i++) {
			snap[c][i].locked = kcheck_nodes[c][i].mcs.locked;
			snap[c][i].next = kcheck_nodes[c][i].mcs.next;
		}
}

static void word_fields(char *buf, size_t n, int from, int size)
{
	u32 v = (u32)lock.val.counter;
	buf[0] = 0;
	char part[32];
	if (from == 0) {
		snprintf(part, sizeof(part), "L=%u", v & 0xff);
		kcheck_add(buf, n, part);
	}
	if (from <= 1 && from + size > 1) {
		snprintf(part, sizeof(part), "%sP=%u", buf[0] ? " " : "", (v >> 8) & 0xff);
		kcheck_add(buf, n, part);
	}
	if (from + size > 2) {
		u32 t = v >> 16;
		if ((t & 3) == 0)
			snprintf(part, sizeof(part), "%sT=%u", buf[0] ? " " : "", t >> 2);
		else
			snprintf(part, sizeof(part), "%sT=%u/%u", buf[0] ? " " : "", t >> 2, t & 3);
		kcheck_add(buf, n, part);
	}
}

/* the next entry, which must be for the location p; sets memory to it */
static void take(const volatile void *p, const char *file, int line)
{
	char want[512];
	int c, i;
	const char *f;
	int is_word = (char *)p >= (char *)&lock && (char *)p < (char *)&lock + sizeof(lock);
	if (!is_word && !node_of(p, &c, &i, &f)) {
		snprintf(want, sizeof(want), "E the C accesses memory kcheck does not model at %s:%d", file, line);
		stop(want);
	}
	if (pos >= nentries) {
		snprintf(want, sizeof(want), "E the C reads again at %s:%d", file, line);
		stop(want);
	}
	const char *e = entries[pos++];
	if (is_word) {
		unsigned l, pe, t;
		if (e[0] != 'w' || sscanf(e + 1, "%u.%u.%u", &l, &pe, &t) != 3) {
			snprintf(want, sizeof(want), "E the C reads the lock word at %s:%d", file, line);
			stop(want);
		}
		lock.val.counter = (int)(l | pe << 8 | (t << 2) << 16);
	} else {
		unsigned v;
		if (e[0] != 'n' || sscanf(e + 1, "%u", &v) != 1) {
			snprintf(want, sizeof(want), "E the C reads node%d.%s at %s:%d", c, f, file, line);
			stop(want);
		}
		struct mcs_spinlock *m = &kcheck_nodes[c][i].mcs;
		if (!strcmp(f, "locked"))
			m->locked = v;
		else if (!strcmp(f, "next"))
			m->next = v == 0 ? NULL : &kcheck_nodes[v - 1][0].mcs;
		resnap();
	}
}

static void location(char *buf, size_t n, const volatile void *p, int size, u64 written, int writes)
{
	int c, i;
	const char *f;
	if ((char *)p >= (char *)&lock && (char *)p < (char *)&lock + sizeof(lock)) {
		char fields[64];
		word_fields(fields, sizeof(fields), (char *)p - (char *)&lock, size);
		snprintf(buf, n, writes ? "val %%s %%s w=%s" : "val %%s %%s", fields);
	} else if (node_of(p, &c, &i, &f)) {
		char name[48], v[32];
		node_name(name, sizeof(name), c, i, f);
		if (!strcmp(f, "next"))
			pointer_text(v, sizeof(v), (struct mcs_spinlock *)(uintptr_t)written);
		else
			snprintf(v, sizeof(v), "%d", (int)written);
		if (writes)
			snprintf(buf, n, "%s %%s %%s w=%s", name, v);
		else
			snprintf(buf, n, "%s %%s %%s", name);
	} else {
		snprintf(buf, n, "? %%s %%s");
	}
}

static u64 read_mem(const volatile void *p, int size)
{
	switch (size) {
	case 1: return *(volatile u8 *)p;
	case 2: return *(volatile u16 *)p;
	case 4: return *(volatile u32 *)p;
	default: return (u64)(uintptr_t)*(void *volatile *)p;
	}
}

static void write_mem(volatile void *p, int size, u64 v)
{
	switch (size) {
	case 1: *(volatile u8 *)p = (u8)v; break;
	case 2: *(volatile u16 *)p = (u16)v; break;
	case 4: *(volatile u32 *)p = (u32)v; break;
	default: *(void *volatile *)p = (void *)(uintptr_t)v; break;
	}
}

static void record(const volatile void *p, int size, const char *kind, const char *order, u64 written, int writes, const char *file, int line)
{
	char fmt[160], op[200];
	location(fmt, sizeof(fmt), p, size, written, writes);
	snprintf(op, sizeof(op), fmt, kind, order);
	emit(op, file, line);
}

u64 kcheck_load(const volatile void *p, int size, const char *order, const char *file, int line)
{
	plain_stores();
	take(p, file, line);
	record(p, size, "load", order, 0, 0, file, line);
	return read_mem(p, size);
}

void kcheck_store(volatile void *p, int size, u64 v, const char *order, const char *file, int line)
{
	plain_stores();
	write_mem(p, size, v);
	record(p, size, "store", order, v, 1, file, line);
	resnap();
}

int kcheck_cmpxchg(volatile void *p, int size, u64 *expected, u64 v, const char *order, const char *file, int line)
{
	plain_stores();
	take(p, file, line);
	u64 cur = read_mem(p, size);
	if (cur == *expected) {
		write_mem(p, size, v);
		record(p, size, "rmw", order, v, 1, file, line);
		resnap();
		return 1;
	}
	*expected = cur;
	record(p, size, "load", order, 0, 0, file, line);
	return 0;
}

u64 kcheck_xchg(volatile void *p, int size, u64 v, const char *order, const char *file, int line)
{
	plain_stores();
	take(p, file, line);
	u64 old = read_mem(p, size);
	write_mem(p, size, v);
	record(p, size, "rmw", order, v, 1, file, line);
	resnap();
	return old;
}

int kcheck_btsl(volatile void *p, int bit, const char *order, const char *file, int line)
{
	plain_stores();
	take(p, file, line);
	u32 cur = read_mem(p, 4);
	write_mem(p, 4, cur | 1u << bit);
	/* the bit's byte is what changes: record it as a write of that byte */
	record((char *)p + bit / 8, 1, "rmw", order, 1, 1, file, line);
	return (cur >> bit) & 1;
}

void kcheck_fence(const char *f, const char *file, int line)
{
	plain_stores();
	fence = f;
}

void kcheck_spins(const char *file, int line)
{
	stop("spins");
}

int kcheck_unsupported(const char *what, const char *file, int line)
{
	char msg[200];
	snprintf(msg, sizeof(msg), "E %s at %s:%d: not in kcheck's shim (x86 with _Q_PENDING_BITS == 8 uses none)", what, file, line);
	stop(msg);
	return 0;
}

int main(void)
{
	static char in[4096];
	long runs = 0;
	setvbuf(stdout, NULL, _IOFBF, 1 << 20);
	while (fgets(in, sizeof(in), stdin)) {
		char op;
		int cpu, n, k, off;
		if (sscanf(in, " %c %d %d %d%n", &op, &cpu, &n, &k, &off) != 4 || n > KCHECK_MAX_CPUS || k > 64)
			continue;
		char *s = in + off;
		for (int i = 0; i < k; i++) {
			int used;
			if (sscanf(s, " %15s%n", entries[i], &used) != 1)
				break;
			s += used;
		}
		unsigned long long want = 0;
		sscanf(s, " %llx", &want);
		nentries = k;
		pos = 0;
		kcheck_cpu = cpu;
		ncpus = n;
		fence = NULL;
		memset(&lock, 0, sizeof(lock));
		memset(kcheck_nodes, 0, sizeof(kcheck_nodes));
		for (int c = 0; c < n; c++)
			for (int i = 0; i < MAX_NODES; i++) {
				kcheck_nodes[c][i].mcs.locked = 0x55;
				kcheck_nodes[c][i].mcs.next = (struct mcs_spinlock *)(uintptr_t)0x5555;
			}
		resnap();
		line_out[0] = 0;
		where_out[0] = 0;
		if (!setjmp(end_run)) {
			int r = 0;
			if (op == 'L')
				queued_spin_lock(&lock);
			else if (op == 'T')
				r = queued_spin_trylock(&lock);
			else
				queued_spin_unlock(&lock);
			plain_stores();
			if (pos < nentries)
				kcheck_add(line_out, sizeof(line_out), "E the C reads fewer values than the port");
			else if (op == 'T')
				snprintf(line_out + strlen(line_out), sizeof(line_out) - strlen(line_out), "return %d", r);
			else
				kcheck_add(line_out, sizeof(line_out), "done");
		}
		if (kcheck_fnv1a(line_out) != want) {
			printf("D %ld\nR %s\nW %s\n", runs, line_out, where_out);
			fflush(stdout);
			return 0;
		}
		runs++;
	}
	printf("END %ld\n", runs);
	fflush(stdout);
	return 0;
}
