/*
 * Reading one results directory (docs/csv-schema.md) into memory.  This is
 * the only door analysis, charts and reports have to a run: it never looks
 * at /proc, so every analysis works on copied results.  Columns are found by
 * header name (extra columns are fine); anything malformed is refused with
 * "file:line: what was expected" and -RB_EXIT_INPUT.
 *
 * Figures are kept per region (node, region), zones summed, as dense arrays
 * indexed [sample * nregions + region] so that metrics and charts can walk
 * them without lookups.
 */
#ifndef RB_RESULTS_H
#define RB_RESULTS_H

#include <stdint.h>

#define RESULTS_MAX_ORDER	16	/* buddy orders 0..15 are accepted */
#define RESULTS_UNKNOWN		UINT64_MAX
/* What verify and analysis say of a run stopped before its first sample. */
#define RESULTS_NO_DATA		"stopped before the first sample (no data)"

/* Used-page classes from kpageflags, columns of samples.csv. */
enum results_class {
	RESULTS_ANON,
	RESULTS_FILE,
	RESULTS_SLAB,
	RESULTS_PGTABLE,
	RESULTS_OTHER,
	RESULTS_NCLASSES
};

/* One region: the zones of regions.csv with the same (node, region). */
struct results_region {
	int		 node;
	int		 region;
	int		 nzones;
	uint64_t	 start_pfn;	/* lowest of its zones; RESULTS_UNKNOWN */
	uint64_t	 end_pfn;	/* highest start + spanned; RESULTS_UNKNOWN */
	uint64_t	 present_pages;
	char		 name[32];	/* "n0r3", used in metric names */
};

/* A time base: the distinct (t_s, phase) pairs of one file, in order. */
struct results_times {
	int		 n;
	int		 alloc;
	double		*t;
	int		*phase;
};

struct results_workload_row {
	int		 phase;
	char		*workload;
	char		*thread;	/* a number or "total" */
	char		*metric;
	double		 value;		/* NAN when empty */
	char		*unit;
};

struct results_event {
	double		 t;
	char		*event;
	char		*detail;
	int		 phase;		/* -1: none */
};

struct results {
	char		*dir;

	/* meta.json */
	char		*label;
	char		*host;
	char		*kernel_release;
	char		*kernel_version;	/* NULL when meta.json has none */
	char		*guest_kernel_sha256;	/* made in a regionbench vm
					   boot of this kernel; NULL: not */
	int		 guest;		/* its boot's vm.json is beside it */
	char		*guest_kernel_report;	/* that boot's; NULL: none */
	char		*boot_id;	/* NULL when meta.json has none */
	char		*run_id;	/* NULL in results older than run ids */
	char		*start_time;	/* UTC, ISO 8601; NULL: unknown */
	char		*end_time;
	char		*command;
	char		*status;
	char		*suite;		/* suite name; NULL for sample */
	char		*source;
	char		*scan;		/* how counts were read: "exact" or
					   the sampled-scan settings */
	/*
	 * The source checked its counts against the kernel's (meta.json's
	 * source.accuracy, kpageflags), so the data quality has an error
	 * figure for them.
	 */
	int		 counts_checked;
	uint64_t	 page_size;
	uint64_t	 region_size_bytes;	/* 0 when not emulated */
	int		 pageblock_order;
	double		 interval_s;	/* NAN when meta.json has none */
	char		**phases;
	int		 nphases;
	/* phase name -> index + 1 (0: free), open addressing, for interning */
	int		*phase_slots;
	size_t		 phase_nslots;	/* a power of two, or 0 */

	struct results_region *regions;
	int		 nregions;

	/* samples.csv */
	struct results_times samples;
	uint64_t	*present;	/* [sample * nregions + region] */
	uint64_t	*free;
	/* max(0, present - free) per zone, summed over the zones */
	uint64_t	*used;
	uint64_t	*cls[RESULTS_NCLASSES];	/* NULL: unknown */
	/* pages not initialised yet, not in present; NULL: none known */
	uint64_t	*uninit;
	/*
	 * Sampled scans (kpageflags --scan-fraction): partial is 1 where a
	 * zone of the region has free_pages_lo/hi, and used_lo is the
	 * fewest used pages the region can have (present - free_pages_hi
	 * for those zones, used for the others).  NULL: every sample was a
	 * full scan.
	 */
	uint64_t	*used_lo;
	uint64_t	*partial;
	/*
	 * Exact counts in rotation (counted_at_s): how old the count of
	 * each region is at each sample, in ms, the oldest of its zones.
	 * NULL: every count was taken at its sample.
	 */
	uint64_t	*count_age_ms;

	/* buddy.csv: free blocks per order */
	struct results_times buddy;
	int		 buddy_orders;	/* highest order seen + 1 */
	/* [(s * nregions + r) * RESULTS_MAX_ORDER + order] */
	uint64_t	*buddy_blocks;

	/* pageblocks.csv */
	struct results_times pageblocks;
	uint64_t	*pb_unmovable;	/* Unmovable + Reclaimable */
	uint64_t	*pb_total;

	/* pagetype.csv: free pages of unmovable/reclaimable types */
	struct results_times pagetype;
	uint64_t	*pt_unmovable_free;

	/* placement.csv: pages per workload, pids summed */
	struct results_times placement;
	char		**workloads;
	int		 nworkloads;
	/* [(s * nworkloads + w) * nregions + r] */
	uint64_t	*placement_pages;

	/*
	 * references.csv (DAMON): per aggregation interval (its end time),
	 * the System RAM bytes DAMON watched in each region and the part of
	 * them it saw referenced; both 0 for a region without a row.  NULL
	 * when the run has no references.
	 */
	struct results_times references;
	uint64_t	*ref_monitored;	/* [slot * nregions + region] */
	uint64_t	*ref_referenced;

	struct results_workload_row *wl_rows;
	int		 nwl_rows;

	struct results_event *events;
	int		 nevents;

	long		 rows_read;	/* CSV data rows */
	/*
	 * The samples.csv row (0: none) whose free pages exceed its present
	 * pages the most, among zones that know their managed pages (kernels
	 * since 3.8, where only the vmstat counters' per-CPU drift lets free
	 * pass managed <= present), and by how much: verify calls more than
	 * that drift damage.  2.6.39 kernels print such rows (csv-schema.md).
	 */
	long		 free_over_present;
	uint64_t	 free_over_present_by;
};

int	 results_load(const char *dir, struct results **out, char **cause);
void	 results_free(struct results *res);
int	 results_region_index(const struct results *res, int node,
	     int region);
int	 results_is_run_dir(const char *dir);
int	 results_no_data(const char *dir);
double	 results_phase_end(const struct results *res, int phase);
const uint64_t *results_buddy_at(const struct results *res, int s, int r);

#endif
