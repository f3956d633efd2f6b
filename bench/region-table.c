/*
 * Region tables.  Used is present minus free (docs/metrics.md); the
 * bar makes a consolidated layout visible at a glance: full regions at the
 * bottom, empty ones at the top.
 */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "region-table.h"

#define BAR_WIDTH 20

/* Print a number or a dash when unknown. */
static void
print_u64(FILE *f, int width, uint64_t v)
{
	if (v == SNAP_UNKNOWN)
		fprintf(f, " %*s", width, "-");
	else
		fprintf(f, " %*" PRIu64, width, v);
}

/* Print one line per region key. */
void
region_table_print(FILE *f, const struct snapshot *snap, int flags)
{
	const struct snap_entry *e;
	char bar[BAR_WIDTH + 1];
	double used_pct;
	int i, fill;

	fprintf(f, "%4s %6s %-8s", "node", "region", "zone");
	if (flags & REGION_TABLE_LAYOUT)
		fprintf(f, " %10s %10s", "start_pfn", "spanned");
	fprintf(f, " %10s %10s %10s %6s", "present", "managed", "free",
	    "used%");
	if (flags & REGION_TABLE_BAR)
		fprintf(f, "  %s", "used");
	fputc('\n', f);
	for (i = 0; i < snap->nentries; i++) {
		e = &snap->entries[i];
		fprintf(f, "%4d %6d %-8s", e->node, e->region, e->zone);
		if (flags & REGION_TABLE_LAYOUT) {
			print_u64(f, 10, e->start_pfn);
			print_u64(f, 10, e->spanned);
		}
		print_u64(f, 10, e->present);
		print_u64(f, 10, e->managed);
		print_u64(f, 10, e->free_pages);
		if (e->present == SNAP_UNKNOWN || e->present == 0) {
			fprintf(f, " %6s", "-");
			used_pct = 0;
		} else {
			used_pct = 100.0 * (double)snap_entry_used(e) /
			    (double)e->present;
			fprintf(f, " %5.1f%%", used_pct);
		}
		if (flags & REGION_TABLE_BAR) {
			fill = (int)(used_pct * BAR_WIDTH / 100.0 + 0.5);
			memset(bar, '#', (size_t)fill);
			memset(bar + fill, '.', (size_t)(BAR_WIDTH - fill));
			bar[BAR_WIDTH] = '\0';
			fprintf(f, "  [%s]", bar);
		}
		fputc('\n', f);
	}
	/* Present but unmanaged pages count as used: say so when it shows. */
	for (i = 0; i < snap->nentries; i++) {
		e = &snap->entries[i];
		if (e->present == SNAP_UNKNOWN || e->managed == SNAP_UNKNOWN ||
		    e->managed >= e->present ||
		    e->present - e->managed < e->present / 10)
			continue;
		fprintf(f, "note: node %d region %d %s: %" PRIu64 " of %" PRIu64
		    " present pages are not managed by the page allocator\n"
		    "      (reserved, not yet initialised, or unplugged by "
		    "virtio-mem or a balloon);\n      they count as used.\n",
		    e->node, e->region, e->zone, e->present - e->managed,
		    e->present);
	}
}
