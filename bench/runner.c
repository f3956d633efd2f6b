/*
 * Suite runner.  The order of things matters for trust in the data:
 * meta.json says "running" before the first row exists, every row is
 * whole and flushed per sample, the workload runs in its own process with
 * oom_score_adj 1000 while the runner sits at -1000, and a signal stops
 * the workload, reaps it and still closes every file.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "atomic-file.h"
#include "command.h"
#include "log.h"
#include "meta.h"
#include "placement.h"
#include "region-table.h"
#include "runner.h"
#include "sampler.h"
#include "sink-csv.h"
#include "topology.h"
#include "units.h"
#include "workload.h"

#define RUNNER_POLL_NS		2000000ULL	/* 2 ms: checkpoints <1% late */
#define RUNNER_SHOW_NS		250000000ULL
#define RUNNER_PLAIN_NS		(10 * NS_PER_SEC)

static volatile sig_atomic_t runner_signal;

struct runner {
	const struct suite		*suite;
	const struct runner_settings	*set;
	struct source			 src;
	struct sink_csv			 sink;
	struct sampler			 sampler;
	struct topology			 topo;
	int				 have_topo;
	json_t				*meta;
	char				 dir[4096];
	int				 dirfd;		/* dir, held open */
	int				 rep;
	int				 nreps;
	int				 tty;

	struct placement		 placement;
	struct placement_result		 placement_result;
	const struct region_map		*map;

	struct snapshot			 view;
	uint64_t			 last_show_ns;
	uint64_t			 last_plain_ns;
	int				 failed_phases;
	json_t				*failed;
};

/* Remember the signal; the loops notice it. */
static void
runner_on_signal(int sig)
{
	runner_signal = sig;
}

/* SIGINT and SIGTERM end the run cleanly; SIGPIPE must not kill it. */
void
runner_catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = runner_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

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

/* The runner's oom_score_adj as the kernel has it, for meta.json. */
static json_t *
runner_oom_score_adj(void)
{
	char buf[32];
	ssize_t n;
	int fd;

	if ((fd = open("/proc/self/oom_score_adj", O_RDONLY | O_CLOEXEC)) ==
	    -1)
		return (json_null());
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return (json_null());
	buf[n] = '\0';
	return (json_integer(strtol(buf, NULL, 10)));
}

/* Drop caches and compact before a phase, as the suite asks (root only). */
static void
runner_prepare_phase(struct runner *r, const struct suite_phase *ph)
{
	char value[8], text[160];
	int err;

	if (ph->drop_caches > 0) {
		sync();
		snprintf(value, sizeof value, "%d\n", ph->drop_caches);
		if ((err = runner_write_sysctl("/proc/sys/vm/drop_caches",
		    value)) != 0) {
			snprintf(text, sizeof text, "drop-caches skipped: "
			    "/proc/sys/vm/drop_caches: %s%s", strerror(err),
			    err == EACCES || err == EPERM ? " (needs root)" :
			    "");
			sampler_event(&r->sampler, "warning", text);
			log_warnx("%s", text);
		}
	}
	if (ph->compact) {
		if ((err = runner_write_sysctl("/proc/sys/vm/compact_memory",
		    "1\n")) != 0) {
			snprintf(text, sizeof text, "compact skipped: "
			    "/proc/sys/vm/compact_memory: %s%s", strerror(err),
			    err == EACCES || err == EPERM ? " (needs root)" :
			    "");
			sampler_event(&r->sampler, "warning", text);
			log_warnx("%s", text);
		}
	}
}

/* Record where the workload's pages are, one row per region. */
static void
runner_placement(struct runner *r, const struct suite_phase *ph, pid_t pid)
{
	struct sink_csv *sink;
	char *cause = NULL;
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
	t_s = sampler_elapsed(&r->sampler);
	sink = sampler_sink_lock(&r->sampler);
	for (i = 0; sink != NULL && i < r->map->nregions; i++) {
		pages = placement_region_pages(r->map, &r->placement_result,
		    i);
		if (pages == 0)
			continue;
		sink_csv_placement(sink, t_s, ph->name, ph->workload,
		    (long)pid, r->map->regions[i].node,
		    r->map->regions[i].region, pages);
	}
	sampler_sink_unlock(&r->sampler);
}

/* One glyph per region from empty to full, for the progress line. */
static void
runner_glyphs(const struct snapshot *snap, char *buf, size_t len)
{
	static const char levels[] = " .:-=+*#%@";
	uint64_t present, used;
	size_t n = 0;
	int i, j;

	for (i = 0; i < snap->nentries && n + 1 < len; i = j) {
		present = used = 0;
		for (j = i; j < snap->nentries &&
		    snap->entries[j].node == snap->entries[i].node &&
		    snap->entries[j].region == snap->entries[i].region; j++) {
			if (snap->entries[j].present != SNAP_UNKNOWN)
				present += snap->entries[j].present;
			used += snap_entry_used(&snap->entries[j]);
		}
		buf[n++] = present == 0 ? '?' : levels[(int)(9.0 *
		    (double)used / (double)present + 0.5)];
	}
	buf[n] = '\0';
}

/* Show progress: a refreshing line on a terminal, a line per 10 s else. */
static void
runner_show(struct runner *r, int index, const struct suite_phase *ph,
    double progress, uint64_t phase_start_ns, int force)
{
	uint64_t now = units_now_ns();
	double elapsed = (double)(now - phase_start_ns) / 1e9, left = -1;
	char glyphs[256] = "", eta[32];
	int i;

	if (r->set->quiet)
		return;
	if (r->tty && !force && now - r->last_show_ns < RUNNER_SHOW_NS)
		return;
	if (!r->tty && !force && now - r->last_plain_ns < RUNNER_PLAIN_NS)
		return;
	if (ph->duration_ns > 0)
		left = (double)ph->duration_ns / 1e9 - elapsed;
	else if (progress > 0.02)
		left = elapsed * (1 - progress) / progress;
	if (left >= 0) {
		left += (double)ph->settle_ns / 1e9;
		for (i = index + 1; i < r->suite->nphases; i++) {
			if (r->suite->phases[i].duration_ns == 0) {
				left = -1;
				break;
			}
			left += (double)(r->suite->phases[i].duration_ns +
			    r->suite->phases[i].settle_ns) / 1e9;
		}
	}
	if (left >= 0)
		snprintf(eta, sizeof eta, "~%.0fs left", left < 0 ? 0 : left);
	else
		snprintf(eta, sizeof eta, "time left unknown");
	if (sampler_wait_sample(&r->sampler, 0, 0, &r->view, NULL, NULL) > 0)
		runner_glyphs(&r->view, glyphs, sizeof glyphs);
	if (r->tty) {
		fprintf(stderr, "\r\033[K%s%s phase %d/%d %s %3.0f%% %.1fs %s "
		    "[%s]", r->suite->name, r->nreps > 1 ? "" : "", index + 1,
		    r->suite->nphases, ph->workload, 100 * progress, elapsed,
		    eta, glyphs);
		r->last_show_ns = now;
	} else {
		fprintf(stderr, "%s: phase %d/%d %s (%s) %3.0f%% %.1fs %s "
		    "regions [%s]\n", r->suite->name, index + 1,
		    r->suite->nphases, ph->name, ph->workload, 100 * progress,
		    elapsed, eta, glyphs);
		r->last_plain_ns = now;
	}
	fflush(stderr);
}

/* Record how the workload ended: metric rows and events. */
static void
runner_record_result(struct runner *r, const struct suite_phase *ph,
    const struct workload_result *res)
{
	struct sink_csv *sink;
	char thread[16], text[512];
	size_t i;

	sink = sampler_sink_lock(&r->sampler);
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
	sampler_sink_unlock(&r->sampler);

	switch (res->status) {
	case WORKLOAD_DONE:
	case WORKLOAD_STOPPED:
		return;
	case WORKLOAD_OOM_KILLED:
		snprintf(text, sizeof text, "%s was killed by the OOM killer "
		    "(oom_kill +%" PRIu64 ")", ph->workload, res->oom_kills);
		sampler_event(&r->sampler, "oom", text);
		break;
	case WORKLOAD_KILLED:
		snprintf(text, sizeof text, "%s was killed by signal %d (%s)",
		    ph->workload, res->signal, strsignal(res->signal));
		sampler_event(&r->sampler, "signal", text);
		break;
	case WORKLOAD_FAILED:
		snprintf(text, sizeof text, "%s failed (exit %d): %s",
		    ph->workload, res->exit_code, res->message != NULL ?
		    res->message : "no message");
		sampler_event(&r->sampler, "failed", text);
		break;
	}
	log_errorx("phase %s: %s", ph->name, text);
	r->failed_phases++;
	json_array_append_new(r->failed, json_string(ph->name));
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
 * is an event, since it lowers the workload's wall-clock rates.
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
	sampler_sample_now(&r->sampler, "checkpoint", label);
	runner_placement(r, ph, pid);
	if (frozen) {
		kill(pid, SIGCONT);
		snprintf(text, sizeof text, "%s: workload stopped for %.0f ms",
		    label, (double)(units_now_ns() - t0) / 1e6);
		sampler_event(&r->sampler, "freeze", text);
	}
}

/* Run one phase: its workload in a child, checkpoints, settle time. */
static int
runner_phase(struct runner *r, int index)
{
	const struct suite_phase *ph = &r->suite->phases[index];
	const struct workload_desc *desc = workload_find(ph->workload);
	struct workload_result res;
	struct workload_run *run;
	uint64_t phase_start, seq, last_place_seq = 0, settle_end;
	char *cause = NULL;
	double progress = 0;
	pid_t pid;
	int i, next_cp = 0;

	runner_prepare_phase(r, ph);
	sampler_set_phase(&r->sampler, ph->name);
	sampler_event(&r->sampler, "phase_start", ph->name);
	run = workload_run_new(desc);
	for (i = 0; i < ph->nopts; i++) {
		if (workload_set_option(run, ph->opts[i].key,
		    ph->opts[i].value, &cause) != 0)
			die(RB_EXIT_INPUT, "%s:%d: %s", r->suite->path,
			    ph->opts[i].line, cause);
	}
	if (r->set->force)
		workload_set_option(run, "force", "yes", NULL);
	if (r->set->user != NULL && *r->set->user != '\0')
		workload_set_option(run, "user", r->set->user, NULL);
	/* Checkpoints at 0% are taken before the workload exists. */
	while (next_cp < ph->ncheckpoints && ph->checkpoints[next_cp] <= 0) {
		runner_checkpoint(r, ph, ph->checkpoint_labels[next_cp], 0);
		next_cp++;
	}
	phase_start = units_now_ns();
	if (workload_start(run, &cause) != 0) {
		sampler_event(&r->sampler, "failed", cause);
		log_errorx("phase %s: %s", ph->name, cause);
		free(cause);
		workload_run_free(run);
		r->failed_phases++;
		json_array_append_new(r->failed, json_string(ph->name));
		sampler_event(&r->sampler, "phase_end", ph->name);
		return (0);
	}
	pid = workload_pid(run);
	if (!r->set->quiet && !r->tty)
		runner_show(r, index, ph, 0, phase_start, 1);
	for (;;) {
		if (runner_signal != 0) {
			workload_stop(run);
			break;
		}
		progress = workload_progress(run);
		while (next_cp < ph->ncheckpoints &&
		    progress >= ph->checkpoints[next_cp] - 1e-9) {
			runner_checkpoint(r, ph,
			    ph->checkpoint_labels[next_cp], pid);
			next_cp++;
		}
		if (workload_finished(run))
			break;
		seq = r->sampler.seq;
		if (r->set->placement_every > 0 && seq >= last_place_seq +
		    (uint64_t)r->set->placement_every) {
			runner_placement(r, ph, pid);
			last_place_seq = seq;
		}
		runner_show(r, index, ph, progress, phase_start, 0);
		if (sampler_finished(&r->sampler)) {
			workload_stop(run);
			break;
		}
		runner_nap(RUNNER_POLL_NS);
	}
	workload_wait(run, &res);
	/* Checkpoints reached only at the very end (the process is gone). */
	while (runner_signal == 0 && next_cp < ph->ncheckpoints &&
	    res.progress >= ph->checkpoints[next_cp] - 1e-9) {
		runner_checkpoint(r, ph, ph->checkpoint_labels[next_cp], 0);
		next_cp++;
	}
	runner_record_result(r, ph, &res);
	workload_result_free(&res);
	workload_run_free(run);
	if (r->tty && !r->set->quiet)
		runner_show(r, index, ph, 1, phase_start, 1);

	settle_end = units_now_ns() + ph->settle_ns;
	while (runner_signal == 0 && units_now_ns() < settle_end &&
	    !sampler_finished(&r->sampler))
		runner_nap(10 * RUNNER_POLL_NS);
	sampler_event(&r->sampler, "phase_end", ph->name);
	if (r->tty && !r->set->quiet)
		fputc('\n', stderr);
	return (runner_signal != 0 ? -1 : 0);
}

/* Name of a run's directory: results/<suite>-<UTC time>-<host>. */
static void
runner_default_dir(const struct suite *suite, char *buf, size_t len)
{
	char stamp[32], host[128] = "host";
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
	gethostname(host, sizeof host - 1);
	snprintf(buf, len, "results/%s-%s-%s", suite->name, stamp, host);
}

/* Run every phase once into r->dir; returns the exit code. */
static int
runner_repetition(struct runner *r, json_t *system)
{
	const struct suite *suite = r->suite;
	struct sampler_config cfg;
	json_t *phases;
	char *cause = NULL;
	const char *status;
	int i, rc, code = RB_EXIT_OK;

	if ((rc = sink_csv_open(&r->sink, r->dir, &cause)) != 0)
		die(-rc, "run: %s", cause);
	/* meta.json goes where the CSVs go, even after they close. */
	if ((r->dirfd = fcntl(r->sink.dirfd, F_DUPFD_CLOEXEC, 0)) == -1)
		die_errno(RB_EXIT_ENV, "run: %s", r->dir);
	r->meta = meta_new("run", r->set->label, system);
	r->failed = json_array();
	json_object_set_new(r->meta, "suite", json_pack("{s:s, s:s, s:s}",
	    "name", suite->name, "path", suite->path, "text", suite->text));
	meta_set_source(r->meta, &r->src);
	json_object_set_new(r->meta, "interval_s", json_real(
	    (double)(r->set->interval > 0 ? r->set->interval :
	    suite->interval_ns) / 1e9));
	phases = json_array();
	for (i = 0; i < suite->nphases; i++)
		json_array_append_new(phases,
		    json_string(suite->phases[i].name));
	json_object_set_new(r->meta, "phases", phases);
	json_object_set_new(r->meta, "repetition", json_pack("{s:i, s:i}",
	    "index", r->rep + 1, "of", r->nreps));
	json_object_set_new(r->meta, "runner_oom_score_adj",
	    runner_oom_score_adj());
	if (r->set->replay != NULL)
		json_object_set_new(r->meta, "replay_of",
		    json_string(r->set->replay));
	if ((rc = meta_writeat(r->meta, r->dirfd, r->dir, &cause)) != 0)
		die(-rc, "run: %s", cause);

	memset(&cfg, 0, sizeof cfg);
	cfg.interval_ns = r->set->interval > 0 ? r->set->interval :
	    suite->interval_ns;
	cfg.buddy_every = 1;
	cfg.pagetype_every = 10;
	cfg.cpu = r->have_topo ? topology_last_pu(&r->topo) : -1;
	cfg.replay_dir = r->set->replay;
	cfg.replay_paced = 1;
	if ((rc = sampler_start(&r->sampler, &cfg, &r->src, &r->sink,
	    r->have_topo ? &r->topo : NULL, units_now_ns(),
	    suite->phases[0].name, &cause)) != 0) {
		meta_set_status(r->meta, "failed");
		meta_writeat(r->meta, r->dirfd, r->dir, NULL);
		sink_csv_close(&r->sink, NULL);
		die(-rc, "run: %s", cause);
	}

	for (i = 0; i < suite->nphases; i++) {
		if (runner_phase(r, i) != 0 || sampler_finished(&r->sampler))
			break;
	}

	rc = sampler_stop(&r->sampler, &cause);
	/* Analysis needs the pageblock order pagetypeinfo printed. */
	if (r->sampler.pageblock_order >= 0)
		json_object_set_new(r->meta, "pageblock_order",
		    json_integer(r->sampler.pageblock_order));
	if (rc != 0) {
		log_errorx("run: %s", cause);
		json_object_set_new(r->meta, "error", json_string(cause));
		free(cause);
		cause = NULL;
		status = "failed";
		code = -rc;
	} else if (runner_signal != 0) {
		status = "interrupted";
		code = RB_EXIT_INTR;
		sink_csv_event(&r->sink, sampler_elapsed(&r->sampler),
		    "interrupted", strsignal(runner_signal), NULL, NULL);
	} else {
		status = "complete";
		if (r->failed_phases > 0)
			code = RB_EXIT_FAIL;
	}
	sink_csv_event(&r->sink, sampler_elapsed(&r->sampler), "stop", status,
	    NULL, NULL);
	if (sink_csv_close(&r->sink, &cause) != 0) {
		log_errorx("run: %s", cause);
		if (json_object_get(r->meta, "error") == NULL)
			json_object_set_new(r->meta, "error",
			    json_string(cause));
		free(cause);
		cause = NULL;
		status = "failed";
		code = RB_EXIT_ENV;
	}
	json_object_set_new(r->meta, "samples",
	    json_integer((json_int_t)r->sampler.seq));
	json_object_set(r->meta, "failed_phases", r->failed);
	/* Again at the end: sources report what they found (accuracy). */
	meta_set_source(r->meta, &r->src);
	/* Again at the end: sources report what they found. */
	meta_set_source(r->meta, &r->src);
	meta_set_status(r->meta, status);
	if (meta_writeat(r->meta, r->dirfd, r->dir, &cause) != 0) {
		log_errorx("run: %s", cause);
		free(cause);
		code = RB_EXIT_ENV;
	}
	json_decref(r->failed);
	json_decref(r->meta);
	r->meta = NULL;
	return (code);
}

/*
 * Run another regionbench command in a child process, so that its errors
 * (which exit) cannot take the runner down with them.  A SIGINT or
 * SIGTERM of the runner ends the child; its temporary files in dir and
 * dir/charts are removed.
 */
static int
runner_subcommand(const char *dir, char **argv)
{
	const struct command_entry *entry = command_lookup(argv[0]);
	int argc, status, killed = 0;
	pid_t pid, parent = getpid(), w;
	char *charts;

	if (entry == NULL)
		return (-1);
	for (argc = 0; argv[argc] != NULL; argc++)
		continue;
	fflush(stdout);
	fflush(stderr);
	if ((pid = fork()) == -1)
		return (-1);
	if (pid == 0) {
		/* Die with the runner, even if it died before this line. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(RB_EXIT_FAIL);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		_exit(entry->exec(argc, argv));
	}
	/* Poll, so that a signal landing just before a wait is not missed. */
	while ((w = waitpid(pid, &status, WNOHANG)) != pid) {
		if (w == -1 && errno != EINTR)
			return (-1);
		if (runner_signal != 0 && !killed) {
			kill(pid, SIGKILL);
			killed = 1;
		}
		runner_nap(RUNNER_POLL_NS);
	}
	if (killed) {
		atomic_file_clean(dir, (long)pid);
		charts = xasprintf("%s/charts", dir);
		atomic_file_clean(charts, (long)pid);
		free(charts);
		return (-1);
	}
	return (WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

/*
 * After a repetition: summary.csv and a short summary (plus the seed table
 * when the suite asks for it), then the charts and the report.
 */
static void
runner_report(struct runner *r)
{
	char *brief_argv[] = { "analyze", r->dir, "--brief", NULL };
	char *seed_argv[] = { "analyze", r->dir, "--table", "seed", NULL };
	char *quiet_argv[] = { "analyze", r->dir, "--format", "csv", NULL };
	char *chart_argv[] = { "chart", r->dir, NULL };
	char *report_argv[] = { "report", r->dir, "--out", NULL, NULL };
	char report_path[4200];
	FILE *saved = NULL;
	int rc;

	if (runner_signal != 0)
		return;
	if (r->set->quiet) {
		/* summary.csv is still written; nothing is printed. */
		saved = stdout;
		stdout = fopen("/dev/null", "w");
		rc = runner_subcommand(r->dir, quiet_argv);
	} else {
		rc = runner_subcommand(r->dir, brief_argv);
		if (rc == 0 && r->suite->seed_table) {
			putchar('\n');
			rc = runner_subcommand(r->dir, seed_argv);
		}
	}
	if (rc != 0 && runner_signal == 0)
		log_warnx("run: analyze %s failed; the results are complete, "
		    "run it again by hand", r->dir);
	if (!r->set->no_charts && runner_signal == 0) {
		snprintf(report_path, sizeof report_path, "%s/report.html",
		    r->dir);
		report_argv[3] = report_path;
		if (runner_subcommand(r->dir, chart_argv) != 0) {
			if (runner_signal == 0)
				log_warnx("run: charts of %s failed", r->dir);
		} else if (runner_subcommand(r->dir, report_argv) != 0) {
			if (runner_signal == 0)
				log_warnx("run: report of %s failed", r->dir);
		}
		else if (saved == NULL)
			printf("report: %s\n", report_path);
	}
	if (saved != NULL) {
		fclose(stdout);
		stdout = saved;
	}
}

/*
 * A signal came after the phases, while (or before) the analysis, charts
 * and report were written: meta.json says complete; make it say
 * interrupted, and when.
 */
static int
runner_mark_interrupted(int dirfd, const char *dir)
{
	char *path = xasprintf("%s/meta.json", dir), *cause = NULL;
	json_t *meta;
	int rc = RB_EXIT_INTR;

	if ((meta = meta_read_object(path, &cause)) != NULL) {
		meta_set_status(meta, "interrupted");
		json_object_set_new(meta, "interrupted_during",
		    json_string("analysis"));
		if (meta_writeat(meta, dirfd, dir, &cause) != 0) {
			json_decref(meta);
			meta = NULL;
		}
	}
	if (meta == NULL) {
		log_errorx("run: %s", cause);
		rc = RB_EXIT_ENV;
	}
	free(cause);
	json_decref(meta);
	free(path);
	return (rc);
}

/* Run a suite, possibly repeated; returns the exit code. */
int
runner_main(const struct suite *suite, const struct runner_settings *set,
    struct source_cli *cli)
{
	struct runner r;
	json_t *system;
	char parent[4000], *cause = NULL;
	int rep, code = RB_EXIT_OK, rc;

	memset(&r, 0, sizeof r);
	r.suite = suite;
	r.set = set;
	r.tty = isatty(STDERR_FILENO);
	r.nreps = set->repeat > 0 ? (int)set->repeat : (int)suite->repeat;
	snapshot_init(&r.view);

	/*
	 * The kernel should kill a workload, never the runner.  Lowering
	 * needs CAP_SYS_RESOURCE, which containers often drop; the workloads
	 * at +1000 are still chosen first, and meta.json says what held.
	 */
	if (geteuid() == 0)
		runner_write_sysctl("/proc/self/oom_score_adj", "-1000\n");
	r.have_topo = topology_load(&r.topo, NULL) == 0;
	if (set->replay != NULL) {
		char first[4096];

		snprintf(first, sizeof first, "%s/0000", set->replay);
		if (access(first, F_OK) == -1)
			die(RB_EXIT_INPUT, "run: %s: no recorded samples "
			    "(expected %s)", set->replay, first);
		source_cli_open(cli, &r.src, first);
	} else {
		source_cli_open(cli, &r.src, NULL);
	}
	system = meta_system(cli->proc);

	if ((r.map = source_region_map(&r.src)) != NULL) {
		placement_init(&r.placement, cli->proc, r.map);
		placement_result_init(&r.placement_result, r.map);
	}

	if (set->out != NULL)
		snprintf(parent, sizeof parent, "%s", set->out);
	else
		runner_default_dir(suite, parent, sizeof parent);
	if (r.nreps > 1 && (rc = sink_make_dir(parent, &cause)) != 0)
		die(-rc, "run: %s", cause);

	for (rep = 0; rep < r.nreps && runner_signal == 0; rep++) {
		r.rep = rep;
		if (r.nreps > 1)
			snprintf(r.dir, sizeof r.dir, "%s/rep-%02d", parent,
			    rep + 1);
		else
			snprintf(r.dir, sizeof r.dir, "%s", parent);
		if (!set->quiet)
			fprintf(stderr, "run %s%s: results in %s\n",
			    suite->name, r.nreps > 1 ? "" : "", r.dir);
		rc = runner_repetition(&r, system);
		if (rc != RB_EXIT_OK && (code == RB_EXIT_OK ||
		    rc == RB_EXIT_INTR))
			code = rc;
		/* A failed repetition (a full disk) is not analyzed. */
		if (rc == RB_EXIT_OK || rc == RB_EXIT_FAIL)
			runner_report(&r);
		if (runner_signal != 0 && (rc == RB_EXIT_OK ||
		    rc == RB_EXIT_FAIL)) {
			rc = runner_mark_interrupted(r.dirfd, r.dir);
			if (code != RB_EXIT_ENV)
				code = rc;
		}
		close(r.dirfd);
		r.dirfd = -1;
	}
	printf("%s\n", parent);

	if (r.map != NULL) {
		placement_result_free(&r.placement_result);
		placement_free(&r.placement);
	}
	json_decref(system);
	source_close(&r.src);
	if (r.have_topo)
		topology_free(&r.topo);
	snapshot_free(&r.view);
	return (code);
}
