/*
 * regionbench placement: where the resident pages of running processes
 * are, per emulated region (lib/placement.c does the work; the runner uses
 * the same code for placement.csv).  Needs root, since only CAP_SYS_ADMIN
 * sees page frame numbers in /proc/PID/pagemap.
 */
#include "config.h"

#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic-file.h"
#include "command.h"
#include "region-cli.h"
#include "log.h"
#include "placement.h"
#include "procfile.h"
#include "region-map.h"
#include "sink-csv.h"
#include "units.h"

#define CMD_PLACEMENT_MIN_SHARE	0.01	/* a region "holds" >= 1 % */

struct cmd_placement_settings {
	struct opt_list	 pid;
	char		*out;
	int		 format;
	struct region_map_cli map;	/* --proc, --sys, --region-* */
};

static const char *const cmd_placement_formats[] = { "table", "csv", NULL };

static const struct opt_def cmd_placement_options[] = {
	{ .name = "pid", .type = OPT_LIST,
	  .offset = offsetof(struct cmd_placement_settings, pid), .arg = "PID",
	  .help = "process to look at (repeatable; PIDs may also be given "
	  "as operands)" },
	{ .name = "out", .type = OPT_STRING,
	  .offset = offsetof(struct cmd_placement_settings, out), .arg = "DIR",
	  .help = "write DIR/placement.csv" },
	{ .name = "format", .type = OPT_ENUM,
	  .offset = offsetof(struct cmd_placement_settings, format),
	  .arg = "FMT", .def = "table", .choices = cmd_placement_formats,
	  .help = "stdout format: table or csv" },
	{ .name = NULL }
};

/* The processes of --pid, checked to exist, as empty results. */
static struct placement_result *
cmd_placement_pids(const struct cmd_placement_settings *s)
{
	struct placement_result *res;
	char name[32], *cause = NULL;
	long pid;
	int i;

	res = xcalloc(s->pid.n, sizeof *res);
	for (i = 0; i < s->pid.n; i++) {
		if (units_parse_long(s->pid.v[i], 1, INT32_MAX, &pid,
		    &cause) != 0)
			die(RB_EXIT_INPUT, "placement: PID: %s", cause);
		snprintf(name, sizeof name, "%ld", pid);
		if (!procfile_exists(s->map.proc, name))
			die(RB_EXIT_INPUT, "placement: PID %ld: no such "
			    "process in %s", pid, s->map.proc);
		res[i].pid = (pid_t)pid;
	}
	return (res);
}

/*
 * Print the tables (unless only CSV goes to stdout) and placement.csv,
 * built whole, then printed or written into place.
 */
static void
cmd_placement_output(const struct cmd_placement_settings *s,
    const struct region_map *map, const struct placement_result *res)
{
	char *path, *cause = NULL, *text = NULL;
	size_t len = 0;
	FILE *csv;
	int i;

	if ((csv = open_memstream(&text, &len)) == NULL)
		die_errno(RB_EXIT_ENV, "placement: open_memstream");
	fprintf(csv, "%s\n", csv_schema_table(CSV_PLACEMENT)->header);
	for (i = 0; i < s->pid.n; i++) {
		if (!res[i].exited)
			placement_print_csv(csv, map, &res[i]);
		if (s->out != NULL || s->format != 1)
			placement_print_table(stdout, map, &res[i],
			    CMD_PLACEMENT_MIN_SHARE);
	}
	if (fclose(csv) != 0)
		die_errno(RB_EXIT_ENV, "placement: CSV text");
	if (s->out != NULL) {
		path = xasprintf("%s/%s", s->out,
		    csv_schema_table(CSV_PLACEMENT)->file);
		if (sink_make_dir(s->out, &cause) != 0 ||
		    atomic_file_write(path, text, len, &cause) != 0)
			die(RB_EXIT_ENV, "placement: %s", cause);
		printf("wrote %s\n", path);
		free(path);
	} else if (s->format == 1)
		fwrite(text, 1, len, stdout);
	free(text);
}

/* "regionbench placement [--pid] PID ...". */
static int
cmd_placement_exec(int argc, char **argv)
{
	struct cmd_placement_settings s;
	struct placement_result *res;
	struct region_map map;
	struct placement pl;
	char *cause = NULL;
	long pid;
	int i, first, rc;

	memset(&s, 0, sizeof s);
	command_parse(&cmd_placement_entry, &s, argc, argv, &first);
	if (s.pid.n == 0)
		command_usage_error(&cmd_placement_entry,
		    "give at least one PID");
	/* The map first: a bad one dies before the results exist. */
	region_map_cli_build(&s.map, &map, "placement");
	res = cmd_placement_pids(&s);
	placement_init(&pl, s.map.proc, &map);
	for (i = 0; i < s.pid.n; i++) {
		pid = res[i].pid;
		placement_result_init(&res[i], &map);
		if ((rc = placement_scan(&pl, (pid_t)pid, &res[i],
		    &cause)) != 0)
			die(-rc, "placement: pid %ld: %s", pid, cause);
		if (res[i].exited)
			log_warnx("placement: pid %ld exited during the scan; "
			    "its figures are incomplete and left out of CSV",
			    pid);
	}
	cmd_placement_output(&s, &map, res);
	for (i = 0; i < s.pid.n; i++)
		placement_result_free(&res[i]);
	free(res);
	placement_free(&pl);
	region_map_free(&map);
	opt_free(cmd_placement_options, &s);
	opt_free(region_map_cli_options, &s.map);
	return (RB_EXIT_OK);
}

const struct command_entry cmd_placement_entry = {
	.name = "placement",
	.usage = "PID...",
	.operand_option = "pid",	/* "placement 1234", as pmap is typed */
	.summary = "show where the resident pages of processes are, per "
	    "region",
	.description = "Reads /proc/PID/maps and /proc/PID/pagemap of each "
	    "process and counts its resident pages (huge pages as their 4 KiB "
	    "pages) per emulated region key, cut as the kpageflags source "
	    "cuts them.  Prints each key's pages and share and how many "
	    "regions hold at least 1% of the pages; with --out, writes "
	    "placement.csv.  Needs root: only CAP_SYS_ADMIN sees page frame "
	    "numbers.  A process that exits during the scan is reported, "
	    "not fatal.",
	.options = cmd_placement_options,
	.shared_options = region_map_cli_options,
	.shared_offset = offsetof(struct cmd_placement_settings, map),
	.exec = cmd_placement_exec,
};
