/*
 * The region metric rules for one sample (see region-metrics.h).  Nothing
 * here allocates: the sampler's sinks call it from its allocation-free
 * loop.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "region-metrics.h"

/*
 * A region with nothing present and nothing used is a hole, neither empty
 * nor active; else it is empty when its used pages are within the
 * tolerance.
 */
enum region_state
region_metrics_state(uint64_t present, uint64_t used, uint64_t uninit,
    uint64_t tolerance)
{
	if (present == 0 && used == 0)
		return (uninit > 0 ? REGION_UNINIT : REGION_HOLE);
	if (used <= tolerance)
		return (REGION_EMPTY);
	return (REGION_ACTIVE);
}

/*
 * The state of a region a sampled scan did not read whole: used_lo is the
 * fewest used pages it can have (present less the upper end of its free
 * pages' interval, never below the used pages the scan saw).  It is
 * active when even that is above the tolerance; it is never empty, since
 * the pages not read may hold used ones.
 */
enum region_state
region_metrics_state_sampled(uint64_t present, uint64_t used,
    uint64_t used_lo, uint64_t uninit, uint64_t tolerance)
{
	enum region_state st;

	st = region_metrics_state(present, used, uninit, tolerance);
	if (st != REGION_EMPTY && st != REGION_ACTIVE)
		return (st);
	return (used_lo > tolerance ? REGION_ACTIVE : REGION_UNPROVEN);
}

/* Sort helper: larger present first. */
static int
region_metrics_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y ? -1 : x < y ? 1 : 0);
}

/* Copy n present page counts into sorted, largest first. */
void
region_metrics_sort_present(const uint64_t *present, int n, uint64_t *sorted)
{
	if (n <= 0)
		return;
	memcpy(sorted, present, n * sizeof *sorted);
	qsort(sorted, n, sizeof *sorted, region_metrics_desc);
}

/*
 * The fewest regions whose present pages, already sorted largest first,
 * hold used_total pages: 0 when nothing is used, all n when even every
 * region together is too small (free > present rounding).
 */
int
region_metrics_ideal(const uint64_t *sorted, int n, uint64_t used_total)
{
	uint64_t held = 0;
	int i;

	if (used_total == 0)
		return (0);
	for (i = 0; i < n; i++) {
		held += sorted[i];
		if (held >= used_total)
			return (i + 1);
	}
	return (n);
}

/*
 * The figures of one sample from the present and used pages of its n
 * regions (zones summed) and the present pages sorted largest first.
 * Pages the tolerance lets an empty region keep are left out of the used
 * total, so that ideal <= active and the spread index is >= 1.  Regions
 * with partial[r] set come from a sampled scan (used_lo: the fewest used
 * pages they can have); both are NULL when every region was read whole.
 */
void
region_metrics_sample(const uint64_t *present, const uint64_t *used,
    const uint64_t *uninit, const uint64_t *used_lo, const uint64_t *partial,
    const uint64_t *sorted, int n, uint64_t tolerance,
    struct region_sample *out)
{
	enum region_state st;
	uint64_t used_active = 0, un;
	int r;

	memset(out, 0, sizeof *out);
	for (r = 0; r < n; r++) {
		un = uninit != NULL ? uninit[r] : 0;
		if (partial != NULL && partial[r])
			st = region_metrics_state_sampled(present[r], used[r],
			    used_lo[r], un, tolerance);
		else
			st = region_metrics_state(present[r], used[r], un,
			    tolerance);
		switch (st) {
		case REGION_EMPTY:
			out->empty++;
			out->empty_pages += present[r];
			break;
		case REGION_ACTIVE:
			out->active++;
			used_active += used[r];
			break;
		case REGION_UNPROVEN:
			out->unproven++;
			break;
		case REGION_HOLE:
		case REGION_UNINIT:
			break;
		}
	}
	out->ideal = region_metrics_ideal(sorted, n, used_active);
	out->spread_index = out->ideal == 0 ? 1.0 :
	    (double)out->active / out->ideal;
}
