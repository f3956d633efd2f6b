/*
 * regionbench verify: is a results directory whole?  Every CSV parses with
 * its header, rows are well formed, times never go backwards, keys agree
 * with regions.csv and meta.json is valid.  Exit 0 when whole (and say
 * whether the run completed), 1 naming what is damaged, 4 when the run
 * stopped before its first sample (no regions.csv, no rows: no data, which
 * a signal can cause at any moment, unlike damage).  analyze/verify.c
 * does the checks.
 */
#include "config.h"

#include <stddef.h>
#include <sys/stat.h>

#include "command.h"
#include "log.h"
#include "verify.h"

struct verify_settings {
	int	 format;	/* 0 text, 1 json */
};

static const char *const verify_formats[] = { "text", "json", NULL };

static const struct opt_def verify_options[] = {
	{ .name = "format", .type = OPT_ENUM,
	  .offset = offsetof(struct verify_settings, format),
	  .arg = "FORMAT", .def = "text", .choices = verify_formats,
	  .help = "one line per run, or one JSON object (docs/json.md)" },
	{ .name = NULL }
};

/* regionbench verify. */
static int
cmd_verify_exec(int argc, char **argv)
{
	extern const struct command_entry cmd_verify_entry;
	struct verify_settings set;
	struct stat st;
	char *cause = NULL;
	json_t *runs = NULL, *root;
	int first_arg, i, v, rc = RB_EXIT_OK;

	command_parse(&cmd_verify_entry, &set, argc, argv, &first_arg);
	if (first_arg == argc)
		command_usage_error(&cmd_verify_entry,
		    "name a results directory");
	for (i = first_arg; i < argc; i++) {
		if (stat(argv[i], &st) == -1 || !S_ISDIR(st.st_mode))
			die(RB_EXIT_INPUT, "verify: %s is not a directory",
			    argv[i]);
		if (set.format == 1 && runs == NULL)
			runs = json_array();
		if ((v = runs != NULL ? verify_path_json(runs, argv[i],
		    &cause) : verify_path(stdout, argv[i], &cause)) < 0)
			die(-v, "verify: %s", cause);
		rc = verify_worse(rc, v);
	}
	if (runs != NULL) {
		root = json_pack("{s:s, s:i, s:s, s:i, s:o}", "command",
		    "verify", "schema_version", VERIFY_JSON_VERSION, "verdict",
		    rc == RB_EXIT_OK ? "whole" : rc == RB_EXIT_FAIL ?
		    "damaged" : "no data", "exit_status", rc, "runs", runs);
		if (json_dumpf(root, stdout, JSON_INDENT(2) |
		    JSON_PRESERVE_ORDER) != 0 || putchar('\n') == EOF)
			die_errno(RB_EXIT_ENV, "verify: stdout");
		json_decref(root);
	}
	return (rc);
}

const struct command_entry cmd_verify_entry = {
	.name = "verify",
	.usage = "DIR...",
	.summary = "check that a results directory is whole",
	.options = verify_options,
	.description =
	    "Checks meta.json and every CSV file: each parses with its header,\n"
	    "rows are well formed, t_s never goes backwards and every key is\n"
	    "in regions.csv.  A directory of repetitions is checked child by\n"
	    "child.  Exit 0 when whole (saying whether the run completed),\n"
	    "1 naming what is damaged, 4 when the run stopped before its\n"
	    "first sample (no data, not damage).  --format json prints one\n"
	    "object with a verdict per run.",
	.exec = cmd_verify_exec,
};
