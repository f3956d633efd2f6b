/*
 * Unit tests for lib/opt.c: option tables of every type (flags, numbers
 * with ranges, sizes, durations, strings, enums, lists, doubles), their
 * defaults, and every way a user can mistype a value.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "opt.h"
#include "tap.h"

struct demo_settings {
	int		 flag;
	long		 threads;
	uint64_t	 bytes;
	struct opt_size	 size;
	uint64_t	 interval;
	char		*label;
	int		 mode;
	struct opt_list	 pids;
	double		 ratio;
	double		 alpha;
	double		 any;
};

static const char *const demo_modes[] = { "seq", "random", NULL };

static const struct opt_def demo_opts[] = {
	{ .name = "flag", .type = OPT_FLAG,
	  .offset = offsetof(struct demo_settings, flag), .help = "a flag" },
	{ .name = "threads", .type = OPT_LONG,
	  .offset = offsetof(struct demo_settings, threads), .arg = "N",
	  .def = "2", .min = 1, .max = 64, .help = "threads" },
	{ .name = "bytes", .type = OPT_SIZE,
	  .offset = offsetof(struct demo_settings, bytes), .arg = "SIZE",
	  .def = "512M", .help = "bytes" },
	{ .name = "size", .type = OPT_SIZE_PCT,
	  .offset = offsetof(struct demo_settings, size), .arg = "SIZE",
	  .def = "25%", .help = "size" },
	{ .name = "interval", .type = OPT_DURATION,
	  .offset = offsetof(struct demo_settings, interval), .arg = "D",
	  .def = "1s", .min = 1000000, .max = 3600000000000LL,
	  .help = "interval" },
	{ .name = "label", .type = OPT_STRING,
	  .offset = offsetof(struct demo_settings, label), .arg = "L",
	  .help = "label" },
	{ .name = "touch", .type = OPT_ENUM,
	  .offset = offsetof(struct demo_settings, mode), .arg = "MODE",
	  .def = "seq", .choices = demo_modes, .help = "mode" },
	{ .name = "pid", .type = OPT_LIST,
	  .offset = offsetof(struct demo_settings, pids), .arg = "PID",
	  .help = "pids" },
	{ .name = "ratio", .type = OPT_DOUBLE,
	  .offset = offsetof(struct demo_settings, ratio), .arg = "R",
	  .def = "0.5", .dmin = 0, .dmax = 2, .help = "closed range" },
	{ .name = "alpha", .type = OPT_DOUBLE,
	  .offset = offsetof(struct demo_settings, alpha), .arg = "P",
	  .def = "0.05", .dmin = 0, .dmax = 1, .dopen = 1,
	  .help = "open range" },
	{ .name = "any", .type = OPT_DOUBLE,
	  .offset = offsetof(struct demo_settings, any), .arg = "X",
	  .help = "no range" },
	{ .name = NULL }
};

/* Option tables: defaults, parsing, prefixes, errors. */
static void
test_opt(void)
{
	struct demo_settings s = { 0 };
	struct opt_set set = { demo_opts, &s };
	char *argv[] = { "cmd", "--threads", "4", "pos1", "--inter=250ms",
	    "--flag", "--touch", "random", "--pid", "1", "--pid=2", "pos2",
	    NULL };
	char *bad1[] = { "cmd", "--threads", "65", NULL };
	char *bad2[] = { "cmd", "--nope", NULL };
	char *bad3[] = { "cmd", "--t", "1", NULL };
	char *bad4[] = { "cmd", "--touch", "sideways", NULL };
	char *bad5[] = { "cmd", "--bytes", NULL };
	char *help[] = { "cmd", "--help", NULL };
	char *cause = NULL;
	int first = 0;

	tap_ok(opt_defaults(demo_opts, &s, NULL) == 0, "defaults apply");
	tap_eq_u64(s.threads, 2, "default threads");
	tap_eq_u64(s.bytes, 512ULL << 20, "default bytes");
	tap_ok(s.size.pct == 25, "default size is 25%%");
	tap_ok(opt_parse(&set, 1, 12, argv, &first, &cause) == 0,
	    "a full command line parses");
	tap_eq_u64(s.threads, 4, "--threads 4");
	tap_eq_u64(s.interval, 250000000ULL, "unique prefix --inter=250ms");
	tap_eq_u64(s.flag, 1, "--flag");
	tap_eq_u64(s.mode, 1, "--touch random");
	tap_ok(s.pids.n == 2 && strcmp(s.pids.v[1], "2") == 0,
	    "repeatable --pid");
	tap_ok(first == 10 && strcmp(argv[first], "pos1") == 0 &&
	    strcmp(argv[first + 1], "pos2") == 0,
	    "positional arguments kept in order");
	tap_ok(opt_parse(&set, 1, 3, bad1, &first, &cause) == -RB_EXIT_INPUT
	    && strstr(cause, "out of range") != NULL, "range checked");
	free(cause);
	tap_ok(opt_parse(&set, 1, 2, bad2, &first, &cause) == -RB_EXIT_INPUT
	    && strstr(cause, "unknown option --nope") != NULL,
	    "unknown option named");
	free(cause);
	tap_ok(opt_parse(&set, 1, 3, bad3, &first, &cause) == -RB_EXIT_INPUT
	    && strstr(cause, "ambiguous") != NULL, "ambiguous prefix refused");
	free(cause);
	tap_ok(opt_parse(&set, 1, 3, bad4, &first, &cause) == -RB_EXIT_INPUT
	    && strstr(cause, "seq, random") != NULL, "enum lists choices");
	free(cause);
	tap_ok(opt_parse(&set, 1, 2, bad5, &first, &cause) == -RB_EXIT_INPUT
	    && strstr(cause, "needs a value") != NULL, "missing value");
	free(cause);
	tap_ok(opt_parse(&set, 1, 2, help, &first, NULL) ==
	    OPT_HELP_REQUESTED, "--help is reported");
	tap_eq_u64(opt_size_resolve(&s.size, 1000), 250,
	    "percentage resolves against MemAvailable");
	opt_free(demo_opts, &s);
}

/* Set one OPT_DOUBLE from text; the cause, or NULL when it parsed. */
static char *
double_cause(struct demo_settings *s, const char *name, const char *value)
{
	char *cause = NULL;

	if (opt_set_value(opt_find(demo_opts, name), s, value, &cause) == 0)
		return (NULL);
	return (cause != NULL ? cause : xstrdup("(no cause)"));
}

/* Expect a value of a double option to be refused with words in cause. */
static void
double_refused(struct demo_settings *s, const char *name, const char *value,
    const char *words)
{
	char *cause = double_cause(s, name, value);

	tap_ok(cause != NULL && strstr(cause, words) != NULL &&
	    strstr(cause, name) != NULL, "--%s %s refused: %s", name, value,
	    cause != NULL ? cause : "accepted");
	free(cause);
}

/* OPT_DOUBLE: defaults, ranges (closed and open), garbage, nan, inf. */
static void
test_opt_double(void)
{
	struct demo_settings s = { 0 };
	struct opt_set set = { demo_opts, &s };
	char *argv[] = { "cmd", "--alpha", "0.01", "--ratio=2", "--any",
	    "-1e300", NULL };
	char *cause = NULL;
	int first = 0;

	tap_ok(opt_defaults(demo_opts, &s, NULL) == 0, "double defaults");
	tap_ok(s.ratio == 0.5 && s.alpha == 0.05 && s.any == 0,
	    "default 0.5, 0.05 and none");
	tap_ok(opt_parse(&set, 1, 6, argv, &first, &cause) == 0 &&
	    s.alpha == 0.01 && s.ratio == 2 && s.any == -1e300,
	    "doubles parse on a command line (a closed bound is allowed)");
	tap_ok(double_cause(&s, "ratio", "0") == NULL && s.ratio == 0,
	    "closed range takes its lower bound");
	tap_ok(double_cause(&s, "alpha", "1e-3") == NULL && s.alpha == 1e-3,
	    "exponent notation");
	double_refused(&s, "ratio", "2.0001", "out of range (0 to 2)");
	double_refused(&s, "ratio", "-0.5", "out of range");
	double_refused(&s, "alpha", "1", "above 0 and below 1");
	double_refused(&s, "alpha", "0", "above 0 and below 1");
	double_refused(&s, "alpha", "2", "out of range");
	double_refused(&s, "alpha", "0.05x", "expected a finite number");
	double_refused(&s, "alpha", "", "expected a finite number");
	double_refused(&s, "alpha", "abc", "expected a finite number");
	double_refused(&s, "any", "nan", "expected a finite number");
	double_refused(&s, "any", "inf", "expected a finite number");
	double_refused(&s, "any", "-infinity", "expected a finite number");
	double_refused(&s, "any", "1e999", "expected a finite number");
	tap_ok(s.alpha == 1e-3 && s.any == -1e300,
	    "a refused value leaves the setting alone");
	opt_free(demo_opts, &s);
}

/* Wrapped help never runs past its width, even with a long path in it. */
static void
test_wrap(void)
{
	char *buf = NULL, *line, *save;
	size_t len = 0;
	FILE *f;
	int longest = 0, lines = 0;

	if ((f = open_memstream(&buf, &len)) == NULL) {
		tap_ok(0, "open_memstream");
		return;
	}
	opt_print_wrapped(f, "INI rules (default: found in "
	    "/work/ci-check/regionbench-0.1.0/_build/sub/../_inst/share/"
	    "regionbench and the like)", 29, 29, 80);
	fclose(f);
	for (line = strtok_r(buf, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if ((int)strlen(line) + (lines == 0 ? 29 : 0) > longest)
			longest = (int)strlen(line) + (lines == 0 ? 29 : 0);
		lines++;
	}
	tap_ok(longest <= 80 && lines >= 2,
	    "a path longer than the line breaks after a slash (%d lines, "
	    "longest %d columns)", lines, longest);
	free(buf);
}

int
main(void)
{
	test_opt();
	test_opt_double();
	test_wrap();
	return (tap_done());
}
