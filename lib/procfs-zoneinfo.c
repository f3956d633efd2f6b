/*
 * /proc/zoneinfo: one block per zone, "Node N, zone NAME" (mainline),
 * "Node N, Region R, zone NAME" (2011 memory-region RFC) or a mainline
 * header with a per-region table inside (2012-13 sorted-buddy series).
 * Item lists change in nearly every release, so lines are recognised by
 * their leading key and everything else is skipped; only the few figures a
 * region needs are read.  Every layout has a fixture in tests/fixtures/proc
 * (its README.md lists them and the invariants they hold).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "log.h"
#include "procfs-lex.h"
#include "procfs.h"

/* The zone block being read. */
struct zoneinfo_block {
	int		 line;		/* header line; 0 before the first */
	int		 node;
	int		 region;
	char		 zone[SNAP_NAME_LEN];
	uint64_t	 free;
	uint64_t	 spanned;
	uint64_t	 present;
	uint64_t	 managed;
	uint64_t	 start_pfn;
	uint64_t	 pcp;
	uint64_t	 stat_slack;	/* sum of "vm stats threshold" */
	int		 in_node_stats;	/* per-node items until "pages free" */
	int		 nregions;	/* sorted-buddy rows in this block */
	int		 last_region;
	uint64_t	 region_free;	/* their sums, for invariant 9 */
	uint64_t	 region_present;
	int		 v1_open;	/* sorted-buddy v1 "Zone mem region" */
	int		 v1_region;
	uint64_t	 v1_spanned;
	uint64_t	 v1_present;
	uint64_t	 v1_free;
};

struct zoneinfo_parse {
	struct procfs_lex	 lx;
	struct snapshot		*snap;
	struct zoneinfo_block	 b;
	int			 header_kind;	/* -1 until the first header */
	int			 header_line;
	int			 sorted;	/* a per-region table seen */
	int			 sorted_line;
	int			 plain_line;	/* a zone without one */
	int			 last_node;	/* last key added, for order */
	int			 last_rank;
	int			 last_region;
};

/*
 * Add an entry for a key, refusing duplicates.  The kernel prints keys in
 * (node, zone, region) order, so only out-of-order keys need a search.
 */
static int
zoneinfo_add(struct zoneinfo_parse *zp, int lineno, int node, int region,
    const char *zone, struct snap_entry **out)
{
	int rank = snapshot_zone_rank(zone);
	char key[64];

	if (!(node > zp->last_node || (node == zp->last_node &&
	    (rank > zp->last_rank || (rank == zp->last_rank && rank < 6 &&
	    region > zp->last_region)))) &&
	    snapshot_find(zp->snap, node, region, zone) != NULL)
		return (procfs_lex_fail_at(&zp->lx, lineno, "expected each "
		    "zone once, found %s a second time", procfs_key_str(key,
		    sizeof key, node, region, zone)));
	zp->last_node = node;
	zp->last_rank = rank;
	zp->last_region = region;
	*out = snapshot_add(zp->snap, node, region, zone);
	return (0);
}

/* Finish a sorted-buddy v1 "Zone mem region" sub-block. */
static int
zoneinfo_v1_close(struct zoneinfo_parse *zp)
{
	struct zoneinfo_block *b = &zp->b;
	struct snap_entry *e;
	int r;

	if (!b->v1_open)
		return (0);
	b->v1_open = 0;
	if (b->v1_present == SNAP_UNKNOWN || b->v1_free == SNAP_UNKNOWN)
		return (procfs_lex_fail(&zp->lx, "expected 'present' and "
		    "'free' lines for zone mem region %d", b->v1_region));
	b->nregions++;
	b->region_free += b->v1_free;
	b->region_present += b->v1_present;
	if (b->v1_present == 0)
		return (0);
	if ((r = zoneinfo_add(zp, zp->lx.lineno, b->node, b->v1_region,
	    b->zone, &e)) != 0)
		return (r);
	e->present = b->v1_present;
	e->spanned = b->v1_spanned;
	e->free_pages = b->v1_free;
	return (0);
}

/* Finish the open zone block: check it and add its entry. */
static int
zoneinfo_close(struct zoneinfo_parse *zp)
{
	struct zoneinfo_block *b = &zp->b;
	struct snap_entry *e;
	char key[64];
	int r;

	if (b->line == 0)
		return (0);
	if ((r = zoneinfo_v1_close(zp)) != 0)
		return (r);
	procfs_key_str(key, sizeof key, b->node, b->region, b->zone);
	if (b->present == SNAP_UNKNOWN || b->spanned == SNAP_UNKNOWN)
		return (procfs_lex_fail_at(&zp->lx, b->line, "expected "
		    "'spanned' and 'present' lines in the block of %s "
		    "(file truncated?)", key));
	if (b->nregions > 0) {
		if (b->free != SNAP_UNKNOWN && b->region_free != b->free)
			snapshot_warn(zp->snap, "zoneinfo %s: regions hold "
			    "%llu free pages, the zone %llu", key,
			    (unsigned long long)b->region_free,
			    (unsigned long long)b->free);
		return (0);
	}
	if (b->present == 0)
		return (0);
	if (b->free == SNAP_UNKNOWN)
		return (procfs_lex_fail_at(&zp->lx, b->line, "expected a "
		    "'pages free' line in the block of %s", key));
	if (b->start_pfn == SNAP_UNKNOWN)
		return (procfs_lex_fail_at(&zp->lx, b->line, "expected a "
		    "'start_pfn:' line in the block of %s (file truncated?)",
		    key));
	if ((r = zoneinfo_add(zp, b->line, b->node, b->region, b->zone,
	    &e)) != 0)
		return (r);
	e->start_pfn = b->start_pfn;
	e->spanned = b->spanned;
	e->present = b->present;
	e->managed = b->managed;
	e->free_pages = b->free;
	e->pcp_pages = b->pcp;
	e->stat_slack = b->stat_slack;
	if (zp->plain_line == 0)
		zp->plain_line = b->line;
	return (0);
}

/* Read a "Node N, [Region R,] zone NAME" header and open its block. */
static int
zoneinfo_header(struct zoneinfo_parse *zp)
{
	struct procfs_lex *lx = &zp->lx;
	struct zoneinfo_block *b = &zp->b;
	int kind, node, region, r;
	char zone[SNAP_NAME_LEN];

	if ((r = zoneinfo_close(zp)) != 0)
		return (r);
	if ((kind = procfs_lex_key(lx, &node, &region, zone)) < 0)
		return (kind);
	if (kind == 2)
		return (procfs_lex_fail(lx, "expected a zoneinfo header "
		    "'Node N, zone NAME' or 'Node N, Region R, zone NAME', "
		    "found buddyinfo's 'REG' (wrong file?)"));
	if (!procfs_lex_at_eol(lx))
		return (procfs_lex_expect(lx, "the end of the zone header"));
	if (zp->header_kind == -1) {
		zp->header_kind = kind;
		zp->header_line = lx->lineno;
	} else if (kind != zp->header_kind)
		return (procfs_lex_fail(lx, "expected a header like line %d "
		    "(%s), found a %s one (files of different kernels "
		    "mixed?)", zp->header_line, zp->header_kind ?
		    "'Node N, Region R, zone NAME'" : "'Node N, zone NAME'",
		    kind ? "memory-region" : "mainline"));
	memset(b, 0, sizeof *b);
	b->line = lx->lineno;
	b->node = node;
	b->region = region;
	memcpy(b->zone, zone, sizeof b->zone);
	b->free = b->spanned = b->present = SNAP_UNKNOWN;
	b->managed = b->start_pfn = SNAP_UNKNOWN;
	b->last_region = -1;
	return (0);
}

/* Read "KEY VALUE" where the key was matched already. */
static int
zoneinfo_value(struct zoneinfo_parse *zp, uint64_t *v, const char *what)
{
	return (procfs_lex_u64(&zp->lx, v, what));
}

/* A sorted-buddy v2-v4 row: "\tRegion %6d \t %6lu \t %6lu". */
static int
zoneinfo_region_row(struct zoneinfo_parse *zp)
{
	struct procfs_lex *lx = &zp->lx;
	struct zoneinfo_block *b = &zp->b;
	struct snap_entry *e;
	uint64_t present, free;
	int region, r;

	if (!zp->sorted)
		return (procfs_lex_fail(lx, "expected a 'Per-region page "
		    "stats' table header before 'Region' rows"));
	if ((r = procfs_lex_index(lx, PROCFS_MAX_REGION, &region,
	    "a region number")) != 0 ||
	    (r = procfs_lex_u64(lx, &present, "present pages")) != 0 ||
	    (r = procfs_lex_u64(lx, &free, "free pages")) != 0)
		return (r);
	if (!procfs_lex_at_eol(lx))
		return (procfs_lex_expect(lx, "the end of the region row"));
	b->nregions++;
	b->region_free += free;
	b->region_present += present;
	if (present == 0)
		return (0);
	if ((r = zoneinfo_add(zp, lx->lineno, b->node, region, b->zone,
	    &e)) != 0)
		return (r);
	e->present = present;
	e->free_pages = free;
	return (0);
}

/* Note the sorted-buddy format (a per-region table or sub-block). */
static int
zoneinfo_sorted(struct zoneinfo_parse *zp)
{
	if (zp->header_kind == 1)
		return (procfs_lex_fail(&zp->lx, "expected no per-region "
		    "tables in a memory-region zoneinfo (headers like line "
		    "%d), found one (files of different kernels mixed?)",
		    zp->header_line));
	if (!zp->sorted) {
		zp->sorted = 1;
		zp->sorted_line = zp->lx.lineno;
	}
	return (0);
}

/* "pages free N", "pages spanned N" (v1), "present N", "per-node stats". */
static int
zoneinfo_p_line(struct zoneinfo_parse *zp)
{
	struct procfs_lex *lx = &zp->lx;
	struct zoneinfo_block *b = &zp->b;

	if (PROCFS_IS(lx, "pages")) {
		if (procfs_lex_word(lx, "free"))
			return (zoneinfo_value(zp, &b->free,
			    "free pages after 'pages free'"));
		if (b->v1_open && procfs_lex_word(lx, "spanned"))
			return (zoneinfo_value(zp, &b->v1_spanned,
			    "a page count after 'pages spanned'"));
		return (0);
	}
	if (PROCFS_IS(lx, "present"))
		return (zoneinfo_value(zp, b->v1_open ? &b->v1_present :
		    &b->present, "a page count after 'present'"));
	if (PROCFS_IS(lx, "per-node"))
		b->in_node_stats = 1;
	return (0);
}

/* Add the value of a line to a sum over the zone's per-CPU lines. */
static int
zoneinfo_sum(struct zoneinfo_parse *zp, uint64_t *sum, const char *what)
{
	uint64_t v;
	int r;

	if ((r = zoneinfo_value(zp, &v, what)) != 0)
		return (r);
	*sum += v;
	return (0);
}

/* "Zone mem region N" opens a v1 region table; another "Zone..." ends it. */
static int
zoneinfo_zone_line(struct zoneinfo_parse *zp)
{
	struct procfs_lex *lx = &zp->lx;
	struct zoneinfo_block *b = &zp->b;
	int r;

	if (!procfs_lex_word(lx, "mem") || !procfs_lex_word(lx, "region"))
		return (zoneinfo_v1_close(zp));
	if ((r = zoneinfo_sorted(zp)) != 0 ||
	    (r = zoneinfo_v1_close(zp)) != 0 ||
	    (r = procfs_lex_index(lx, PROCFS_MAX_REGION, &b->v1_region,
	    "a region number")) != 0)
		return (r);
	b->v1_open = 1;
	b->v1_spanned = SNAP_UNKNOWN;
	b->v1_present = b->v1_free = SNAP_UNKNOWN;
	return (0);
}

/* One line inside a zone block, recognised by its leading key. */
static int
zoneinfo_line(struct zoneinfo_parse *zp)
{
	struct procfs_lex *lx = &zp->lx;
	struct zoneinfo_block *b = &zp->b;

	procfs_lex_blank(lx);
	if (lx->p == lx->eol)
		return (0);
	if ((unsigned char)*lx->p <= ' ' || (unsigned char)*lx->p >= 0x7f)
		return (procfs_lex_expect(lx, "a zoneinfo line"));
	if (b->in_node_stats) {
		if (!PROCFS_IS(lx, "pages"))
			return (0);
		b->in_node_stats = 0;
		lx->p = lx->line;
		procfs_lex_blank(lx);
	}
	switch (*lx->p) {
	case 'p':
		return (zoneinfo_p_line(zp));
	case 's':
		if (PROCFS_IS(lx, "spanned"))
			return (zoneinfo_value(zp, &b->spanned,
			    "a page count after 'spanned'"));
		if (PROCFS_IS(lx, "start_pfn:"))
			return (zoneinfo_value(zp, &b->start_pfn,
			    "a pfn after 'start_pfn:'"));
		return (0);
	case 'm':
		if (PROCFS_IS(lx, "managed"))
			return (zoneinfo_value(zp, &b->managed,
			    "a page count after 'managed'"));
		return (0);
	case 'c':
		if (PROCFS_IS(lx, "count:"))
			return (zoneinfo_sum(zp, &b->pcp,
			    "a page count after 'count:'"));
		return (0);
	case 'v':
		/* Per-CPU counter deltas make pages free lag by this much. */
		if (PROCFS_IS(lx, "vm") && procfs_lex_word(lx, "stats") &&
		    procfs_lex_word(lx, "threshold:"))
			return (zoneinfo_sum(zp, &b->stat_slack,
			    "a count after 'vm stats threshold:'"));
		return (0);
	case 'f':
		if (b->v1_open && PROCFS_IS(lx, "free"))
			return (zoneinfo_value(zp, &b->v1_free,
			    "a page count after 'free'"));
		return (0);
	case 'P':
		if (PROCFS_IS(lx, "Per-region"))
			return (zoneinfo_sorted(zp));
		return (0);
	case 'R':
		if (PROCFS_IS(lx, "Region"))
			return (zoneinfo_region_row(zp));
		return (0);
	case 'Z':
		if (PROCFS_IS(lx, "Zone"))
			return (zoneinfo_zone_line(zp));
		return (0);
	default:
		return (0);
	}
}

/* Parse /proc/zoneinfo text into new snapshot entries (see procfs.h). */
int
procfs_parse_zoneinfo(struct snapshot *snap, const char *path,
    const char *buf, size_t len, char **cause)
{
	struct zoneinfo_parse zp;
	struct procfs_lex *lx = &zp.lx;
	int r;

	memset(&zp, 0, sizeof zp);
	zp.snap = snap;
	zp.header_kind = -1;
	zp.last_node = -1;
	if ((r = procfs_lex_init(lx, path, buf, len, cause)) != 0)
		return (r);
	while ((r = procfs_lex_next(lx)) > 0) {
		if (lx->line[0] == 'N' && PROCFS_IS(lx, "Node")) {
			lx->p = lx->line;
			r = zoneinfo_header(&zp);
		} else if (zp.b.line == 0) {
			if (procfs_lex_at_eol(lx))
				continue;
			r = procfs_lex_expect(lx, "a zone header 'Node N, "
			    "zone NAME'");
		} else
			r = zoneinfo_line(&zp);
		if (r != 0)
			return (r);
	}
	if (r < 0 || (r = zoneinfo_close(&zp)) != 0)
		return (r);
	if (zp.b.line == 0 && lx->line == NULL)
		return (procfs_lex_expect(lx, "a zone header 'Node N, zone "
		    "NAME'"));
	if (zp.b.line == 0)
		return (procfs_lex_fail(lx, "expected a zone header 'Node N, "
		    "zone NAME', found only blank lines"));
	if (zp.sorted && zp.plain_line != 0)
		return (procfs_lex_fail_at(lx, zp.plain_line, "expected a "
		    "'Per-region page stats' table in this zone block like "
		    "the one at line %d", zp.sorted_line));
	if (snap->nentries == 0)
		return (procfs_lex_fail(lx, "expected at least one populated "
		    "zone (present > 0), found none"));
	snap->format = zp.header_kind == 1 ? SNAP_FORMAT_PATCHED :
	    zp.sorted ? SNAP_FORMAT_SORTED_BUDDY : SNAP_FORMAT_PLAIN;
	return (0);
}
