/*
 * regionbench sample: record per-region occupancy of this machine (or of a
 * recorded /proc tree) over time, into a results directory and/or onto the
 * terminal.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomic-file.h"
#include "command.h"
#include "log.h"
#include "meta.h"
#include "region-table.h"
#include "sampler.h"
#include "sink-csv.h"
#include "source-cli.h"
#include "units.h"

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

static volatile sig_atomic_t sample_signal;

/* Remember which signal asked us to stop. */
static void
sample_on_signal(int sig)
{
	sample_signal = sig;
}

/* Catch SIGINT and SIGTERM so the run ends with whole files. */
static void
sample_catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = sample_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* The system part of meta.json: live, or what a recording kept. */
static json_t *
sample_system(const struct sample_settings *set, const char *proc_root)
{
	char path[4096];
	json_error_t err;
	json_t *sys;

	if (set->replay != NULL) {
		snprintf(path, sizeof path, "%s/system.json", set->replay);
		if (access(path, F_OK) == 0) {
			if ((sys = json_load_file(path, 0, &err)) == NULL ||
			    !json_is_object(sys))
				die(RB_EXIT_INPUT, "%s:%d: %s", path, err.line,
				    sys == NULL ? err.text :
				    "expected a JSON object");
			return (sys);
		}
	}
	return (meta_system(proc_root));
}

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

/* regionbench sample. */
static int
cmd_sample_exec(int argc, char **argv)
{
	extern const struct command_entry cmd_sample_entry;
	struct sample_settings set = { 0 };
	struct source_cli cli = { 0 };
	struct sampler_config cfg;
	struct sampler sampler;
	struct sink_csv sink, *sinkp = NULL;
	struct snapshot view;
	struct source src;
	json_t *meta = NULL, *system;
	char first[4096], *cause = NULL;
	const char *status;
	uint64_t seq = 0;
	double t_s = 0;
	int first_arg, rc, exit_code = RB_EXIT_OK, tty, limited, w;
	int outfd = -1;

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

	if (set.replay != NULL) {
		snprintf(first, sizeof first, "%s/0000", set.replay);
		if (access(first, F_OK) == -1)
			die(RB_EXIT_INPUT, "sample: %s: no recorded samples "
			    "(expected %s)", set.replay, first);
	}
	source_cli_open(&cli, &src, set.replay != NULL ? first : NULL);
	system = sample_system(&set, cli.proc);

	if (set.out != NULL) {
		if ((rc = sink_csv_open(&sink, set.out, &cause)) != 0)
			die(-rc, "sample: %s", cause);
		/* meta.json goes where the CSVs go, even after they close. */
		if ((outfd = fcntl(sink.dirfd, F_DUPFD_CLOEXEC, 0)) == -1)
			die_errno(RB_EXIT_ENV, "sample: %s", set.out);
		sinkp = &sink;
		meta = meta_new("sample", set.label, system);
		meta_set_source(meta, &src);
		json_object_set_new(meta, "interval_s",
		    json_real((double)set.interval / 1e9));
		json_object_set_new(meta, "phases", json_pack("[s]",
		    "sample"));
		if (set.replay != NULL)
			json_object_set_new(meta, "replay_of",
			    json_string(set.replay));
		if ((rc = meta_writeat(meta, outfd, sink.dir, &cause)) != 0)
			die(-rc, "sample: %s", cause);
	}
	if (set.record != NULL) {
		char *text;

		if (sink_make_dir(set.record, &cause) != 0)
			die(RB_EXIT_INPUT, "sample: --record: %s", cause);
		text = json_dumps(system, JSON_INDENT(1));
		snprintf(first, sizeof first, "%s/system.json", set.record);
		if (text == NULL || (rc = atomic_file_write(first, text,
		    strlen(text), &cause)) != 0)
			die(RB_EXIT_ENV, "sample: %s", cause != NULL ? cause :
			    first);
		free(text);
	}

	memset(&cfg, 0, sizeof cfg);
	cfg.interval_ns = set.interval;
	cfg.count = set.count;
	cfg.duration_ns = set.duration;
	cfg.buddy_every = (int)set.buddy_every;
	cfg.pagetype_every = (int)set.pagetype_every;
	cfg.cpu = -1;
	cfg.record_dir = set.record;
	cfg.replay_dir = set.replay;

	sample_catch_signals();
	if ((rc = sampler_start(&sampler, &cfg, &src, sinkp, NULL,
	    units_now_ns(), "sample", &cause)) != 0) {
		if (meta != NULL) {
			meta_set_status(meta, "failed");
			meta_writeat(meta, outfd, sink.dir, NULL);
			sink_csv_close(&sink, NULL);
		}
		die(-rc, "sample: %s", cause);
	}

	snapshot_init(&view);
	while (sample_signal == 0) {
		w = sampler_wait_sample(&sampler, seq, 100000000ULL, &view,
		    &t_s, &seq);
		if (w < 0)
			break;
		if (w > 0 && set.out == NULL && !set.quiet)
			sample_show(&view, t_s, seq, tty, src.ops->name);
		else if (w > 0 && tty)
			fprintf(stderr, "\rsampling: %llu samples, %.1fs",
			    (unsigned long long)seq, t_s);
	}
	if (tty && set.out != NULL)
		fputc('\n', stderr);

	rc = sampler_stop(&sampler, &cause);
	if (rc != 0) {
		log_errorx("sample: %s", cause);
		free(cause);
		cause = NULL;
		exit_code = -rc;
		status = "failed";
	} else if (sample_signal != 0 && limited) {
		exit_code = RB_EXIT_INTR;
		status = "interrupted";
	} else {
		status = "complete";
	}
	if (sinkp != NULL) {
		sink_csv_event(&sink, sampler_elapsed(&sampler), "stop",
		    status, "sample", NULL);
		if (sink_csv_close(&sink, &cause) != 0) {
			log_errorx("sample: %s", cause);
			free(cause);
			cause = NULL;
			status = "failed";
			exit_code = RB_EXIT_ENV;
		}
		json_object_set_new(meta, "samples",
		    json_integer((json_int_t)sampler.seq));
		json_object_set_new(meta, "sampler_overruns",
		    json_integer((json_int_t)sampler.overruns));
		if (sampler.pageblock_order >= 0)
			json_object_set_new(meta, "pageblock_order",
			    json_integer(sampler.pageblock_order));
		/* Again at the end: sources report what they found. */
		meta_set_source(meta, &src);
		meta_set_status(meta, status);
		if (meta_writeat(meta, outfd, set.out, &cause) != 0) {
			log_errorx("sample: %s", cause);
			free(cause);
			cause = NULL;
			exit_code = RB_EXIT_ENV;
		}
		if (!set.quiet && view.nentries > 0) {
			printf("# last sample, t=%.3fs, source %s\n", t_s,
			    src.ops->name);
			region_table_print(stdout, &view, REGION_TABLE_BAR);
		}
		printf("%s%s\n", set.quiet ? "" : "results: ", set.out);
		json_decref(meta);
		close(outfd);
	}
	snapshot_free(&view);
	json_decref(system);
	source_close(&src);
	source_cli_free(&cli);
	opt_free(sample_options, &set);
	return (exit_code);
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
