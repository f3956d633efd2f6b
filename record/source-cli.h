/*
 * The region-source options every command that reads /proc shares: the
 * common ones (--source, --proc, --sys) from one table, and each source's
 * own options from that source's table (source_ops.options).
 */
#ifndef RB_SOURCE_CLI_H
#define RB_SOURCE_CLI_H

#include <stdio.h>

#include "opt.h"
#include "source.h"

struct source_cli {
	char	*source;
	char	*proc;
	char	*sys;
	int	 busy_cores;	/* cores the workloads are bound to */
	double	 interval_s;	/* the sampling interval; 0: unknown */
	/* Each source's own settings, by position in source_table. */
	void	*settings[SOURCE_COUNT];
};

extern const struct opt_def source_cli_options[];

int	 source_cli_sets(struct source_cli *cli, struct opt_set *sets);
void	 source_cli_print_help(FILE *f, int width,
	    const char *const *defaults);
int	 source_cli_defaults(struct source_cli *cli,
	     const char *const *pairs, char **cause);
int	 source_cli_suite_value(struct source_cli *cli, const char *name,
	     const char *value, char **cause);
int	 source_cli_config(const struct source_cli *cli,
	     struct source_config *cfg, char **cause);
void	 source_cli_free(struct source_cli *cli);
int	 source_cli_open(const struct source_cli *cli, struct source *src,
	     const char *proc_override, char **cause);

#endif
