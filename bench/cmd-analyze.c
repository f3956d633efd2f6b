/*
 * regionbench analyze DIR: the metrics of one run, reduced per phase, saved
 * as summary.csv and summary.json in DIR and printed as a table; or the
 * seed table (free pages per region at each checkpoint) in the layout of
 * the 2011 cover letter; optionally a clearly labelled power model.  The
 * work is done by analyze/summary.c, seed-table.c and power.c.
 */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis-cli.h"
#include "command.h"
#include "log.h"
#include "output.h"
#include "power.h"
#include "seed-table.h"
#include "summary.h"
#include "term.h"

enum { FMT_TEXT, FMT_CSV, FMT_JSON, FMT_MARKDOWN };
enum { TABLE_SUMMARY, TABLE_SEED };

struct analyze_settings {
	int		 format;
	int		 table;
	char		*power_model;
	int		 brief;
	struct analysis_cli an;
};

static const char *const format_choices[] = {
	"text", "csv", "json", "markdown", NULL
};
static const char *const table_choices[] = { "summary", "seed", NULL };

static const struct opt_def analyze_options[] = {
	{ .name = "format", .type = OPT_ENUM,
	  .offset = offsetof(struct analyze_settings, format), .arg = "FORMAT",
	  .def = "text", .choices = format_choices, .help = "output format" },
	{ .name = "table", .type = OPT_ENUM,
	  .offset = offsetof(struct analyze_settings, table), .arg = "TABLE",
	  .def = "summary", .choices = table_choices,
	  .help = "metrics per phase, or free pages per region at each "
	  "checkpoint" },
	{ .name = "power-model", .type = OPT_STRING,
	  .offset = offsetof(struct analyze_settings, power_model),
	  .arg = "FILE",
	  .help = "INI file with DRAM power per GiB in each state: estimate "
	  "what empty and idle regions could save (a model, not a "
	  "measurement)" },
	{ .name = "brief", .type = OPT_FLAG,
	  .offset = offsetof(struct analyze_settings, brief),
	  .help = "text: only the headline metrics and each workload's "
	  "rates (what run prints)" },
	{ .name = NULL }
};

/* Print the table or summary the options ask for. */
static int
analyze_print(const struct analyze_settings *st, const struct summary_run *sr)
{
	if (st->table == TABLE_SEED) {
		switch (st->format) {
		case FMT_CSV:
			seed_table_print_csv(stdout, sr->res);
			break;
		case FMT_JSON:
			return (seed_table_print_json(stdout, sr->res));
		case FMT_MARKDOWN:
			seed_table_print_markdown(stdout, sr->res);
			break;
		default:
			seed_table_print_text(stdout, sr->res);
			break;
		}
		return (0);
	}
	switch (st->format) {
	case FMT_CSV:
		summary_write_csv(stdout, sr);
		break;
	case FMT_JSON:
		if (summary_write_json(stdout, sr) != 0)
			return (-1);
		putchar('\n');
		break;
	case FMT_MARKDOWN:
		summary_print_markdown(stdout, sr, st->brief);
		break;
	default:
		summary_print_text_fit(stdout, sr, st->brief,
		    term_fit_width(STDOUT_FILENO));
		break;
	}
	return (0);
}

/* "regionbench analyze DIR ...". */
static int
cmd_analyze_exec(int argc, char **argv)
{
	struct analyze_settings st;
	struct metrics_options mo;
	struct power_model pm;
	struct summary_run sr;
	char *cause = NULL;
	int first, rc;

	memset(&st, 0, sizeof st);
	command_parse(&cmd_analyze_entry, &st, argc, argv, &first);
	output_escape_stdout();
	if (argc - first != 1)
		command_usage_error(&cmd_analyze_entry,
		    "expected one results directory");
	if (st.power_model != NULL &&
	    (rc = power_model_load(st.power_model, &pm, &cause)) != 0)
		die(-rc, "%s", cause);
	metrics_options_default(&mo);
	mo.empty_tolerance = st.an.empty_tolerance;
	if ((rc = summary_run_load(&sr, argv[first], &mo, st.power_model !=
	    NULL ? &pm : NULL, &cause)) != 0)
		die(-rc, "%s", cause);
	if ((rc = summary_save(&sr, &cause)) != 0) {
		log_warnx("summary not saved: %s", cause);
		free(cause);
		cause = NULL;
	}
	analyze_print(&st, &sr);
	summary_run_free(&sr);
	opt_free(analyze_options, &st);
	if (fflush(stdout) != 0)
		die_errno(RB_EXIT_ENV, "stdout");
	return (RB_EXIT_OK);
}

const struct command_entry cmd_analyze_entry = {
	.name = "analyze",
	.usage = "DIR",
	.summary = "region metrics of one run, per phase",
	.description = "Reads the results directory DIR (never /proc), "
	    "computes the region metrics per sample (active and empty "
	    "regions, empty bytes, ideal regions, spread index, placement, "
	    "unmovable pollution, usable free memory) and reduces them per "
	    "phase to min, mean, max, final and time-weighted mean.  Writes "
	    "DIR/summary.csv and DIR/summary.json and prints a table.",
	.options = analyze_options,
	.shared_options = analysis_cli_metrics_options,
	.shared_offset = offsetof(struct analyze_settings, an),
	.exec = cmd_analyze_exec,
};
