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

#include "analysis-cli.h"
#include "command.h"
#include "store.h"
#include "gate.h"
#include "log.h"

struct gate_settings {
	struct opt_list	 baseline;
	struct opt_list	 candidate;
	char		*rules;
	char		*correction;
	char		*junit;
	char		*markdown;
	int		 allow_unjudged;
	int		 format;
	struct analysis_cli an;
};

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
	{ .name = "allow-unjudged", .type = OPT_FLAG,
	  .offset = offsetof(struct gate_settings, allow_unjudged),
	  .help = "exit 0 even when a rule got no verdict (no metric, too "
	  "few runs)" },
	{ .name = NULL }
};

/* "regionbench gate ...": the options to a request, the outcome printed. */
static int
cmd_gate_exec(int argc, char **argv)
{
	struct gate_settings st;
	struct gate_request req;
	struct gate_outcome out;
	char *cause = NULL;
	int first, rc;

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
	memset(&req, 0, sizeof req);
	req.rules = st.rules;
	req.correction = st.correction;
	req.baseline = st.baseline.v;
	req.nbaseline = st.baseline.n;
	req.candidate = st.candidate.v;
	req.ncandidate = st.candidate.n;
	req.test = analysis_cli_test(&st.an);
	req.unit = analysis_cli_unit(&st.an);
	req.force = st.an.force;
	req.allow_unjudged = st.allow_unjudged;
	req.empty_tolerance = st.an.empty_tolerance;
	req.db = st.an.db;
	if ((rc = gate_run(&req, &out, &cause)) != 0)
		die(-rc, "%s", cause);
	if (gate_outcome_print(stdout, &out, st.format == 1) != 0 ||
	    fflush(stdout) != 0)
		die_errno(RB_EXIT_ENV, "stdout");
	if ((st.junit != NULL && (rc = gate_outcome_report(&out, st.junit,
	    gate_write_junit, &cause)) != 0) ||
	    (st.markdown != NULL && (rc = gate_outcome_report(&out,
	    st.markdown, gate_write_markdown, &cause)) != 0))
		die(-rc, "%s", cause);
	if (out.note != NULL)
		log_warnx("%s", out.note);
	rc = out.exit_code;
	gate_outcome_free(&out);
	opt_free(gate_options, &st);
	opt_free(analysis_cli_options, &st.an);
	return (rc);
}

const struct command_entry cmd_gate_entry = {
	.name = "gate",
	.usage = "",
	.summary = "pass or fail a candidate against a baseline (for CI)",
	.description = "Applies the rules (INI: one [section] per rule with "
	    "metric, phase, unit patterns, better = lower|higher (default: "
	    "the metric's direction, as compare's arrows), max_change = "
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
	.shared_options = analysis_cli_options,
	.shared_offset = offsetof(struct gate_settings, an),
	.exec = cmd_gate_exec,
};
