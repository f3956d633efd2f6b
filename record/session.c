/*
 * One results-directory session: what sample and run both do around their
 * own work.  The order matters for trust in the data: meta.json says
 * "running" before the first row exists, the sampler flushes whole rows
 * per sample, and a signal still ends with closed files and a final
 * meta.json saying how the session ended (docs/architecture.md).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "meta.h"
#include "session.h"
#include "units.h"

/*
 * The kernel should kill a workload, never the process that watches it.
 * Lowering needs root with CAP_SYS_RESOURCE, which containers often
 * drop; the workloads at +1000 are still chosen first, and the runner's
 * meta.json says what held.
 */
void
session_protect_from_oom(void)
{
	int fd;

	if (geteuid() != 0)
		return;
	if ((fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC)) ==
	    -1)
		return;
	if (write(fd, "-1000\n", 6) == -1) {
		/* Without CAP_SYS_RESOURCE: keep going. */
	}
	close(fd);
}

/*
 * Open the results directory, if any, and start meta.json: command,
 * label, system, source, interval, phases (taken over) and the recording
 * replayed.  The caller may add its own keys to s->meta before
 * session_start writes it.
 */
int
session_open(struct session *s, const struct session_config *cfg,
    json_t *phases, char **cause)
{
	const char *why = cfg->src->ops->no_migratetypes;
	json_t *omitted;
	unsigned omit = 0;
	int rc;

	memset(s, 0, sizeof *s);
	s->cfg = *cfg;
	s->dirfd = -1;
	if (cfg->dir == NULL) {
		json_decref(phases);
		return (0);
	}
	/* Tables the source never fills are left out, with the reason. */
	omitted = json_object();
	/* references.csv only when DAMON is ours to read. */
	if (cfg->refs == NULL || !cfg->refs->active)
		omit |= 1U << CSV_REFERENCES;
	if (cfg->refs != NULL && cfg->refs->unavailable != NULL)
		json_object_set_new(omitted,
		    csv_schema_table(CSV_REFERENCES)->file,
		    json_string(cfg->refs->unavailable));
	if (why != NULL) {
		omit |= (1U << CSV_PAGETYPE) | (1U << CSV_PAGEBLOCKS);
		json_object_set_new(omitted,
		    csv_schema_table(CSV_PAGETYPE)->file, json_string(why));
		json_object_set_new(omitted,
		    csv_schema_table(CSV_PAGEBLOCKS)->file, json_string(why));
	}
	if ((rc = sink_csv_open(&s->sink, cfg->dir, omit, cause)) != 0) {
		json_decref(omitted);
		json_decref(phases);
		return (rc);
	}
	/* meta.json goes where the CSVs go, even after they close. */
	if ((s->dirfd = fcntl(s->sink.dirfd, F_DUPFD_CLOEXEC, 0)) == -1) {
		json_decref(phases);
		json_decref(omitted);
		sink_csv_close(&s->sink, NULL);
		return (fail_with(cause, RB_EXIT_ENV, "%s: %s", cfg->dir,
		    strerror(errno)));
	}
	s->sinkp = &s->sink;
	s->meta = meta_new(cfg->command, cfg->label, cfg->system);
	meta_set_source(s->meta, cfg->src);
	json_object_set_new(s->meta, "interval_s", json_real(cfg->interval_s));
	json_object_set_new(s->meta, "phases", phases);
	json_object_set_new(s->meta, "files_omitted", omitted);
	if (cfg->replay != NULL)
		json_object_set_new(s->meta, "replay_of",
		    json_string(cfg->replay));
	if (cfg->refs != NULL)
		references_describe(cfg->refs, s->meta);
	return (0);
}

/*
 * Say before the first sample when the source expects a sample to take
 * longer than the interval (the kpageflags scan of a large machine), with
 * the settings that would fit: as an event, and on stderr unless quiet.
 * A single sample has no interval to keep.
 */
static void
session_estimate(struct session *s, const struct sampler_config *scfg,
    const char *phase)
{
	char *basis, *advice;

	if (s->cfg.replay != NULL || scfg->count == 1)
		return;
	source_estimate(s->cfg.src, (double)scfg->interval_ns / 1e9, &basis,
	    &advice);
	if (advice != NULL) {
		if (!log_is_quiet())
			log_warnx("%s", advice);
		if (s->sinkp != NULL)
			sink_csv_event(&s->sink, 0.0, "warning", advice, phase,
			    NULL);
	}
	free(basis);
	free(advice);
}

/*
 * Turn DAMON on once the first sample names the regions, and say so in
 * meta.json (the kdamond's pid) before the references' first row.
 */
static int
session_references(struct session *s, char **cause)
{
	struct references *r = s->cfg.refs;
	int rc;

	if (r == NULL || !r->active)
		return (0);
	if ((rc = references_start(r, &s->sampler, s->cfg.proc_root,
	    cause)) != 0) {
		references_stop(r, NULL);
		if (r->set.mode != REFERENCES_AUTO)
			return (rc);
		/* auto: the run goes on, references.csv stays empty. */
		log_warnx("--references auto: %s", *cause);
		sampler_event(&s->sampler, "warning", *cause);
		r->active = 0;
		free(r->unavailable);
		r->unavailable = *cause;
		*cause = NULL;
	}
	if (s->meta != NULL) {
		references_describe(r, s->meta);
		return (meta_writeat(s->meta, s->dirfd, s->cfg.dir, cause));
	}
	return (0);
}

/*
 * Write meta.json ("running") and start the sampler.  When the sampler
 * cannot start, meta.json says "failed" and the files are closed.
 */
int
session_start(struct session *s, const struct sampler_config *scfg,
    void *topology, const char *first_phase, char **cause)
{
	int rc;

	if (s->meta != NULL &&
	    (rc = meta_writeat(s->meta, s->dirfd, s->cfg.dir, cause)) != 0)
		return (rc);
	session_estimate(s, scfg, first_phase);
	if ((rc = sampler_start(&s->sampler, scfg, s->cfg.src, s->sinkp,
	    topology, units_now_ns(), first_phase, cause)) == 0 &&
	    (rc = session_references(s, cause)) != 0)
		sampler_stop(&s->sampler, NULL);
	if (rc != 0) {
		if (s->meta != NULL) {
			meta_set_status(s->meta, "failed");
			meta_writeat(s->meta, s->dirfd, s->cfg.dir, NULL);
			sink_csv_close(&s->sink, NULL);
			close(s->dirfd);
			s->dirfd = -1;
			json_decref(s->meta);
			s->meta = NULL;
		}
		return (rc);
	}
	return (0);
}

/* Log a failure of the end of a session; the first goes in meta.json. */
static void
session_error(struct session *s, char *cause)
{
	log_errorx("%s: %s", s->cfg.command, cause);
	if (s->meta != NULL && json_object_get(s->meta, "error") == NULL)
		json_object_set_new(s->meta, "error", json_string(cause));
	free(cause);
}

/* Close the files and write the final meta.json; returns an exit code. */
static int
session_close(struct session *s, int code)
{
	char *cause = NULL;
	double t_s = s->stop_t_s;

	if (strcmp(s->status, "interrupted") == 0)
		sink_csv_event(&s->sink, t_s, "interrupted",
		    strsignal(session_signal()), s->cfg.end_phase, NULL);
	sink_csv_event(&s->sink, t_s, "stop", s->status, s->cfg.end_phase,
	    NULL);
	if (sink_csv_close(&s->sink, &cause) != 0) {
		session_error(s, cause);
		s->status = "failed";
		code = RB_EXIT_ENV;
	}
	json_object_set_new(s->meta, "samples",
	    json_integer((json_int_t)s->sampler.seq));
	json_object_set_new(s->meta, "sampler_overruns",
	    json_integer((json_int_t)s->sampler.overruns));
	/* Analysis needs the pageblock order pagetypeinfo printed. */
	if (s->sampler.pageblock_order >= 0)
		json_object_set_new(s->meta, "pageblock_order",
		    json_integer(s->sampler.pageblock_order));
	/* Again at the end: sources report what they found (accuracy). */
	meta_set_source(s->meta, s->cfg.src);
	if (s->cfg.refs != NULL)
		references_describe(s->cfg.refs, s->meta);
	meta_set_status(s->meta, s->status);
	if (meta_writeat(s->meta, s->dirfd, s->cfg.dir, &cause) != 0) {
		session_error(s, cause);
		code = RB_EXIT_ENV;
	}
	json_decref(s->meta);
	s->meta = NULL;
	return (code);
}

/*
 * Stop the sampler and end the session: "failed" when sampling failed,
 * "interrupted" when the caller says a signal cut it short, else
 * "complete".  Returns the exit code; s->status says how it ended.
 */
int
session_finish(struct session *s, int interrupted)
{
	char *cause = NULL;
	int rc, code = RB_EXIT_OK;

	/* Before the sampler: the reader writes through its sink. */
	if (s->cfg.refs != NULL && (rc = references_stop(s->cfg.refs,
	    &cause)) != 0) {
		session_error(s, cause);
		cause = NULL;
		code = -rc;
	}
	if ((rc = sampler_stop(&s->sampler, &cause)) != 0) {
		session_error(s, cause);
		s->status = "failed";
		code = -rc;
	} else if (interrupted) {
		s->status = "interrupted";
		code = RB_EXIT_INTR;
	} else if (code != RB_EXIT_OK)
		s->status = "failed";
	else
		s->status = "complete";
	s->stop_t_s = sampler_elapsed(&s->sampler);
	if (s->cfg.replay_samples > 0)
		s->stop_t_s = s->sampler.seq == s->cfg.replay_samples ?
		    s->cfg.replay_end_t_s : s->sampler.latest_t_s;
	if (s->meta == NULL)
		return (code);
	return (session_close(s, code));
}
