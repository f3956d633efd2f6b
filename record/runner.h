/*
 * The runner: one execution of a suite (`regionbench run`).  It owns the
 * results directory, the sampler thread and the workload children, takes
 * checkpoints at progress milestones and never loses what was written.
 */
#ifndef RB_RUNNER_H
#define RB_RUNNER_H

#include <stdint.h>

#include "references.h"
#include "source-cli.h"
#include "suite.h"

struct runner_settings {
	char		*out;
	char		*label;
	char		*replay;	/* regions from a recording */
	long		 repeat;	/* 0: the suite's */
	uint64_t	 interval;	/* 0: the suite's */
	long		 placement_every; /* samples between placement scans */
	int		 quiet;
	int		 no_charts;
	int		 force;
	char		*user;		/* workloads run as this user */
	int		 store;		/* load the results into db */
	char		*db;		/* the results database's URL */
	struct references_settings refs; /* --references, shared table */
	int		 format;	/* 0 text, 1 json (docs/json.md) */
};

#define RUNNER_JSON_VERSION	1	/* docs/json.md */

int	 runner_main(const struct suite *suite,
	     const struct runner_settings *set, struct source_cli *cli);

#endif
