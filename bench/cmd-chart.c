/*
 * regionbench chart DIR: draw the charts of a results directory (region
 * heatmap, spread over time, placement, seed table, fragmentation) as PNG
 * and SVG, and with --compare the spread of several runs or groups
 * overlaid.  Everything is done by analyze/chart.c; this file is the
 * command line.
 */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "chart.h"
#include "command.h"
#include "compare.h"
#include "results.h"
#include "log.h"

struct chart_settings {
	char		*out;
	char		*format;
	struct opt_list	 compare;
	int		 group_by;	/* -1: not given */
};

static const struct opt_def chart_options[] = {
	{ .name = "out", .type = OPT_STRING,
	  .offset = offsetof(struct chart_settings, out), .arg = "DIR",
	  .help = "write the charts into DIR (default: DIR/charts of the "
	  "results directory)" },
	{ .name = "format", .type = OPT_STRING,
	  .offset = offsetof(struct chart_settings, format), .arg = "LIST",
	  .def = "png,svg", .help = "png, svg or png,svg" },
	{ .name = "compare", .type = OPT_LIST,
	  .offset = offsetof(struct chart_settings, compare), .arg = "DIR",
	  .help = "also draw compare.png: the spread of DIR's run against "
	  "this one (a directory of runs is a group with confidence bands); "
	  "repeatable" },
	{ .name = "group-by", .type = OPT_ENUM,
	  .offset = offsetof(struct chart_settings, group_by), .arg = "KEY",
	  .choices = compare_group_by_names,
	  .help = "with --compare: group the runs as compare does, by "
	  "argument directory (when not given), meta.json label or kernel "
	  "release" },
	{ .name = NULL }
};

static int
cmd_chart_exec(int argc, char **argv)
{
	struct chart_settings set = { .group_by = -1 };
	struct stat sb;
	unsigned formats;
	char *cause = NULL, *outdir, **paths, **runs = NULL;
	int first, rc, i, nruns = 0;

	command_parse(&cmd_chart_entry, &set, argc, argv, &first);
	if (argc - first != 1)
		command_usage_error(&cmd_chart_entry,
		    "expected one results directory");
	if ((rc = chart_parse_formats(set.format, &formats, &cause)) != 0)
		die(-rc, "chart: %s", cause);
	if (set.group_by >= 0 && set.compare.n == 0)
		die(RB_EXIT_INPUT, "chart: --group-by groups the runs of "
		    "--compare: give --compare DIR too");
	outdir = set.out != NULL ? xstrdup(set.out) :
	    xasprintf("%s/charts", argv[first]);
	/* DIR/charts is the run's: a link planted there is not followed. */
	if (set.out == NULL && lstat(outdir, &sb) == 0 && S_ISLNK(sb.st_mode))
		die(RB_EXIT_INPUT, "chart: %s: a symbolic link, not followed "
		    "in a results directory (--out names another place for "
		    "the charts)", outdir);
	if (set.compare.n == 0 && !results_is_run_dir(argv[first]) &&
	    compare_run_dirs(argv[first], &runs, &nruns, &cause) == 0) {
		for (i = 0; i < nruns; i++)
			free(runs[i]);
		free(runs);
		die(RB_EXIT_INPUT, "chart: %s is a group of %d run%s, not one "
		    "run: chart one of them, or the group with --compare",
		    argv[first], nruns, nruns == 1 ? "" : "s");
	}
	free(cause);
	cause = NULL;
	if (set.compare.n == 0 || results_is_run_dir(argv[first])) {
		/* NULL: DIR/charts, held open without following a link. */
		if ((rc = chart_all(argv[first], set.out, formats, stdout,
		    &cause)) != 0)
			die(-rc, "%s", cause);
	}
	if (set.compare.n > 0) {
		paths = xcalloc(set.compare.n + 1, sizeof *paths);
		paths[0] = argv[first];
		for (i = 0; i < set.compare.n; i++)
			paths[i + 1] = set.compare.v[i];
		rc = chart_compare(paths, set.compare.n + 1,
		    set.group_by < 0 ? COMPARE_BY_DIR :
		    (enum compare_group_by)set.group_by, outdir, formats,
		    stdout, &cause);
		free(paths);
		if (rc != 0)
			die(-rc, "%s", cause);
	}
	free(outdir);
	opt_free(chart_options, &set);
	chart_cleanup();
	return (RB_EXIT_OK);
}

const struct command_entry cmd_chart_entry = {
	.name = "chart",
	.usage = "DIR",
	.summary = "draw the charts of a results directory (PNG, SVG)",
	.description =
	    "Draws heatmap (region occupancy over time), spread (spread "
	    "index, active and empty regions, empty memory), placement (each "
	    "workload's share of pages per region at the checkpoints), seed "
	    "(free memory per region at the checkpoints) and fragmentation "
	    "(free memory by buddy order at the end of each phase); a chart "
	    "whose data is absent is skipped with a note.  With --compare, "
	    "compare.png overlays the spread of DIR and each compared run or "
	    "group (a directory of runs) with 95% confidence bands.  DIR may "
	    "itself be a group when --compare is given, and --group-by "
	    "label (or kernel) groups all the runs by their label (or "
	    "kernel) instead, as after `regionbench ab`.  Prints the files "
	    "written.",
	.options = chart_options,
	.exec = cmd_chart_exec,
};
