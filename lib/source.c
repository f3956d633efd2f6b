/*
 * The table of region sources and the choice between them.  "auto" asks
 * each source in table order whether it applies and takes the first that
 * does; the reasons of those passed over are kept in src->why, because
 * "why is this run using zone regions?" is the first question a user of a
 * patched kernel asks.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "region-map.h"
#include "source.h"
#include "units.h"

/* Auto-selection order (SOURCE_LIST): most specific first. */
#define SOURCE_ELEM(name) &src_##name##_ops,
const struct source_ops *const source_table[] = {
	SOURCE_LIST(SOURCE_ELEM)
	NULL
};
#undef SOURCE_ELEM

/* Defaults of the shared settings; every source at its own defaults. */
void
source_config_init(struct source_config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	snprintf(cfg->proc_root, sizeof cfg->proc_root, "/proc");
	snprintf(cfg->sys_root, sizeof cfg->sys_root, "/sys");
}

/* The position of a source in source_table, or -1. */
int
source_index(const struct source_ops *ops)
{
	int i;

	for (i = 0; source_table[i] != NULL; i++) {
		if (source_table[i] == ops)
			return (i);
	}
	return (-1);
}

/*
 * A source's own settings at their defaults (checked), or NULL when the
 * source has no options.  The defaults are part of the program, so a bad
 * one is a bug and dies.
 */
void *
source_settings_new(const struct source_ops *ops)
{
	char *cause = NULL;
	void *settings;

	if (ops->options == NULL)
		return (NULL);
	settings = xcalloc(1, ops->settings_size);
	if (opt_defaults(ops->options, settings, &cause) != 0 ||
	    (ops->check != NULL && ops->check(settings, &cause) != 0))
		die(RB_EXIT_INPUT, "source %s: bad default: %s", ops->name,
		    cause);
	return (settings);
}

/* Release what source_settings_new returned. */
void
source_settings_free(const struct source_ops *ops, void *settings)
{
	if (settings == NULL)
		return;
	opt_free(ops->options, settings);
	free(settings);
}

/* Point src at ops and its settings from cfg (or fresh defaults). */
static void
source_bind(struct source *src, const struct source_ops *ops)
{
	int i = source_index(ops);

	if (src->own_settings != NULL) {
		source_settings_free(src->ops, src->own_settings);
		src->own_settings = NULL;
	}
	src->ops = ops;
	src->settings = i >= 0 ? src->cfg.settings[i] : NULL;
	if (src->settings == NULL)
		src->settings = src->own_settings = source_settings_new(ops);
}

/* The emulated region map of an open source, or NULL. */
const struct region_map *
source_region_map(const struct source *src)
{
	if (src == NULL || src->ops == NULL || src->ops->region_map == NULL)
		return (NULL);
	return (src->ops->region_map(src));
}

/* Bytes per emulated region when regions have one fixed size, else 0. */
uint64_t
source_region_bytes(const struct source *src)
{
	const struct region_map *map = source_region_map(src);

	if (map == NULL || map->mode != REGION_MAP_SIZE)
		return (0);
	return (map->region_pages * map->page_size);
}

/*
 * Seconds a sample of the open source is expected to take, or < 0 when
 * the source cannot tell; *basis and *advice (caller frees) as in
 * source_ops.estimate, NULL when there is nothing to say.
 */
double
source_estimate(const struct source *src, double interval_s, char **basis,
    char **advice)
{
	*basis = *advice = NULL;
	if (src->ops->estimate == NULL || src->priv == NULL)
		return (-1);
	return (src->ops->estimate(src, interval_s, basis, advice));
}

/* The source called name, or NULL. */
const struct source_ops *
source_lookup(const char *name)
{
	int i;

	for (i = 0; source_table[i] != NULL; i++) {
		if (strcmp(source_table[i]->name, name) == 0)
			return (source_table[i]);
	}
	return (NULL);
}

/* "auto, patched, ..." for messages. */
static char *
source_names(void)
{
	char *list, *next;
	int i;

	list = xstrdup("auto");
	for (i = 0; source_table[i] != NULL; i++) {
		next = xasprintf("%s, %s", list, source_table[i]->name);
		free(list);
		list = next;
	}
	return (list);
}

/* Undo a partly opened source. */
static void
source_clear(struct source *src)
{
	free(src->why);
	free(src->passed_over);
	if (src->own_settings != NULL)
		source_settings_free(src->ops, src->own_settings);
	procfile_free(&src->zoneinfo);
	procfile_free(&src->buddyinfo);
	procfile_free(&src->pagetypeinfo);
	memset(src, 0, sizeof *src);
}

/* Append "; name: reason" to a list of sources passed over. */
static char *
source_passed_over(char *list, const char *name, const char *reason)
{
	char *next;

	next = xasprintf("%s%snot %s: %s", list != NULL ? list : "",
	    list != NULL ? "; " : "", name, reason != NULL ? reason :
	    "does not apply");
	free(list);
	return (next);
}

/* Probe in table order and keep the first source that applies. */
static int
source_pick(struct source *src, char **cause)
{
	const struct source_ops *ops;
	char *reason, *passed = NULL, *lines = NULL;
	int i, r;

	for (i = 0; (ops = source_table[i]) != NULL; i++) {
		reason = NULL;
		source_bind(src, ops);
		r = ops->probe(src, &reason);
		if (r < 0) {
			free(passed);
			if (cause != NULL)
				*cause = reason != NULL ? reason :
				    xasprintf("source %s failed to probe",
				    ops->name);
			else
				free(reason);
			return (r);
		}
		if (r == 0) {
			passed = source_passed_over(passed, ops->name, reason);
			lines = xasprintf("%s%s%s: %s", lines != NULL ? lines :
			    "", lines != NULL ? "\n" : "", ops->name,
			    reason != NULL ? reason : "does not apply");
			free(reason);
			free(src->passed_over);
			src->passed_over = lines;
			continue;
		}
		src->why = xasprintf("auto chose %s: %s", ops->name,
		    reason != NULL ? reason : "it applies");
		free(reason);
		free(passed);
		return (0);
	}
	r = fail_with(cause, RB_EXIT_ENV, "no region source applies here: %s",
	    passed != NULL ? passed : "no sources");
	free(passed);
	return (r);
}

/* Probe an explicitly named source; one that does not apply is refused. */
static int
source_pick_named(struct source *src, const char *name, char **cause)
{
	const struct source_ops *ops;
	char *reason = NULL, *names;
	int r;

	if ((ops = source_lookup(name)) == NULL) {
		names = source_names();
		r = fail_with(cause, RB_EXIT_INPUT, "unknown source '%s' "
		    "(sources: %s)", name, names);
		free(names);
		return (r);
	}
	source_bind(src, ops);
	r = ops->probe(src, &reason);
	if (r < 0) {
		if (cause != NULL)
			*cause = reason != NULL ? reason : xasprintf("source "
			    "%s failed to probe", ops->name);
		else
			free(reason);
		return (r);
	}
	if (r == 0) {
		r = fail_with(cause, RB_EXIT_ENV, "source %s does not apply "
		    "here: %s; use --source auto to pick one that does",
		    name, reason != NULL ? reason : "its probe said no");
		free(reason);
		return (r);
	}
	src->why = xasprintf("asked for with --source %s: %s", name,
	    reason != NULL ? reason : "it applies");
	free(reason);
	return (0);
}

/*
 * Open the source called name ("auto" or NULL: the first that applies)
 * with the settings cfg.  Errors: unknown name (input), a named source
 * that does not apply (environment), unreadable or malformed files.
 */
int
source_open(struct source *src, const char *name,
    const struct source_config *cfg, char **cause)
{
	int r;

	memset(src, 0, sizeof *src);
	src->cfg = *cfg;
	procfile_init(&src->zoneinfo);
	procfile_init(&src->buddyinfo);
	procfile_init(&src->pagetypeinfo);
	if (name == NULL || strcmp(name, "auto") == 0)
		r = source_pick(src, cause);
	else
		r = source_pick_named(src, name, cause);
	if (r == 0 && src->ops->open != NULL)
		r = src->ops->open(src, cause);
	if (r != 0)
		source_clear(src);
	return (r);
}

/* Take one sample; stamps snap->t_ns when the source did not. */
int
source_read(struct source *src, struct snapshot *snap, int flags,
    char **cause)
{
	uint64_t t = units_now_ns();
	int r;

	snap->t_ns = 0;
	r = src->ops->read(src, snap, flags, cause);
	if (r == 0 && snap->t_ns == 0)
		snap->t_ns = t;
	return (r);
}

/* Release everything the source holds. */
void
source_close(struct source *src)
{
	if (src->ops != NULL && src->ops->close != NULL)
		src->ops->close(src);
	source_clear(src);
}

/* How exact the source's counts are, in one line (caller frees), or NULL. */
char *
source_counting(const struct source *src)
{
	if (src->ops == NULL || src->ops->counting == NULL)
		return (NULL);
	return (src->ops->counting(src));
}
