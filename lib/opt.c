/*
 * Option tables: defaults, one value at a time (suite files) and whole
 * command lines with GNU long options and unique prefixes; the help made
 * from the same tables is in opt-help.c.  Errors say which option and what
 * was expected so the caller can exit 2.
 */
#include "config.h"

#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "suggest.h"
#include "opt.h"
#include "units.h"

/* Address of the field an option writes. */
static void *
opt_field(const struct opt_def *def, void *settings)
{
	return ((char *)settings + def->offset);
}

/* Release what an option owns (strings, lists). */
static void
opt_release(const struct opt_def *def, void *settings)
{
	struct opt_list *list;
	char **str;
	int i;

	switch (def->type) {
	case OPT_STRING:
		str = opt_field(def, settings);
		free(*str);
		*str = NULL;
		break;
	case OPT_LIST:
		list = opt_field(def, settings);
		for (i = 0; i < list->n; i++)
			free(list->v[i]);
		free(list->v);
		list->v = NULL;
		list->n = 0;
		break;
	default:
		break;
	}
}

/* Free every string and list an option table owns in settings. */
void
opt_free(const struct opt_def *defs, void *settings)
{
	for (; defs->name != NULL; defs++)
		opt_release(defs, settings);
}

/* Find an option by exact name. */
const struct opt_def *
opt_find(const struct opt_def *defs, const char *name)
{
	for (; defs->name != NULL; defs++) {
		if (strcmp(defs->name, name) == 0)
			return (defs);
	}
	return (NULL);
}

/* Check a number against the option's range. */
static int
opt_check_range(const struct opt_def *def, int64_t v, const char *value,
    char **cause)
{
	char lo[32], hi[32];

	if (def->min == 0 && def->max == 0)
		return (0);
	if (v >= def->min && v <= def->max)
		return (0);
	/* Say the range in the unit the user typed. */
	if (def->type == OPT_DURATION) {
		units_format_duration(lo, sizeof lo, (uint64_t)def->min);
		units_format_duration(hi, sizeof hi, (uint64_t)def->max);
	} else if (def->type == OPT_SIZE || def->type == OPT_SIZE_PCT) {
		units_format_size(lo, sizeof lo, (uint64_t)def->min);
		units_format_size(hi, sizeof hi, (uint64_t)def->max);
	} else {
		snprintf(lo, sizeof lo, "%" PRId64, def->min);
		snprintf(hi, sizeof hi, "%" PRId64, def->max);
	}
	return (fail_with(cause, RB_EXIT_INPUT,
	    "--%s %s is out of range (%s to %s)", def->name, value, lo, hi));
}

/*
 * Parse a finite floating-point number within the option's range; nan,
 * inf and trailing garbage are refused.
 */
static int
opt_set_double(const struct opt_def *def, double *field, const char *value,
    char **cause)
{
	char range[96], *end;
	double d;
	int in;

	d = strtod(value, &end);
	if (end == value || *end != '\0' || !isfinite(d))
		return (fail_with(cause, RB_EXIT_INPUT, "--%s: expected a "
		    "finite number, not '%s'", def->name, value));
	if (def->dmin != 0 || def->dmax != 0) {
		in = def->dopen ? d > def->dmin && d < def->dmax :
		    d >= def->dmin && d <= def->dmax;
		if (!in) {
			if (def->dopen)
				snprintf(range, sizeof range, "above %g and "
				    "below %g", def->dmin, def->dmax);
			else
				snprintf(range, sizeof range, "%g to %g",
				    def->dmin, def->dmax);
			return (fail_with(cause, RB_EXIT_INPUT, "--%s %s is "
			    "out of range (%s)", def->name, value, range));
		}
	}
	*field = d;
	return (0);
}

/* rc of a number option, with units.c's reason (why) as the cause. */
static int
opt_number_fail(const struct opt_def *def, int rc, char *why, char **cause)
{
	if (why != NULL) {
		rc = fail_with(cause, RB_EXIT_INPUT, "--%s: %s", def->name,
		    why);
		free(why);
	}
	return (rc);
}

/* A flag's value: yes/no and their synonyms (none given: yes). */
static int
opt_set_flag(const struct opt_def *def, int *field, const char *value,
    char **cause)
{
	if (value == NULL || strcmp(value, "1") == 0 ||
	    strcmp(value, "yes") == 0 || strcmp(value, "true") == 0 ||
	    strcmp(value, "on") == 0)
		*field = 1;
	else if (strcmp(value, "0") == 0 || strcmp(value, "no") == 0 ||
	    strcmp(value, "false") == 0 || strcmp(value, "off") == 0)
		*field = 0;
	else
		return (fail_with(cause, RB_EXIT_INPUT, "--%s takes yes or no, "
		    "not '%s'", def->name, value));
	return (0);
}

/* One of an enum's choices, stored as its index. */
static int
opt_set_enum(const struct opt_def *def, int *field, const char *value,
    char **cause)
{
	char list_text[512] = "";
	int i;

	for (i = 0; def->choices[i] != NULL; i++) {
		if (strcmp(def->choices[i], value) == 0) {
			*field = i;
			return (0);
		}
	}
	for (i = 0; def->choices[i] != NULL; i++) {
		if (i > 0)
			strncat(list_text, ", ", sizeof list_text -
			    strlen(list_text) - 1);
		strncat(list_text, def->choices[i], sizeof list_text -
		    strlen(list_text) - 1);
	}
	return (fail_with(cause, RB_EXIT_INPUT, "--%s: '%s' is not one of %s",
	    def->name, value, list_text));
}

/* An integer, size or duration, parsed by units.c and range-checked. */
static int
opt_set_number(const struct opt_def *def, void *field, const char *value,
    char **cause)
{
	struct opt_size size;
	char *why = NULL;
	uint64_t u = 0;
	long l;
	int rc = 0;

	switch (def->type) {
	case OPT_LONG:
		rc = units_parse_long(value, LONG_MIN, LONG_MAX, &l, &why);
		if (rc == 0 && (rc = opt_check_range(def, l, value, cause)) ==
		    0)
			*(long *)field = l;
		return (opt_number_fail(def, rc, why, cause));
	case OPT_SIZE_PCT:
		rc = units_parse_size_pct(value, &size.bytes, &size.pct, &why);
		if (rc == 0 && size.pct == 0)
			rc = opt_check_range(def, (int64_t)size.bytes, value,
			    cause);
		if (rc == 0)
			*(struct opt_size *)field = size;
		return (opt_number_fail(def, rc, why, cause));
	case OPT_U64:
		rc = units_parse_u64(value, 0, UINT64_MAX, &u, &why);
		break;
	case OPT_SIZE:
		rc = units_parse_size(value, &u, &why);
		break;
	default:	/* OPT_DURATION */
		rc = units_parse_duration(value, &u, &why);
		break;
	}
	if (rc == 0 && (rc = opt_check_range(def, (int64_t)u, value,
	    cause)) == 0)
		*(uint64_t *)field = u;
	return (opt_number_fail(def, rc, why, cause));
}

/* Parse one value for one option into the settings. */
int
opt_set_value(const struct opt_def *def, void *settings, const char *value,
    char **cause)
{
	void *field = opt_field(def, settings);
	struct opt_list *list;

	switch (def->type) {
	case OPT_FLAG:
		return (opt_set_flag(def, field, value, cause));
	case OPT_STRING:
		if (value == NULL)
			value = "";
		free(*(char **)field);
		*(char **)field = xstrdup(value);
		return (0);
	case OPT_ENUM:
		return (opt_set_enum(def, field, value, cause));
	case OPT_DOUBLE:
		return (opt_set_double(def, field, value, cause));
	case OPT_LIST:
		list = field;
		list->v = xreallocarray(list->v, list->n + 1, sizeof *list->v);
		list->v[list->n++] = xstrdup(value);
		return (0);
	case OPT_LONG:
	case OPT_U64:
	case OPT_SIZE:
	case OPT_SIZE_PCT:
	case OPT_DURATION:
		return (opt_set_number(def, field, value, cause));
	}
	return (0);
}

/* Apply every default of a table. */
int
opt_defaults(const struct opt_def *defs, void *settings, char **cause)
{
	const struct opt_def *def;
	int rc;

	for (def = defs; def->name != NULL; def++) {
		if (def->def == NULL)
			continue;
		if ((rc = opt_set_value(def, settings, def->def, cause)) != 0)
			return (rc);
	}
	return (0);
}

/*
 * The error for an unknown long option, with the closest option name
 * when one is close.  The caller says where the options are listed.
 */
static int
opt_unknown(const struct opt_set *sets, int nsets, const char *name,
    size_t len, char **cause)
{
	const struct opt_def *def;
	struct suggest sg;
	char *typed = xstrndup(name, len);
	int i, rc;

	suggest_init(&sg, typed);
	for (i = 0; i < nsets; i++)
		for (def = sets[i].defs; def->name != NULL; def++)
			suggest_offer(&sg, def->name);
	if (sg.best != NULL)
		rc = fail_with(cause, RB_EXIT_INPUT, "unknown option --%s "
		    "(did you mean --%s?)", typed, sg.best);
	else
		rc = fail_with(cause, RB_EXIT_INPUT, "unknown option --%s",
		    typed);
	free(typed);
	return (rc);
}

/* Look up a long option by exact name or unique prefix in every table. */
static int
opt_lookup(const struct opt_set *sets, int nsets, const char *name,
    size_t len, const struct opt_def **found, int *which, char **cause)
{
	const struct opt_def *def, *match = NULL;
	char others[512] = "";
	int i, nmatch = 0, mwhich = -1;

	for (i = 0; i < nsets; i++) {
		for (def = sets[i].defs; def->name != NULL; def++) {
			if (strncmp(def->name, name, len) != 0)
				continue;
			if (strlen(def->name) == len) {
				*found = def;
				*which = i;
				return (0);
			}
			if (match != NULL && match == def)
				continue;
			nmatch++;
			if (nmatch <= 4) {
				if (others[0] != '\0')
					strncat(others, ", ", sizeof others -
					    strlen(others) - 1);
				strncat(others, "--", sizeof others -
				    strlen(others) - 1);
				strncat(others, def->name, sizeof others -
				    strlen(others) - 1);
			}
			match = def;
			mwhich = i;
		}
	}
	if (nmatch == 1) {
		*found = match;
		*which = mwhich;
		return (0);
	}
	if (nmatch > 1)
		return (fail_with(cause, RB_EXIT_INPUT,
		    "ambiguous option --%.*s (could be %s)", (int)len, name,
		    others));
	return (opt_unknown(sets, nsets, name, len, cause));
}

/*
 * Parse a command line (argv[0] is the command name) against several tables.
 * Options and arguments may be mixed; "--" ends options.  Arguments are
 * moved to the end of argv and *first_arg says where they start.  Returns
 * OPT_HELP_REQUESTED for --help, 0 on success or -RB_EXIT_INPUT.
 */
int
opt_parse(const struct opt_set *sets, int nsets, int argc, char **argv,
    int *first_arg, char **cause)
{
	const struct opt_def *def;
	char **args = xcalloc(argc + 1, sizeof *args);
	const char *arg, *name, *eq, *value;
	int i, j, nargs = 0, which, rc = 0;
	size_t len;

	for (i = 1; i < argc; i++) {
		arg = argv[i];
		if (strcmp(arg, "--") == 0) {
			for (j = i + 1; j < argc; j++)
				args[nargs++] = argv[j];
			break;
		}
		if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
			rc = OPT_HELP_REQUESTED;
			goto out;
		}
		if (strncmp(arg, "--", 2) != 0) {
			if (arg[0] == '-' && arg[1] != '\0') {
				rc = fail_with(cause, RB_EXIT_INPUT,
				    "unknown option %s (options are long: "
				    "--name value)", arg);
				goto out;
			}
			args[nargs++] = argv[i];
			continue;
		}
		name = arg + 2;
		eq = strchr(name, '=');
		len = eq != NULL ? (size_t)(eq - name) : strlen(name);
		if ((rc = opt_lookup(sets, nsets, name, len, &def, &which,
		    cause)) != 0)
			goto out;
		if (def->type == OPT_FLAG) {
			value = eq != NULL ? eq + 1 : NULL;
		} else if (eq != NULL) {
			value = eq + 1;
		} else {
			if (i + 1 >= argc) {
				rc = fail_with(cause, RB_EXIT_INPUT,
				    "--%s needs a value (%s)", def->name,
				    def->arg != NULL ? def->arg : "VALUE");
				goto out;
			}
			value = argv[++i];
		}
		if ((rc = opt_set_value(def, sets[which].settings, value,
		    cause)) != 0)
			goto out;
		while (def->type == OPT_LIST && def->multi && eq == NULL &&
		    i + 1 < argc && argv[i + 1][0] != '-') {
			if ((rc = opt_set_value(def, sets[which].settings,
			    argv[++i], cause)) != 0)
				goto out;
		}
	}
	/* Keep argv[0], then the arguments in order. */
	for (j = 0; j < nargs; j++)
		argv[argc - nargs + j] = args[j];
	*first_arg = argc - nargs;
out:
	free(args);
	return (rc);
}


/* Turn a size option into bytes, given MemAvailable in bytes. */
uint64_t
opt_size_resolve(const struct opt_size *size, uint64_t available)
{
	if (size->pct > 0)
		return ((uint64_t)((double)available * size->pct / 100.0));
	return (size->bytes);
}
