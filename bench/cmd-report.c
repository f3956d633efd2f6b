/*
 * regionbench report DIR...: write one self-contained HTML file with the
 * charts, the summary and comparison tables and the meta information of
 * runs or groups of runs (analyze/report.c does the work).
 */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "chart.h"
#include "compare.h"
#include "command.h"
#include "log.h"
#include "report.h"

struct report_settings {
	char		*out;
	int		 group_by;
};

static const struct opt_def report_options[] = {
	{ .name = "out", .type = OPT_STRING,
	  .offset = offsetof(struct report_settings, out), .arg = "FILE",
	  .help = "write the report to FILE (default: DIR/report.html for "
	  "one run, else report.html here)" },
	{ .name = "group-by", .type = OPT_ENUM,
	  .offset = offsetof(struct report_settings, group_by), .arg = "KEY",
	  .def = "dir", .choices = compare_group_by_names,
	  .help = "group runs by argument directory, meta.json label or "
	  "kernel release, as compare does" },
	{ .name = NULL }
};

static int
cmd_report_exec(int argc, char **argv)
{
	struct report_settings set = { 0 };
	char *cause = NULL, *out;
	int first, rc;

	command_parse(&cmd_report_entry, &set, argc, argv, &first);
	if (argc - first < 1)
		command_usage_error(&cmd_report_entry,
		    "expected at least one results directory");
	out = set.out != NULL ? xstrdup(set.out) :
	    report_default_path(argv + first, argc - first);
	if ((rc = report_write(argv + first, argc - first,
	    (enum compare_group_by)set.group_by, out, &cause)) != 0) {
		log_errorx("%s", cause);
		free(cause);
		free(out);
		opt_free(report_options, &set);
		return (-rc);
	}
	printf("%s\n", out);
	free(out);
	opt_free(report_options, &set);
	chart_cleanup();
	return (RB_EXIT_OK);
}

const struct command_entry cmd_report_entry = {
	.name = "report",
	.usage = "DIR...",
	.summary = "write one self-contained HTML report of runs",
	.description =
	    "Writes one HTML file holding the charts (as inline SVG), the "
	    "headline summary of every run, the meta information, relative "
	    "links to the CSV files and, for several runs or groups (a "
	    "directory of runs is a group, or the runs of one label or "
	    "kernel with --group-by), the spread compared and a "
	    "comparison table with means, 95% confidence intervals, changes "
	    "and Welch's p-values.  It needs no server or network.  Prints "
	    "the path written.",
	.options = report_options,
	.exec = cmd_report_exec,
};
