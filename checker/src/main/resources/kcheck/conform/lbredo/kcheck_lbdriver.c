/*
 * kcheck's driver for a tree's load-balancing functions (written for kcheck, no kernel code): the
 * tree's sched_balance_rq() (load_balance() before v6.10) with should_we_balance(), detach_tasks(),
 * can_migrate_task(), detach_task(), attach_task(), attach_tasks() and their helpers, extracted from
 * kernel/sched/fair.c by parsing and compiled in kcheck_lbtree.c with -fsanitize-coverage=trace-pc.
 * Reads one run per line (LbRedoPaths.Run):
 *   n=N dst=D mig=M brk=B act=MASK smt=M0,M1,... D=SPAN:SHARE:GSPAN/GBAL:... (per level, local group
 *   first) Q=NR:CURR:T,T,... (per CPU) T=CPU:MASK:HOT (per task) I=FLAGS C=LEVEL IDLE,... S=BUSIEST:IMB,...
 *   E=GAP{e|l}CPU.TASK,... HASH
 * runs the calls (C=) one after the other, answers the searches (S=) in order, applies each pull
 * (E=: another CPU takes the task off the runqueue) when the C has made GAP operations, at the end of
 * the last one (e) or at the start of the next (l), and compares the 64-bit FNV-1a of its text with
 * HASH. A run that agrees prints nothing; the first that does not prints
 *   D N / R text / W where ; where ; ... / B blocks ; blocks ; ...
 * and the driver stops. At the end of the input: "END N".
 */
#include "kcheck_lbshim.h"
#include <setjmp.h>
#include <signal.h>
#include <unistd.h>

#define KCHECK_TRACED_OPS 1024
#include "kcheck_drivercommon.h"

int kcheck_balance(int this_cpu, struct sched_domain *sd, int idle, int *continue_balancing);
int kcheck_idle_value(char letter);

int kcheck_nr_cpus;
struct rq kcheck_rqs[KCHECK_MAX_CPUS];
struct cpumask kcheck_active_mask;
struct cpumask kcheck_smt_mask[KCHECK_MAX_CPUS];
struct cpumask kcheck_mask_load_balance_mask, kcheck_mask_should_we_balance_tmpmask;
unsigned int kcheck_sysctl_nr_migrate, kcheck_nr_migrate_break;

#define MAX_LEVELS 4
#define MAX_GROUPS 16
static struct task_struct tasks[KCHECK_MAX_TASKS];
static int ntasks, nlevels;
static struct sched_domain sds[MAX_LEVELS];
static struct sched_group groups[MAX_LEVELS][MAX_GROUPS];
static struct sched_group_capacity sgcs[MAX_LEVELS][MAX_GROUPS];

static char line_out[65536], where_out[65536];
static int nops;
static sigjmp_buf end_run;

static int answers[64][2], nanswers, answer_pos, last_busiest;
static struct event { int gap, late, cpu, task; } events[64];
static int nevents, event_pos;

static void state(char *buf, size_t n)
{
	char t[64];
	buf[0] = 0;
	for (int c = 0; c < kcheck_nr_cpus; c++) {
		struct rq *rq = cpu_rq(c);
		if (rq->curr)
			snprintf(t, sizeof(t), "%s%d=%u/t%d[", c ? " " : "", c, rq->nr_running, rq->curr->kcheck_id);
		else
			snprintf(t, sizeof(t), "%s%d=%u/-[", c ? " " : "", c, rq->nr_running);
		kcheck_add(buf, n, t);
		int i = 0;
		for (struct list_head *e = rq->cfs_tasks.next; e != &rq->cfs_tasks && i < 64; e = e->next, i++) {
			snprintf(t, sizeof(t), "%st%d", i ? "," : "", container_of(e, struct task_struct, se.group_node)->kcheck_id);
			kcheck_add(buf, n, t);
		}
		kcheck_add(buf, n, "]");
	}
	kcheck_add(buf, n, " cpu=");
	for (int p = 0; p < ntasks; p++) {
		snprintf(t, sizeof(t), "%s%d", p ? "," : "", tasks[p].kcheck_cpu);
		kcheck_add(buf, n, t);
	}
	kcheck_add(buf, n, " imb=");
	for (int l = 0; l < nlevels; l++)
		kcheck_add(buf, n, sds[l].groups->sgc->imbalance ? "1" : "0");
}

static void end(const char *text, const char *file, int line);
static void apply(int late);

/* one operation of the C's text, with the tree line it was called from */
static void emit(const char *text, const char *file, int line)
{
	char w[512];
	if (nops == 1000) {
		nops++;
		kcheck_add(line_out, sizeof(line_out), " ; E more than 1000 operations");
		siglongjmp(end_run, 1);
	}
	if (nops < 1024)
		kcheck_op_pcs[nops] = kcheck_npcs;
	if (nops)
		kcheck_add(line_out, sizeof(line_out), " ; ");
	kcheck_add(line_out, sizeof(line_out), text);
	snprintf(w, sizeof(w), "%s%s:%d", nops ? " ; " : "", file ? file : "?", line);
	kcheck_add(where_out, sizeof(where_out), w);
	nops++;
}

/* the pulls due now: late ones before an operation, early ones after it */
static void apply(int late)
{
	static char s[8192], t[8300];
	while (event_pos < nevents && events[event_pos].gap == nops && (late || !events[event_pos].late)) {
		struct event *e = &events[event_pos++];
		state(s, sizeof(s));
		snprintf(t, sizeof(t), "state %s", s);
		emit(t, "(another CPU)", 0);
		struct task_struct *p = &tasks[e->task];
		list_del_init(&p->se.group_node);
		cpu_rq(e->cpu)->nr_running--;
	}
}

void kcheck_op(const char *text, const char *file, int line)
{
	apply(1);
	emit(text, file, line);
	apply(0);
}

static void end(const char *text, const char *file, int line)
{
	emit(text, file, line);
	siglongjmp(end_run, 1);
}

void kcheck_warn(const char *file, int line)
{
	apply(1);
	end("WARN", file, line);
}

long kcheck_unmodelled(const char *what, const char *file, int line)
{
	char t[128];
	snprintf(t, sizeof(t), "E the C calls %s, which the model does not have", what);
	end(t, file, line);
	return 0;
}

void kcheck_assert_held(void *r, const char *file, int line)
{
	struct rq *rq = r;
	if (!rq->kcheck_locked) {
		apply(1);
		end("check warn-rq-held", file, line);
	}
}

void kcheck_rq_lock(void *r, const char *file, int line)
{
	struct rq *rq = r;
	char t[64];
	snprintf(t, sizeof(t), "rq_lock %d", rq->cpu);
	kcheck_op(t, file, line);
	if (rq->kcheck_locked)
		end("check warn-rq-lock-recursion", file, line);
	rq->kcheck_locked = 1;
}

void kcheck_rq_unlock(void *r, const char *file, int line)
{
	struct rq *rq = r;
	char t[64];
	kcheck_assert_held(rq, file, line);
	snprintf(t, sizeof(t), "rq_unlock %d", rq->cpu);
	kcheck_op(t, file, line);
	rq->kcheck_locked = 0;
}

int kcheck_idle_cpu(int cpu, const char *file, int line)
{
	char t[64];
	snprintf(t, sizeof(t), "idle_cpu %d", cpu);
	kcheck_op(t, file, line);
	return cpu_rq(cpu)->nr_running == 0;
}

int kcheck_task_on_cpu(void *r, void *t0, const char *file, int line)
{
	struct rq *rq = r;
	struct task_struct *p = t0;
	char t[64];
	snprintf(t, sizeof(t), "task_on_cpu t%d", p->kcheck_id);
	kcheck_op(t, file, line);
	return rq->curr == p;
}

static int on_list(struct rq *rq, struct task_struct *p)
{
	for (struct list_head *e = rq->cfs_tasks.next; e != &rq->cfs_tasks; e = e->next)
		if (e == &p->se.group_node)
			return 1;
	return 0;
}

void kcheck_deactivate_task(void *r, void *t0, const char *file, int line)
{
	struct rq *rq = r;
	struct task_struct *p = t0;
	char t[64];
	kcheck_assert_held(rq, file, line);
	snprintf(t, sizeof(t), "deactivate_task %d t%d", rq->cpu, p->kcheck_id);
	kcheck_op(t, file, line);
	if (!on_list(rq, p))
		end("check no-task-after-left", file, line);
	list_del_init(&p->se.group_node);
	rq->nr_running--;
}

void kcheck_activate_task(void *r, void *t0, const char *file, int line)
{
	struct rq *rq = r;
	struct task_struct *p = t0;
	char t[64];
	kcheck_assert_held(rq, file, line);
	snprintf(t, sizeof(t), "activate_task %d t%d", rq->cpu, p->kcheck_id);
	kcheck_op(t, file, line);
	list_add(&p->se.group_node, &rq->cfs_tasks);
	rq->nr_running++;
}

void kcheck_set_task_cpu(void *t0, int cpu, const char *file, int line)
{
	struct task_struct *p = t0;
	char t[64];
	snprintf(t, sizeof(t), "set_task_cpu t%d %d", p->kcheck_id, cpu);
	kcheck_op(t, file, line);
	if (p->kcheck_cpu == cpu)
		end("check no-self-migration", file, line);
	p->kcheck_cpu = cpu;
}

/* schedstat_inc on a task's counter is an operation; on the domain's (sd->lb_*), nothing */
void kcheck_schedstat(void *addr, const char *expr, const char *file, int line)
{
	char t[160];
	for (int p = 0; p < ntasks; p++) {
		if ((char *)addr >= (char *)&tasks[p] && (char *)addr < (char *)&tasks[p + 1]) {
			const char *name = strrchr(expr, '.');
			snprintf(t, sizeof(t), "schedstat t%d %s", p, name ? name + 1 : expr);
			kcheck_op(t, file, line);
			return;
		}
	}
}

int kcheck_search(int *imbalance)
{
	if (answer_pos >= nanswers)
		end("E the C searches more often than the port", "(driver)", 0);
	last_busiest = answers[answer_pos][0];
	*imbalance = answers[answer_pos][1];
	answer_pos++;
	return last_busiest;
}

int kcheck_answer_busiest(void)
{
	return last_busiest;
}

const char *kcheck_idle_letter(int idle)
{
	return idle == kcheck_idle_value('N') ? "N" : idle == kcheck_idle_value('I') ? "I" : "B";
}

static void on_signal(int sig)
{
	emit(sig == SIGALRM ? "E the C ran for 5 s without an end" : "fault", "(signal)", 0);
	siglongjmp(end_run, 1);
}

static int setup(char *in, char calls[16][8], int *ncalls, unsigned long long *want)
{
	int level = 0, cpu = 0;
	*ncalls = 0;
	ntasks = 0;
	nlevels = 0;
	nanswers = answer_pos = 0;
	nevents = event_pos = 0;
	memset(kcheck_rqs, 0, sizeof(kcheck_rqs));
	memset(tasks, 0, sizeof(tasks));
	memset(sds, 0, sizeof(sds));
	memset(groups, 0, sizeof(groups));
	memset(sgcs, 0, sizeof(sgcs));
	for (int c = 0; c < KCHECK_MAX_CPUS; c++) {
		kcheck_rqs[c].cpu = c;
		INIT_LIST_HEAD(&kcheck_rqs[c].cfs_tasks);
	}
	for (char *tok = strtok(in, " \n"); tok; tok = strtok(NULL, " \n")) {
		char *v = strchr(tok, '=');
		if (!v) {
			*want = strtoull(tok, NULL, 16);
			continue;
		}
		v++;
		if (!strncmp(tok, "n=", 2)) {
			kcheck_nr_cpus = atoi(v);
		} else if (!strncmp(tok, "mig=", 4)) {
			kcheck_sysctl_nr_migrate = atoi(v);
		} else if (!strncmp(tok, "brk=", 4)) {
			kcheck_nr_migrate_break = atoi(v);
		} else if (!strncmp(tok, "act=", 4)) {
			kcheck_active_mask.bits[0] = strtoul(v, NULL, 16);
		} else if (!strncmp(tok, "smt=", 4)) {
			for (int c = 0; c < kcheck_nr_cpus; c++, v = strchr(v, ',') ? strchr(v, ',') + 1 : v)
				kcheck_smt_mask[c].bits[0] = strtoul(v, NULL, 16);
		} else if (!strncmp(tok, "D=", 2)) {
			struct sched_domain *sd = &sds[level];
			char *e;
			sd->span.bits[0] = strtoul(v, &e, 16);
			sd->flags = strtol(e + 1, &e, 10) ? SD_SHARE_CPUCAPACITY : 0;
			sd->balance_interval = sd->min_interval = 1;
			sd->max_interval = 4;
			sd->imbalance_pct = 117;
			int g = 0;
			while (*e == ':' && g < MAX_GROUPS) {
				groups[level][g].span.bits[0] = strtoul(e + 1, &e, 16);
				sgcs[level][g].cpumask.bits[0] = strtoul(e + 1, &e, 16);
				groups[level][g].sgc = &sgcs[level][g];
				g++;
			}
			for (int i = 0; i < g; i++)
				groups[level][i].next = &groups[level][(i + 1) % g];
			sd->groups = &groups[level][0];
			if (level > 0)
				sds[level - 1].parent = sd;
			level++;
			nlevels = level;
		} else if (!strncmp(tok, "Q=", 2)) {
			struct rq *rq = cpu_rq(cpu);
			char *e;
			rq->nr_running = strtoul(v, &e, 10);
			int curr = strtol(e + 1, &e, 10);
			rq->curr = curr >= 0 ? &tasks[curr] : NULL;
			e++;
			while (*e && *e != ' ') {
				int p = strtol(e, &e, 10);
				list_add_tail(&tasks[p].se.group_node, &rq->cfs_tasks);
				if (*e == ',')
					e++;
			}
			cpu++;
		} else if (!strncmp(tok, "T=", 2)) {
			struct task_struct *p = &tasks[ntasks];
			char *e;
			p->kcheck_id = ntasks;
			p->kcheck_cpu = strtol(v, &e, 10);
			p->cpus_mask.bits[0] = strtoul(e + 1, &e, 16);
			p->cpus_ptr = &p->cpus_mask;
			p->kcheck_hot = strtol(e + 1, &e, 10);
			if (!p->se.group_node.next)
				INIT_LIST_HEAD(&p->se.group_node);
			ntasks++;
		} else if (!strncmp(tok, "I=", 2)) {
			for (int l = 0; l < nlevels && v[l]; l++)
				sds[l].groups->sgc->imbalance = v[l] == '1';
		} else if (!strncmp(tok, "C=", 2)) {
			for (char *c = v; *c && *ncalls < 16; c = strchr(c, ',') ? strchr(c, ',') + 1 : c + strlen(c))
				snprintf(calls[(*ncalls)++], 8, "%.2s", c);
		} else if (!strncmp(tok, "S=", 2)) {
			for (char *a = v; *a && strcmp(v, "-") && nanswers < 64;) {
				char *e;
				answers[nanswers][0] = strtol(a, &e, 10);
				answers[nanswers][1] = strtol(e + 1, &e, 10);
				nanswers++;
				a = *e == ',' ? e + 1 : e;
			}
		} else if (!strncmp(tok, "E=", 2)) {
			for (char *a = v; *a && strcmp(v, "-") && nevents < 64;) {
				char *e;
				events[nevents].gap = strtol(a, &e, 10);
				events[nevents].late = *e == 'l';
				events[nevents].cpu = strtol(e + 1, &e, 10);
				events[nevents].task = strtol(e + 1, &e, 10);
				nevents++;
				a = *e == ',' ? e + 1 : e;
			}
		}
	}
	return kcheck_nr_cpus > 0 && nlevels > 0;
}

int main(void)
{
	static char in[16384], s[8192], t[8400];
	long runs = 0;
	struct sigaction sa;
	static char altstack[1 << 16];
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack), .ss_flags = 0 };
	sigaltstack(&ss, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_ONSTACK | SA_NODEFER;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGALRM, &sa, NULL);
	setvbuf(stdout, NULL, _IOFBF, 1 << 20);
	while (fgets(in, sizeof(in), stdin)) {
		char calls[16][8];
		int ncalls;
		unsigned long long want = 0;
		if (!setup(in, calls, &ncalls, &want))
			continue;
		nops = 0;
		kcheck_npcs = 0;
		line_out[0] = 0;
		where_out[0] = 0;
		alarm(5);
		if (!sigsetjmp(end_run, 1)) {
			apply(0);
			for (int i = 0; i < ncalls; i++) {
				int level = calls[i][0] - '0', cont = 1;
				int ret = kcheck_balance(0, &sds[level], kcheck_idle_value(calls[i][1]), &cont);
				state(s, sizeof(s));
				snprintf(t, sizeof(t), "return %d continue=%d %s", ret, cont, s);
				kcheck_op(t, "(driver)", 0);
			}
		}
		alarm(0);
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
