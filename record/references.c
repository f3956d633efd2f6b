/*
 * The DAMON reference source (docs/damon.md).  Setting up happens before
 * the session writes anything (ownership and kernel support decide whether
 * the run may start at all); the kdamond is turned on once the first
 * sample has named the regions, and a thread of its own asks for the tried
 * regions once per aggregation interval: the kernel may hold that write
 * for a whole interval, which the sampler's deadlines cannot afford.  Every
 * way out turns off the kdamond this process started, and only that one.
 */
#include "config.h"

#include <errno.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <gsl/gsl_statistics_double.h>

#include "log.h"
#include "references.h"
#include "session-signals.h"
#include "units.h"

static const char *const references_modes[] = { "off", "on", "auto", NULL };

const struct opt_def references_options[] = {
	{ .name = "references", .type = OPT_ENUM,
	  .offset = offsetof(struct references_settings, mode), .arg = "MODE",
	  .def = "off", .choices = references_modes,
	  .help = "record which regions DAMON sees referenced, per "
	  "aggregation interval, in references.csv (on: exit 3 when the "
	  "kernel cannot; auto: a warning; docs/damon.md)" },
	{ .name = "damon-sample", .type = OPT_DURATION,
	  .offset = offsetof(struct references_settings, sample), .arg = "D",
	  .def = "20ms", .min = 100000, .max = 10000000000LL,
	  .help = "DAMON's sampling interval (an access check of one page "
	  "per DAMON region)" },
	{ .name = "damon-aggr", .type = OPT_DURATION,
	  .offset = offsetof(struct references_settings, aggr), .arg = "D",
	  .def = "1s", .min = 1000000, .max = 3600000000000LL,
	  .help = "DAMON's aggregation interval: one references.csv row per "
	  "region each" },
	{ .name = NULL }
};

/* The references whose kdamond an exit must turn off. */
static struct references *references_live;

/* At exit (die() on some path): turn off our kdamond, in our process. */
static void
references_atexit(void)
{
	struct references *r = references_live;

	if (r != NULL && r->damon.configured && r->damon.owner == getpid())
		damon_stop(&r->damon, NULL);
}

/*
 * Check that DAMON can be ours: the admin tree, nobody else's kdamond
 * (our own leftover of a killed run is cleaned), paddr and tried_regions.
 * With --references on a failure is returned (exit 3); with auto it is
 * kept in r->unavailable and the run goes on without references.
 */
int
references_open(struct references *r, const struct references_settings *set,
    const char *sys_root, const char *proc_root, char **cause)
{
	const char *record;
	char *why = NULL;
	int rc;

	memset(r, 0, sizeof *r);
	r->set = *set;
	r->aggr_s = (double)set->aggr / 1e9;
	if (set->mode == REFERENCES_OFF)
		return (0);
	if (set->aggr < set->sample)
		return (fail_with(cause, RB_EXIT_INPUT, "--damon-aggr must be "
		    "at least --damon-sample"));
	/* A test hook: where the record of our kdamond lives. */
	if ((record = getenv("REGIONBENCH_DAMON_RECORD")) == NULL ||
	    *record == '\0')
		record = DAMON_RECORD_DEFAULT;
	r->record = xstrdup(record);
	if ((rc = damon_open(&r->damon, sys_root, proc_root, record,
	    &why)) == 0 && (rc = damon_claim(&r->damon, &why)) >= 0) {
		r->leftover = rc;
		if (rc == 1)
			log_warnx("references: turned off and removed the "
			    "kdamond a killed regionbench left on (record %s)",
			    record);
		pthread_mutex_init(&r->lock, NULL);
		pthread_cond_init(&r->cond, NULL);
		references_live = r;
		atexit(references_atexit);
		if ((rc = damon_setup(&r->damon, &why)) == 0) {
			r->active = 1;
			return (0);
		}
		damon_stop(&r->damon, NULL);
	}
	if (set->mode == REFERENCES_ON) {
		*cause = xasprintf("--references on: %s", why);
		free(why);
		return (rc);
	}
	log_warnx("--references auto: no references.csv: %s", why);
	r->unavailable = why;
	return (0);
}

/* Block the signals the main thread handles: they must not cut a write. */
static void
references_block_signals(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
}

/* Write one interval's rows, in the sampler's current phase. */
static void
references_rows(struct references *r, double t_s)
{
	const struct damon_region *g;
	struct sink_csv *sink;
	int i;

	sink = sampler_sink_lock(r->sampler);
	if (sink != NULL) {
		for (i = 0; i < r->map.nregions; i++) {
			g = &r->map.regions[i];
			sink_csv_references(sink, t_s, r->sampler->phase,
			    g->node, g->region, g->monitored, g->referenced,
			    g->has_idle ? (double)g->idle_age * r->aggr_s :
			    -1.0);
			r->rows++;
		}
	}
	sampler_sink_unlock(r->sampler);
}

/* Wait until the deadline (CLOCK_MONOTONIC ns) or a stop: 1 on stop. */
static int
references_wait(struct references *r, uint64_t deadline)
{
	struct timespec ts;
	uint64_t now, left;
	int stop;

	pthread_mutex_lock(&r->lock);
	while (!r->stop && (now = units_now_ns()) < deadline) {
		/* The condition variable waits on CLOCK_REALTIME. */
		clock_gettime(CLOCK_REALTIME, &ts);
		left = deadline - now;
		ts.tv_sec += (time_t)(left / 1000000000ULL);
		ts.tv_nsec += (long)(left % 1000000000ULL);
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&r->cond, &r->lock, &ts);
	}
	stop = r->stop;
	pthread_mutex_unlock(&r->lock);
	return (stop);
}

/*
 * The reader: once per aggregation interval, update and read the tried
 * regions, map them onto the regions and write the rows.  A failure ends
 * the thread with r->error; the session reports it.
 */
static void *
references_main(void *arg)
{
	struct references *r = arg;
	uint64_t next, aggr = r->set.aggr, t0;
	char *cause = NULL;

	references_block_signals();
	next = units_now_ns() + aggr;
	while (!references_wait(r, next)) {
		t0 = units_now_ns();
		if (damon_update(&r->damon, &cause) != 0) {
			pthread_mutex_lock(&r->lock);
			r->error = cause;
			pthread_mutex_unlock(&r->lock);
			break;
		}
		/* The cost of a read, for meta.json (and make perf). */
		if ((int)r->reads == r->read_cap) {
			r->read_cap = r->read_cap == 0 ? 64 : r->read_cap * 2;
			r->read_ms = xreallocarray(r->read_ms, r->read_cap,
			    sizeof *r->read_ms);
		}
		r->read_ms[r->reads] = (double)(units_now_ns() - t0) / 1e6;
		r->reads++;
		if (r->damon.ntried > 0) {
			damon_map_account(&r->map, r->damon.tried,
			    r->damon.ntried);
			references_rows(r, sampler_elapsed(r->sampler));
		}
		/*
		 * The kernel answers the update at its next aggregation
		 * boundary (6.12 too, not only >= 6.14): asking again a
		 * little before the following one gets one read per
		 * interval with a short wait, and a kernel that answers at
		 * once is still read about once per interval.
		 */
		next = units_now_ns() + aggr - aggr / 10;
	}
	return (NULL);
}

/*
 * Whether this runs under QEMU's TCG, whose software TLB can hide a busy
 * process from DAMON (docs/damon.md, blind spots): the hypervisor leaf
 * of CPUID names it.  Only x86 guests are recognised.
 */
static int
references_under_tcg(void)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned int a, b, c, d;
	char vendor[13];

	__cpuid(1, a, b, c, d);
	if ((c & (1U << 31)) == 0)
		return (0);	/* no hypervisor */
	__cpuid(0x40000000, a, b, c, d);
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &c, 4);
	memcpy(vendor + 8, &d, 4);
	vendor[12] = '\0';
	return (strcmp(vendor, "TCGTCGTCGTCG") == 0);
#else
	return (0);
#endif
}

/*
 * Turn the kdamond on over the regions of the first sample (the run's
 * region map) intersected with System RAM, and start the reader.
 */
int
references_start(struct references *r, struct sampler *s,
    const char *proc_root, char **cause)
{
	struct damon_range *ram;
	struct damon_attrs attrs;
	struct snapshot first;
	uint64_t page_size = (uint64_t)sysconf(_SC_PAGESIZE);
	int nram, rc, w;

	if (!r->active)
		return (0);
	r->sampler = s;
	if (!r->damon.configured && (rc = damon_setup(&r->damon,
	    cause)) != 0)
		return (rc);
	snapshot_init(&first);
	while ((w = sampler_wait_sample(s, 0, 100000000ULL, &first, NULL,
	    NULL)) == 0 && session_signal() == 0)
		;
	if (w != 1) {
		snapshot_free(&first);
		return (0);	/* stopped before the first sample */
	}
	if ((rc = damon_system_ram(proc_root, &ram, &nram, cause)) != 0) {
		snapshot_free(&first);
		return (rc);
	}
	damon_map_free(&r->map);
	damon_map_build(&r->map, &first, ram, nram, page_size);
	free(ram);
	snapshot_free(&first);
	if (r->map.nranges == 0)
		return (fail_with(cause, RB_EXIT_ENV, "DAMON: no System RAM "
		    "of %s/iomem lies in the regions (reading it needs "
		    "root)", proc_root));
	attrs.sample_us = r->set.sample / 1000;
	attrs.aggr_us = r->set.aggr / 1000;
	/* One DAMON region per range at least, room to split each. */
	attrs.min_regions = (uint64_t)r->map.nregions;
	if (attrs.min_regions < (uint64_t)r->map.nranges)
		attrs.min_regions = (uint64_t)r->map.nranges;
	if (attrs.min_regions < 3)
		attrs.min_regions = 3;	/* the kernel's least */
	/* Twice: each DAMON sample checks a page per region (the cost). */
	attrs.max_regions = attrs.min_regions * 2;
	if ((rc = damon_start(&r->damon, r->map.ranges, r->map.nranges,
	    &attrs, cause)) != 0)
		return (rc);
	r->pid = r->damon.pid;
	if (!r->tcg && (r->tcg = references_under_tcg()))
		log_warnx("references: a TCG guest: a process that keeps a "
		    "CPU to itself may read unreferenced (QEMU's software "
		    "TLB; docs/damon.md)");
	r->stop = 0;
	/* Each repetition of a run counts its own. */
	r->reads = r->rows = r->damon.empty_updates = 0;
	free(r->error);
	r->error = NULL;
	if ((rc = pthread_create(&r->thread, NULL, references_main, r)) != 0)
		return (fail_with(cause, RB_EXIT_ENV, "references: "
		    "pthread_create: %s", strerror(rc)));
	r->running = 1;
	return (0);
}

/*
 * Stop the reader and turn our kdamond off (state off, nr_kdamonds 0).
 * Returns the reader's failure, if any, or the stop's.
 */
int
references_stop(struct references *r, char **cause)
{
	char *why = NULL;
	int rc = 0;

	if (r->running) {
		pthread_mutex_lock(&r->lock);
		r->stop = 1;
		pthread_cond_broadcast(&r->cond);
		pthread_mutex_unlock(&r->lock);
		pthread_join(r->thread, NULL);
		r->running = 0;
	}
	if (r->damon.configured && (rc = damon_stop(&r->damon, &why)) != 0) {
		if (cause != NULL)
			*cause = why;
		else
			free(why);
	}
	if (r->error != NULL) {
		if (rc == 0 && cause != NULL) {
			*cause = xasprintf("references: %s", r->error);
			rc = -RB_EXIT_ENV;
		}
	}
	return (rc);
}

/* The median time of one update and read, in ms; < 0 when none. */
static double
references_read_median(const struct references *r)
{
	double *v, m;

	if (r->reads == 0)
		return (-1);
	/* gsl_stats_median sorts what it is given: a copy. */
	v = xreallocarray(NULL, r->reads, sizeof *v);
	memcpy(v, r->read_ms, r->reads * sizeof *v);
	m = gsl_stats_median(v, 1, r->reads);
	free(v);
	return (m);
}

/* The references' settings and findings, for meta.json. */
void
references_describe(const struct references *r, json_t *meta)
{
	json_t *o;

	if (r->set.mode == REFERENCES_OFF)
		return;
	o = json_object();
	json_object_set_new(o, "mode",
	    json_string(references_modes[r->set.mode]));
	json_object_set_new(o, "active", json_boolean(r->active));
	if (r->unavailable != NULL)
		json_object_set_new(o, "unavailable",
		    json_string(r->unavailable));
	json_object_set_new(o, "damon_sample_us",
	    json_integer((json_int_t)(r->set.sample / 1000)));
	json_object_set_new(o, "damon_aggr_us",
	    json_integer((json_int_t)(r->set.aggr / 1000)));
	if (r->active) {
		json_object_set_new(o, "operations", json_string("paddr"));
		json_object_set_new(o, "kdamond_pid",
		    r->pid > 0 ? json_integer(r->pid) : json_null());
		json_object_set_new(o, "record", json_string(r->record));
		json_object_set_new(o, "monitored_ranges",
		    json_integer(r->map.nranges));
		/* The reader's counts, once it has stopped. */
		if (!r->running) {
			json_object_set_new(o, "reads",
			    json_integer((json_int_t)r->reads));
			if (r->reads > 0)
				json_object_set_new(o, "read_ms_median",
				    json_real(references_read_median(r)));
			json_object_set_new(o, "empty_updates",
			    json_integer((json_int_t)r->damon.empty_updates));
		}
		json_object_set_new(o, "leftover_cleaned",
		    json_boolean(r->leftover));
		json_object_set_new(o, "tcg_guest", json_boolean(r->tcg));
		if (r->error != NULL)
			json_object_set_new(o, "error",
			    json_string(r->error));
	}
	json_object_set_new(meta, "references", o);
}

/* Release everything; the kdamond is turned off if still ours. */
void
references_close(struct references *r)
{
	if (r->set.mode == REFERENCES_OFF)
		return;
	references_stop(r, NULL);
	if (references_live == r)
		references_live = NULL;
	damon_map_free(&r->map);
	damon_close(&r->damon);
	free(r->error);
	free(r->unavailable);
	free(r->record);
	free(r->read_ms);
	r->read_ms = NULL;
	r->read_cap = 0;
	r->error = r->unavailable = r->record = NULL;
	r->active = 0;
}
