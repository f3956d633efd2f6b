/*
 * regionbench compare DIR...: groups of runs side by side with statistics,
 * printed like mmtests' compare-kernels (aligned columns, significant
 * changes between stars) or as CSV, JSON or markdown.  analyze/compare.c
 * does the statistics, analyze/compare-output.c the printing.
 */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis-cli.h"
#include "command.h"
#include "store.h"
#include "compare-output.h"
#include "log.h"
#include "output.h"
#include "term.h"

struct compare_settings {
	int		 group_by;
	char		*baseline;
	int		 format;
	double		 alpha;
	int		 all;
	struct analysis_cli an;
};

static const char *const format_choices[] = {
	"text", "csv", "json", "markdown", NULL
};

static const struct opt_def compare_options[] = {
	{ .name = "group-by", .type = OPT_ENUM,
	  .offset = offsetof(struct compare_settings, group_by), .arg = "KEY",
	  .def = "dir", .choices = compare_group_by_names,
	  .help = "group runs by argument directory, meta.json label or "
	  "kernel release" },
	{ .name = "baseline", .type = OPT_STRING,
	  .offset = offsetof(struct compare_settings, baseline), .arg = "GROUP",
	  .help = "group the others are compared against (default: the "
	  "first)" },
	{ .name = "format", .type = OPT_ENUM,
	  .offset = offsetof(struct compare_settings, format), .arg = "FORMAT",
	  .def = "text", .choices = format_choices, .help = "output format" },
	{ .name = "alpha", .type = OPT_DOUBLE,
	  .offset = offsetof(struct compare_settings, alpha), .arg = "P",
	  .def = "0.05", .dmin = 0, .dmax = 1, .dopen = 1,
	  .help = "significance level" },
	{ .name = "all", .type = OPT_FLAG,
	  .offset = offsetof(struct compare_settings, all),
	  .help = "every metric (and in text and markdown every statistic), "
	  "not only the headline means" },
	{ .name = NULL }
};

/* "regionbench compare DIR...". */
static int
cmd_compare_exec(int argc, char **argv)
{
	struct compare_settings st;
	struct compare_request req;
	char *cause = NULL;
	int first, rc;

	memset(&st, 0, sizeof st);
	command_parse(&cmd_compare_entry, &st, argc, argv, &first);
	output_escape_stdout();
	if (argc - first < 1)
		command_usage_error(&cmd_compare_entry,
		    "expected at least one results directory");
	memset(&req, 0, sizeof req);
	req.paths = argv + first;
	req.npaths = argc - first;
	req.group_by = st.group_by;
	req.baseline = st.baseline;
	req.format = st.format;
	req.test = analysis_cli_test(&st.an);
	req.alpha = st.alpha;
	req.all = st.all;
	req.force = st.an.force;
	req.unit = analysis_cli_unit(&st.an);
	req.empty_tolerance = st.an.empty_tolerance;
	req.db = st.an.db;
	req.width = term_fit_width(STDOUT_FILENO);
	if ((rc = compare_run(stdout, &req, &cause)) != 0)
		die(-rc, "%s", cause);
	opt_free(compare_options, &st);
	opt_free(analysis_cli_options, &st.an);
	if (fflush(stdout) != 0)
		die_errno(RB_EXIT_ENV, "stdout");
	return (RB_EXIT_OK);
}

const struct command_entry cmd_compare_entry = {
	.name = "compare",
	.usage = "DIR...",
	.summary = "compare groups of runs with statistics",
	.description = "Each DIR is a results directory or a directory of "
	    "them (as run --repeat makes), which counts as one group, or a "
	    "selection of stored runs such as db:kernel=6.1*,suite=quick,"
	    "last=5 (see regionbench store and --db).  Text "
	    "and markdown show a headline set of about 15 metrics a phase, "
	    "one row each: the mean (Hmean, the harmonic mean, for rates; "
	    "else Amean) of every group in the units analyze prints, the "
	    "change against the baseline group, between stars when Welch's "
	    "t-test (or Mann-Whitney U) finds it significant, and an arrow "
	    "saying which way is better.  --all shows every metric with n, "
	    "stddev, 95% confidence interval (Student t), min, max and the "
	    "p-value; CSV and JSON always carry everything.  Groups of one "
	    "run get means only.  Runs from different hosts, region or page "
	    "sizes need --force.",
	.options = compare_options,
	.shared_options = analysis_cli_options,
	.shared_offset = offsetof(struct compare_settings, an),
	.exec = cmd_compare_exec,
};
