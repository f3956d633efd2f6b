/*
 * What the placement command shows of a scan: a table per process (each
 * region key it uses, with its share) and placement.csv rows, plus the
 * region map built from a /proc and /sys tree as the kpageflags source
 * cuts it.
 */
#include "config.h"

#include <csv.h>
#include <string.h>

#include "placement.h"
#include "procfile.h"
#include "procfs.h"

/* Write one CSV text field, quoted (by libcsv) only when it needs it. */
static void
placement_csv_text(FILE *f, const char *s)
{
	if (strpbrk(s, ",\"\r\n") != NULL || s[0] == ' ' ||
	    (s[0] != '\0' && s[strlen(s) - 1] == ' '))
		csv_fwrite(f, s, strlen(s));
	else
		fputs(s, f);
}

/* Rows of placement.csv for one process, one per region it uses. */
void
placement_print_csv(FILE *f, const struct region_map *map,
    const struct placement_result *r)
{
	const struct region_span *span;
	uint64_t pages;
	int i;

	for (i = 0; i < map->nregions; i++) {
		span = &map->regions[i];
		if ((pages = placement_region_pages(map, r, i)) == 0)
			continue;
		fprintf(f, "0.000,placement,");
		placement_csv_text(f, r->comm);
		fprintf(f, ",%d,%d,%d,%llu\n", (int)r->pid, span->node,
		    span->region, (unsigned long long)pages);
	}
}

/*
 * A table for one process: every key it uses with its share, and how
 * many regions hold at least min_share of its pages.
 */
void
placement_print_table(FILE *f, const struct region_map *map,
    const struct placement_result *r, double min_share)
{
	const struct region_key *k;
	int i;

	fprintf(f, "pid %d (%s): %llu resident pages, %d regions hold >= "
	    "%g%%%s\n", (int)r->pid, r->comm, (unsigned long long)r->pages,
	    placement_regions_over(map, r, min_share), 100 * min_share,
	    r->exited ? " (exited during the scan: incomplete)" : "");
	if (r->pages == 0)
		return;
	fprintf(f, "  %4s %6s %-8s %10s %7s\n", "node", "region", "zone",
	    "pages", "share");
	for (i = 0; i < map->nkeys; i++) {
		k = &map->keys[i];
		if (r->key_pages[i] == 0)
			continue;
		fprintf(f, "  %4d %6d %-8s %10llu %6.2f%%\n", k->node,
		    k->region, map->zones[k->zone].name,
		    (unsigned long long)r->key_pages[i],
		    100.0 * r->key_pages[i] / r->pages);
	}
	if (r->outside > 0)
		fprintf(f, "  outside every region: %llu pages\n",
		    (unsigned long long)r->outside);
	if (r->zero_page_mapped > 0)
		fprintf(f, "  zero_page_mapped: %llu pages map the shared zero "
		    "page (read, never written): no memory of the process, "
		    "left out\n", (unsigned long long)r->zero_page_mapped);
}

/* Build the region map from proc_root's zoneinfo and the sysfs of cfg. */
int
placement_map_build(struct region_map *map,
    const struct region_map_config *cfg, const char *proc_root,
    char **cause)
{
	struct snapshot zones;
	struct procfile pf;
	int rc;

	procfile_init(&pf);
	snapshot_init(&zones);
	if ((rc = procfile_read(&pf, proc_root, "zoneinfo", cause)) == 0 &&
	    (rc = procfs_parse_zoneinfo(&zones, pf.path, pf.buf, pf.len,
	    cause)) == 0)
		rc = region_map_build(map, cfg, &zones, cause);
	snapshot_free(&zones);
	procfile_free(&pf);
	return (rc);
}
