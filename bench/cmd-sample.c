/*
 * regionbench sample: record per-region occupancy of this machine (or of a
 * recorded /proc tree) over time, into a results directory and/or onto the
 * terminal.
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "command.h"
#include "log.h"
#include "recording.h"
#include "region-table.h"
#include "sample-out.h"
#include "session.h"
#include "sink-csv.h"
#include "source-cli.h"
#include "term.h"

struct sample_settings {
	uint64_t	 interval;
	uint64_t	 count;
	uint64_t	 duration;
	uint64_t	 buddy_every;
	uint64_t	 pagetype_every;
	char		*record;
	char		*replay;
	char		*out;
	char		*label;
	char		*openmetrics;
	char		*listen;
	int		 listen_any;
	int		 format;	/* sample_format; -1: by stdout */
	int		 quiet;
	struct references_settings refs; /* --references, shared table */
};

static const char *const sample_formats[] = { "text", "csv", "json", NULL };

static const struct opt_def sample_options[] = {
	{ .name = "interval", .type = OPT_DURATION,
	  .offset = offsetof(struct sample_settings, interval), .arg = "D",
	  .def = "1s", .min = 1000000, .max = 86400000000000LL,
	  .help = "time between samples (e.g. 100ms, 1s)" },
	{ .name = "count", .type = OPT_U64,
	  .offset = offsetof(struct sample_settings, count), .arg = "N",
	  .min = 1, .max = 100000000, .help = "stop after N samples" },
	{ .name = "duration", .type = OPT_DURATION,
	  .offset = offsetof(struct sample_settings, duration), .arg = "D",
	  .min = 1000000, .max = 31536000000000000LL,
	  .help = "stop after D (e.g. 10s, 5m)" },
	{ .name = "buddy-every", .type = OPT_U64,
	  .offset = offsetof(struct sample_settings, buddy_every), .arg = "N",
	  .def = "1", .min = 1, .max = 1000000,
	  .help = "write buddy.csv rows every N samples" },
	{ .name = "pagetype-every", .type = OPT_U64,
	  .offset = offsetof(struct sample_settings, pagetype_every),
	  .arg = "N", .def = "10", .min = 1, .max = 1000000,
	  .help = "read /proc/pagetypeinfo every N samples (it takes the "
	  "zone lock)" },
	{ .name = "record", .type = OPT_STRING,
	  .offset = offsetof(struct sample_settings, record), .arg = "DIR",
	  .help = "keep the raw /proc text and the source's figures of "
	  "every sample in DIR/0000, DIR/0001, ..." },
	{ .name = "replay", .type = OPT_STRING,
	  .offset = offsetof(struct sample_settings, replay), .arg = "DIR",
	  .help = "read the samples of a --record directory instead of /proc "
	  "(--source auto: the recorded source's figures)" },
	{ .name = "out", .type = OPT_STRING,
	  .offset = offsetof(struct sample_settings, out), .arg = "DIR",
	  .help = "write the results directory DIR" },
	{ .name = "label", .type = OPT_STRING,
	  .offset = offsetof(struct sample_settings, label), .arg = "L",
	  .def = "",
	  .help = "label stored in meta.json (e.g. vanilla, patched)" },
	{ .name = "format", .type = OPT_ENUM,
	  .offset = offsetof(struct sample_settings, format), .arg = "F",
	  .choices = sample_formats,
	  .help = "what stdout gets per sample: the table (text), samples.csv "
	  "rows (csv) or a JSON object per line (json); default: text on a "
	  "terminal, csv otherwise" },
	{ .name = "openmetrics", .type = OPT_STRING,
	  .offset = offsetof(struct sample_settings, openmetrics),
	  .arg = "FILE",
	  .help = "replace FILE (ending in .prom) after each sample with "
	  "the region metrics in Prometheus text format, for node_exporter's "
	  "textfile collector" },
	{ .name = "listen", .type = OPT_STRING,
	  .offset = offsetof(struct sample_settings, listen),
	  .arg = "ADDR:PORT",
	  .help = "serve the same metrics on http://ADDR:PORT/metrics "
	  "(loopback only unless --listen-any; port 0 picks a free one)" },
	{ .name = "listen-any", .type = OPT_FLAG,
	  .offset = offsetof(struct sample_settings, listen_any),
	  .help = "let --listen use an address beyond loopback (anyone who "
	  "can connect sees this machine's memory layout)" },
	{ .name = "quiet", .type = OPT_FLAG,
	  .offset = offsetof(struct sample_settings, quiet),
	  .help = "print only the results path and errors" },
	{ .name = NULL }
};

/* The sampler's settings from the options. */
static void
sample_sampler_config(const struct sample_settings *set,
    struct sampler_config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->interval_ns = set->interval;
	cfg->count = set->count;
	cfg->duration_ns = set->duration;
	cfg->buddy_every = (int)set->buddy_every;
	cfg->pagetype_every = (int)set->pagetype_every;
	cfg->cpu = -1;
	cfg->record_dir = set->record;
	cfg->replay_dir = set->replay;
}

/*
 * Watch the samples until the sampler ends, a signal comes or stdout
 * closes: the table of the latest sample when asked (piped formats are
 * written by sample_pipe_each), else a progress count on a terminal.
 * Leaves the last sample in view and its time in *t_s.
 */
static void
sample_watch(struct session *ss, int format, int tty,
    const struct sample_pipe *sp, struct snapshot *view, double *t_s)
{
	const char *source = ss->cfg.src->ops->name;
	uint64_t seq = 0;
	int w;

	while (session_signal() == 0 &&
	    !__atomic_load_n(&sp->gone, __ATOMIC_ACQUIRE)) {
		w = sampler_wait_sample(&ss->sampler, seq, 100000000ULL, view,
		    t_s, &seq);
		if (w < 0)
			break;
		if (w > 0 && format > SAMPLE_TEXT)
			continue;
		if (w > 0 && format >= 0) {
			if (sample_emit(view, *t_s, seq, format, tty,
			    source) != 0)
				break;
		} else if (w > 0 && tty)
			fprintf(stderr, "\rsampling: %llu samples, %.1fs",
			    (unsigned long long)seq, *t_s);
	}
	if (tty && format < 0)
		fputc('\n', stderr);
}

/*
 * What is printed per sample on stdout: the format asked for, else
 * without --out and --quiet the table on a terminal and CSV rows into a
 * pipe or a file (not with --openmetrics or --listen); -1 for nothing.
 */
static int
sample_output_format(const struct sample_settings *set)
{
	int format = set->format, tty = isatty(STDOUT_FILENO);
	int metrics = set->openmetrics != NULL || set->listen != NULL;

	/* Metrics are the output: a pipe gets rows only when asked. */
	if (format < 0 && set->out == NULL && !set->quiet &&
	    (tty || !metrics))
		format = tty ? SAMPLE_TEXT : SAMPLE_CSV;
	if (format == SAMPLE_TEXT && set->quiet)
		format = -1;
	return (format);
}

/* After sampling into --out: the last sample's table and where it went. */
static void
sample_print_end(const struct sample_settings *set, int format,
    const struct snapshot *view, double t_s, const char *source)
{
	if (set->out == NULL)
		return;
	if (format > SAMPLE_TEXT) {
		fprintf(stderr, "%s%s\n", set->quiet ? "" : "results: ",
		    set->out);
		return;
	}
	if (!set->quiet && view->nentries > 0) {
		printf("# last sample, t=%.3fs, source %s\n", t_s, source);
		region_table_print(stdout, view, REGION_TABLE_BAR);
	}
	printf("%s%s\n", set->quiet ? "" : "results: ", set->out);
}

/* Open the results session (the directory, if any, and meta.json). */
static void
sample_session_open(struct session *ss, const struct sample_settings *set,
    json_t *system, struct source *src, struct references *refs,
    const char *proc_root)
{
	struct session_config sc = { 0 };
	char *cause = NULL;
	int rc;

	sc.command = "sample";
	sc.dir = set->out;
	sc.label = set->label;
	sc.system = system;
	sc.src = src;
	sc.interval_s = (double)set->interval / 1e9;
	sc.replay = set->replay;
	if (set->replay != NULL)
		sc.replay_samples = recording_end(set->replay,
		    &sc.replay_end_t_s);
	sc.end_phase = "sample";
	sc.refs = refs;
	sc.proc_root = proc_root;
	if ((rc = session_open(ss, &sc, json_pack("[s]", "sample"),
	    &cause)) != 0)
		die(-rc, "sample: %s", cause);
}

/* regionbench sample. */
static int
cmd_sample_exec(int argc, char **argv)
{
	extern const struct command_entry cmd_sample_entry;
	struct sample_settings set = { 0 };
	struct source_cli cli = { 0 };
	struct sampler_config cfg;
	struct sample_pipe pipe_out = { 0 };
	struct sample_live live;
	struct sample_live_options live_opts;
	struct session ss;
	struct references refs;
	struct snapshot view;
	struct source src;
	json_t *system;
	char *cause = NULL, *counting;
	double t_s = 0;
	int first_arg, rc, code, tty, limited, format;

	set.format = -1;
	command_parse_source(&cmd_sample_entry, &set, &cli, argc, argv,
	    &first_arg);
	if (first_arg < argc)
		die(RB_EXIT_INPUT, "sample: unexpected argument '%s'",
		    argv[first_arg]);
	if (set.record != NULL && set.replay != NULL)
		die(RB_EXIT_INPUT, "sample: --record and --replay exclude "
		    "each other");
	if (set.refs.mode != REFERENCES_OFF && set.replay != NULL)
		die(RB_EXIT_INPUT, "sample: --references reads this "
		    "machine's DAMON: not with --replay");
	log_set_quiet(set.quiet);
	tty = isatty(STDOUT_FILENO) && !set.quiet;
	format = sample_output_format(&set);
	if (format == SAMPLE_TEXT && tty)
		term_watch_resize();
	limited = set.count > 0 || set.duration > 0 || set.replay != NULL;

	if (set.replay != NULL)
		rc = recording_open_source(set.replay, &cli, &src, "sample",
		    &cause);
	else {
		cli.interval_s = (double)set.interval / 1e9;
		rc = source_cli_open(&cli, &src, NULL, &cause);
	}
	if (rc != 0)
		die(-rc, "%s", cause);
	/*
	 * How exact the counts are, or why regions are whole zones; not
	 * beside rows piped to another program.
	 */
	if (!set.quiet && set.replay == NULL && format <= SAMPLE_TEXT &&
	    (counting = source_counting(&src)) != NULL) {
		log_infox("%s", counting);
		free(counting);
	}
	if ((system = recording_system(set.replay, cli.proc,
	    &cause)) == NULL)
		die(RB_EXIT_INPUT, "%s", cause);

	live_opts.openmetrics = set.openmetrics;
	live_opts.listen = set.listen;
	live_opts.listen_any = set.listen_any;
	live_opts.quiet = set.quiet;
	sample_live_open(&live, &live_opts, src.ops->name, system);
	if (set.record != NULL &&
	    ((rc = recording_write_system(set.record, system, &cause)) != 0 ||
	    (rc = recording_write_source(set.record, &src, 0, 0,
	    &cause)) != 0))
		die(-rc, "sample: %s", cause);
	if ((rc = references_open(&refs, &set.refs, cli.sys, cli.proc,
	    &cause)) != 0)
		die(-rc, "sample: %s", cause);
	sample_session_open(&ss, &set, system, &src, &refs, cli.proc);

	sample_sampler_config(&set, &cfg);
	pipe_out.format = format;
	pipe_out.source = src.ops->name;
	live.pipe = format > SAMPLE_TEXT ? &pipe_out : NULL;
	live.sampler = &ss.sampler;
	if (live.pipe != NULL || live.has_om) {
		cfg.each = sample_live_each;
		cfg.each_arg = &live;
	}
	session_catch_signals(format > SAMPLE_TEXT ? SESSION_NO_SIGPIPE : 0);
	if ((rc = session_start(&ss, &cfg, NULL, "sample", &cause)) != 0)
		die(-rc, "sample: %s", cause);
	snapshot_init(&view);
	sample_watch(&ss, format, tty, &pipe_out, &view, &t_s);
	code = session_finish(&ss, session_signal() != 0 && limited);
	/* What the source found while sampling (accuracy), for replays. */
	if (set.record != NULL && recording_write_source(set.record, &src,
	    ss.sampler.seq, ss.stop_t_s, &cause) != 0) {
		log_errorx("sample: %s", cause);
		free(cause);
		cause = NULL;
		if (code == RB_EXIT_OK)
			code = RB_EXIT_ENV;
	}
	if (code == RB_EXIT_OK &&
	    __atomic_load_n(&live.om_failed, __ATOMIC_ACQUIRE))
		code = RB_EXIT_ENV;
	references_close(&refs);
	sample_live_close(&live);
	sample_print_end(&set, format, &view, t_s, src.ops->name);
	snapshot_free(&view);
	json_decref(system);
	source_close(&src);
	source_cli_free(&cli);
	opt_free(sample_options, &set);
	return (code);
}

const struct command_entry cmd_sample_entry = {
	.name = "sample",
	.usage = "",
	.summary = "record per-region occupancy over time",
	.description =
	    "Reads the region source every --interval and writes regions.csv,\n"
	    "samples.csv, buddy.csv, pagetype.csv, pageblocks.csv, events.csv\n"
	    "and meta.json into --out (the kpageflags source leaves out\n"
	    "pagetype.csv and pageblocks.csv; meta.json's files_omitted says\n"
	    "why).  Without --out it shows each sample on\n"
	    "stdout: a refreshing table that fits the terminal, or, when\n"
	    "stdout is not a terminal, samples.csv rows (--format csv, the\n"
	    "default there) or one JSON object per line (--format json).\n"
	    "--openmetrics replaces a .prom file for node_exporter's textfile\n"
	    "collector after each sample and --listen serves the same page on\n"
	    "/metrics for Prometheus to scrape (docs/fleet.md).\n"
	    "Without --count or --duration it runs until interrupted.",
	.options = sample_options,
	.source_options = source_cli_options,
	.shared_options = references_options,
	.shared_offset = offsetof(struct sample_settings, refs),
	.exec = cmd_sample_exec,
};
