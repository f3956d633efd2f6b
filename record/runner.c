/*
 * Suite runner.  The order of things matters for trust in the data:
 * meta.json says "running" before the first row exists (session.c), every
 * row is whole and flushed per sample, the workload runs in its own
 * process with oom_score_adj 1000 while the runner sits at -1000, and a
 * signal stops the workload, reaps it and still closes every file.  After
 * each repetition the runner analyses it, draws its charts and writes its
 * report by calling analyze/ directly.
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "chart.h"
#include "log.h"
#include "meta.h"
#include "recording.h"
#include "report.h"
#include "runner-int.h"
#include "seed-table.h"
#include "store.h"
#include "summary.h"
#include "term.h"
#include "workload.h"

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

/*
 * Open the repetition's results directory and its meta.json; 0, or a
 * negative exit code with a cause.
 */
static int
runner_open(struct runner *r, json_t *system, char **cause)
{
	const struct suite *suite = r->suite;
	struct session_config sc;
	json_t *phases, *meta;
	int i, rc;

	memset(&sc, 0, sizeof sc);
	sc.command = "run";
	sc.dir = r->dir;
	sc.label = r->set->label;
	sc.system = system;
	sc.src = &r->src;
	sc.interval_s = (double)(r->set->interval > 0 ? r->set->interval :
	    suite->interval_ns) / 1e9;
	sc.replay = r->set->replay;
	sc.refs = &r->refs;
	sc.proc_root = r->refs_proc;
	phases = json_array();
	for (i = 0; i < suite->nphases; i++)
		json_array_append_new(phases,
		    json_string(suite->phases[i].name));
	if ((rc = session_open(&r->session, &sc, phases, cause)) != 0)
		return (rc);
	meta = r->session.meta;
	json_object_set_new(meta, "suite", json_pack("{s:s, s:s, s:s}",
	    "name", suite->name, "path", suite->path, "text", suite->text));
	json_object_set_new(meta, "repetition", json_pack("{s:i, s:i}",
	    "index", r->rep + 1, "of", r->nreps));
	json_object_set_new(meta, "runner_oom_score_adj",
	    runner_oom_score_adj());
	json_object_set_new(meta, "workload_cgroup",
	    workload_cgroup_json(&r->cgroup));
	return (0);
}

/* An error that ends the run: said, and its exit code kept. */
static int
runner_stop(struct runner *r, int rc, char *cause)
{
	log_errorx("run: %s", cause);
	free(cause);
	r->stop = -rc;
	return (-rc);
}

/* Run every phase once into r->dir; returns the exit code. */
static int
runner_repetition(struct runner *r, json_t *system)
{
	struct sampler_config cfg;
	char *cause = NULL;
	int i, rc, code;

	r->failed_phases = 0;
	if ((rc = runner_open(r, system, &cause)) != 0)
		return (runner_stop(r, rc, cause));
	r->failed = json_array();
	memset(&cfg, 0, sizeof cfg);
	cfg.interval_ns = r->set->interval > 0 ? r->set->interval :
	    r->suite->interval_ns;
	cfg.buddy_every = 1;
	cfg.pagetype_every = 10;
	cfg.cpu = r->have_topo ? topology_last_pu(&r->topo) : -1;
	cfg.replay_dir = r->set->replay;
	cfg.replay_paced = 1;
	if ((rc = session_start(&r->session, &cfg, r->have_topo ? &r->topo :
	    NULL, r->suite->phases[0].name, &cause)) != 0) {
		json_decref(r->failed);
		r->failed = NULL;
		return (runner_stop(r, rc, cause));
	}

	for (i = 0; i < r->suite->nphases; i++) {
		if (runner_phase(r, i) != 0 ||
		    sampler_finished(&r->session.sampler))
			break;
	}

	r->intr_phase = session_signal() != 0 && i < r->suite->nphases ? i :
	    -1;
	json_object_set(r->session.meta, "failed_phases", r->failed);
	code = session_finish(&r->session, session_signal() != 0);
	if (code == RB_EXIT_OK && r->failed_phases > 0)
		code = RB_EXIT_FAIL;
	if (r->stop != 0)
		code = r->stop;
	json_decref(r->failed);
	r->failed = NULL;
	return (code);
}

/*
 * summary.csv and summary.json, and unless quiet the short summary (plus
 * the seed table when the suite asks for it) on stdout.
 */
static int
runner_analyze(struct runner *r, char **cause)
{
	struct metrics_options mo;
	struct summary_run sr;
	char *why = NULL;
	int rc;

	metrics_options_default(&mo);
	if ((rc = summary_run_load(&sr, r->dir, &mo, NULL, cause)) != 0)
		return (rc);
	if (summary_save(&sr, &why) != 0) {
		log_warnx("summary not saved: %s", why);
		free(why);
	}
	if (!r->set->quiet && r->set->format == 0) {
		summary_print_text_fit(stdout, &sr, 1,
		    term_fit_width(STDOUT_FILENO));
		if (r->suite->seed_table) {
			putchar('\n');
			seed_table_print_text(stdout, sr.res);
		}
	}
	summary_run_free(&sr);
	if (fflush(stdout) != 0)
		return (fail_with(cause, RB_EXIT_ENV, "stdout: write failed"));
	return (0);
}

/*
 * After a repetition: the analysis, then the charts (into DIR/charts) and
 * the report.  All of them return their errors, so no child process is
 * needed to keep a failure from ending the runner: it is reported and the
 * next repetition goes on.
 */
static void
runner_report(struct runner *r)
{
	char path[4200], *cause = NULL, *dirs[1] = { r->dir };

	if (session_signal() != 0)
		return;
	if (runner_analyze(r, &cause) != 0) {
		log_errorx("%s", cause);
		log_warnx("run: analyze %s failed; the results are complete, "
		    "run it again by hand", r->dir);
		free(cause);
		cause = NULL;
	}
	if (r->set->no_charts || session_signal() != 0)
		return;
	snprintf(path, sizeof path, "%s/report.html", r->dir);
	if (chart_all(r->dir, NULL, CHART_PNG | CHART_SVG |
	    CHART_QUIET_OPT_IN, NULL, &cause) != 0) {
		log_errorx("%s", cause);
		log_warnx("run: charts of %s failed", r->dir);
	} else if (session_signal() != 0) {
		/* Interrupted: no report. */
	} else if (report_write(dirs, 1, COMPARE_BY_DIR, path, &cause) != 0) {
		log_errorx("%s", cause);
		log_warnx("run: report of %s failed", r->dir);
	} else if (!r->set->quiet)
		printf("report: %s\n", path);
	free(cause);
}

/*
 * The most cores the workloads of one phase are bound to (--cpu-bind, one
 * core per thread; threads 0 means one per core): the scan threads of
 * the source keep off them.
 */
static int
runner_busy_cores(const struct runner *r)
{
	const struct suite_phase *ph;
	int i, j, bound, busy = 0, all = r->have_topo ? r->topo.cores : 0;
	long threads;

	for (i = 0; i < r->suite->nphases; i++) {
		ph = &r->suite->phases[i];
		bound = 0;
		threads = 0;
		for (j = 0; j < ph->nopts; j++) {
			if (strcmp(ph->opts[j].key, "cpu-bind") == 0)
				bound = strcmp(ph->opts[j].value, "none") != 0;
			else if (strcmp(ph->opts[j].key, "threads") == 0)
				threads = strtol(ph->opts[j].value, NULL, 10);
		}
		if (!bound)
			continue;
		if (threads <= 0 || (all > 0 && threads > all))
			threads = all;
		if (threads > busy)
			busy = (int)threads;
	}
	return (busy);
}

/*
 * Open the region source: live, or the one a recording gives; 0, or a
 * negative exit code with a cause.
 */
static int
runner_open_source(struct runner *r, struct source_cli *cli, char **cause)
{
	cli->busy_cores = runner_busy_cores(r);
	cli->interval_s = (double)(r->set->interval > 0 ? r->set->interval :
	    r->suite->interval_ns) / 1e9;
	if (r->set->replay == NULL)
		return (source_cli_open(cli, &r->src, NULL, cause));
	return (recording_open_source(r->set->replay, cli, &r->src, "run",
	    cause));
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

/*
 * --format json: one repetition as its object, from the files it left:
 * meta.json's status and the summary.json analysis wrote (null when the
 * repetition was not analysed).
 */
static void
runner_json_rep(struct runner *r, int code)
{
	char *path, *cause = NULL;
	const char *status;
	json_t *meta, *summary;

	meta = meta_read(r->dir, &cause);
	free(cause);
	status = meta != NULL ? meta_get_string(meta, "status") : NULL;
	path = xasprintf("%s/summary.json", r->dir);
	summary = json_load_file(path, 0, NULL);
	free(path);
	json_array_append_new(r->json_reps, json_pack("{s:s, s:o, s:i, s:o, "
	    "s:o}", "dir", r->dir, "status", status != NULL ?
	    json_string(status) : json_null(), "exit_status", code,
	    "interrupted_in_phase", r->intr_phase >= 0 ?
	    json_string(r->suite->phases[r->intr_phase].name) : json_null(),
	    "summary", summary != NULL ? summary : json_null()));
	json_decref(meta);
}

/* --format json: the whole run as one object on stdout. */
static void
runner_json(struct runner *r, const char *parent, int code)
{
	json_t *root;

	root = json_pack("{s:s, s:i, s:s, s:s, s:i, s:o}", "command", "run",
	    "schema_version", RUNNER_JSON_VERSION, "suite", r->suite->name,
	    "dir", parent, "exit_status", code, "repetitions", r->json_reps);
	r->json_reps = NULL;
	if (json_dumpf(root, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
	    JSON_REAL_PRECISION(10)) != 0 || putchar('\n') == EOF)
		log_errorx("run: stdout: write failed");
	json_decref(root);
}

/* Each repetition into its own directory; returns the exit code. */
static int
runner_repetitions(struct runner *r, json_t *system, const char *parent)
{
	char name[96], *counting;
	int rc, code = RB_EXIT_OK;

	for (r->rep = 0; r->rep < r->nreps && session_signal() == 0 &&
	    r->stop == 0; r->rep++) {
		if (r->nreps > 1)
			snprintf(r->dir, sizeof r->dir, "%s/rep-%02d", parent,
			    r->rep + 1);
		else
			snprintf(r->dir, sizeof r->dir, "%s", parent);
		runner_name(r, name, sizeof name);
		if (!r->set->quiet)
			fprintf(stderr, "run %s: results in %s\n", name,
			    r->dir);
		if (!r->set->quiet && r->rep == 0 && (counting =
		    source_counting(&r->src)) != NULL) {
			log_infox("%s", counting);
			free(counting);
		}
		rc = runner_repetition(r, system);
		if (rc != RB_EXIT_OK && (code == RB_EXIT_OK ||
		    rc == RB_EXIT_INTR))
			code = rc;
		/* A failed repetition (a full disk) is not analyzed. */
		if (rc == RB_EXIT_OK || rc == RB_EXIT_FAIL)
			runner_report(r);
		if (session_signal() != 0 && (rc == RB_EXIT_OK ||
		    rc == RB_EXIT_FAIL)) {
			rc = runner_mark_interrupted(r->session.dirfd, r->dir);
			if (code != RB_EXIT_ENV)
				code = rc;
		}
		if (r->json_reps != NULL)
			runner_json_rep(r, rc);
		if (r->session.dirfd != -1)
			close(r->session.dirfd);
		r->session.dirfd = -1;
	}
	return (code);
}

/*
 * run --store: load the finished runs into the results database.  An
 * interrupted run is not stored (it is not evidence of anything); a
 * failure to store keeps the results on disk and is the exit code, so CI
 * sees it.
 */
static int
runner_store(const struct runner_settings *set, const char *parent,
    int code)
{
	char *paths[1], *cause = NULL, *shown;
	int rc;

	shown = store_url_shown(set->db);
	if (code == RB_EXIT_INTR || session_signal() != 0) {
		log_warnx("run: interrupted, so not stored in %s", shown);
		free(shown);
		return (code);
	}
	paths[0] = (char *)parent;
	if ((rc = store_dirs(set->db, paths, 1, 0, 0, 1, &cause)) != 0) {
		log_errorx("run: the results in %s are whole, but storing "
		    "them failed: %s", parent, cause);
		free(cause);
		free(shown);
		return (-rc);
	}
	if (!set->quiet)
		fprintf(stderr, "run: stored in %s\n", shown);
	free(shown);
	return (code);
}

/*
 * What runs before the first repetition: the region source, DAMON's
 * references, placement and the vacate checks; 0, or a negative exit code
 * with the message to print.
 */
static int
runner_prepare(struct runner *r, struct source_cli *cli, char **cause)
{
	const struct runner_settings *set = r->set;
	char *why = NULL;
	int rc;

	if ((rc = runner_open_source(r, cli, cause)) != 0)
		return (rc);
	if (set->refs.mode != REFERENCES_OFF && set->replay != NULL)
		return (fail_with(cause, RB_EXIT_INPUT, "run: --references "
		    "reads this machine's DAMON: not with --replay"));
	if ((rc = references_open(&r->refs, &set->refs, cli->sys, cli->proc,
	    &why)) != 0) {
		rc = fail_with(cause, -rc, "run: %s", why);
		free(why);
		return (rc);
	}
	r->refs_proc = cli->proc;
	/* Placement reads live pids: never against a recorded map. */
	if (set->replay == NULL &&
	    (r->map = source_region_map(&r->src)) != NULL) {
		placement_init(&r->placement, cli->proc, r->map);
		placement_result_init(&r->placement_result, r->map);
	}
	return (runner_vacate_check(r, cli->proc, cause));
}

/*
 * After a signal: where it cut the run short, where the partial results
 * are and how to check them.  Printed with --quiet too: it is the outcome.
 */
static void
runner_interrupted(const struct runner *r)
{
	char rep[48] = "";

	if (r->nreps > 1)
		snprintf(rep, sizeof rep, " of repetition %d/%d", r->rep,
		    r->nreps);	/* the loop has counted it */
	if (r->intr_phase >= 0)
		fprintf(stderr, "run: interrupted in phase %d/%d (%s)%s; "
		    "partial results in %s; check them with 'regionbench "
		    "verify %s'\n", r->intr_phase + 1, r->suite->nphases,
		    r->suite->phases[r->intr_phase].name, rep, r->dir, r->dir);
	else
		fprintf(stderr, "run: interrupted after the phases%s, while "
		    "the results were analysed; results in %s; check them "
		    "with 'regionbench verify %s'\n", rep, r->dir, r->dir);
}

/*
 * Run a suite, possibly repeated; returns the exit code.  Every path out
 * undoes what the runner set up, the workloads' cgroup first (the runner
 * would otherwise stay in a cgroup of its own and its parent keep the
 * memory controller enabled for children).
 */
int
runner_main(const struct suite *suite, const struct runner_settings *set,
    struct source_cli *cli)
{
	struct runner r;
	json_t *system = NULL;
	char parent[4000], *cause = NULL, *why = NULL;
	int code, rc;

	memset(&r, 0, sizeof r);
	r.suite = suite;
	r.set = set;
	r.tty = isatty(STDERR_FILENO);
	if (r.tty)
		term_watch_resize();
	r.nreps = set->repeat > 0 ? (int)set->repeat : (int)suite->repeat;
	snapshot_init(&r.view);

	session_protect_from_oom();
	workload_cgroup_setup(&r.cgroup, "/sys/fs/cgroup");
	r.have_topo = topology_load(&r.topo, NULL) == 0;
	if (set->out != NULL)
		snprintf(parent, sizeof parent, "%s", set->out);
	else
		runner_default_dir(suite, parent, sizeof parent);
	if ((rc = runner_prepare(&r, cli, &cause)) == 0 && r.nreps > 1 &&
	    (rc = sink_make_dir(parent, &why)) != 0) {
		cause = xasprintf("run: %s", why);
		free(why);
	}
	if (rc != 0) {
		log_errorx("%s", cause);
		free(cause);
		code = -rc;
	} else if ((system = recording_system(set->replay, cli->proc,
	    &cause)) == NULL) {
		/* A replay keeps the recording's machine and boot. */
		log_errorx("run: %s", cause);
		free(cause);
		code = RB_EXIT_INPUT;
	} else {
		if (set->format == 1)
			r.json_reps = json_array();
		code = runner_repetitions(&r, system, parent);
		if (code == RB_EXIT_INTR)
			runner_interrupted(&r);
		if (set->store)
			code = runner_store(set, parent, code);
		if (r.json_reps != NULL)
			runner_json(&r, parent, code);
		else
			printf("%s\n", parent);
		if (!set->no_charts)
			chart_cleanup();
	}

	if (r.map != NULL) {
		placement_result_free(&r.placement_result);
		placement_free(&r.placement);
	}
	json_decref(system);
	json_decref(r.vacate);
	references_close(&r.refs);
	source_close(&r.src);
	if (r.have_topo)
		topology_free(&r.topo);
	snapshot_free(&r.view);
	free(r.used);
	workload_cgroup_teardown(&r.cgroup);
	workload_cgroup_free(&r.cgroup);
	return (code);
}
