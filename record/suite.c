/*
 * Suite-file parser on libinih.  libinih reports the line of the first
 * handler error but does not pass line numbers to the handler, so the file
 * is fed through a reader that counts lines: every error, including the
 * ones found by a workload's own option table, names file:line.
 */
#include "config.h"

#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "suite.h"
#include "units.h"
#include "vacate.h"

struct suite_parse {
	struct suite		*suite;
	const char		*cursor;	/* next unread byte of text */
	int			 line;		/* line last handed to inih */
	int			 at_line_start;
	int			 section_line;	/* line of the last [header] */
	int			 in_suite;	/* last section was [suite] */
	struct suite_phase	*phase;		/* last section's phase */
	suite_workload_check	 check_workload;
	suite_option_check	 check_option;
	char			*error;		/* first error, with line */
};

/* inih reader: hand out one line of the text and count it. */
static char *
suite_reader(char *str, int num, void *stream)
{
	struct suite_parse *p = stream;
	const char *nl;
	size_t len;

	if (*p->cursor == '\0')
		return (NULL);
	if (p->at_line_start)
		p->line++;
	nl = strchr(p->cursor, '\n');
	len = nl != NULL ? (size_t)(nl - p->cursor + 1) : strlen(p->cursor);
	if (len >= (size_t)num) {
		/* Longer than inih's buffer: a line no suite needs. */
		if (p->error == NULL)
			p->error = xasprintf("%d: longer than %d characters",
			    p->line, num - 1);
		len = (size_t)num - 1;
	}
	memcpy(str, p->cursor, len);
	str[len] = '\0';
	if (p->at_line_start && str[strspn(str, " \t")] == '[')
		p->section_line = p->line;
	p->cursor += len;
	p->at_line_start = len > 0 && str[len - 1] == '\n';
	return (str);
}

/* Record the first error, prefixed with the current line. */
static int RB_PRINTF(2, 3)
suite_error(struct suite_parse *p, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	if (p->error == NULL) {
		va_start(ap, fmt);
		msg = xvasprintf(fmt, ap);
		va_end(ap);
		p->error = xasprintf("%d: %s", p->line, msg);
		free(msg);
	}
	return (0);
}

/* Parse a duration value of a key, or record an error. */
static int
suite_duration(struct suite_parse *p, const char *key, const char *value,
    uint64_t *ns)
{
	char *why = NULL;

	if (units_parse_duration(value, ns, &why) != 0) {
		suite_error(p, "%s: %s", key, why);
		free(why);
		return (-1);
	}
	return (0);
}

/* Parse "0%,94%,100%" into fractions with their labels. */
static int
suite_checkpoints(struct suite_parse *p, struct suite_phase *ph,
    const char *value)
{
	char buf[512], *tok, *save = NULL, *end;
	double v;

	snprintf(buf, sizeof buf, "%s", value);
	ph->ncheckpoints = 0;
	for (tok = strtok_r(buf, ", ", &save); tok != NULL;
	    tok = strtok_r(NULL, ", ", &save)) {
		v = strtod(tok, &end);
		if (end == tok || strcmp(end, "%") != 0 || v < 0 || v > 100)
			return (suite_error(p, "checkpoints: '%s' is not a "
			    "percentage from 0%% to 100%%", tok));
		if (ph->ncheckpoints == SUITE_MAX_CHECKPOINTS)
			return (suite_error(p, "checkpoints: more than %d",
			    SUITE_MAX_CHECKPOINTS));
		if (ph->ncheckpoints > 0 &&
		    v / 100 <= ph->checkpoints[ph->ncheckpoints - 1])
			return (suite_error(p, "checkpoints must increase: "
			    "'%s'", tok));
		ph->checkpoints[ph->ncheckpoints] = v / 100;
		snprintf(ph->checkpoint_labels[ph->ncheckpoints], 16, "%s",
		    tok);
		ph->ncheckpoints++;
	}
	if (ph->ncheckpoints == 0)
		return (suite_error(p, "checkpoints: empty list"));
	return (1);
}

/* Parse "0/6 0/7" (or with commas): the regions to vacate. */
static int
suite_vacate(struct suite_parse *p, struct suite_phase *ph,
    const char *value)
{
	char buf[512], *tok, *save = NULL, *why = NULL;
	int i;

	snprintf(buf, sizeof buf, "%s", value);
	ph->nvacate = 0;
	for (tok = strtok_r(buf, ", ", &save); tok != NULL;
	    tok = strtok_r(NULL, ", ", &save)) {
		if (ph->nvacate == SUITE_MAX_VACATE)
			return (suite_error(p, "vacate: more than %d regions",
			    SUITE_MAX_VACATE));
		if (vacate_parse_region(tok, &ph->vacate_node[ph->nvacate],
		    &ph->vacate_region[ph->nvacate], &why) != 0) {
			suite_error(p, "vacate: %s", why);
			free(why);
			return (0);
		}
		for (i = 0; i < ph->nvacate; i++) {
			if (ph->vacate_node[i] == ph->vacate_node[ph->nvacate] &&
			    ph->vacate_region[i] ==
			    ph->vacate_region[ph->nvacate])
				return (suite_error(p, "vacate: region '%s' "
				    "given twice", tok));
		}
		ph->nvacate++;
	}
	if (ph->nvacate == 0)
		return (suite_error(p, "vacate: empty list"));
	ph->vacate_line = p->line;
	return (1);
}

/* A key of the [suite] section. */
static int
suite_key(struct suite_parse *p, const char *key, const char *value)
{
	struct suite *s = p->suite;
	char *why = NULL;

	if (strcmp(key, "name") == 0) {
		if (strlen(value) >= sizeof s->name || *value == '\0' ||
		    strpbrk(value, "/ \t") != NULL)
			return (suite_error(p, "name: '%s' must be a short "
			    "word without '/' or blanks", value));
		snprintf(s->name, sizeof s->name, "%s", value);
	} else if (strcmp(key, "description") == 0) {
		free(s->description);
		s->description = xstrdup(value);
	} else if (strcmp(key, "interval") == 0) {
		if (suite_duration(p, key, value, &s->interval_ns) != 0)
			return (0);
		if (s->interval_ns < 1000000)
			return (suite_error(p, "interval: below 1ms"));
	} else if (strcmp(key, "repeat") == 0) {
		if (units_parse_long(value, 1, 1000, &s->repeat, &why) != 0) {
			suite_error(p, "repeat: %s", why);
			free(why);
			return (0);
		}
	} else if (strcmp(key, "source") == 0) {
		free(s->source);
		s->source = xstrdup(value);
	} else if (strcmp(key, "table") == 0) {
		if (strcmp(value, "seed") == 0)
			s->seed_table = 1;
		else if (strcmp(value, "summary") == 0)
			s->seed_table = 0;
		else
			return (suite_error(p, "table: '%s' is not summary or "
			    "seed", value));
	} else if (strcmp(key, "region-size") == 0) {
		free(s->region_size);
		s->region_size = xstrdup(value);
	} else {
		return (suite_error(p, "unknown key '%s' in [suite] (known: "
		    "name, description, interval, repeat, source, "
		    "region-size, table)", key));
	}
	return (1);
}

/* A key of a [phase NAME] section. */
static int
phase_key(struct suite_parse *p, struct suite_phase *ph, const char *key,
    const char *value)
{
	struct suite_option *o;
	char *why = NULL;
	long l;
	int rc;

	if (strcmp(key, "workload") == 0) {
		if (ph->workload != NULL)
			return (suite_error(p, "workload given twice"));
		if (p->check_workload != NULL &&
		    p->check_workload(value, &why) != 0) {
			suite_error(p, "%s", why);
			free(why);
			return (0);
		}
		ph->workload = xstrdup(value);
	} else if (strcmp(key, "duration") == 0) {
		if (suite_duration(p, key, value, &ph->duration_ns) != 0)
			return (0);
		/* The workload runs for the same duration. */
		goto workload_option;
	} else if (strcmp(key, "checkpoints") == 0) {
		return (suite_checkpoints(p, ph, value));
	} else if (strcmp(key, "settle") == 0) {
		if (suite_duration(p, key, value, &ph->settle_ns) != 0)
			return (0);
	} else if (strcmp(key, "drop-caches") == 0) {
		if (strcmp(value, "no") == 0 || strcmp(value, "0") == 0)
			ph->drop_caches = 0;
		else if (strcmp(value, "yes") == 0)
			ph->drop_caches = 3;
		else if (units_parse_long(value, 1, 3, &l, &why) == 0)
			ph->drop_caches = (int)l;
		else {
			free(why);
			return (suite_error(p, "drop-caches: '%s' is not no, "
			    "yes, 1, 2 or 3", value));
		}
	} else if (strcmp(key, "vacate") == 0) {
		return (suite_vacate(p, ph, value));
	} else if (strcmp(key, "vacate-timeout") == 0) {
		if (suite_duration(p, key, value, &ph->vacate_timeout_ns) != 0)
			return (0);
		if (ph->vacate_timeout_ns == 0)
			return (suite_error(p, "vacate-timeout: expected a "
			    "duration above 0, such as 5m"));
	} else if (strcmp(key, "checkpoint-freeze") == 0) {
		if (strcmp(value, "yes") == 0 || strcmp(value, "1") == 0)
			ph->freeze = 1;
		else if (strcmp(value, "no") == 0 || strcmp(value, "0") == 0)
			ph->freeze = 0;
		else
			return (suite_error(p, "checkpoint-freeze: '%s' is not "
			    "yes or no", value));
	} else if (strcmp(key, "compact") == 0) {
		if (strcmp(value, "yes") == 0 || strcmp(value, "1") == 0)
			ph->compact = 1;
		else if (strcmp(value, "no") == 0 || strcmp(value, "0") == 0)
			ph->compact = 0;
		else
			return (suite_error(p, "compact: '%s' is not yes or no",
			    value));
	} else {
		goto workload_option;
	}
	return (1);

workload_option:
	if (ph->workload == NULL)
		return (suite_error(p, "'%s' before workload=: name the "
		    "workload first", key));
	if (p->check_option != NULL &&
	    (rc = p->check_option(ph->workload, key, value, &why)) != 0) {
		suite_error(p, "%s", why);
		free(why);
		return (0);
	}
	ph->opts = xreallocarray(ph->opts, ph->nopts + 1, sizeof *ph->opts);
	o = &ph->opts[ph->nopts++];
	o->key = xstrdup(key);
	o->value = xstrdup(value);
	o->line = p->line;
	return (1);
}

/* inih handler: route each key to its section. */
static int
suite_handler(void *user, const char *section, const char *key,
    const char *value)
{
	struct suite_parse *p = user;
	struct suite *s = p->suite;
	struct suite_phase *ph;
	const char *name;
	int i;

	if (p->error != NULL)
		return (0);
	if (strcmp(section, "suite") == 0) {
		p->phase = NULL;
		return (suite_key(p, key, value));
	}
	if (strncmp(section, "phase ", 6) != 0) {
		p->line = p->section_line;
		return (suite_error(p, "unknown section [%s] (expected [suite] "
		    "or [phase NAME])", section));
	}
	name = section + 6;
	while (*name == ' ')
		name++;
	if (p->phase == NULL || p->phase->line != p->section_line) {
		for (i = 0; i < s->nphases; i++) {
			if (strcmp(s->phases[i].name, name) == 0) {
				p->line = p->section_line;
				return (suite_error(p, "phase '%s' appears "
				    "twice", name));
			}
		}
		if (*name == '\0' || strlen(name) >= SUITE_NAME_LEN ||
		    strpbrk(name, ",\"/") != NULL)
			return (suite_error(p, "[phase %s]: the name must be "
			    "a short word without , \" or /", name));
		if (s->nphases == SUITE_MAX_PHASES)
			return (suite_error(p, "more than %d phases",
			    SUITE_MAX_PHASES));
		ph = &s->phases[s->nphases++];
		snprintf(ph->name, sizeof ph->name, "%s", name);
		ph->line = p->section_line;
		p->phase = ph;
	}
	return (phase_key(p, p->phase, key, value));
}

/* Load and check a suite file. */
int
suite_load(struct suite *suite, const char *path,
    suite_workload_check check_workload, suite_option_check check_option,
    char **cause)
{
	struct suite_parse p;
	const char *base;
	char *dot;
	int rc, i;

	memset(suite, 0, sizeof *suite);
	suite->path = xstrdup(path);
	suite->interval_ns = NS_PER_SEC;
	suite->repeat = 1;
	if ((suite->text = suite_read_file(path, cause)) == NULL)
		return (-RB_EXIT_INPUT);
	base = strrchr(path, '/') != NULL ? strrchr(path, '/') + 1 : path;
	snprintf(suite->name, sizeof suite->name, "%s", base);
	if ((dot = strrchr(suite->name, '.')) != NULL)
		*dot = '\0';

	memset(&p, 0, sizeof p);
	p.suite = suite;
	p.cursor = suite->text;
	p.at_line_start = 1;
	p.check_workload = check_workload;
	p.check_option = check_option;
	rc = ini_parse_stream(suite_reader, &p, suite_handler, &p);
	if (p.error == NULL && rc > 0)
		p.error = xasprintf("%d: expected [section], key = value or a "
		    "comment", rc);
	if (p.error == NULL && rc < 0)
		p.error = xasprintf("could not be parsed");
	if (p.error == NULL && suite->nphases == 0)
		p.error = xasprintf("%d: no [phase NAME] section", p.line);
	for (i = 0; p.error == NULL && i < suite->nphases; i++) {
		if (suite->phases[i].workload == NULL)
			p.error = xasprintf("%d: [phase %s] has no workload=",
			    suite->phases[i].line, suite->phases[i].name);
		else if (suite->phases[i].nvacate > 0 &&
		    suite->phases[i].ncheckpoints == 0)
			p.error = xasprintf("%d: vacate: [phase %s] has no "
			    "checkpoints= to vacate at",
			    suite->phases[i].vacate_line,
			    suite->phases[i].name);
	}
	if (p.error != NULL) {
		*cause = xasprintf("%s:%s", path, p.error);
		free(p.error);
		return (-RB_EXIT_INPUT);
	}
	return (0);
}

/* Release a suite. */
void
suite_free(struct suite *suite)
{
	int i, j;

	for (i = 0; i < suite->nphases; i++) {
		free(suite->phases[i].workload);
		for (j = 0; j < suite->phases[i].nopts; j++) {
			free(suite->phases[i].opts[j].key);
			free(suite->phases[i].opts[j].value);
		}
		free(suite->phases[i].opts);
	}
	free(suite->path);
	free(suite->text);
	free(suite->description);
	free(suite->source);
	free(suite->region_size);
	memset(suite, 0, sizeof *suite);
}
