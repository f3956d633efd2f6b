/*
 * regionbench sample: record per-region occupancy of this machine (or of a
 * recorded /proc tree) over time, into a results directory and/or onto the
 * terminal.
 */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "command.h"
#include "log.h"
#include "region-table.h"
#include "recording.h"
#include "session.h"
#include "source-cli.h"

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
	int		 quiet;
};

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
	  .help = "keep the raw /proc text of every sample in DIR/0000, "
	  "DIR/0001, ..." },
	{ .name = "replay", .type = OPT_STRING,
	  .offset = offsetof(struct sample_settings, replay), .arg = "DIR",
	  .help = "read the samples of a --record directory instead of /proc" },
	{ .name = "out", .type = OPT_STRING,
	  .offset = offsetof(struct sample_settings, out), .arg = "DIR",
	  .help = "write the results directory DIR" },
	{ .name = "label", .type = OPT_STRING,
	  .offset = offsetof(struct sample_settings, label), .arg = "L",
	  .def = "",
	  .help = "label stored in meta.json (e.g. vanilla, patched)" },
	{ .name = "quiet", .type = OPT_FLAG,
	  .offset = offsetof(struct sample_settings, quiet),
	  .help = "print only the results path and errors" },
	{ .name = NULL }
};

/* Print one sample on the terminal (refreshing) or as plain lines. */
static void
sample_show(const struct snapshot *snap, double t_s, uint64_t seq, int tty,
    const char *source)
{
	if (tty)
		printf("\033[H\033[J");
	printf("# t=%.3fs sample %llu source %s%s\n", t_s,
	    (unsigned long long)seq, source, tty ? " (Ctrl-C stops)" : "");
	region_table_print(stdout, snap, REGION_TABLE_BAR);
	if (!tty)
		putchar('\n');
	fflush(stdout);
}

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
 * Watch the samples until the sampler ends or a signal comes: the table
 * when nothing is written, else a progress count on a terminal.  Leaves
 * the last sample in view and its time in *t_s.
 */
static void
sample_watch(struct session *ss, const struct sample_settings *set,
    int tty, struct snapshot *view, double *t_s)
{
	const char *source = ss->cfg.src->ops->name;
	uint64_t seq = 0;
	int w;

	while (session_signal() == 0) {
		w = sampler_wait_sample(&ss->sampler, seq, 100000000ULL, view,
		    t_s, &seq);
		if (w < 0)
			break;
		if (w > 0 && set->out == NULL && !set->quiet)
			sample_show(view, *t_s, seq, tty, source);
		else if (w > 0 && tty)
			fprintf(stderr, "\rsampling: %llu samples, %.1fs",
			    (unsigned long long)seq, *t_s);
	}
	if (tty && set->out != NULL)
		fputc('\n', stderr);
}

/* regionbench sample. */
static int
cmd_sample_exec(int argc, char **argv)
{
	extern const struct command_entry cmd_sample_entry;
	struct sample_settings set = { 0 };
	struct source_cli cli = { 0 };
	struct session_config sc = { 0 };
	struct sampler_config cfg;
	struct session ss;
	struct snapshot view;
	struct source src;
	json_t *system;
	char first[4096], *cause = NULL;
	double t_s = 0;
	int first_arg, rc, code, tty, limited;

	command_parse_source(&cmd_sample_entry, &set, &cli, argc, argv,
	    &first_arg);
	if (first_arg < argc)
		die(RB_EXIT_INPUT, "sample: unexpected argument '%s'",
		    argv[first_arg]);
	if (set.record != NULL && set.replay != NULL)
		die(RB_EXIT_INPUT, "sample: --record and --replay exclude "
		    "each other");
	log_set_quiet(set.quiet);
	tty = isatty(STDOUT_FILENO) && !set.quiet;
	limited = set.count > 0 || set.duration > 0 || set.replay != NULL;

	if (set.replay != NULL && (rc = recording_first(set.replay,
	    first, sizeof first, &cause)) != 0)
		die(-rc, "sample: %s", cause);
	source_cli_open(&cli, &src, set.replay != NULL ? first : NULL);
	if ((system = recording_system(set.replay, cli.proc,
	    &cause)) == NULL)
		die(RB_EXIT_INPUT, "%s", cause);

	if (set.record != NULL &&
	    (rc = recording_write_system(set.record, system, &cause)) != 0)
		die(-rc, "sample: %s", cause);
	sc.command = "sample";
	sc.dir = set.out;
	sc.label = set.label;
	sc.system = system;
	sc.src = &src;
	sc.interval_s = (double)set.interval / 1e9;
	sc.replay = set.replay;
	sc.end_phase = "sample";
	if ((rc = session_open(&ss, &sc, json_pack("[s]", "sample"),
	    &cause)) != 0)
		die(-rc, "sample: %s", cause);

	sample_sampler_config(&set, &cfg);
	session_catch_signals(0);
	if ((rc = session_start(&ss, &cfg, NULL, "sample", &cause)) != 0)
		die(-rc, "sample: %s", cause);
	snapshot_init(&view);
	sample_watch(&ss, &set, tty, &view, &t_s);
	code = session_finish(&ss, session_signal() != 0 && limited);
	if (set.out != NULL) {
		if (!set.quiet && view.nentries > 0) {
			printf("# last sample, t=%.3fs, source %s\n", t_s,
			    src.ops->name);
			region_table_print(stdout, &view, REGION_TABLE_BAR);
		}
		printf("%s%s\n", set.quiet ? "" : "results: ", set.out);
	}
	snapshot_free(&view);
	json_decref(system);
	source_close(&src);
	source_cli_free(&cli);
	opt_free(sample_options, &set);
	return (code);
}

const struct command_entry cmd_sample_entry = {
	.name = "sample",
	.usage = "[--out DIR] [--interval D] [--count N | --duration D] "
	    "[--record DIR | --replay DIR] [source options]",
	.summary = "record per-region occupancy over time",
	.description =
	    "Reads the region source every --interval and writes regions.csv,\n"
	    "samples.csv, buddy.csv, pagetype.csv, pageblocks.csv, events.csv\n"
	    "and meta.json into --out.  Without --out it shows a refreshing\n"
	    "table (plain lines when stdout is not a terminal).  Without\n"
	    "--count or --duration it runs until interrupted.",
	.options = sample_options,
	.source_options = source_cli_options,
	.exec = cmd_sample_exec,
};
