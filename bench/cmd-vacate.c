/*
 * regionbench vacate: can an emulated region be emptied?  Offlines the
 * memory blocks of the regions named with --region (lib/vacate.c does the
 * work), reports how long each took, how many pages moved and why the
 * kernel refused, and onlines every block again.  It moves a live
 * system's memory, so it runs in a guest only, unless --force.
 */
#include "config.h"

#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic-file.h"
#include "command.h"
#include "region-cli.h"
#include "log.h"
#include "placement.h"
#include "region-map.h"
#include "vacate.h"

struct cmd_vacate_settings {
	struct opt_list	 region;
	int		 dry_run;
	uint64_t	 timeout;
	int		 format;
	char		*out;
	int		 force;
	int		 quiet;
	struct region_map_cli map;	/* --proc, --sys, --region-* */
};

static const char *const cmd_vacate_formats[] = {
	"table", "csv", "json", NULL
};

static const struct opt_def cmd_vacate_options[] = {
	{ .name = "region", .type = OPT_LIST,
	  .offset = offsetof(struct cmd_vacate_settings, region),
	  .arg = "N/R",
	  .help = "node N, region R of the region map (repeatable; regions "
	  "may also be given as operands)" },
	{ .name = "dry-run", .type = OPT_FLAG,
	  .offset = offsetof(struct cmd_vacate_settings, dry_run),
	  .help = "only report the blocks' states and valid zones" },
	{ .name = "timeout", .type = OPT_DURATION,
	  .offset = offsetof(struct cmd_vacate_settings, timeout),
	  .arg = "D", .def = "60s",
	  .help = "longest one block may take to offline (0: no limit)" },
	{ .name = "format", .type = OPT_ENUM,
	  .offset = offsetof(struct cmd_vacate_settings, format),
	  .arg = "FMT", .def = "table", .choices = cmd_vacate_formats,
	  .help = "stdout format: table, csv or json" },
	{ .name = "out", .type = OPT_STRING,
	  .offset = offsetof(struct cmd_vacate_settings, out), .arg = "FILE",
	  .help = "results file (JSON), rewritten at every block's step" },
	{ .name = "force", .type = OPT_FLAG,
	  .offset = offsetof(struct cmd_vacate_settings, force),
	  .help = "offline memory outside a guest too" },
	{ .name = "quiet", .type = OPT_FLAG,
	  .offset = offsetof(struct cmd_vacate_settings, quiet),
	  .help = "no progress lines on stderr" },
	{ .name = NULL }
};

/* SIGINT, SIGTERM, SIGHUP: stop offlining and put everything back. */
static volatile sig_atomic_t cmd_vacate_stop;

static void
cmd_vacate_on_signal(int sig)
{
	(void)sig;
	cmd_vacate_stop = 1;
}

/*
 * No SA_RESTART: a signal makes the kernel give up migrating (offline
 * returns EINTR), so the probe can online what it took and exit.
 */
static void
cmd_vacate_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = cmd_vacate_on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaction(sigs[i], &sa, NULL);
}

/* Write the results file whole (it says what is offline right now). */
static void
cmd_vacate_save(const struct vacate *v, const char *path)
{
	json_t *doc;
	char *text, *cause = NULL;

	if (path == NULL)
		return;
	doc = vacate_to_json(v);
	text = json_dumps(doc, JSON_INDENT(2) | JSON_REAL_PRECISION(6));
	json_decref(doc);
	if (text == NULL ||
	    atomic_file_write(path, text, strlen(text), &cause) != 0) {
		log_warnx("vacate: %s", cause != NULL ? cause :
		    "cannot write the results file");
		free(cause);
	}
	free(text);
}

struct cmd_vacate_ctx {
	const struct cmd_vacate_settings	*s;
};

/* Each step: a progress line, and the results file again. */
static void
cmd_vacate_progress(const struct vacate *v, const struct vacate_block *b,
    const char *what, void *arg)
{
	const struct cmd_vacate_ctx *ctx = arg;

	if (!ctx->s->quiet)
		fprintf(stderr, "vacate: memory%d: %s\n", b->id, what);
	cmd_vacate_save(v, ctx->s->out);
}

/* Print the results in the format asked for. */
static void
cmd_vacate_print(const struct cmd_vacate_settings *s, const struct vacate *v)
{
	json_t *doc;

	switch (s->format) {
	case 1:
		vacate_print_csv(stdout, v);
		break;
	case 2:
		doc = vacate_to_json(v);
		json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(6));
		fputc('\n', stdout);
		json_decref(doc);
		break;
	default:
		vacate_print_table(stdout, v);
		break;
	}
	fflush(stdout);
}

/* "regionbench vacate [--region] N/R ...". */
static int
cmd_vacate_exec(int argc, char **argv)
{
	extern const struct command_entry cmd_vacate_entry;
	struct cmd_vacate_settings s;
	struct cmd_vacate_ctx ctx;
	struct region_map map;
	struct vacate v;
	char *cause = NULL, why[512];
	int *nodes, *regions, first, i, rc, exit_code = RB_EXIT_OK;

	memset(&s, 0, sizeof s);
	command_parse(&cmd_vacate_entry, &s, argc, argv, &first);
	if (s.region.n == 0)
		command_usage_error(&cmd_vacate_entry,
		    "give at least one region N/R");
	nodes = xcalloc(s.region.n, sizeof *nodes);
	regions = xcalloc(s.region.n, sizeof *regions);
	for (i = 0; i < s.region.n; i++) {
		if (vacate_parse_region(s.region.v[i], &nodes[i], &regions[i],
		    &cause) != 0)
			die(RB_EXIT_INPUT, "vacate: %s", cause);
	}
	region_map_cli_build(&s.map, &map, "vacate");
	memset(&v, 0, sizeof v);
	v.proc_root = xstrdup(s.map.proc);
	if ((rc = vacate_init(&v, &map, nodes, regions, s.region.n,
	    &cause)) != 0)
		die(-rc, "vacate: %s", cause);
	v.dry_run = s.dry_run;
	v.timeout_ns = s.timeout;
	v.stop = &cmd_vacate_stop;
	ctx.s = &s;
	v.progress = cmd_vacate_progress;
	v.arg = &ctx;
	if (!s.dry_run) {
		if (!vacate_check_guest(s.map.sys, why, sizeof why) && !s.force)
			die(RB_EXIT_ENV, "vacate: refusing to offline memory "
			    "outside a guest: %s.  It moves a live system's "
			    "memory; run it in `regionbench vm`, or give "
			    "--force", why);
		if ((rc = vacate_check_offlinable(&v, &cause)) != 0)
			die(-rc, "vacate: %s", cause);
		cmd_vacate_signals();
	}
	cmd_vacate_save(&v, s.out);
	if ((rc = vacate_run(&v, &cause)) != 0) {
		log_errorx("vacate: %s", cause);
		free(cause);
		exit_code = -rc;
	}
	cmd_vacate_save(&v, s.out);
	cmd_vacate_print(&s, &v);
	for (i = 0; exit_code == RB_EXIT_OK && !s.dry_run && i < v.nregions;
	    i++) {
		if (!v.regions[i].emptied) {
			log_errorx("vacate: region %d/%d could not be emptied: "
			    "%s", v.regions[i].node, v.regions[i].region,
			    v.regions[i].reason);
			exit_code = RB_EXIT_ENV;
		}
	}
	vacate_free(&v);
	region_map_free(&map);
	free(nodes);
	free(regions);
	opt_free(cmd_vacate_options, &s);
	opt_free(region_map_cli_options, &s.map);
	return (exit_code);
}

const struct command_entry cmd_vacate_entry = {
	.name = "vacate",
	.usage = "N/R...",
	.operand_option = "region",	/* "vacate 0/3" is "--region 0/3" */
	.summary = "offline the memory blocks of a region to see if it can be "
	    "emptied",
	.description = "For each memory block of the emulated region N/R "
	    "(cut as the kpageflags source cuts them), records its state and "
	    "valid zones, offlines it through sysfs, measures how long that "
	    "took and how many pages moved (pgmigrate_success and "
	    "pgmigrate_fail of /proc/vmstat), and after the region onlines "
	    "every block again.  Says per region whether it could be "
	    "emptied, and if not why: the kernel's error and the unmovable "
	    "pages kpageflags shows in the block.  Never leaves a block "
	    "offline: on an error, a timeout, SIGINT or SIGTERM it onlines "
	    "what it offlined.  Runs as root in a guest only (regionbench "
	    "vm) unless --force; --dry-run only reports.  Exit 0 when every "
	    "region was emptied, 3 when one could not be or memory cannot "
	    "be offlined here, 130 when interrupted.",
	.options = cmd_vacate_options,
	.shared_options = region_map_cli_options,
	.shared_offset = offsetof(struct cmd_vacate_settings, map),
	.exec = cmd_vacate_exec,
};
