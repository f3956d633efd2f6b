/*
 * /proc/buddyinfo: free blocks per order for each populated zone.  Rows are
 * "Node N, zone NAME c0 c1 ...", "Node N, REG R, zone NAME c0 ..." on the
 * 2011 memory-region kernels, and "Node N, zone NAME" followed by
 * "\t\t Region R c0 ..." rows on the sorted-buddy kernels.  The number of
 * order columns depends on the build (11 on x86, 14 on arm64 with 64 KiB
 * pages), so it is counted, and every row must agree.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "log.h"
#include "procfs-lex.h"
#include "procfs.h"

struct buddyinfo_parse {
	struct procfs_lex	 lx;
	struct snapshot		*snap;
	enum snap_format	 format;
	int			 hint;
	int			 ncols;		/* 0 until the first row */
	int			 ncols_line;
	int			 nrows;
	int			 zone_line;	/* sorted-buddy zone line */
	int			 zone_node;
	char			 zone[SNAP_NAME_LEN];
};

static const char *const buddyinfo_row_names[] = {
	[SNAP_FORMAT_UNKNOWN] = "unknown",
	[SNAP_FORMAT_PLAIN] = "mainline 'Node N, zone NAME'",
	[SNAP_FORMAT_PATCHED] = "memory-region 'Node N, REG R, zone NAME'",
	[SNAP_FORMAT_SORTED_BUDDY] = "sorted-buddy 'Region R'"
};

/* Refuse a row of another kernel's format than zoneinfo's. */
static int
buddyinfo_format(struct buddyinfo_parse *bp, enum snap_format found)
{
	if (bp->format == SNAP_FORMAT_UNKNOWN)
		bp->format = found;
	if (found == bp->format)
		return (0);
	return (procfs_lex_fail(&bp->lx, "expected %s rows like the "
	    "zoneinfo read with it, found a %s row (files of different "
	    "kernels mixed?)", buddyinfo_row_names[bp->format],
	    buddyinfo_row_names[found]));
}

/* Read the counts of a row and store them in the entry of its key. */
static int
buddyinfo_counts(struct buddyinfo_parse *bp, int node, int region,
    const char *zone)
{
	struct procfs_lex *lx = &bp->lx;
	struct snap_entry *e;
	uint64_t counts[SNAP_MAX_ORDERS], sum = 0, nonzero = 0, pages;
	char key[64];
	int n = 0, o, r;

	while (!procfs_lex_at_eol(lx)) {
		if (n == SNAP_MAX_ORDERS)
			return (procfs_lex_fail(lx, "expected at most %d "
			    "order columns, found more", SNAP_MAX_ORDERS));
		if ((r = procfs_lex_u64(lx, &counts[n],
		    "a free block count")) != 0)
			return (r);
		nonzero |= counts[n];
		n++;
	}
	if (n == 0)
		return (procfs_lex_expect(lx, "free block counts after the "
		    "zone name"));
	if (bp->ncols == 0) {
		if (bp->snap->norders != 0 && bp->snap->norders != n)
			return (procfs_lex_fail(lx, "expected %d order columns "
			    "like pagetypeinfo, found %d", bp->snap->norders,
			    n));
		bp->ncols = n;
		bp->ncols_line = lx->lineno;
	} else if (n != bp->ncols)
		return (procfs_lex_fail(lx, "expected %d order columns like "
		    "line %d, found %d", bp->ncols, bp->ncols_line, n));
	bp->nrows++;
	procfs_key_str(key, sizeof key, node, region, zone);
	if ((e = procfs_lookup(bp->snap, &bp->hint, node, region,
	    zone)) == NULL) {
		if (nonzero != 0)
			snapshot_warn(bp->snap, "buddyinfo has %s, zoneinfo "
			    "does not", key);
		return (0);
	}
	if (e->norders != 0)
		return (procfs_lex_fail(lx, "expected each zone once, found "
		    "%s a second time", key));
	e->norders = n;
	for (o = 0; o < n; o++) {
		e->free_blocks[o] = counts[o];
		pages = counts[o] << o;
		if ((pages >> o) != counts[o] || sum + pages < sum)
			return (procfs_lex_fail(lx, "expected free block "
			    "counts that fit 64 bits as pages, found %llu at "
			    "order %d",
			    (unsigned long long)counts[o], o));
		sum += pages;
	}
	/*
	 * pages free lags the free lists by up to the per-CPU vmstat
	 * thresholds (mm/vmstat.c's stat_threshold): only a larger
	 * difference is worth an event.
	 */
	if (sum > e->free_pages + e->stat_slack ||
	    sum + e->stat_slack < e->free_pages)
		snapshot_warn(bp->snap, "buddyinfo %s: free blocks hold %llu "
		    "pages, zoneinfo says %llu free (vmstat slack %llu)", key,
		    (unsigned long long)sum,
		    (unsigned long long)e->free_pages,
		    (unsigned long long)e->stat_slack);
	return (0);
}

/* A "Node N, [REG R,] zone NAME ..." line. */
static int
buddyinfo_node_line(struct buddyinfo_parse *bp)
{
	struct procfs_lex *lx = &bp->lx;
	int kind, node, region, r;
	char zone[SNAP_NAME_LEN];

	if ((kind = procfs_lex_key(lx, &node, &region, zone)) < 0)
		return (kind);
	if (kind == 1)
		return (procfs_lex_fail(lx, "expected a buddyinfo row, found "
		    "zoneinfo's 'Node N, Region R, zone NAME' header (wrong "
		    "file?)"));
	if (kind == 2) {
		if ((r = buddyinfo_format(bp, SNAP_FORMAT_PATCHED)) != 0)
			return (r);
		return (buddyinfo_counts(bp, node, region, zone));
	}
	if (procfs_lex_at_eol(lx)) {
		if ((r = buddyinfo_format(bp, SNAP_FORMAT_SORTED_BUDDY)) != 0)
			return (r);
		bp->zone_line = lx->lineno;
		bp->zone_node = node;
		memcpy(bp->zone, zone, sizeof bp->zone);
		return (0);
	}
	if ((r = buddyinfo_format(bp, SNAP_FORMAT_PLAIN)) != 0)
		return (r);
	return (buddyinfo_counts(bp, node, -1, zone));
}

/* A sorted-buddy "\t\t Region R c0 c1 ..." row. */
static int
buddyinfo_region_line(struct buddyinfo_parse *bp)
{
	struct procfs_lex *lx = &bp->lx;
	int region, r;

	if ((r = buddyinfo_format(bp, SNAP_FORMAT_SORTED_BUDDY)) != 0)
		return (r);
	if (bp->zone_line == 0)
		return (procfs_lex_fail(lx, "expected a 'Node N, zone NAME' "
		    "line before 'Region' rows"));
	if ((r = procfs_lex_index(lx, PROCFS_MAX_REGION, &region,
	    "a region number")) != 0)
		return (r);
	return (buddyinfo_counts(bp, bp->zone_node, region, bp->zone));
}

/* Parse /proc/buddyinfo text into the entries zoneinfo made. */
int
procfs_parse_buddyinfo(struct snapshot *snap, const char *path,
    const char *buf, size_t len, char **cause)
{
	struct buddyinfo_parse bp;
	struct procfs_lex *lx = &bp.lx;
	struct snap_entry *e;
	char key[64];
	int i, r;

	memset(&bp, 0, sizeof bp);
	bp.snap = snap;
	bp.format = snap->format;
	if ((r = procfs_lex_init(lx, path, buf, len, cause)) != 0)
		return (r);
	while ((r = procfs_lex_next(lx)) > 0) {
		if (lx->line[0] == 'N')
			r = buddyinfo_node_line(&bp);
		else if (procfs_lex_at_eol(lx))
			r = 0;
		else if (PROCFS_IS(lx, "Region"))
			r = buddyinfo_region_line(&bp);
		else
			r = procfs_lex_expect(lx, "a buddyinfo row 'Node N, "
			    "zone NAME COUNTS...'");
		if (r != 0)
			return (r);
	}
	if (r < 0)
		return (r);
	if (bp.nrows == 0)
		return (lx->line == NULL ? procfs_lex_expect(lx,
		    "buddyinfo rows") : procfs_lex_fail(lx, "expected "
		    "buddyinfo rows with free block counts, found none"));
	for (i = 0; i < snap->nentries; i++) {
		e = &snap->entries[i];
		if (e->norders == 0)
			snapshot_warn(snap, "zoneinfo has %s, buddyinfo has no "
			    "row for it", procfs_key_str(key, sizeof key,
			    e->node, e->region, e->zone));
	}
	snap->norders = bp.ncols;
	return (0);
}
