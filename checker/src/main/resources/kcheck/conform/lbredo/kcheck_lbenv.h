/*
 * kcheck's shim, second part (written for kcheck, no kernel code): what needs the tree's own
 * struct lb_env, included after it. The statistics pass is the model's abstraction
 * (Sched.updateSdLbStats: the busiest queue is a choice among the candidates, the imbalance one
 * task or, with zero-imbalance=on, none): the driver answers each search with what the port's run
 * settled on. need_active_balance() is not modelled (the port's call ends where it would be asked)
 * and answers 0; task_hot() answers the environment's choice for the task, and 0 in an SMT domain
 * (SD_SHARE_CPUCAPACITY: the first rule of the kernel's task_hot()).
 */
int kcheck_search(int *imbalance);
int kcheck_answer_busiest(void);
const char *kcheck_idle_letter(int idle);

static struct sched_group *kcheck_find_src_group(struct lb_env *env, const char *file, int line)
{
	char t[160];
	int imbalance;
	snprintf(t, sizeof(t), "find_src_group dst=%d cpus=%lx idle=%s flags=%x", env->dst_cpu, env->cpus->bits[0],
		 kcheck_idle_letter(env->idle), env->flags);
	kcheck_op(t, file, line);
	int busiest = kcheck_search(&imbalance);
	if (busiest < 0) {
		env->imbalance = 0;
		return NULL;
	}
	env->migration_type = migrate_task;
	env->imbalance = imbalance;
	if (!env->imbalance)
		return NULL;
	struct sched_group *sg = env->sd->groups;
	do {
		if (cpumask_test_cpu(busiest, sched_group_span(sg)))
			return sg;
		sg = sg->next;
	} while (sg != env->sd->groups);
	return NULL;
}

static struct rq *kcheck_find_src_rq(struct lb_env *env, struct sched_group *group, const char *file, int line)
{
	kcheck_op("find_src_rq", file, line);
	int busiest = kcheck_answer_busiest();
	return busiest < 0 ? NULL : cpu_rq(busiest);
}

#define sched_balance_find_src_group(env) kcheck_find_src_group((env), __FILE__, __LINE__)
#define find_busiest_group(env) kcheck_find_src_group((env), __FILE__, __LINE__)
#define sched_balance_find_src_rq(env, g) kcheck_find_src_rq((env), (g), __FILE__, __LINE__)
#define find_busiest_queue(env, g) kcheck_find_src_rq((env), (g), __FILE__, __LINE__)

static int kcheck_task_hot(struct task_struct *p, struct lb_env *env, const char *file, int line)
{
	char t[64];
	snprintf(t, sizeof(t), "task_hot t%d", p->kcheck_id);
	kcheck_op(t, file, line);
	if (env->sd->flags & SD_SHARE_CPUCAPACITY)
		return 0;
	return p->kcheck_hot;
}
#define task_hot(p, env) kcheck_task_hot((p), (env), __FILE__, __LINE__)

static int need_active_balance(struct lb_env *env)
{
	return 0;
}

static int active_load_balance_cpu_stop(void *data)
{
	return 0;
}
