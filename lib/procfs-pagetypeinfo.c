/*
 * /proc/pagetypeinfo: free blocks per migratetype and order, and pageblocks
 * per migratetype, once per node with memory (headers repeated).  Columns
 * are mapped by the names in each "Number of blocks type" header, never by
 * position: 4.4 swapped Movable and Reclaimable and replaced Reserve by
 * HighAtomic.  Since 5.4 a free list walk stops at 100000 entries and the
 * cell prints ">100000"; it is kept as 100000 with its capped bit set.  The
 * "Number of mixed blocks" section (page_owner) is recognised and skipped.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "log.h"
#include "procfs-lex.h"
#include "procfs.h"

enum pagetypeinfo_section {
	PTI_NONE,		/* before a header, or after an unknown one */
	PTI_FREE,		/* free pages per migratetype rows */
	PTI_BLOCKS,		/* pageblocks per migratetype rows */
	PTI_MIXED		/* page_owner's mixed blocks: skipped */
};

struct pagetypeinfo_parse {
	struct procfs_lex	 lx;
	struct snapshot		*snap;
	enum pagetypeinfo_section section;
	int			 hint;
	int			 order_line;	/* "Page block order" line */
	int			 ncols;		/* order columns (header) */
	int			 ncols_line;
	int			 nmap;		/* block columns (header) */
	int			 map[SNAP_MAX_MTYPES];
	int			 map_line;
	int			 nfree_rows;
};

/* Does a row's layout match the format zoneinfo was in? */
static int
pagetypeinfo_format(struct pagetypeinfo_parse *pp, int kind, int region_col)
{
	enum snap_format want = pp->snap->format, found;
	static const char *const names[] = {
		[SNAP_FORMAT_UNKNOWN] = "unknown",
		[SNAP_FORMAT_PLAIN] = "mainline",
		[SNAP_FORMAT_PATCHED] = "memory-region ('Region R')",
		[SNAP_FORMAT_SORTED_BUDDY] = "sorted-buddy ('R N')"
	};

	if (kind == 2)
		return (procfs_lex_fail(&pp->lx, "expected a pagetypeinfo row, "
		    "found buddyinfo's 'REG' (wrong file?)"));
	found = kind == 1 ? SNAP_FORMAT_PATCHED : region_col ?
	    SNAP_FORMAT_SORTED_BUDDY : SNAP_FORMAT_PLAIN;
	if (want == SNAP_FORMAT_UNKNOWN || found == want ||
	    (want == SNAP_FORMAT_SORTED_BUDDY && found == SNAP_FORMAT_PLAIN))
		return (0);
	return (procfs_lex_fail(&pp->lx, "expected %s rows like the zoneinfo "
	    "read with it, found a %s row (files of different kernels "
	    "mixed?)", names[want], names[found]));
}

/* Read a sorted-buddy "R%3d" column if one comes next; -1 if none. */
static int
pagetypeinfo_region_col(struct pagetypeinfo_parse *pp, int *region)
{
	struct procfs_lex *lx = &pp->lx;

	*region = -1;
	procfs_lex_blank(lx);
	if (lx->p + 1 >= lx->eol || lx->p[0] != 'R' ||
	    !(lx->p[1] == ' ' || (lx->p[1] >= '0' && lx->p[1] <= '9')))
		return (0);
	lx->p++;
	return (procfs_lex_index(lx, PROCFS_MAX_REGION, region,
	    "a region number after 'R'"));
}

/* "Free pages count per migrate type at order 0 1 ...": the orders. */
static int
pagetypeinfo_free_header(struct pagetypeinfo_parse *pp)
{
	struct procfs_lex *lx = &pp->lx;
	uint64_t o;
	int n = 0, r;

	while (!procfs_lex_at_eol(lx)) {
		if (n == SNAP_MAX_ORDERS)
			return (procfs_lex_fail(lx, "expected at most %d "
			    "orders, found more", SNAP_MAX_ORDERS));
		if ((r = procfs_lex_u64(lx, &o, "an order number")) != 0)
			return (r);
		if (o != (uint64_t)n)
			return (procfs_lex_fail(lx, "expected order %d in "
			    "column %d, found %llu", n, n + 1,
			    (unsigned long long)o));
		n++;
	}
	if (n == 0)
		return (procfs_lex_expect(lx, "order numbers"));
	if (pp->snap->norders != 0 && n != pp->snap->norders)
		return (procfs_lex_fail(lx, "expected %d orders like "
		    "buddyinfo, found %d", pp->snap->norders, n));
	if (pp->ncols != 0 && n != pp->ncols)
		return (procfs_lex_fail(lx, "expected %d orders like line %d, "
		    "found %d", pp->ncols, pp->ncols_line, n));
	pp->ncols = n;
	pp->ncols_line = lx->lineno;
	pp->section = PTI_FREE;
	return (0);
}

/* "Number of blocks type NAME..." (or mixed blocks): the column names. */
static int
pagetypeinfo_block_header(struct pagetypeinfo_parse *pp,
    enum pagetypeinfo_section section)
{
	struct procfs_lex *lx = &pp->lx;
	char name[SNAP_NAME_LEN];
	int n = 0, r, mt;

	while (!procfs_lex_at_eol(lx)) {
		if (n == SNAP_MAX_MTYPES)
			return (procfs_lex_fail(lx, "expected at most %d "
			    "migratetypes, found more", SNAP_MAX_MTYPES));
		if ((r = procfs_lex_name(lx, name, "a migratetype name")) != 0)
			return (r);
		if ((mt = snapshot_mtype(pp->snap, name)) < 0)
			return (procfs_lex_fail(lx, "expected at most %d "
			    "migratetypes, found '%s' beyond them",
			    SNAP_MAX_MTYPES, name));
		if (section == PTI_BLOCKS)
			pp->map[n] = mt;
		n++;
	}
	if (n == 0)
		return (procfs_lex_expect(lx, "migratetype names"));
	if (section == PTI_BLOCKS) {
		pp->nmap = n;
		pp->map_line = lx->lineno;
	}
	pp->section = section;
	return (0);
}

/*
 * The counts of a row, as many as the header at line header_line named
 * (want): free block counts may be capped ('>' before a count: bit n of
 * *capped), pageblock counts (capped NULL) may not.  *nonzero ORs them.
 */
static int
pagetypeinfo_counts(struct pagetypeinfo_parse *pp, uint64_t *counts,
    int want, int header_line, uint32_t *capped, const char *what,
    uint64_t *nonzero)
{
	struct procfs_lex *lx = &pp->lx;
	int n = 0, r;

	while (!procfs_lex_at_eol(lx)) {
		if (n == want)
			return (procfs_lex_fail(lx, "expected %d counts like "
			    "the header at line %d, found more", want,
			    header_line));
		if (capped != NULL && *lx->p == '>') {
			*capped |= 1u << n;
			lx->p++;
		}
		if ((r = procfs_lex_u64(lx, &counts[n], what)) != 0)
			return (r);
		*nonzero |= counts[n];
		n++;
	}
	if (n != want)
		return (procfs_lex_fail(lx, "expected %d counts like the "
		    "header at line %d, found %d", want, header_line, n));
	return (0);
}

/*
 * The entry a row of (node, region or sorted-buddy sb_region, zone) fills
 * in, or NULL: the zone totals of a sorted-buddy kernel (its regions
 * follow), or a key zoneinfo lacks (a warning unless all counts are 0).
 */
static struct snap_entry *
pagetypeinfo_row_entry(struct pagetypeinfo_parse *pp, int node, int region,
    int sb_region, const char *zone, uint64_t nonzero)
{
	struct snapshot *snap = pp->snap;
	struct snap_entry *e;
	char key[64];

	if (snap->format == SNAP_FORMAT_SORTED_BUDDY && sb_region < 0)
		return (NULL);
	if (sb_region >= 0)
		region = sb_region;
	e = procfs_lookup(snap, &pp->hint, node, region, zone);
	if (e == NULL && nonzero != 0)
		snapshot_warn(snap, "pagetypeinfo has %s, zoneinfo does not",
		    procfs_key_str(key, sizeof key, node, region, zone));
	return (e);
}

/* "Node N, [Region R,] zone Z, type T c0 c1 ..." (or ", R  n T"). */
static int
pagetypeinfo_free_row(struct pagetypeinfo_parse *pp)
{
	struct procfs_lex *lx = &pp->lx;
	struct snap_entry *e;
	uint64_t counts[SNAP_MAX_ORDERS], nonzero = 0;
	uint32_t capped = 0;
	int kind, node, region, sb_region, mt, r;
	char zone[SNAP_NAME_LEN], name[SNAP_NAME_LEN];

	if ((kind = procfs_lex_key(lx, &node, &region, zone)) < 0)
		return (kind);
	if (lx->p >= lx->eol || *lx->p != ',')
		return (procfs_lex_expect(lx, "',' after the zone name"));
	lx->p++;
	if (procfs_lex_word(lx, "type"))
		sb_region = -1;
	else if ((r = pagetypeinfo_region_col(pp, &sb_region)) != 0)
		return (r);
	else if (sb_region < 0)
		return (procfs_lex_expect(lx, "'type' or 'R<region>'"));
	if ((r = pagetypeinfo_format(pp, kind, sb_region >= 0)) != 0 ||
	    (r = procfs_lex_name(lx, name, "a migratetype name")) != 0 ||
	    (r = pagetypeinfo_counts(pp, counts, pp->ncols, pp->ncols_line,
	    &capped, "a free block count", &nonzero)) != 0)
		return (r);
	if ((mt = snapshot_mtype(pp->snap, name)) < 0)
		return (procfs_lex_fail(lx, "expected at most %d "
		    "migratetypes, found '%s' beyond them", SNAP_MAX_MTYPES,
		    name));
	pp->nfree_rows++;
	if ((e = pagetypeinfo_row_entry(pp, node, region, sb_region, zone,
	    nonzero)) == NULL)
		return (0);
	memcpy(e->mt_free[mt], counts, pp->ncols * sizeof counts[0]);
	e->mt_capped[mt] = capped;
	e->has_mt_free = 1;
	return (0);
}

/* "Node N, [Region R,] zone Z [R  n] c0 c1 ...": pageblocks per type. */
static int
pagetypeinfo_block_row(struct pagetypeinfo_parse *pp)
{
	struct procfs_lex *lx = &pp->lx;
	struct snap_entry *e;
	uint64_t counts[SNAP_MAX_MTYPES], nonzero = 0;
	int kind, node, region, sb_region, i, r;
	char zone[SNAP_NAME_LEN];

	if ((kind = procfs_lex_key(lx, &node, &region, zone)) < 0)
		return (kind);
	if ((r = pagetypeinfo_region_col(pp, &sb_region)) != 0 ||
	    (r = pagetypeinfo_format(pp, kind, sb_region >= 0)) != 0 ||
	    (r = pagetypeinfo_counts(pp, counts, pp->nmap, pp->map_line, NULL,
	    "a pageblock count", &nonzero)) != 0)
		return (r);
	if ((e = pagetypeinfo_row_entry(pp, node, region, sb_region, zone,
	    nonzero)) == NULL)
		return (0);
	for (i = 0; i < pp->nmap; i++)
		e->mt_blocks[pp->map[i]] = counts[i];
	e->has_mt_blocks = 1;
	return (0);
}

/* "Page block order: N" and "Pages per block: N". */
static int
pagetypeinfo_order(struct pagetypeinfo_parse *pp, int per_block)
{
	struct procfs_lex *lx = &pp->lx;
	struct snapshot *snap = pp->snap;
	uint64_t pages;
	int order, r;

	pp->section = PTI_NONE;
	if (per_block) {
		if ((r = procfs_lex_u64(lx, &pages, "a page count")) != 0)
			return (r);
		if (snap->pageblock_order >= 0 &&
		    pages != (uint64_t)1 << snap->pageblock_order)
			return (procfs_lex_fail(lx, "expected %llu pages per "
			    "block (order %d), found %llu",
			    1ULL << snap->pageblock_order,
			    snap->pageblock_order, (unsigned long long)pages));
		return (procfs_lex_at_eol(lx) ? 0 :
		    procfs_lex_expect(lx, "the end of the line"));
	}
	if ((r = procfs_lex_index(lx, 62, &order, "a pageblock order")) != 0)
		return (r);
	if (pp->order_line != 0 && order != snap->pageblock_order)
		return (procfs_lex_fail(lx, "expected pageblock order %d like "
		    "line %d, found %d", snap->pageblock_order, pp->order_line,
		    order));
	snap->pageblock_order = order;
	pp->order_line = lx->lineno;
	return (procfs_lex_at_eol(lx) ? 0 :
	    procfs_lex_expect(lx, "the end of the line"));
}

/* Warn where the free lists do not add up to buddyinfo (invariant 2). */
static void
pagetypeinfo_check(struct snapshot *snap)
{
	struct snap_entry *e;
	uint64_t sum;
	uint32_t capped;
	char key[64];
	int i, o, mt;

	for (i = 0; i < snap->nentries; i++) {
		e = &snap->entries[i];
		procfs_key_str(key, sizeof key, e->node, e->region, e->zone);
		if (!e->has_mt_free) {
			snapshot_warn(snap, "zoneinfo has %s, pagetypeinfo "
			    "has no free rows for it", key);
			continue;
		}
		capped = 0;
		for (mt = 0; mt < snap->nmtypes; mt++)
			capped |= e->mt_capped[mt];
		for (o = 0; o < e->norders; o++) {
			if (capped & (1u << o))
				continue;
			sum = 0;
			for (mt = 0; mt < snap->nmtypes; mt++)
				sum += e->mt_free[mt][o];
			if (sum != e->free_blocks[o]) {
				snapshot_warn(snap, "pagetypeinfo %s order %d: "
				    "migratetype lists hold %llu blocks, "
				    "buddyinfo %llu", key, o,
				    (unsigned long long)sum,
				    (unsigned long long)e->free_blocks[o]);
				break;
			}
		}
	}
}

/* Parse /proc/pagetypeinfo text into the entries zoneinfo made. */
int
procfs_parse_pagetypeinfo(struct snapshot *snap, const char *path,
    const char *buf, size_t len, char **cause)
{
	struct pagetypeinfo_parse pp;
	struct procfs_lex *lx = &pp.lx;
	int r;

	memset(&pp, 0, sizeof pp);
	pp.snap = snap;
	if ((r = procfs_lex_init(lx, path, buf, len, cause)) != 0)
		return (r);
	while ((r = procfs_lex_next(lx)) > 0) {
		if (procfs_lex_at_eol(lx))
			continue;
		r = 0;
		if ((unsigned char)*lx->p >= 0x7f ||
		    (unsigned char)*lx->p < ' ')
			r = procfs_lex_expect(lx, "a pagetypeinfo line");
		else if (lx->p != lx->line)
			r = 0;		/* no kernel indents; skip it */
		else if (*lx->p == 'N' && PROCFS_IS(lx, "Node")) {
			lx->p = lx->line;
			if (pp.section == PTI_FREE)
				r = pagetypeinfo_free_row(&pp);
			else if (pp.section == PTI_BLOCKS)
				r = pagetypeinfo_block_row(&pp);
			else if (pp.section == PTI_NONE && pp.ncols == 0)
				r = procfs_lex_fail(lx, "expected a 'Free "
				    "pages count per migrate type at order' "
				    "header before 'Node' rows");
		} else if (PROCFS_PREFIX(lx, "Page block order:"))
			r = pagetypeinfo_order(&pp, 0);
		else if (PROCFS_PREFIX(lx, "Pages per block:"))
			r = pagetypeinfo_order(&pp, 1);
		else if (PROCFS_PREFIX(lx,
		    "Free pages count per migrate type at order"))
			r = pagetypeinfo_free_header(&pp);
		else if (PROCFS_PREFIX(lx, "Number of blocks type"))
			r = pagetypeinfo_block_header(&pp, PTI_BLOCKS);
		else if (PROCFS_PREFIX(lx, "Number of mixed blocks"))
			r = pagetypeinfo_block_header(&pp, PTI_MIXED);
		else
			pp.section = PTI_NONE;	/* unknown section */
		if (r != 0)
			return (r);
	}
	if (r < 0)
		return (r);
	if (lx->line == NULL)
		return (procfs_lex_expect(lx, "'Page block order: N'"));
	if (pp.order_line == 0)
		return (procfs_lex_fail(lx, "expected a 'Page block order: N' "
		    "line, found none"));
	if (pp.nfree_rows == 0)
		return (procfs_lex_fail(lx, "expected free page rows under a "
		    "'Free pages count per migrate type at order' header, "
		    "found none"));
	if (snap->norders == 0)
		snap->norders = pp.ncols;
	snap->has_pagetype = 1;
	pagetypeinfo_check(snap);
	return (0);
}
