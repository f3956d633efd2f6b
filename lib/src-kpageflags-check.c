/*
 * The kpageflags scan checked against zoneinfo, read just before and just
 * after it: how the kernel marks free blocks (decided once, from
 * buddyinfo), the flag-less pages lazy init has not reached, and whether
 * each zone's counted free pages lie inside what zoneinfo said around
 * the scan (give or take the per-CPU counter slack).  What does not agree
 * becomes a warning of the sample and a figure of meta.json's accuracy.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "src-kpageflags-private.h"

/* Sum the per-CPU "vm stats threshold" lines of each zone of zoneinfo. */
static void
src_kpageflags_slack(struct src_kpageflags *kp, const char *buf)
{
	char name[SNAP_NAME_LEN];
	const char *line, *th;
	int node, zone = -1, i;

	for (i = 0; i < kp->map.nzones; i++)
		kp->zones[i].slack = 0;
	for (line = buf; line != NULL && *line != '\0'; ) {
		if (sscanf(line, "Node %d, zone %15s", &node, name) == 2)
			zone = region_map_zone(&kp->map, node, name);
		else if (zone != -1 && (th = strstr(line,
		    "vm stats threshold:")) != NULL &&
		    th < line + strcspn(line, "\n"))
			kp->zones[zone].slack += strtoull(th + 19, NULL, 10);
		if ((line = strchr(line, '\n')) != NULL)
			line++;
	}
}

/* Take the zoneinfo figures the scan is checked against. */
static void
src_kpageflags_zone_figures(struct src_kpageflags *kp, struct snapshot *snap,
    int before)
{
	const struct snap_entry *e;
	struct src_kpageflags_zone *z;
	int i, zi, k;

	for (i = 0; i < snap->nentries; i++) {
		e = &snap->entries[i];
		if ((zi = region_map_zone(&kp->map, e->node, e->zone)) == -1)
			continue;
		z = &kp->zones[zi];
		if (before) {
			z->seen = 1;
			z->free_before = e->free_pages;
			z->pcp = e->pcp_pages;
			z->buddy_blocks = z->buddy_pages = 0;
			for (k = 0; k < e->norders; k++) {
				z->buddy_blocks += e->free_blocks[k];
				z->buddy_pages += e->free_blocks[k] << k;
			}
		} else {
			z->free_after = e->free_pages;
			z->managed = e->managed;
		}
	}
}

/* Warn when a zone's span is no longer the one the map was built from. */
static void
src_kpageflags_check_spans(struct src_kpageflags *kp, struct snapshot *snap)
{
	const struct snap_entry *e;
	const struct region_zone *z;
	int i, zi;

	for (i = 0; i < snap->nentries; i++) {
		e = &snap->entries[i];
		if (e->spanned == 0 || e->spanned == SNAP_UNKNOWN ||
		    e->start_pfn == SNAP_UNKNOWN)
			continue;
		zi = region_map_zone(&kp->map, e->node, e->zone);
		z = zi == -1 ? NULL : &kp->map.zones[zi];
		if (z == NULL || z->start_pfn != e->start_pfn ||
		    z->end_pfn != e->start_pfn + e->spanned) {
			snapshot_warn(snap, "kpageflags: node %d zone %s now "
			    "spans pfn %" PRIu64 "+%" PRIu64 ", not as at "
			    "start; the region map is kept", e->node, e->zone,
			    e->start_pfn, e->spanned);
			return;
		}
	}
}

/*
 * Tell from the data whether free blocks are marked on every page or only
 * on the head: with every page marked, BUDDY pages equal the free pages;
 * with head-only marking they equal the number of free blocks.  Only
 * decided when buddyinfo's blocks and pages differ enough to tell.
 */
void
src_kpageflags_detect(struct src_kpageflags *kp)
{
	uint64_t buddy = 0, blocks = 0, pages = 0, dn, dp;
	int i;

	for (i = 0; i < kp->map.nkeys; i++)
		buddy += kp->total[i].free;
	for (i = 0; i < kp->map.nzones; i++) {
		blocks += kp->zones[i].buddy_blocks;
		pages += kp->zones[i].buddy_pages;
	}
	if (pages < blocks + SRC_KPAGEFLAGS_DETECT_MIN)
		return;
	dn = buddy > blocks ? buddy - blocks : blocks - buddy;
	dp = buddy > pages ? buddy - pages : pages - buddy;
	kp->marking = dn < dp ? SRC_KPAGEFLAGS_HEAD_ONLY :
	    SRC_KPAGEFLAGS_ALL_PAGES;
	snprintf(kp->detection, sizeof kp->detection, "%" PRIu64 " KPF_BUDDY "
	    "pages against %" PRIu64 " free blocks and %" PRIu64 " free pages "
	    "in buddyinfo", buddy, blocks, pages);
}

/*
 * Pages with no flags that the zone does not manage are not memory in use:
 * on this VM they are memmap that lazy deferred init has not reached yet.
 * Per zone, the pages counted beyond zoneinfo's managed (after taking out
 * PG_reserved pages, which are never managed) are taken from the flag-less
 * pages of the zone's keys, highest key first, since lazy init proceeds
 * upward from the zone's start.
 */
static void
src_kpageflags_reconcile(struct src_kpageflags *kp)
{
	const struct region_key *k;
	struct src_kpageflags_acc *a;
	uint64_t counted, excess, take;
	int z, i;

	for (i = 0; i < kp->map.nkeys; i++)
		kp->total[i].uninit = 0;
	for (z = 0; z < kp->map.nzones; z++) {
		if (kp->zones[z].managed == SNAP_UNKNOWN)
			continue;
		counted = 0;
		for (i = 0; i < kp->map.nkeys; i++) {
			a = &kp->total[i];
			if (kp->map.keys[i].zone == z)
				counted += a->present - a->reserved;
		}
		if (counted <= kp->zones[z].managed)
			continue;
		excess = counted - kp->zones[z].managed;
		for (i = kp->map.nkeys - 1; i >= 0 && excess > 0; i--) {
			k = &kp->map.keys[i];
			a = &kp->total[i];
			if (k->zone != z)
				continue;
			take = a->zero < excess ? a->zero : excess;
			a->uninit = take;
			excess -= take;
		}
	}
}

/*
 * Pages on the per-CPU free lists carry no flags: without this they would
 * count as "other" kernel pages.  zoneinfo gives their number per zone
 * (the count: lines, read before the scan) but not where they are, so
 * each zone's count is moved from the flag-less pages of its keys to
 * their free pages in proportion to those flag-less pages, never more
 * than a key has.  The accuracy check has run by then: zoneinfo's free
 * figure leaves these pages out too.
 */
static void
src_kpageflags_pcp(struct src_kpageflags *kp)
{
	struct src_kpageflags_acc *a;
	uint64_t total, want, given, room, take;
	int z, i;

	for (i = 0; i < kp->map.nkeys; i++)
		kp->total[i].pcp = 0;
	for (z = 0; z < kp->map.nzones; z++) {
		total = 0;
		for (i = 0; i < kp->map.nkeys; i++) {
			a = &kp->total[i];
			if (kp->map.keys[i].zone == z)
				total += a->zero - a->uninit;
		}
		want = kp->zones[z].pcp < total ? kp->zones[z].pcp : total;
		if (want == 0)
			continue;
		given = 0;
		for (i = 0; i < kp->map.nkeys; i++) {
			a = &kp->total[i];
			if (kp->map.keys[i].zone != z)
				continue;
			a->pcp = (uint64_t)((double)(a->zero - a->uninit) *
			    want / total);
			given += a->pcp;
		}
		/* What rounding left goes to the first keys with room. */
		for (i = 0; i < kp->map.nkeys && given < want; i++) {
			a = &kp->total[i];
			if (kp->map.keys[i].zone != z)
				continue;
			room = a->zero - a->uninit - a->pcp;
			take = room < want - given ? room : want - given;
			a->pcp += take;
			given += take;
		}
	}
}

/* Compare counted free pages per zone with zoneinfo around the scan. */
static void
src_kpageflags_check(struct src_kpageflags *kp, struct snapshot *snap)
{
	const struct src_kpageflags_zone *z;
	const struct region_zone *rz;
	uint64_t counted, lo, hi, out;
	int64_t diff;
	int i, zi;

	/* A sampled scan's free pages are estimates, not counts. */
	if (kp->sampled)
		return;
	for (zi = 0; zi < kp->map.nzones; zi++) {
		z = &kp->zones[zi];
		rz = &kp->map.zones[zi];
		if (!z->seen || rz->partial)
			continue;
		/* A zone whose keys were not all counted now: kept counts. */
		counted = 0;
		for (i = 0; i < kp->map.nkeys; i++) {
			if (kp->map.keys[i].zone != zi)
				continue;
			if (!src_kpageflags_key_scanned(kp, i))
				break;
			counted += kp->total[i].free;
		}
		if (i < kp->map.nkeys)
			continue;
		lo = z->free_before < z->free_after ? z->free_before :
		    z->free_after;
		hi = z->free_before < z->free_after ? z->free_after :
		    z->free_before;
		lo = lo > z->slack ? lo - z->slack : 0;
		hi += z->slack;
		kp->checks++;
		if (counted >= lo && counted <= hi)
			continue;
		out = counted < lo ? lo - counted : counted - hi;
		diff = counted < lo ? -(int64_t)out : (int64_t)out;
		kp->outside++;
		if (out > kp->worst_outside) {
			kp->worst_outside = out;
			kp->worst_diff = diff;
			snprintf(kp->worst_where, sizeof kp->worst_where,
			    "node %d zone %s", rz->node, rz->name);
		}
		snapshot_warn(snap, "kpageflags: node %d zone %s: counted %"
		    PRIu64 " free pages, zoneinfo said %" PRIu64 " before and %"
		    PRIu64 " after the scan (slack %" PRIu64 "): %+" PRId64
		    " pages outside", rz->node, rz->name, counted,
		    z->free_before, z->free_after, z->slack, diff);
	}
}


/*
 * The zoneinfo read before the scan: per-CPU slack, the free figures the
 * scan is checked against, and a warning when a zone moved.
 */
void
src_kpageflags_before(struct src_kpageflags *kp, struct snapshot *before,
    const char *zoneinfo, struct snapshot *snap)
{
	src_kpageflags_slack(kp, zoneinfo);
	src_kpageflags_zone_figures(kp, before, 1);
	src_kpageflags_check_spans(kp, snap);
}

/*
 * The zoneinfo read after the scan: reconcile the flag-less pages with
 * what each zone manages, check the free counts, then count the per-CPU
 * free pages as free.
 */
void
src_kpageflags_after(struct src_kpageflags *kp, struct snapshot *after,
    struct snapshot *snap)
{
	src_kpageflags_zone_figures(kp, after, 0);
	src_kpageflags_reconcile(kp);
	src_kpageflags_check(kp, snap);
	src_kpageflags_pcp(kp);
}
