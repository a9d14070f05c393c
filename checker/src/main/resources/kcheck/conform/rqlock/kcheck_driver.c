/*
 * kcheck's driver for the double_lock_balance family extracted from a kernel tree (written for
 * kcheck, no kernel code). For every (this_rq, busiest) of N CPUs and every sequence of trylock
 * outcomes it calls double_lock_balance, double_unlock_balance and double_rq_lock, and prints per path
 *   P dlb T B: <op> ; <op> ; ... ; return R      (dub, drl: ... ; end)
 *   W <where> ; <where> ; ...
 * where each <where> is the tree file:line of the operation's call, then the return addresses of
 * the calls of the tree's functions that led to it (innermost first), for addr2line. The tree's
 * functions are compiled with -finstrument-functions; this file and the shim are excluded.
 * argv: N, pairs (0/1: core scheduling, SMT siblings i and i + N/2 share the lock of the lower).
 */
#include "kcheck_extracted.c"

#define MAX_OPS 64
#define MAX_TRYLOCKS 30
static char ops[MAX_OPS][48];
static char where[MAX_OPS][256];
static int nops, overflow;
static int script[MAX_TRYLOCKS + 1];
static int script_len, script_pos;
static void *calls[64];
static int depth;
bool __sched_core_enabled;

__attribute__((no_instrument_function)) void __cyg_profile_func_enter(void *fn, void *site)
{
	if (depth < 64)
		calls[depth] = site;
	depth++;
}

__attribute__((no_instrument_function)) void __cyg_profile_func_exit(void *fn, void *site)
{
	depth--;
}

static void op(const char *text, const char *file, int line, const char *func)
{
	if (nops >= MAX_OPS) {
		printf("E more than %d operations on one path\n", MAX_OPS);
		exit(3);
	}
	snprintf(ops[nops], sizeof(ops[nops]), "%s", text);
	int n = snprintf(where[nops], sizeof(where[nops]), "%s:%d in %s", file, line, func);
	for (int i = depth - 1; i >= 1 && i < 64 && n < (int)sizeof(where[nops]) - 24; i--)
		n += snprintf(where[nops] + n, sizeof(where[nops]) - n, " %p", (void *)((char *)calls[i] - 1));
	nops++;
}

void kcheck_lock(raw_spinlock_t *lock, int subclass, const char *file, int line, const char *func)
{
	char t[48];
	snprintf(t, sizeof(t), "lock %d %d", lock->id, subclass);
	op(t, file, line, func);
}

int kcheck_trylock(raw_spinlock_t *lock, const char *file, int line, const char *func)
{
	int ok = 0;
	if (script_pos >= script_len)
		overflow = 1;
	else
		ok = script[script_pos++];
	char t[48];
	snprintf(t, sizeof(t), "trylock %d %d", lock->id, ok);
	op(t, file, line, func);
	return ok;
}

void kcheck_unlock(raw_spinlock_t *lock, const char *file, int line, const char *func)
{
	char t[48];
	snprintf(t, sizeof(t), "unlock %d", lock->id);
	op(t, file, line, func);
}

void kcheck_subclass(struct lockdep_map *map, int subclass, const char *file, int line, const char *func)
{
	char t[48];
	snprintf(t, sizeof(t), "subclass %d %d", map->id, subclass);
	op(t, file, line, func);
}

void kcheck_clock(struct rq *rq1, struct rq *rq2, const char *file, int line, const char *func)
{
	char t[48];
	snprintf(t, sizeof(t), "clock %d", __rq_lockp(rq1)->id);
	op(t, file, line, func);
	snprintf(t, sizeof(t), "clock %d", __rq_lockp(rq2)->id);
	op(t, file, line, func);
}

static struct rq rqs[64];

static void explore(int kind, int t, int b, int len)
{
	script_len = len;
	script_pos = 0;
	overflow = 0;
	nops = 0;
	depth = 0;
	int ret = 0;
	if (kind == 0)
		ret = double_lock_balance(&rqs[t], &rqs[b]);
	else if (kind == 1)
		double_unlock_balance(&rqs[t], &rqs[b]);
	else
		double_rq_lock(&rqs[t], &rqs[b]);
	if (overflow) {
		if (len >= MAX_TRYLOCKS) {
			printf("E more than %d trylocks on one path\n", MAX_TRYLOCKS);
			exit(3);
		}
		script[len] = 0;
		explore(kind, t, b, len + 1);
		script[len] = 1;
		explore(kind, t, b, len + 1);
		return;
	}
	printf("P %s %d %d: ", kind == 0 ? "dlb" : kind == 1 ? "dub" : "drl", t, b);
	for (int i = 0; i < nops; i++)
		printf("%s ; ", ops[i]);
	if (kind == 0)
		printf("return %d\n", ret);
	else
		printf("end\n");
	printf("W ");
	for (int i = 0; i < nops; i++)
		printf("%s ; ", where[i]);
	printf("\n");
}

int main(int argc, char **argv)
{
	int ncpus = atoi(argv[1]);
	int pairs = atoi(argv[2]);
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	__sched_core_enabled = pairs;
	for (int i = 0; i < ncpus; i++) {
		rqs[i].cpu = i;
		rqs[i].__lock.id = i;
		rqs[i].__lock.dep_map.id = i;
	}
	for (int i = 0; i < ncpus; i++) {
		int sib = pairs ? (i + ncpus / 2) % ncpus : i;
		rqs[i].core = &rqs[i < sib ? i : sib];
		rqs[i].core_enabled = pairs;
	}
	for (int t = 0; t < ncpus; t++)
		for (int b = 0; b < ncpus; b++) {
			if (t != b) {
				explore(0, t, b, 0);
				explore(1, t, b, 0);
			}
			explore(2, t, b, 0);
		}
	fflush(stdout);
	return 0;
}
