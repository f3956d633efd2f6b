/*
 * The rules of the region metrics (docs/metrics.md) for one sample: when a
 * region is empty or active, the fewest regions that could hold what is
 * used, and the spread index.  analyze/metrics.c applies them to every
 * sample of a results directory and the live sinks to the sample just
 * taken, so a figure means the same wherever it is read.
 */
#ifndef RB_REGION_METRICS_H
#define RB_REGION_METRICS_H

#include <stdint.h>

/* What a region is at one sample. */
enum region_state {
	REGION_HOLE,		/* no memory there: neither empty nor active */
	REGION_UNINIT,		/* only pages not initialised yet: neither */
	REGION_EMPTY,		/* used <= tolerance */
	REGION_ACTIVE,
	/*
	 * A sampled scan that did not read the whole region and saw too
	 * few used pages to prove it active: it may be empty, but only a
	 * full scan can say so.  Neither empty nor active.
	 */
	REGION_UNPROVEN,
};

/* The figures of one sample over all regions. */
struct region_sample {
	int		 active;	/* active_regions */
	int		 empty;		/* empty_regions */
	int		 unproven;	/* sampled, neither proven */
	uint64_t	 empty_pages;	/* present pages of empty regions */
	int		 ideal;		/* ideal_regions */
	double		 spread_index;	/* active / ideal, 1.0 when idle */
};

enum region_state region_metrics_state(uint64_t present, uint64_t used,
	     uint64_t uninit, uint64_t tolerance);
void	 region_metrics_sort_present(const uint64_t *present, int n,
	     uint64_t *sorted);
int	 region_metrics_ideal(const uint64_t *sorted, int n,
	     uint64_t used_total);
enum region_state region_metrics_state_sampled(uint64_t present,
	     uint64_t used, uint64_t used_lo, uint64_t uninit,
	     uint64_t tolerance);
void	 region_metrics_sample(const uint64_t *present, const uint64_t *used,
	     const uint64_t *uninit, const uint64_t *used_lo,
	     const uint64_t *partial, const uint64_t *sorted, int n,
	     uint64_t tolerance, struct region_sample *out);

#endif
