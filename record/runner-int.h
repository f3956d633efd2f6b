/*
 * The runner's own state, shared by runner.c (repetitions, the results
 * directory and the analysis at the end), runner-phase.c (one phase: its
 * workload, checkpoints and placement scans) and runner-show.c (the
 * progress line).  Not for other files.
 */
#ifndef RB_RUNNER_INT_H
#define RB_RUNNER_INT_H

#include <jansson.h>
#include <stdint.h>

#include "placement.h"
#include "runner.h"
#include "session.h"
#include "snapshot.h"
#include "term.h"
#include "topology.h"
#include "workload-cgroup.h"

#define RUNNER_POLL_NS		2000000ULL	/* 2 ms: checkpoints <1% late */

struct runner {
	const struct suite		*suite;
	const struct runner_settings	*set;
	struct source			 src;
	struct session			 session;
	struct topology			 topo;
	struct workload_cgroup		 cgroup;	/* the workloads' own */
	int				 have_topo;
	char				 dir[4096];
	int				 rep;
	int				 nreps;
	int				 tty;

	struct placement		 placement;
	struct placement_result		 placement_result;
	const struct region_map		*map;

	struct snapshot			 view;
	uint64_t			 last_show_ns;
	uint64_t			 last_plain_ns;
	double				*used;	/* per region, shown */
	int				 used_cap;
	int				 failed_phases;
	int				 intr_phase;	/* cut short; -1: none */
	int				 glyph_per;	/* the bar's scale so far */
	int				 text_form;	/* its text's form so far */
	json_t				*json_reps;	/* --format json */
	json_t				*failed;
	int				 stop;	/* exit code that ends the run */

	const char			*proc_root;	/* vacate */
	const char			*refs_proc;	/* /proc/iomem's root */
	struct references		 refs;		/* DAMON, or off */
	json_t				*vacate;	/* this rep's probes */
	char				 vacate_dir[4096];
};

int	 runner_phase(struct runner *r, int index);
void	 runner_show(struct runner *r, int index,
	     const struct suite_phase *ph, enum term_state state,
	     double progress, uint64_t phase_start_ns, int force);
void	 runner_name(const struct runner *r, char *buf, size_t len);
int	 runner_vacate_check(struct runner *r, const char *proc_root,
	     char **cause);
void	 runner_vacate(struct runner *r, const struct suite_phase *ph,
	     const char *label);

#endif
