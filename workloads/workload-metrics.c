/*
 * What a run measures and the metric rows made of it: the /proc/vmstat
 * counters and CPU time around the measured interval (taken in the
 * child), and the rows the caller builds from the shared mapping after
 * the child ended, so a child killed with SIGKILL still leaves its
 * counters behind.
 */
#include "config.h"

#include <sys/resource.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "procfile.h"
#include "vmstat.h"
#include "workload-private.h"

#define WORKLOAD_VM_KEY(key, unit) #key,
static const char *const workload_vm_keys[] = {
	WORKLOAD_VM_LIST(WORKLOAD_VM_KEY)
};
#undef WORKLOAD_VM_KEY

#define WORKLOAD_VM_UNIT(key, unit) unit,
static const char *const workload_vm_units[] = {
	WORKLOAD_VM_LIST(WORKLOAD_VM_UNIT)
};
#undef WORKLOAD_VM_UNIT

/* Sums over the threads for the total rows. */
struct workload_totals {
	double		 amount[WORKLOAD_MAX_COUNTERS];
	double		 timer_rate[WORKLOAD_MAX_COUNTERS];
	double		 timer_cpu[WORKLOAD_MAX_COUNTERS];
	double		 sum_cpu;
	uint64_t	 first;		/* earliest thread start */
	uint64_t	 last;		/* latest thread end */
	uint64_t	 work;
	uint64_t	 planned;
	int		 all_ended;
};

/* CPU time of the calling thread in nanoseconds. */
uint64_t
workload_thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ((uint64_t)ts.tv_sec * NS_PER_SEC + (uint64_t)ts.tv_nsec);
}

/* User plus system time of one getrusage, or 0 when it fails. */
static uint64_t
workload_rusage_ns(int who)
{
	struct rusage ru;

	if (getrusage(who, &ru) != 0)
		return (0);
	return ((uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) *
	    NS_PER_SEC + (uint64_t)(ru.ru_utime.tv_usec +
	    ru.ru_stime.tv_usec) * 1000);
}

/* User plus system time of this process and its reaped children. */
uint64_t
workload_process_cpu_ns(void)
{
	return (workload_rusage_ns(RUSAGE_SELF) +
	    workload_rusage_ns(RUSAGE_CHILDREN));
}

/* Read the vmstat counters into values; 0 on success. */
int
workload_read_vm(uint64_t *values)
{
	struct procfile pf;
	char *cause = NULL;
	int rc;

	procfile_init(&pf);
	rc = vmstat_read(&pf, "/proc", workload_vm_keys, WORKLOAD_NVM, values,
	    &cause);
	procfile_free(&pf);
	free(cause);
	return (rc);
}

/* The oom_kill counter, or 0 when the kernel has none. */
uint64_t
workload_oom_kills(void)
{
	uint64_t v[WORKLOAD_NVM];

	if (workload_read_vm(v) != 0 ||
	    v[WORKLOAD_VM_oom_kill] == VMSTAT_MISSING)
		return (0);
	return (v[WORKLOAD_VM_oom_kill]);
}

/* Append one row. */
static void
workload_row_add(struct workload_result *res, size_t *cap, int thread,
    const char *metric, const char *suffix, double value, const char *unit,
    const char *unit_suffix)
{
	struct workload_row *row;

	if (res->nrows == *cap) {
		*cap = *cap == 0 ? 64 : *cap * 2;
		res->rows = xreallocarray(res->rows, *cap, sizeof *res->rows);
	}
	row = &res->rows[res->nrows++];
	row->thread = thread;
	snprintf(row->metric, sizeof row->metric, "%s%s", metric, suffix);
	snprintf(row->unit, sizeof row->unit, "%s%s", unit, unit_suffix);
	row->value = value;
}

/* Add a counter's amount and its rates over wall_ns and cpu_ns. */
static void
workload_rows_counter(struct workload_result *res, size_t *cap, int thread,
    const struct workload_counter *c, double amount, double wall_ns,
    double cpu_ns)
{
	workload_row_add(res, cap, thread, c->name, "", amount, c->unit, "");
	if (!(c->flags & WORKLOAD_RATE))
		return;
	if (wall_ns > 0)
		workload_row_add(res, cap, thread, c->name, "_per_s",
		    amount * 1e9 / wall_ns, c->unit, "/s");
	if (cpu_ns > 0)
		workload_row_add(res, cap, thread, c->name, "_per_cpu_s",
		    amount * 1e9 / cpu_ns, c->unit, "/cpu-s");
}

/* The rows of thread i, adding its figures to tot. */
static void
workload_rows_thread(struct workload_run *run, struct workload_result *res,
    size_t *cap, int i, struct workload_totals *tot)
{
	const struct workload_counter *c;
	struct workload_shared *sh = run->ctx.shared;
	struct workload_slot *slot = workload_slot_of(sh, i);
	struct workload_record *rec = workload_record_of(sh,
	    run->ctx.nthreads, i);
	double amount, wall, cpu, thread_wall, thread_cpu;
	uint64_t end;
	int k;

	end = rec->ended ? rec->end_ns : run->end_ns;
	tot->all_ended &= rec->ended;
	thread_wall = end > rec->start_ns ? (double)(end - rec->start_ns) : 0;
	thread_cpu = rec->ended ? (double)rec->cpu_ns : 0;
	tot->sum_cpu += thread_cpu;
	if (rec->start_ns < tot->first)
		tot->first = rec->start_ns;
	if (end > tot->last)
		tot->last = end;
	tot->work += slot->work;
	tot->planned += rec->planned;
	for (k = 0, c = run->desc->counters; c != NULL && c->name != NULL &&
	    k < WORKLOAD_MAX_COUNTERS; c++, k++) {
		amount = (double)slot->count[k] * c->scale;
		tot->amount[k] += amount;
		wall = thread_wall;
		cpu = thread_cpu;
		if (c->timer > 0) {
			wall = (double)rec->timer_ns[c->timer - 1];
			cpu = (double)rec->timer_cpu_ns[c->timer - 1];
			if (wall > 0)
				tot->timer_rate[k] += amount * 1e9 / wall;
			tot->timer_cpu[k] += cpu;
		}
		workload_rows_counter(res, cap, i, c, amount, wall, cpu);
	}
	workload_row_add(res, cap, i, "wall", "_s", thread_wall / 1e9, "s",
	    "");
	if (rec->ended)
		workload_row_add(res, cap, i, "cpu", "_s",
		    (double)rec->cpu_ns / 1e9, "s", "");
}

/* The total rows (thread -1) from the sums over the threads. */
static void
workload_rows_total(struct workload_run *run, struct workload_result *res,
    size_t *cap, const struct workload_totals *tot)
{
	const struct workload_counter *c;
	struct workload_shared *sh = run->ctx.shared;
	double wall, cpu;
	int k;

	wall = tot->last > tot->first ? (double)(tot->last - tot->first) : 0;
	cpu = sh->cpu_after_ns > sh->cpu_before_ns ?
	    (double)(sh->cpu_after_ns - sh->cpu_before_ns) :
	    tot->all_ended ? tot->sum_cpu : 0;
	for (k = 0, c = run->desc->counters; c != NULL && c->name != NULL &&
	    k < WORKLOAD_MAX_COUNTERS; c++, k++) {
		if (c->timer > 0) {
			workload_row_add(res, cap, -1, c->name, "",
			    tot->amount[k], c->unit, "");
			workload_row_add(res, cap, -1, c->name, "_per_s",
			    tot->timer_rate[k], c->unit, "/s");
			if (tot->timer_cpu[k] > 0)
				workload_row_add(res, cap, -1, c->name,
				    "_per_cpu_s", tot->amount[k] * 1e9 /
				    tot->timer_cpu[k], c->unit, "/cpu-s");
		} else
			workload_rows_counter(res, cap, -1, c, tot->amount[k],
			    wall, cpu);
	}
	workload_row_add(res, cap, -1, "wall", "_s", wall / 1e9, "s", "");
	if (cpu > 0)
		workload_row_add(res, cap, -1, "cpu", "_s", cpu / 1e9, "s", "");
	workload_row_add(res, cap, -1, "threads", "", run->ctx.nthreads,
	    "threads", "");
	workload_row_add(res, cap, -1, "work_done", "", (double)tot->work,
	    "units", "");
	if (tot->planned > 0 && run->common.duration_ns == 0)
		workload_row_add(res, cap, -1, "work_planned", "",
		    (double)tot->planned, "units", "");
	workload_row_add(res, cap, -1, "progress", "", res->progress,
	    "fraction", "");
}

/* The vmstat deltas over the measured interval, when both reads worked. */
static void
workload_rows_vm(const struct workload_shared *sh,
    struct workload_result *res, size_t *cap)
{
	size_t v;

	if ((sh->vm_valid & 3) != 3)
		return;
	for (v = 0; v < WORKLOAD_NVM; v++) {
		if (sh->vm_before[v] == VMSTAT_MISSING ||
		    sh->vm_after[v] == VMSTAT_MISSING)
			continue;
		workload_row_add(res, cap, -1, "vmstat_", workload_vm_keys[v],
		    (double)(sh->vm_after[v] - sh->vm_before[v]),
		    workload_vm_units[v], "");
	}
}

/*
 * Build the metric rows of a finished run from the shared mapping: per
 * thread, the totals and vmstat deltas once measuring began, then how
 * the run ended.
 */
void
workload_build_rows(struct workload_run *run, struct workload_result *res)
{
	struct workload_shared *sh = run->ctx.shared;
	struct workload_totals tot;
	size_t cap = 0;
	int i;

	if (sh->measuring) {
		memset(&tot, 0, sizeof tot);
		tot.first = UINT64_MAX;
		tot.all_ended = 1;
		for (i = 0; i < run->ctx.nthreads; i++)
			workload_rows_thread(run, res, &cap, i, &tot);
		workload_rows_total(run, res, &cap, &tot);
		workload_rows_vm(sh, res, &cap);
	}
	workload_row_add(res, &cap, -1, "exit_code", "", res->exit_code,
	    "code", "");
	workload_row_add(res, &cap, -1, "signal", "", res->signal, "signal",
	    "");
	workload_row_add(res, &cap, -1, "oom_kills", "",
	    (double)res->oom_kills, "events", "");
}
