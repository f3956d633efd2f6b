/*
 * regionbench compare DIR...: groups of runs side by side with statistics,
 * printed like mmtests' compare-kernels (aligned columns, significant
 * changes between stars) or as CSV, JSON or markdown.
 */
#include "config.h"

#include <jansson.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "compare.h"
#include "log.h"
#include "output.h"

enum { FMT_TEXT, FMT_CSV, FMT_JSON, FMT_MARKDOWN };

struct compare_settings {
	int		 group_by;
	char		*baseline;
	int		 format;
	int		 test;
	char		*alpha;
	int		 force;
	int		 all;
	int		 unit;
	uint64_t	 empty_tolerance;
};

static const char *const group_choices[] = { "dir", "label", "kernel", NULL };
static const char *const format_choices[] = {
	"text", "csv", "json", "markdown", NULL
};
static const char *const test_choices[] = { "welch", "mann-whitney", NULL };
static const char *const unit_choices[] = { "boot", "run", NULL };

static const struct opt_def compare_options[] = {
	{ .name = "group-by", .type = OPT_ENUM,
	  .offset = offsetof(struct compare_settings, group_by), .arg = "KEY",
	  .def = "dir", .choices = group_choices,
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
	{ .name = "alpha", .type = OPT_STRING,
	  .offset = offsetof(struct compare_settings, alpha), .arg = "P",
	  .def = "0.05", .help = "significance level" },
	{ .name = "force", .type = OPT_FLAG,
	  .offset = offsetof(struct compare_settings, force),
	  .help = "compare runs from different hosts, region or page sizes" },
	{ .name = "all", .type = OPT_FLAG,
	  .offset = offsetof(struct compare_settings, all),
	  .help = "text and markdown: every metric, not only the headline "
	  "ones" },
	{ .name = "unit", .type = OPT_ENUM,
	  .offset = offsetof(struct compare_settings, unit), .arg = "UNIT",
	  .def = "boot", .choices = unit_choices,
	  .help = "one value per boot (runs within a boot averaged) or per "
	  "run" },
	{ .name = "empty-tolerance", .type = OPT_U64,
	  .offset = offsetof(struct compare_settings, empty_tolerance),
	  .arg = "PAGES", .def = "0",
	  .help = "a region with at most PAGES used pages is empty" },
	{ .name = NULL }
};

/* The test and level chosen on the command line, for every cell. */
static enum compare_test chosen_test;
static double chosen_alpha;

/* Parse --alpha or die. */
static double
compare_parse_alpha(const char *s)
{
	char *end;
	double a;

	a = strtod(s, &end);
	if (end == s || *end != '\0' || !(a > 0 && a < 1))
		die(RB_EXIT_INPUT, "--alpha: expected a number between 0 and "
		    "1, not '%s'", s);
	return (a);
}

/* Does a key belong in the human-readable tables? */
static int
key_shown(const struct compare_key *k, int all)
{
	return (metrics_shown(k->metric, k->headline, all ? METRICS_ALL :
	    METRICS_HEADLINE));
}

/* Format a number compactly for the aligned table. */
static void
num(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (v != 0 && (fabs(v) >= 1e7 || fabs(v) < 1e-3))
		snprintf(buf, len, "%.4e", v);
	else
		snprintf(buf, len, "%.4f", v);
}

/* The change column: stars around significant changes (mmtests style). */
static void
change_text(char *buf, size_t len, const struct compare_cell *c, int base)
{
	if (base)
		snprintf(buf, len, "(   0.00%%)");
	else if (isnan(c->change_pct))
		snprintf(buf, len, "(    n/a)");
	else if (c->significant)
		snprintf(buf, len, "*%7.2f%%*", c->change_pct);
	else
		snprintf(buf, len, "(%7.2f%%)", c->change_pct);
}

/* The text of statistic row `stat` for one group. */
static void
stat_cell(char *cell, size_t len, int stat, const struct compare_cell *c,
    int is_base)
{
	const struct stats_desc *d = &c->desc;
	char a[32], b[32];

	switch (stat) {
	case 0:
		num(a, sizeof a, d->mean);
		change_text(b, sizeof b, c, is_base);
		snprintf(cell, len, "%s %s", a, b);
		break;
	case 1:
		num(cell, len, d->stddev);
		break;
	case 2:
		if (isnan(d->ci_low))
			snprintf(cell, len, "-");
		else {
			num(a, sizeof a, (d->ci_high - d->ci_low) / 2);
			snprintf(cell, len, "+-%s", a);
		}
		break;
	case 3:
		num(cell, len, d->min);
		break;
	case 4:
		num(cell, len, d->max);
		break;
	default:
		if (is_base)
			snprintf(cell, len, " ");
		else if (c->unchanged)
			snprintf(cell, len, "same");
		else if (!c->tested)
			snprintf(cell, len, "n<2");
		else
			snprintf(cell, len, "%.4g", c->p);
		break;
	}
}

#define COLW 24

/* mmtests-style text: rows of statistics, one column per group. */
static void
print_text(const struct compare_set *set, int base, int all, int markdown)
{
	static const char *const stats[] = {
		"Amean", "Stddev", "CI95", "Min", "Max", "p-value"
	};
	struct compare_cell *cells;
	const struct compare_key *k;
	const char *phase = NULL;
	char cell[64];
	int i, g, s;

	cells = xcalloc(set->ngroups, sizeof *cells);
	if (markdown) {
		printf("| phase | metric | stat |");
		for (g = 0; g < set->ngroups; g++)
			printf(" %s%s |", set->groups[g].name,
			    g == base ? " (baseline)" : "");
		printf("\n|---|---|---|");
		for (g = 0; g < set->ngroups; g++)
			printf("---:|");
		putchar('\n');
	} else {
		printf("%-9s %-40s", "", "");
		for (g = 0; g < set->ngroups; g++)
			printf(" %*s", COLW, set->groups[g].name);
		putchar('\n');
	}
	for (i = 0; i < set->nkeys; i++) {
		k = &set->keys[i];
		if (!key_shown(k, all))
			continue;
		if (!markdown && (phase == NULL || strcmp(phase, k->phase) !=
		    0)) {
			printf("\nphase %s\n", k->phase);
			phase = k->phase;
		}
		for (g = 0; g < set->ngroups; g++)
			compare_cell(set, base, g, k, chosen_test,
			    chosen_alpha, &cells[g]);
		for (s = 0; s < 6; s++) {
			if (markdown)
				printf("| %s | `%s` | %s |", k->phase,
				    k->metric, stats[s]);
			else
				printf("%-9s %-40s", stats[s], k->metric);
			for (g = 0; g < set->ngroups; g++) {
				stat_cell(cell, sizeof cell, s, &cells[g],
				    g == base);
				if (markdown)
					printf(" %s |", cell);
				else
					printf(" %*s", COLW, cell);
			}
			putchar('\n');
		}
	}
	free(cells);
}

/* CSV: every key, one row per group. */
static void
print_csv(const struct compare_set *set, int base)
{
	struct compare_cell c;
	const struct compare_key *k;
	int i, g;

	printf("phase,metric,unit,group,n,mean,stddev,min,max,ci_low,ci_high,"
	    "change_pct,p_value,significant\n");
	for (i = 0; i < set->nkeys; i++) {
		k = &set->keys[i];
		for (g = 0; g < set->ngroups; g++) {
			compare_cell(set, base, g, k, chosen_test,
			    chosen_alpha, &c);
			output_csv_field(stdout, k->phase);
			putchar(',');
			output_csv_field(stdout, k->metric);
			putchar(',');
			output_csv_field(stdout, k->unit);
			putchar(',');
			output_csv_field(stdout, set->groups[g].name);
			printf(",%d,", c.desc.n);
			output_csv_number(stdout, c.desc.mean);
			putchar(',');
			output_csv_number(stdout, c.desc.stddev);
			putchar(',');
			output_csv_number(stdout, c.desc.min);
			putchar(',');
			output_csv_number(stdout, c.desc.max);
			putchar(',');
			output_csv_number(stdout, c.desc.ci_low);
			putchar(',');
			output_csv_number(stdout, c.desc.ci_high);
			putchar(',');
			output_csv_number(stdout, c.change_pct);
			putchar(',');
			if (c.tested)
				output_csv_number(stdout, c.p);
			printf(",%s\n", c.tested ? (c.significant ? "1" :
			    "0") : c.unchanged ? "0" : "");
		}
	}
}

/* JSON number or null. */
static json_t *
jnum(double v)
{
	return (isfinite(v) ? json_real(v) : json_null());
}

/* JSON: everything, with the groups and notes. */
static void
print_json(const struct compare_set *set, int base, const char *test,
    double alpha, const char *differences, json_t *notes)
{
	json_t *root, *groups, *grp, *runs, *metrics, *jm, *cells, *jc;
	struct compare_cell c;
	int i, g;

	root = json_object();
	json_object_set_new(root, "baseline",
	    json_string(set->groups[base].name));
	json_object_set_new(root, "test", json_string(test));
	json_object_set_new(root, "alpha", json_real(alpha));
	json_object_set_new(root, "differences", differences != NULL ?
	    json_string(differences) : json_null());
	groups = json_array();
	for (g = 0; g < set->ngroups; g++) {
		grp = json_object();
		json_object_set_new(grp, "name",
		    json_string(set->groups[g].name));
		runs = json_array();
		for (i = 0; i < set->groups[g].nruns; i++)
			json_array_append_new(runs,
			    json_string(set->groups[g].runs[i]->dir));
		json_object_set_new(grp, "runs", runs);
		json_array_append_new(groups, grp);
	}
	json_object_set_new(root, "groups", groups);
	metrics = json_array();
	for (i = 0; i < set->nkeys; i++) {
		jm = json_object();
		json_object_set_new(jm, "phase",
		    json_string(set->keys[i].phase));
		json_object_set_new(jm, "metric",
		    json_string(set->keys[i].metric));
		json_object_set_new(jm, "unit", json_string(set->keys[i].unit));
		cells = json_array();
		for (g = 0; g < set->ngroups; g++) {
			compare_cell(set, base, g, &set->keys[i], chosen_test,
			    chosen_alpha, &c);
			jc = json_object();
			json_object_set_new(jc, "group",
			    json_string(set->groups[g].name));
			json_object_set_new(jc, "n", json_integer(c.desc.n));
			json_object_set_new(jc, "mean", jnum(c.desc.mean));
			json_object_set_new(jc, "stddev", jnum(c.desc.stddev));
			json_object_set_new(jc, "min", jnum(c.desc.min));
			json_object_set_new(jc, "max", jnum(c.desc.max));
			json_object_set_new(jc, "ci_low", jnum(c.desc.ci_low));
			json_object_set_new(jc, "ci_high",
			    jnum(c.desc.ci_high));
			json_object_set_new(jc, "change_pct",
			    jnum(c.change_pct));
			json_object_set_new(jc, "p_value", c.tested ?
			    jnum(c.p) : json_null());
			json_object_set_new(jc, "significant", c.tested ?
			    json_boolean(c.significant) : c.unchanged ?
			    json_false() : json_null());
			json_array_append_new(cells, jc);
		}
		json_object_set_new(jm, "groups", cells);
		json_array_append_new(metrics, jm);
	}
	json_object_set_new(root, "metrics", metrics);
	json_object_set(root, "notes", notes);
	json_dumpf(root, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
	    JSON_REAL_PRECISION(10));
	putchar('\n');
	json_decref(root);
}

/* "regionbench compare DIR...". */
static int
cmd_compare_exec(int argc, char **argv)
{
	struct compare_settings st;
	struct metrics_options mo;
	struct compare_set *set;
	json_t *notes;
	char *cause = NULL, *differences, *unit_note;
	int first, rc, base = 0, g, i;

	memset(&st, 0, sizeof st);
	command_parse(&cmd_compare_entry, &st, argc, argv, &first);
	if (argc - first < 1) {
		log_errorx("compare: expected at least one results directory");
		command_usage(stderr, &cmd_compare_entry);
		exit(RB_EXIT_INPUT);
	}
	chosen_alpha = compare_parse_alpha(st.alpha);
	chosen_test = st.test == 1 ? COMPARE_MANN_WHITNEY : COMPARE_WELCH;
	metrics_options_default(&mo);
	mo.empty_tolerance = st.empty_tolerance;
	if ((rc = compare_load(argv + first, argc - first, st.group_by, &mo,
	    &set, &cause)) != 0)
		die(-rc, "%s", cause);
	set->unit = st.unit == 0 ? COMPARE_UNIT_BOOT : COMPARE_UNIT_RUN;
	unit_note = compare_unit_note(set);
	if (st.baseline != NULL &&
	    (base = compare_find_group(set, st.baseline)) < 0) {
		char *names = xstrdup("");

		for (g = 0; g < set->ngroups; g++) {
			char *old = names;

			names = xasprintf("%s%s%s", old, g > 0 ? ", " : "",
			    set->groups[g].name);
			free(old);
		}
		die(RB_EXIT_INPUT, "--baseline %s: no such group (groups: %s)",
		    st.baseline, names);
	}
	differences = compare_differences(set);
	if (differences != NULL && !st.force)
		die(RB_EXIT_INPUT, "these runs are not comparable:\n%s\n"
		    "(--force compares them anyway)", differences);
	notes = json_array();
	json_array_append_new(notes, json_string(unit_note));
	if (differences != NULL)
		json_array_append_new(notes, json_sprintf("runs differ "
		    "(--force): %s", differences));
	for (g = 0; g < set->ngroups; g++) {
		if (set->groups[g].nruns < 2)
			json_array_append_new(notes, json_sprintf("group %s "
			    "has %d run: means only, no significance test "
			    "(repeat the run, e.g. run --repeat 5)",
			    set->groups[g].name, set->groups[g].nruns));
	}
	if (set->ngroups < 2)
		json_array_append_new(notes, json_string("only one group: "
		    "nothing to compare against"));
	switch (st.format) {
	case FMT_CSV:
		print_csv(set, base);
		break;
	case FMT_JSON:
		print_json(set, base, test_choices[st.test], chosen_alpha,
		    differences, notes);
		break;
	default:
		if (st.format == FMT_MARKDOWN)
			printf("## regionbench compare\n\nBaseline `%s`, %s "
			    "test, alpha %g; changes significant at p < alpha "
			    "are between stars.\n\n", set->groups[base].name,
			    test_choices[st.test], chosen_alpha);
		else
			printf("regionbench compare: baseline %s, %s test, "
			    "alpha %g (*change*: significant)\n",
			    set->groups[base].name, test_choices[st.test],
			    chosen_alpha);
		for (g = 0; g < set->ngroups; g++) {
			printf("%s%s: %d run%s", st.format == FMT_MARKDOWN ?
			    "- " : "  ", set->groups[g].name,
			    set->groups[g].nruns, set->groups[g].nruns == 1 ?
			    "" : "s");
			for (i = 0; i < set->groups[g].nruns && i < 3; i++)
				printf("%s%s", i == 0 ? " (" : ", ",
				    set->groups[g].runs[i]->dir);
			printf("%s\n", set->groups[g].nruns > 3 ? ", ...)" :
			    ")");
		}
		putchar('\n');
		print_text(set, base, st.all, st.format == FMT_MARKDOWN);
		for (i = 0; i < (int)json_array_size(notes); i++)
			printf("%snote: %s\n", i == 0 ? "\n" : "",
			    json_string_value(json_array_get(notes, i)));
		break;
	}
	json_decref(notes);
	free(unit_note);
	free(differences);
	compare_free(set);
	opt_free(compare_options, &st);
	if (fflush(stdout) != 0)
		die_errno(RB_EXIT_ENV, "stdout");
	return (RB_EXIT_OK);
}

const struct command_entry cmd_compare_entry = {
	.name = "compare",
	.usage = "DIR... [--group-by dir|label|kernel] [--baseline GROUP] "
	    "[--format text|csv|json|markdown] [--test welch|mann-whitney] "
	    "[--alpha P] [--force] [--all]",
	.summary = "compare groups of runs with statistics",
	.description = "Each DIR is a results directory or a directory of "
	    "them (as run --repeat makes), which counts as one group.  For "
	    "every metric and phase: n, mean, stddev, min, max, 95% "
	    "confidence interval (Student t), change against the baseline "
	    "group and the p-value of Welch's t-test (or Mann-Whitney U).  "
	    "Groups of one run get means only.  Runs from different hosts, "
	    "region or page sizes need --force.",
	.options = compare_options,
	.exec = cmd_compare_exec,
};
