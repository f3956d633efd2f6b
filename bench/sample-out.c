/*
 * The per-sample outputs of `sample` other than the results directory
 * (sample-out.h).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "region-table.h"
#include "sample-out.h"
#include "sink-csv.h"
#include "term.h"

/* Print one sample on the terminal (refreshing) or as plain lines. */
void
sample_show(const struct snapshot *snap, double t_s, uint64_t seq, int tty,
    const char *source)
{
	char title[256];
	int rows, width;

	if (tty) {
		width = term_size(STDOUT_FILENO, &rows);
		snprintf(title, sizeof title, "# t=%.3fs sample %llu source %s "
		    "(Ctrl-C stops)", t_s, (unsigned long long)seq, source);
		printf("\033[H\033[J");
		/* One line short: the cursor's line must not scroll. */
		region_table_print_fit(stdout, snap, REGION_TABLE_BAR,
		    width - 1, rows - 1, title);
	} else {
		printf("# t=%.3fs sample %llu source %s\n", t_s,
		    (unsigned long long)seq, source);
		region_table_print(stdout, snap, REGION_TABLE_BAR);
		putchar('\n');
	}
	fflush(stdout);
}

/* A JSON number for a count, null when unknown. */
static json_t *
sample_json_u64(uint64_t v)
{
	return (v == SNAP_UNKNOWN ? json_null() : json_integer((json_int_t)v));
}

/*
 * One sample as one line of JSON: its time, number, source and the
 * samples.csv columns of every region key (null where the CSV is empty).
 */
static int
sample_json(const struct snapshot *snap, double t_s, uint64_t seq,
    const char *source, char **cause)
{
	static const char *const classes[SNAP_USED_NCLASS] = {
		[SNAP_USED_ANON] = "anon_pages",
		[SNAP_USED_FILE] = "file_pages",
		[SNAP_USED_SLAB] = "slab_pages",
		[SNAP_USED_PGTABLE] = "pgtable_pages",
		[SNAP_USED_OTHER] = "other_pages",
	};
	const struct snap_entry *e;
	json_t *obj, *regions, *r;
	char *text;
	int i, c, rc = 0;

	regions = json_array();
	for (i = 0; i < snap->nentries; i++) {
		e = &snap->entries[i];
		r = json_pack("{s:i, s:i, s:s, s:o, s:o, s:o}", "node", e->node,
		    "region", e->region, "zone", e->zone, "present_pages",
		    sample_json_u64(e->present), "free_pages",
		    sample_json_u64(e->free_pages), "managed_pages",
		    sample_json_u64(e->managed));
		for (c = 0; c < SNAP_USED_NCLASS; c++)
			json_object_set_new(r, classes[c], e->has_used ?
			    sample_json_u64(e->used[c]) : json_null());
		json_object_set_new(r, "uninit_pages", e->has_used ?
		    sample_json_u64(e->uninit) : json_null());
		json_object_set_new(r, "free_pages_lo", e->free_interval ?
		    sample_json_u64(e->free_lo) : json_null());
		json_object_set_new(r, "free_pages_hi", e->free_interval ?
		    sample_json_u64(e->free_hi) : json_null());
		json_array_append_new(regions, r);
	}
	obj = json_pack("{s:f, s:I, s:s, s:s, s:o}", "t_s", t_s, "sample",
	    (json_int_t)seq, "phase", "sample", "source", source, "regions",
	    regions);
	text = json_dumps(obj, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(obj);
	if (text == NULL)
		return (fail_with(cause, RB_EXIT_ENV, "stdout: out of memory"));
	if (printf("%s\n", text) < 0 || fflush(stdout) != 0)
		rc = fail_with(cause, RB_EXIT_ENV, "stdout: %s",
		    strerror(errno));
	free(text);
	return (rc);
}

/* One sample on stdout in the chosen format; -1 when stdout is gone. */
int
sample_emit(const struct snapshot *snap, double t_s, uint64_t seq,
    int format, int tty, const char *source)
{
	char *cause = NULL;
	int rc = 0;

	switch (format) {
	case SAMPLE_CSV:
		rc = sink_csv_write_samples(STDOUT_FILENO, snap, t_s, "sample",
		    seq == 1, &cause);
		break;
	case SAMPLE_JSON:
		rc = sample_json(snap, t_s, seq, source, &cause);
		break;
	default:
		sample_show(snap, t_s, seq, tty, source);
		break;
	}
	if (rc != 0) {
		if (errno != EPIPE)
			log_errorx("sample: %s", cause);
		free(cause);
		return (-1);
	}
	return (0);
}


/*
 * Every sample, from the sampler's thread: piped output must not skip
 * one, as a reader of the latest sample would when a sample is slow.
 */
void
sample_pipe_each(const struct snapshot *snap, double t_s, uint64_t seq,
    void *arg)
{
	struct sample_pipe *sp = arg;

	if (!sp->gone && sample_emit(snap, t_s, seq, sp->format, 0,
	    sp->source) != 0)
		__atomic_store_n(&sp->gone, 1, __ATOMIC_RELEASE);
}


/* Every sample, from the sampler's thread. */
void
sample_live_each(const struct snapshot *snap, double t_s, uint64_t seq,
    void *arg)
{
	struct sample_live *sl = arg;
	struct sink_openmetrics_health health;
	char *cause = NULL;

	if (sl->pipe != NULL)
		sample_pipe_each(snap, t_s, seq, sl->pipe);
	if (!sl->has_om)
		return;
	health.duration_s = (double)sl->sampler->take_ns / 1e9;
	health.overruns = sl->sampler->overruns;
	health.samples = seq;
	sink_openmetrics_render(&sl->om, snap, &health);
	if (sink_openmetrics_write(&sl->om, &cause) != 0) {
		/*
		 * Say it once, on stderr and in events.csv, so the results
		 * say the page stopped being updated; the exit status says
		 * it again.
		 */
		if (!sl->om_failed) {
			log_errorx("sample: %s", cause);
			sampler_event(sl->sampler, "warning", cause);
		}
		free(cause);
		__atomic_store_n(&sl->om_failed, 1, __ATOMIC_RELEASE);
	}
	if (sl->has_http)
		http_metrics_publish(&sl->http, &sl->om.buf, &sl->om.len,
		    &sl->om.cap);
}

/*
 * Check the Prometheus options and start what they ask for, before the
 * results directory exists: a bad file name or address exits 2, a port
 * in use 3, and neither leaves anything behind.
 */
void
sample_live_open(struct sample_live *sl, const struct sample_live_options *set,
    const char *source, json_t *system)
{
	json_int_t page_size;
	char *cause = NULL;
	int rc;

	memset(sl, 0, sizeof *sl);
	if (set->listen_any && set->listen == NULL)
		die(RB_EXIT_INPUT, "sample: --listen-any needs --listen");
	if (set->openmetrics == NULL && set->listen == NULL)
		return;
	page_size = json_integer_value(json_object_get(system, "page_size"));
	if (page_size <= 0)
		page_size = sysconf(_SC_PAGESIZE);
	if ((rc = sink_openmetrics_open(&sl->om, set->openmetrics, source,
	    (uint64_t)page_size, &cause)) != 0)
		die(-rc, "sample: --openmetrics %s", cause);
	sl->has_om = 1;
	if (set->listen == NULL)
		return;
	if ((rc = http_metrics_start(&sl->http, set->listen, set->listen_any,
	    &cause)) != 0)
		die(-rc, "sample: %s", cause);
	sl->has_http = 1;
	if (!set->quiet)
		fprintf(stderr, "metrics: %s\n", sl->http.url);
}

/* Stop serving and free the sink; the .prom file keeps the last page. */
void
sample_live_close(struct sample_live *sl)
{
	if (sl->has_http)
		http_metrics_stop(&sl->http);
	if (sl->has_om)
		sink_openmetrics_close(&sl->om);
}

