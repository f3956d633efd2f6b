/*
 * regionbench report DIR...: write one self-contained HTML file with the
 * charts, the summary and comparison tables and the meta information of
 * runs or groups of runs (analyze/report.c does the work).
 */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "compare.h"
#include "command.h"
#include "analysis-cli.h"
#include "log.h"
#include "report.h"

struct report_settings {
	char		*out;
	int		 group_by;
	struct analysis_cli an;
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
	struct report_settings set;
	struct report_options ro;
	char *cause = NULL, *out;
	int first, rc;

	memset(&set, 0, sizeof set);
	command_parse(&cmd_report_entry, &set, argc, argv, &first);
	if (argc - first < 1)
		command_usage_error(&cmd_report_entry,
		    "expected at least one results directory");
	out = set.out != NULL ? xstrdup(set.out) :
	    report_default_path(argv + first, argc - first);
	report_options_default(&ro, (enum compare_group_by)set.group_by);
	ro.unit = analysis_cli_unit(&set.an);
	ro.test = analysis_cli_test(&set.an);
	ro.empty_tolerance = set.an.empty_tolerance;
	if ((rc = report_write_with(argv + first, argc - first, &ro, out,
	    &cause)) != 0) {
		log_errorx("%s", cause);
		free(cause);
		free(out);
		opt_free(report_options, &set);
		opt_free(analysis_cli_report_options, &set.an);
		return (-rc);
	}
	printf("%s\n", out);
	free(out);
	opt_free(report_options, &set);
	opt_free(analysis_cli_report_options, &set.an);
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
	    "comparison table with the numbers compare prints for the same "
	    "runs: one value per boot (--unit run: per run), means, 95% "
	    "confidence intervals clamped to a count's possible range, "
	    "changes and p-values (--test), significant changes green when "
	    "better and red when worse.  It needs no server or network.  "
	    "Prints the path written.",
	.options = report_options,
	.shared_options = analysis_cli_report_options,
	.shared_offset = offsetof(struct report_settings, an),
	.exec = cmd_report_exec,
};
