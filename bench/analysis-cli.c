/*
 * The analysis commands' shared options (analysis-cli.h): each row is
 * written once here and the tables are made of them.
 */
#include "config.h"

#include <stddef.h>

#include "analysis-cli.h"
#include "store.h"

static const char *const test_choices[] = { "welch", "mann-whitney", NULL };
static const char *const unit_choices[] = { "boot", "run", NULL };

#define ANALYSIS_OPT_DB \
	{ .name = "db", .type = OPT_STRING, \
	  .offset = offsetof(struct analysis_cli, db), .arg = "URL", \
	  .def = STORE_DEFAULT_URL, \
	  .help = "the results database, sqlite:PATH or postgresql://... " \
	  "(a libpq URI): where store loads runs and db:key=value,... " \
	  "arguments select stored runs from" }
#define ANALYSIS_OPT_TEST \
	{ .name = "test", .type = OPT_ENUM, \
	  .offset = offsetof(struct analysis_cli, test), .arg = "TEST", \
	  .def = "welch", .choices = test_choices, \
	  .help = "significance test: Welch's t-test or Mann-Whitney U" }
#define ANALYSIS_OPT_FORCE \
	{ .name = "force", .type = OPT_FLAG, \
	  .offset = offsetof(struct analysis_cli, force), \
	  .help = "compare or judge runs from different hosts, region or " \
	  "page sizes" }
#define ANALYSIS_OPT_UNIT \
	{ .name = "unit", .type = OPT_ENUM, \
	  .offset = offsetof(struct analysis_cli, unit), .arg = "UNIT", \
	  .def = "boot", .choices = unit_choices, \
	  .help = "one value per boot (runs within a boot averaged) or per " \
	  "run" }
#define ANALYSIS_OPT_EMPTY_TOLERANCE \
	{ .name = "empty-tolerance", .type = OPT_U64, \
	  .offset = offsetof(struct analysis_cli, empty_tolerance), \
	  .arg = "PAGES", .def = "0", \
	  .help = "a region with at most PAGES used pages is empty" }

const struct opt_def analysis_cli_options[] = {
	ANALYSIS_OPT_TEST,
	ANALYSIS_OPT_FORCE,
	ANALYSIS_OPT_UNIT,
	ANALYSIS_OPT_EMPTY_TOLERANCE,
	ANALYSIS_OPT_DB,
	{ .name = NULL }
};

const struct opt_def analysis_cli_store_options[] = {
	ANALYSIS_OPT_EMPTY_TOLERANCE,
	ANALYSIS_OPT_DB,
	{ .name = NULL }
};

const struct opt_def analysis_cli_report_options[] = {
	ANALYSIS_OPT_TEST,
	ANALYSIS_OPT_UNIT,
	ANALYSIS_OPT_EMPTY_TOLERANCE,
	{ .name = NULL }
};

const struct opt_def analysis_cli_metrics_options[] = {
	ANALYSIS_OPT_EMPTY_TOLERANCE,
	{ .name = NULL }
};

/* The significance test --test names. */
enum compare_test
analysis_cli_test(const struct analysis_cli *cli)
{
	return (cli->test == 1 ? COMPARE_MANN_WHITNEY : COMPARE_WELCH);
}

/* What one value stands for, as --unit says. */
enum compare_unit
analysis_cli_unit(const struct analysis_cli *cli)
{
	return (cli->unit == 0 ? COMPARE_UNIT_BOOT : COMPARE_UNIT_RUN);
}
