/*
 * The region-source options every command that reads /proc shares
 * (--source, --proc, --sys, --region-size, --region-map, --scan-threads),
 * from one table.
 */
#ifndef RB_SOURCE_CLI_H
#define RB_SOURCE_CLI_H

#include "opt.h"
#include "source.h"

struct source_cli {
	char	*source;
	char	*proc;
	char	*sys;
	char	*region_size;
	char	*region_map;
	long	 scan_threads;
};

extern const struct opt_def source_cli_options[];

int	 source_cli_config(const struct source_cli *cli,
	     struct source_config *cfg, char **cause);
void	 source_cli_free(struct source_cli *cli);
int	 source_cli_open(const struct source_cli *cli, struct source *src,
	     const char *proc_override);

#endif
