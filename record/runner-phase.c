/*
 * One phase of a suite: drop caches and compact if asked, run the
 * workload in its own process, take the checkpoints at its progress
 * milestones (an extra sample plus where its pages are), scan its
 * placement every few samples, record how it ended, then settle.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "runner-int.h"
#include "units.h"
#include "workload.h"

/* Sleep a little without missing a signal for long. */
static void
runner_nap(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / NS_PER_SEC),
	    (long)(ns % NS_PER_SEC) };

	nanosleep(&ts, NULL);
}

/* Write a value to a /proc/sys file; returns 0 or errno. */
static int
runner_write_sysctl(const char *path, const char *value)
{
	int fd, saved = 0;

	if ((fd = open(path, O_WRONLY | O_CLOEXEC)) == -1)
		return (errno);
	if (write(fd, value, strlen(value)) == -1)
		saved = errno;
	close(fd);
	return (saved);
}

/* Write a vm sysctl before a phase; a failure is a warning event. */
static void
runner_vm_sysctl(struct runner *r, const char *what, const char *name,
    const char *value)
{
	char path[64], text[160];
	int err;

	snprintf(path, sizeof path, "/proc/sys/vm/%s", name);
	if ((err = runner_write_sysctl(path, value)) == 0)
		return;
	snprintf(text, sizeof text, "%s skipped: %s: %s%s", what, path,
	    strerror(err), err == EACCES || err == EPERM ? " (needs root)" :
	    "");
	sampler_event(&r->session.sampler, "warning", text);
	log_warnx("%s", text);
}

/* Drop caches and compact before a phase, as the suite asks (root only). */
static void
runner_prepare_phase(struct runner *r, const struct suite_phase *ph)
{
	char value[8];

	if (ph->drop_caches > 0) {
		sync();
		snprintf(value, sizeof value, "%d\n", ph->drop_caches);
		runner_vm_sysctl(r, "drop-caches", "drop_caches", value);
	}
	if (ph->compact)
		runner_vm_sysctl(r, "compact", "compact_memory", "1\n");
}

/* Record where the workload's pages are, one row per region. */
static void
runner_placement(struct runner *r, const struct suite_phase *ph, pid_t pid)
{
	struct sink_csv *sink;
	char *cause = NULL, text[192];
	uint64_t pages;
	double t_s;
	int i;

	if (r->map == NULL || pid <= 0)
		return;
	if (placement_scan(&r->placement, pid, &r->placement_result,
	    &cause) != 0) {
		/* Not root, or the process went away: not fatal. */
		free(cause);
		return;
	}
	if (r->placement_result.exited)
		return;
	t_s = sampler_elapsed(&r->session.sampler);
	sink = sampler_sink_lock(&r->session.sampler);
	for (i = 0; sink != NULL && i < r->map->nregions; i++) {
		pages = placement_region_pages(r->map, &r->placement_result,
		    i);
		if (pages == 0)
			continue;
		sink_csv_placement(sink, t_s, ph->name, ph->workload,
		    (long)pid, r->map->regions[i].node,
		    r->map->regions[i].region, pages);
	}
	/* Mappings of the zero page are not the workload's memory. */
	if (sink != NULL && r->placement_result.zero_page_mapped > 0) {
		snprintf(text, sizeof text, "%s pid %ld: %llu pages map the "
		    "shared zero page, left out of placement.csv",
		    ph->workload, (long)pid, (unsigned long long)
		    r->placement_result.zero_page_mapped);
		sink_csv_event(sink, t_s, "zero_page_mapped", text, ph->name,
		    NULL);
	}
	sampler_sink_unlock(&r->session.sampler);
}

/* Count a phase as failed. */
static void
runner_phase_failed(struct runner *r, const struct suite_phase *ph)
{
	r->failed_phases++;
	json_array_append_new(r->failed, json_string(ph->name));
}

/* The workload's metric rows and final status, into workloads.csv. */
static void
runner_record_rows(struct runner *r, const struct suite_phase *ph,
    const struct workload_result *res)
{
	struct sink_csv *sink;
	char thread[16];
	size_t i;

	sink = sampler_sink_lock(&r->session.sampler);
	for (i = 0; sink != NULL && i < res->nrows; i++) {
		if (res->rows[i].thread < 0)
			snprintf(thread, sizeof thread, "total");
		else
			snprintf(thread, sizeof thread, "%d",
			    res->rows[i].thread);
		sink_csv_workload(sink, ph->name, ph->workload, thread,
		    res->rows[i].metric, res->rows[i].value,
		    res->rows[i].unit);
	}
	if (sink != NULL)
		sink_csv_workload(sink, ph->name, ph->workload, "total",
		    "status", (double)res->status,
		    workload_status_name(res->status));
	sampler_sink_unlock(&r->session.sampler);
}

/* Record how the workload ended: metric rows and events. */
static void
runner_record_result(struct runner *r, const struct suite_phase *ph,
    const struct workload_result *res)
{
	struct sampler *s = &r->session.sampler;
	char text[512];

	runner_record_rows(r, ph, res);
	switch (res->status) {
	case WORKLOAD_DONE:
	case WORKLOAD_STOPPED:
		return;
	case WORKLOAD_OOM_KILLED:
		snprintf(text, sizeof text, "%s was killed by the OOM killer "
		    "(oom_kill +%" PRIu64 ")", ph->workload, res->oom_kills);
		sampler_event(s, "oom", text);
		break;
	case WORKLOAD_KILLED:
		snprintf(text, sizeof text, "%s was killed by signal %d (%s)",
		    ph->workload, res->signal, strsignal(res->signal));
		sampler_event(s, "signal", text);
		break;
	case WORKLOAD_FAILED:
		snprintf(text, sizeof text, "%s failed (exit %d): %s",
		    ph->workload, res->exit_code, res->message != NULL ?
		    res->message : "no message");
		sampler_event(s, "failed", text);
		break;
	}
	log_errorx("phase %s: %s", ph->name, text);
	runner_phase_failed(r, ph);
}

/* Is the process stopped (state T in /proc/PID/stat)? */
static int
runner_stopped(pid_t pid)
{
	char path[64], buf[512], *paren;
	ssize_t n;
	int fd;

	snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return (1);	/* gone: nothing left to wait for */
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return (1);
	buf[n] = '\0';
	paren = strrchr(buf, ')');
	return (paren != NULL && paren[1] == ' ' && (paren[2] == 'T' ||
	    paren[2] == 't'));
}

/*
 * Take one checkpoint: an extra sample plus where the workload's pages
 * are.  With checkpoint-freeze the workload is stopped meanwhile, so the
 * figures belong to the milestone and not to a moment after it (a
 * kpageflags scan takes a good part of a second); the time it stood still
 * is an event, since it lowers the workload's wall-clock rates.  A phase
 * with "vacate" then probes its regions (runner-vacate.c).
 */
static void
runner_checkpoint(struct runner *r, const struct suite_phase *ph,
    const char *label, pid_t pid)
{
	uint64_t t0 = 0;
	char text[96];
	int i, frozen = 0;

	if (ph->freeze && pid > 0 && kill(pid, SIGSTOP) == 0) {
		frozen = 1;
		t0 = units_now_ns();
		for (i = 0; i < 100 && !runner_stopped(pid); i++)
			runner_nap(RUNNER_POLL_NS / 4);
	}
	sampler_sample_now(&r->session.sampler, "checkpoint", label);
	runner_placement(r, ph, pid);
	runner_vacate(r, ph, label);
	if (frozen) {
		kill(pid, SIGCONT);
		snprintf(text, sizeof text, "%s: workload stopped for %.0f ms",
		    label, (double)(units_now_ns() - t0) / 1e6);
		sampler_event(&r->session.sampler, "freeze", text);
	}
}

/*
 * Take the checkpoints the workload's progress has reached, from *next
 * on.  pid 0: the workload is not running (before it starts, after it
 * ended), so there is no placement to scan.
 */
static void
runner_checkpoints_upto(struct runner *r, const struct suite_phase *ph,
    double progress, pid_t pid, int *next)
{
	while (*next < ph->ncheckpoints &&
	    progress >= ph->checkpoints[*next] - 1e-9) {
		runner_checkpoint(r, ph, ph->checkpoint_labels[*next], pid);
		(*next)++;
	}
}

/* A workload run with the phase's options and the command's overrides. */
static struct workload_run *
runner_workload(struct runner *r, const struct suite_phase *ph)
{
	struct workload_run *run = workload_run_new(workload_find(
	    ph->workload));
	char *cause = NULL;
	int i;

	for (i = 0; i < ph->nopts; i++) {
		if (workload_set_option(run, ph->opts[i].key,
		    ph->opts[i].value, &cause) != 0) {
			log_errorx("%s:%d: %s", r->suite->path,
			    ph->opts[i].line, cause);
			free(cause);
			workload_run_free(run);
			return (NULL);
		}
	}
	if (r->set->force)
		workload_set_option(run, "force", "yes", NULL);
	if (r->set->user != NULL && *r->set->user != '\0')
		workload_set_option(run, "user", r->set->user, NULL);
	workload_set_cgroup(run, r->cgroup.procs_fd);
	return (run);
}

/*
 * Follow the running workload until it ends, a signal comes or the
 * sampler stops: checkpoints, placement scans and progress.
 */
static void
runner_follow(struct runner *r, int index, struct workload_run *run,
    uint64_t phase_start, int *next_cp)
{
	const struct suite_phase *ph = &r->suite->phases[index];
	struct sampler *s = &r->session.sampler;
	uint64_t seq, last_place_seq = 0;
	pid_t pid = workload_pid(run);
	double progress;

	for (;;) {
		if (session_signal() != 0) {
			workload_stop(run);
			break;
		}
		progress = workload_progress(run);
		runner_checkpoints_upto(r, ph, progress, pid, next_cp);
		if (workload_finished(run))
			break;
		seq = s->seq;
		if (r->set->placement_every > 0 && seq >= last_place_seq +
		    (uint64_t)r->set->placement_every) {
			runner_placement(r, ph, pid);
			last_place_seq = seq;
		}
		runner_show(r, index, ph, progress >= 1 - 1e-9 ?
		    TERM_HOLDING : TERM_RUNNING, progress, phase_start, 0);
		if (sampler_finished(s)) {
			workload_stop(run);
			break;
		}
		runner_nap(RUNNER_POLL_NS);
	}
}

/* Run one phase: its workload in a child, checkpoints, settle time. */
int
runner_phase(struct runner *r, int index)
{
	const struct suite_phase *ph = &r->suite->phases[index];
	struct sampler *s = &r->session.sampler;
	struct workload_result res;
	struct workload_run *run;
	uint64_t phase_start, settle_start, settle_end;
	char *cause = NULL;
	int next_cp = 0, rc;

	runner_prepare_phase(r, ph);
	sampler_set_phase(s, ph->name);
	sampler_event(s, "phase_start", ph->name);
	if ((run = runner_workload(r, ph)) == NULL) {
		/* The suite's mistake: the run ends here, exit 2. */
		r->stop = RB_EXIT_INPUT;
		sampler_event(s, "phase_end", ph->name);
		return (-1);
	}
	/* Checkpoints at 0% are taken before the workload exists. */
	runner_checkpoints_upto(r, ph, 0, 0, &next_cp);
	phase_start = units_now_ns();
	sampler_hold(s);
	rc = workload_start(run, &cause);
	sampler_release(s);
	if (rc != 0) {
		sampler_event(s, "failed", cause);
		log_errorx("phase %s: %s", ph->name, cause);
		free(cause);
		workload_run_free(run);
		runner_phase_failed(r, ph);
		sampler_event(s, "phase_end", ph->name);
		return (0);
	}
	if (!r->set->quiet && !r->tty)
		runner_show(r, index, ph, TERM_RUNNING, 0, phase_start, 1);
	runner_follow(r, index, run, phase_start, &next_cp);
	workload_wait(run, &res);
	/* Checkpoints reached only at the very end (the process is gone). */
	if (session_signal() == 0)
		runner_checkpoints_upto(r, ph, res.progress, 0, &next_cp);
	runner_record_result(r, ph, &res);
	workload_result_free(&res);
	workload_run_free(run);
	settle_start = units_now_ns();
	settle_end = settle_start + ph->settle_ns;
	if (r->tty || ph->settle_ns > 0)
		runner_show(r, index, ph, TERM_SETTLING, 1, settle_start, 1);
	while (session_signal() == 0 && units_now_ns() < settle_end &&
	    !sampler_finished(s)) {
		runner_show(r, index, ph, TERM_SETTLING, 1, settle_start, 0);
		runner_nap(10 * RUNNER_POLL_NS);
	}
	sampler_event(s, "phase_end", ph->name);
	if (r->tty && !r->set->quiet)
		fputc('\n', stderr);
	return (session_signal() != 0 ? -1 : 0);
}
