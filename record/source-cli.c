/*
 * Shared region-source options and the code that turns them into an open
 * source, so that sample, info and run accept the same flags with the same
 * meaning.  Options only one source has live in that source's own table;
 * this file gathers them from source_table, so adding a source or a
 * source option needs no change here.
 */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "log.h"
#include "source-cli.h"
#include "units.h"

const struct opt_def source_cli_options[] = {
	{ .name = "source", .type = OPT_STRING,
	  .offset = offsetof(struct source_cli, source), .arg = "NAME",
	  .def = "auto",
	  .help = "region source: auto or one of the sources below" },
	{ .name = "proc", .type = OPT_STRING,
	  .offset = offsetof(struct source_cli, proc), .arg = "DIR",
	  .def = "/proc", .help = "read zoneinfo, buddyinfo, ... from DIR" },
	{ .name = "sys", .type = OPT_STRING,
	  .offset = offsetof(struct source_cli, sys), .arg = "DIR",
	  .def = "/sys", .help = "read devices/system/{node,memory} from DIR" },
	{ .name = NULL }
};

/*
 * Fill sets with the common table and the table of every source that has
 * options (at most 1 + SOURCE_COUNT); returns how many.  Each source's
 * settings are allocated here and released by source_cli_free.
 */
int
source_cli_sets(struct source_cli *cli, struct opt_set *sets)
{
	const struct source_ops *ops;
	int i, n = 0;

	sets[n].defs = source_cli_options;
	sets[n++].settings = cli;
	for (i = 0; (ops = source_table[i]) != NULL; i++) {
		if (ops->options == NULL)
			continue;
		if (cli->settings[i] == NULL)
			cli->settings[i] = xcalloc(1, ops->settings_size);
		sets[n].defs = ops->options;
		sets[n++].settings = cli->settings[i];
	}
	return (n);
}

/* Help for the common options, the sources and each source's options. */
void
source_cli_print_help(FILE *f, int width, const char *const *defaults)
{
	const struct source_ops *ops;
	struct opt_def *shown;
	const char *const *pair;
	int i, j, n;

	fprintf(f, "\nregion source options:\n");
	opt_print_help(f, source_cli_options, width);
	fprintf(f, "\nregion sources (auto tries them in this order):\n");
	for (i = 0; (ops = source_table[i]) != NULL; i++) {
		fprintf(f, "  %-14s ", ops->name);
		opt_print_wrapped(f, ops->summary, 17, 17, width);
	}
	for (i = 0; (ops = source_table[i]) != NULL; i++) {
		if (ops->options == NULL)
			continue;
		fprintf(f, "\n%s source options:\n", ops->name);
		/* Show the command's own defaults where it has them. */
		for (n = 0; ops->options[n].name != NULL; n++)
			;
		shown = xcalloc(n + 1, sizeof *shown);
		memcpy(shown, ops->options, n * sizeof *shown);
		for (pair = defaults; pair != NULL && pair[0] != NULL;
		    pair += 2) {
			for (j = 0; j < n; j++)
				if (strcmp(shown[j].name, pair[0]) == 0)
					shown[j].def = pair[1];
		}
		opt_print_help(f, shown, width);
		free(shown);
	}
}

/*
 * A command's own defaults for source options (name, value pairs), over
 * the sources' table defaults and before its command line is parsed.
 */
int
source_cli_defaults(struct source_cli *cli, const char *const *pairs,
    char **cause)
{
	const struct source_ops *ops;
	const struct opt_def *def;
	int i, rc, found;

	for (; pairs[0] != NULL; pairs += 2) {
		found = 0;
		for (i = 0; (ops = source_table[i]) != NULL; i++) {
			if (ops->options == NULL || cli->settings[i] == NULL ||
			    (def = opt_find(ops->options, pairs[0])) == NULL)
				continue;
			if ((rc = opt_set_value(def, cli->settings[i],
			    pairs[1], cause)) != 0)
				return (rc);
			found = 1;
		}
		if (!found)
			return (fail_with(cause, RB_EXIT_INPUT, "no source has "
			    "an option --%s", pairs[0]));
	}
	return (0);
}

/*
 * A suite file's source setting (e.g. region-size): it applies unless the
 * command line gave that option, which is taken to be the case when the
 * option no longer holds its default text.  Only string options can come
 * from a suite file.
 */
int
source_cli_suite_value(struct source_cli *cli, const char *name,
    const char *value, char **cause)
{
	const struct source_ops *ops;
	const struct opt_def *def;
	char **text;
	int i;

	for (i = 0; (ops = source_table[i]) != NULL; i++) {
		if (ops->options == NULL || cli->settings[i] == NULL ||
		    (def = opt_find(ops->options, name)) == NULL)
			continue;
		if (def->type != OPT_STRING)
			break;
		text = (char **)((char *)cli->settings[i] + def->offset);
		if (*text != NULL && def->def != NULL &&
		    strcmp(*text, def->def) != 0)
			return (0);
		return (opt_set_value(def, cli->settings[i], value, cause));
	}
	return (fail_with(cause, RB_EXIT_INPUT, "no source has a string "
	    "option --%s", name));
}

/* Turn parsed options into a source configuration. */
int
source_cli_config(const struct source_cli *cli, struct source_config *cfg,
    char **cause)
{
	const struct source_ops *ops;
	int i, rc;

	source_config_init(cfg);
	if (strlen(cli->proc) >= sizeof cfg->proc_root ||
	    strlen(cli->sys) >= sizeof cfg->sys_root)
		return (fail_with(cause, RB_EXIT_INPUT, "path too long"));
	snprintf(cfg->proc_root, sizeof cfg->proc_root, "%s", cli->proc);
	snprintf(cfg->sys_root, sizeof cfg->sys_root, "%s", cli->sys);
	cfg->busy_cores = cli->busy_cores;
	cfg->interval_s = cli->interval_s;
	for (i = 0; (ops = source_table[i]) != NULL; i++) {
		cfg->settings[i] = cli->settings[i];
		if (ops->check != NULL && cli->settings[i] != NULL &&
		    (rc = ops->check(cli->settings[i], cause)) != 0)
			return (rc);
	}
	return (0);
}

/* Release the option strings and each source's settings. */
void
source_cli_free(struct source_cli *cli)
{
	int i;

	opt_free(source_cli_options, cli);
	for (i = 0; source_table[i] != NULL; i++) {
		source_settings_free(source_table[i], cli->settings[i]);
		cli->settings[i] = NULL;
	}
}

/*
 * Open the source the options ask for; 0, or a negative exit code with a
 * cause.  proc_override replaces --proc (a replay's first sample).
 */
int
source_cli_open(const struct source_cli *cli, struct source *src,
    const char *proc_override, char **cause)
{
	struct source_config cfg;
	struct stat st;
	int rc;

	if ((rc = source_cli_config(cli, &cfg, cause)) != 0)
		return (rc);
	if (stat(cli->proc, &st) == -1 || !S_ISDIR(st.st_mode))
		return (fail_with(cause, RB_EXIT_INPUT, "--proc %s: not a "
		    "directory", cli->proc));
	if (stat(cli->sys, &st) == -1 || !S_ISDIR(st.st_mode))
		return (fail_with(cause, RB_EXIT_INPUT, "--sys %s: not a "
		    "directory", cli->sys));
	if (proc_override != NULL)
		snprintf(cfg.proc_root, sizeof cfg.proc_root, "%s",
		    proc_override);
	return (source_open(src, cli->source, &cfg, cause));
}
