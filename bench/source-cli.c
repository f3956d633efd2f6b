/*
 * Shared region-source options and the code that turns them into an open
 * source, so that sample, info, placement and run accept the same flags
 * with the same meaning.
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
	{ "source", OPT_STRING, offsetof(struct source_cli, source), "NAME",
	  "auto", 0, 0, NULL,
	  "region source: auto, patched, sorted-buddy, kpageflags or zone" },
	{ "proc", OPT_STRING, offsetof(struct source_cli, proc), "DIR",
	  "/proc", 0, 0, NULL, "read zoneinfo, buddyinfo, ... from DIR" },
	{ "sys", OPT_STRING, offsetof(struct source_cli, sys), "DIR", "/sys",
	  0, 0, NULL, "read devices/system/{node,memory} from DIR" },
	{ "region-size", OPT_STRING, offsetof(struct source_cli, region_size),
	  "SIZE", "512M", 0, 0, NULL,
	  "emulated region size, or 'block' for one per memory block" },
	{ "region-map", OPT_STRING, offsetof(struct source_cli, region_map),
	  "FILE", NULL, 0, 0, NULL,
	  "emulated regions from a CSV of node,start_pfn,end_pfn" },
	{ "scan-threads", OPT_LONG, offsetof(struct source_cli, scan_threads),
	  "N", "1", 1, 64, NULL, "threads scanning /proc/kpageflags" },
	{ NULL, 0, 0, NULL, NULL, 0, 0, NULL, NULL }
};

/* Turn parsed options into a source configuration. */
int
source_cli_config(const struct source_cli *cli, struct source_config *cfg,
    char **cause)
{
	char *why = NULL;
	int rc;

	source_config_init(cfg);
	if (strlen(cli->proc) >= sizeof cfg->proc_root ||
	    strlen(cli->sys) >= sizeof cfg->sys_root)
		return (fail_with(cause, RB_EXIT_INPUT, "path too long"));
	snprintf(cfg->proc_root, sizeof cfg->proc_root, "%s", cli->proc);
	snprintf(cfg->sys_root, sizeof cfg->sys_root, "%s", cli->sys);
	if (strcmp(cli->region_size, "block") == 0) {
		cfg->region_block = 1;
	} else {
		if ((rc = units_parse_size(cli->region_size, &cfg->region_size,
		    &why)) != 0) {
			rc = fail_with(cause, RB_EXIT_INPUT,
			    "--region-size: %s", why);
			free(why);
			return (rc);
		}
		if (cfg->region_size < (1 << 20))
			return (fail_with(cause, RB_EXIT_INPUT,
			    "--region-size %s is below 1M", cli->region_size));
	}
	cfg->region_map = cli->region_map;
	cfg->scan_threads = (int)cli->scan_threads;
	return (0);
}

/* Release the option strings. */
void
source_cli_free(struct source_cli *cli)
{
	opt_free(source_cli_options, cli);
}

/*
 * Open the source the options ask for, dying with the right exit code when
 * that fails.  proc_override replaces --proc (a replay's first sample).
 */
int
source_cli_open(const struct source_cli *cli, struct source *src,
    const char *proc_override)
{
	struct source_config cfg;
	char *cause = NULL;
	struct stat st;
	int rc;

	if ((rc = source_cli_config(cli, &cfg, &cause)) != 0)
		die(-rc, "%s", cause);
	if (stat(cli->proc, &st) == -1 || !S_ISDIR(st.st_mode))
		die(RB_EXIT_INPUT, "--proc %s: not a directory", cli->proc);
	if (stat(cli->sys, &st) == -1 || !S_ISDIR(st.st_mode))
		die(RB_EXIT_INPUT, "--sys %s: not a directory", cli->sys);
	if (proc_override != NULL)
		snprintf(cfg.proc_root, sizeof cfg.proc_root, "%s",
		    proc_override);
	if ((rc = source_open(src, cli->source, &cfg, &cause)) != 0)
		die(-rc, "%s", cause);
	return (0);
}
