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

#include "command.h"
#include "store.h"
#include "compare-output.h"
#include "log.h"
#include "output.h"
#include "term.h"

enum { FMT_TEXT, FMT_CSV, FMT_JSON, FMT_MARKDOWN };

struct compare_settings {
	char		*db;
	int		 group_by;
	char		*baseline;
	int		 format;
	int		 test;
	double		 alpha;
	int		 force;
	int		 all;
	int		 unit;
	uint64_t	 empty_tolerance;
};

static const char *const format_choices[] = {
	"text", "csv", "json", "markdown", NULL
};
static const char *const test_choices[] = { "welch", "mann-whitney", NULL };
static const char *const unit_choices[] = { "boot", "run", NULL };

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
	{ .name = "test", .type = OPT_ENUM,
	  .offset = offsetof(struct compare_settings, test), .arg = "TEST",
	  .def = "welch", .choices = test_choices,
	  .help = "significance test: Welch's t-test or Mann-Whitney U" },
	{ .name = "alpha", .type = OPT_DOUBLE,
	  .offset = offsetof(struct compare_settings, alpha), .arg = "P",
	  .def = "0.05", .dmin = 0, .dmax = 1, .dopen = 1,
	  .help = "significance level" },
	{ .name = "force", .type = OPT_FLAG,
	  .offset = offsetof(struct compare_settings, force),
	  .help = "compare runs from different hosts, region or page sizes" },
	{ .name = "all", .type = OPT_FLAG,
	  .offset = offsetof(struct compare_settings, all),
	  .help = "every metric (and in text and markdown every statistic), "
	  "not only the headline means" },
	{ .name = "unit", .type = OPT_ENUM,
	  .offset = offsetof(struct compare_settings, unit), .arg = "UNIT",
	  .def = "boot", .choices = unit_choices,
	  .help = "one value per boot (runs within a boot averaged) or per "
	  "run" },
	{ .name = "empty-tolerance", .type = OPT_U64,
	  .offset = offsetof(struct compare_settings, empty_tolerance),
	  .arg = "PAGES", .def = "0",
	  .help = "a region with at most PAGES used pages is empty" },
	{ .name = "db", .type = OPT_STRING,
	  .offset = offsetof(struct compare_settings, db), .arg = "URL",
	  .def = STORE_DEFAULT_URL,
	  .help = "the database db:key=value,... arguments select stored "
	  "runs from (regionbench store)" },
	{ .name = NULL }
};

/* "regionbench compare DIR...". */
static int
cmd_compare_exec(int argc, char **argv)
{
	struct compare_settings st;
	struct metrics_options mo;
	struct compare_output o;
	struct compare_set *set;
	char *cause = NULL, *differences;
	int first, rc;

	memset(&st, 0, sizeof st);
	command_parse(&cmd_compare_entry, &st, argc, argv, &first);
	output_escape_stdout();
	if (argc - first < 1)
		command_usage_error(&cmd_compare_entry,
		    "expected at least one results directory");
	metrics_options_default(&mo);
	mo.empty_tolerance = st.empty_tolerance;
	compare_use_database(st.db);
	if ((rc = compare_load(argv + first, argc - first, st.group_by, &mo,
	    &set, &cause)) != 0)
		die(-rc, "%s", cause);
	set->unit = st.unit == 0 ? COMPARE_UNIT_BOOT : COMPARE_UNIT_RUN;
	memset(&o, 0, sizeof o);
	if (st.baseline != NULL &&
	    (o.base = compare_find_group(set, st.baseline)) < 0)
		die(RB_EXIT_INPUT, "--baseline %s: no such group (groups: %s)",
		    st.baseline, compare_group_names(set));
	differences = compare_differences(set);
	if (differences != NULL && !st.force)
		die(RB_EXIT_INPUT, "these runs are not comparable:\n%s\n"
		    "(--force compares them anyway)", differences);
	o.test = st.test == 1 ? COMPARE_MANN_WHITNEY : COMPARE_WELCH;
	o.alpha = st.alpha;
	o.all = st.all;
	o.width = term_fit_width(STDOUT_FILENO);
	o.differences = differences;
	o.notes = compare_notes(set, differences);
	switch (st.format) {
	case FMT_CSV:
		compare_print_csv(stdout, set, &o);
		break;
	case FMT_JSON:
		compare_print_json(stdout, set, &o);
		break;
	case FMT_MARKDOWN:
		compare_print_markdown(stdout, set, &o);
		break;
	default:
		compare_print_text(stdout, set, &o);
		break;
	}
	json_decref(o.notes);
	free(differences);
	compare_free(set);
	opt_free(compare_options, &st);
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
	.exec = cmd_compare_exec,
};
