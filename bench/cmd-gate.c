/*
 * regionbench gate --baseline DIR... --candidate DIR...: judge a candidate
 * kernel against a baseline with INI rules and answer with an exit code
 * CI understands (0 holds, 1 regression, 2 bad input or a rule without a
 * verdict), plus JUnit XML and a markdown summary.
 */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "store.h"
#include "gate.h"
#include "log.h"
#include "suite.h"

struct gate_settings {
	char		*db;
	struct opt_list	 baseline;
	struct opt_list	 candidate;
	char		*rules;
	char		*correction;
	char		*junit;
	char		*markdown;
	int		 test;
	int		 force;
	int		 allow_unjudged;
	int		 unit;
	int		 format;
	uint64_t	 empty_tolerance;
};

static const char *const test_choices[] = { "welch", "mann-whitney", NULL };
static const char *const unit_choices[] = { "boot", "run", NULL };
static const char *const format_choices[] = { "text", "json", NULL };

static const struct opt_def gate_options[] = {
	{ .name = "baseline", .type = OPT_LIST, .multi = 1,
	  .offset = offsetof(struct gate_settings, baseline), .arg = "DIR...",
	  .required = 1,
	  .help = "baseline runs, directories of runs (any depth) or db:... "
	  "selections of stored runs" },
	{ .name = "candidate", .type = OPT_LIST, .multi = 1,
	  .offset = offsetof(struct gate_settings, candidate), .arg = "DIR...",
	  .required = 1,
	  .help = "candidate runs, directories of runs (any depth) or db:... "
	  "selections of stored runs" },
	{ .name = "rules", .type = OPT_STRING,
	  .offset = offsetof(struct gate_settings, rules), .arg = "FILE",
	  .help = "INI rules (default: gate-rules.ini found like suites: "
	  "next to the program, in $REGIONBENCH_DATADIR, in " PKGDATADIR
	  ")" },
	{ .name = "correction", .type = OPT_STRING,
	  .offset = offsetof(struct gate_settings, correction),
	  .arg = "none|holm",
	  .help = "judge each check's p-value alone, or Holm-adjust the "
	  "p-values of every check that needs significance together "
	  "(default: the rules' [gate] correction, else none)" },
	{ .name = "junit", .type = OPT_STRING,
	  .offset = offsetof(struct gate_settings, junit), .arg = "FILE",
	  .help = "write JUnit XML, one testcase per rule check" },
	{ .name = "markdown", .type = OPT_STRING,
	  .offset = offsetof(struct gate_settings, markdown), .arg = "FILE",
	  .help = "write a markdown summary (- for stdout)" },
	{ .name = "format", .type = OPT_ENUM,
	  .offset = offsetof(struct gate_settings, format), .arg = "FORMAT",
	  .def = "text", .choices = format_choices,
	  .help = "what stdout carries: a line per check, or one JSON object "
	  "with every check" },
	{ .name = "test", .type = OPT_ENUM,
	  .offset = offsetof(struct gate_settings, test), .arg = "TEST",
	  .def = "welch", .choices = test_choices,
	  .help = "significance test: Welch's t-test or Mann-Whitney U" },
	{ .name = "force", .type = OPT_FLAG,
	  .offset = offsetof(struct gate_settings, force),
	  .help = "judge runs from different hosts, region or page sizes" },
	{ .name = "unit", .type = OPT_ENUM,
	  .offset = offsetof(struct gate_settings, unit), .arg = "UNIT",
	  .def = "boot", .choices = unit_choices,
	  .help = "one value per boot (runs within a boot averaged) or per "
	  "run" },
	{ .name = "allow-unjudged", .type = OPT_FLAG,
	  .offset = offsetof(struct gate_settings, allow_unjudged),
	  .help = "exit 0 even when a rule got no verdict (no metric, too "
	  "few runs)" },
	{ .name = "empty-tolerance", .type = OPT_U64,
	  .offset = offsetof(struct gate_settings, empty_tolerance),
	  .arg = "PAGES", .def = "0",
	  .help = "a region with at most PAGES used pages is empty" },
	{ .name = "db", .type = OPT_STRING,
	  .offset = offsetof(struct gate_settings, db), .arg = "URL",
	  .def = STORE_DEFAULT_URL,
	  .help = "the database db:key=value,... arguments select stored "
	  "runs from (regionbench store)" },
	{ .name = NULL }
};

/* Write a report into a file replaced whole, or to stdout for "-". */
static void
gate_report(const char *path, const struct compare_set *set,
    const struct gate_result *r, int n, gate_writer writer)
{
	char *cause = NULL;
	int rc;

	if (strcmp(path, "-") == 0) {
		if (writer(stdout, set, r, n) != 0)
			die_errno(RB_EXIT_ENV, "stdout");
	} else if ((rc = gate_write_file(path, set, r, n, writer,
	    &cause)) != 0)
		die(-rc, "%s", cause);
}

/* "regionbench gate ...". */
static int
cmd_gate_exec(int argc, char **argv)
{
	struct gate_settings st;
	struct metrics_options mo;
	struct gate_rules rules;
	struct gate_result *res;
	struct gate_counts counts;
	struct compare_set *set;
	enum gate_correction correction = GATE_CORRECTION_NONE;
	char *cause = NULL, *rules_path, *differences, *unit_note;
	int first, rc, n;

	memset(&st, 0, sizeof st);
	command_parse(&cmd_gate_entry, &st, argc, argv, &first);
	if (argc - first != 0)
		die(RB_EXIT_INPUT, "gate: unexpected argument '%s' (use "
		    "--baseline DIR... and --candidate DIR...)", argv[first]);
	if (st.baseline.n == 0 && st.candidate.n == 0)
		command_usage_error(&cmd_gate_entry, "needs --baseline DIR... "
		    "and --candidate DIR...");
	if (st.candidate.n == 0)
		command_usage_error(&cmd_gate_entry, "--candidate DIR... is "
		    "missing (the %d director%s after --baseline %s the "
		    "baseline)", st.baseline.n, st.baseline.n == 1 ? "y" :
		    "ies", st.baseline.n == 1 ? "is" : "are all");
	if (st.baseline.n == 0)
		command_usage_error(&cmd_gate_entry, "--baseline DIR... is "
		    "missing (the runs to judge the candidate against)");
	if (st.correction != NULL &&
	    gate_correction_parse(st.correction, &correction, &cause) != 0)
		die(RB_EXIT_INPUT, "gate: --%s", cause);
	if (st.rules != NULL)
		rules_path = xstrdup(st.rules);
	else if ((rules_path = suite_data_find("gate-rules.ini", &cause)) ==
	    NULL)
		die(RB_EXIT_INPUT, "gate: %s (give --rules FILE)", cause);
	if ((rc = gate_rules_load(rules_path, &rules, &cause)) != 0) {
		free(rules_path);
		die(-rc, "%s", cause);
	}
	if (st.correction != NULL)
		rules.correction = correction;
	metrics_options_default(&mo);
	mo.empty_tolerance = st.empty_tolerance;
	compare_use_database(st.db);
	if ((rc = compare_load_two(st.baseline.v, st.baseline.n,
	    st.candidate.v, st.candidate.n, &mo, &set, &cause)) != 0)
		die(-rc, "%s", cause);
	if ((differences = compare_suite_differences(set)) != NULL)
		die(RB_EXIT_INPUT, "baseline and candidate ran different "
		    "suites:\n%s", differences);
	differences = compare_differences(set);
	if (differences != NULL && !st.force)
		die(RB_EXIT_INPUT, "baseline and candidate are not "
		    "comparable:\n%s\n(--force judges them anyway)",
		    differences);
	if (differences != NULL)
		log_warnx("runs differ (--force): %s", differences);
	free(differences);
	if ((differences = compare_scan_differences(set)) != NULL)
		log_warnx("%s; sampled counts are estimates, so their "
		    "differences carry more noise", differences);
	free(differences);
	set->unit = st.unit == 0 ? COMPARE_UNIT_BOOT : COMPARE_UNIT_RUN;
	gate_evaluate(&rules, set, st.test == 1 ? COMPARE_MANN_WHITNEY :
	    COMPARE_WELCH, &res, &n);
	gate_count(res, n, &counts);
	if (st.format == 1) {
		if (gate_print_json(stdout, set, res, n, rules_path) != 0)
			die_errno(RB_EXIT_ENV, "stdout");
	} else {
		unit_note = compare_unit_note(set);
		printf("%s\n", unit_note);
		free(unit_note);
		gate_print(stdout, set, res, n, rules_path);
	}
	if (fflush(stdout) != 0)
		die_errno(RB_EXIT_ENV, "stdout");
	if (st.junit != NULL)
		gate_report(st.junit, set, res, n, gate_write_junit);
	if (st.markdown != NULL)
		gate_report(st.markdown, set, res, n, gate_write_markdown);
	gate_results_free(res, n);
	gate_rules_free(&rules);
	compare_free(set);
	free(rules_path);
	opt_free(gate_options, &st);
	if (counts.failed > 0)
		return (RB_EXIT_FAIL);
	if (counts.unjudged > 0 && !st.allow_unjudged) {
		log_warnx("%d check%s got no verdict: a gate passes only on "
		    "evidence (--allow-unjudged passes without it)",
		    counts.unjudged, counts.unjudged == 1 ? "" : "s");
		return (RB_EXIT_INPUT);
	}
	return (RB_EXIT_OK);
}

const struct command_entry cmd_gate_entry = {
	.name = "gate",
	.usage = "",
	.summary = "pass or fail a candidate against a baseline (for CI)",
	.description = "Applies the rules (INI: one [section] per rule with "
	    "metric, phase, unit patterns, better = lower|higher, max_change = "
	    "N or N%, require_significance, alpha, min_runs, mean = "
	    "arithmetic|harmonic) to the baseline and "
	    "candidate runs.  A [gate] section's correction = holm (or "
	    "--correction holm) judges the p-values of all the checks that "
	    "need significance together, so that the chance of any false "
	    "alarm stays within alpha.  Candidate runs made in regionbench vm guests "
	    "also get the check guest-kernel, which fails when their kernel "
	    "reported a bug (an oops, a WARNING) in any of them.  "
	    "Exit 0 when every rule holds, 1 when one fails, "
	    "2 on bad input, on runs of different suites, or when a rule got "
	    "no verdict (it matched no metric on both sides, or the groups "
	    "have fewer runs than its min_runs, or a run's data quality is "
	    "beyond the [data_quality] limits: max_overruns, max_gap_s, "
	    "max_kpageflags_error_pages) unless --allow-unjudged.  "
	    "--format json prints one object: the outcome, its counts and "
	    "every check with rule, phase, metric, verdict (passed, failed, "
	    "not judged), reason, means, change and p-value.",
	.options = gate_options,
	.exec = cmd_gate_exec,
};
