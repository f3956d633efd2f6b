/*
 * Subcommands of regionbench.  Each command file exports one
 * struct command_entry; bench/regionbench.c lists them in one table.
 */
#ifndef RB_COMMAND_H
#define RB_COMMAND_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "opt.h"

struct command_entry {
	const char		*name;
	/* Operands for the usage line ("DIR...", "-- COMMAND..."); the
	 * options are added from the tables. */
	const char		*usage;
	int			 operands_last;	/* options before the operands */
	/* The operands are values of this option of options (an
	 * OPT_LIST), as "placement 1234" is "placement --pid 1234"; NULL:
	 * the command takes them itself. */
	const char		*operand_option;
	const char		*summary;	/* one line for "help" */
	const char		*description;	/* paragraph for --help */
	const struct opt_def	*options;	/* NULL when it has none */
	const struct opt_def	*source_options; /* source_cli_options or NULL */
	/* Region-source option defaults of this command that differ from
	 * the sources' tables: NULL-terminated name, value pairs, applied
	 * before the command line (which overrides them). */
	const char *const	*source_defaults;
	/* A table several commands share (region-cli.h), whose settings
	 * sit at shared_offset in the command's own; NULL when none. */
	const struct opt_def	*shared_options;
	size_t			 shared_offset;
	int			(*exec)(int argc, char **argv);
};

void	 command_usage(FILE *f, const struct command_entry *entry);
void	 command_usage_line(FILE *f, const struct command_entry *entry,
	     int width);
int	 command_help_width(FILE *f);
void	 command_usage_error(const struct command_entry *entry,
	     const char *fmt, ...) __attribute__((format(printf, 2, 3),
	     noreturn));

int	 command_parse(const struct command_entry *entry, void *settings,
	     int argc, char **argv, int *first_arg);
const struct command_entry *command_lookup(const char *name);
int	 command_parse_source(const struct command_entry *entry,
	     void *settings, void *source_settings, int argc, char **argv,
	     int *first_arg);

/* The commands, one per bench/cmd-*.c file. */
#define COMMAND_LIST(X) \
	X(help) \
	X(info) \
	X(sample) \
	X(run) \
	X(verify) \
	X(list) \
	X(workload) \
	X(analyze) \
	X(compare) \
	X(gate) \
	X(store) \
	X(placement) \
	X(chart) \
	X(report) \
	X(vm) \
	X(vacate) \
	X(ab)

#define COMMAND_EXTERN(name) extern const struct command_entry cmd_##name##_entry;
COMMAND_LIST(COMMAND_EXTERN)
#undef COMMAND_EXTERN

#endif
