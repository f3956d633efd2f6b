/*
 * Where DAMON's readings land: the System RAM ranges it watches, from
 * /proc/iomem, and the map from the regions it tried onto the memory
 * regions of a snapshot (docs/damon.md).  The admin tree itself is
 * lib/damon.c.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "damon.h"
#include "log.h"
#include "snapshot.h"

/*
 * The "System RAM" ranges of /proc/iomem (top level only: those are what
 * the kernel manages), in bytes, sorted as the file lists them.  Without
 * root the file shows zeros: an empty list, which the caller reports.
 */
int
damon_system_ram(const char *proc_root, struct damon_range **ranges,
    int *nranges, char **cause)
{
	char path[PATH_MAX], *line = NULL, *end;
	unsigned long long a, b;
	size_t cap = 0;
	ssize_t len;
	FILE *f;
	int n = 0, lineno = 0, rc = 0;

	*ranges = NULL;
	*nranges = 0;
	snprintf(path, sizeof path, "%s/iomem", proc_root);
	if ((f = fopen(path, "re")) == NULL)
		return (fail_with(cause, RB_EXIT_ENV, "%s: %s", path,
		    strerror(errno)));
	while ((len = getline(&line, &cap, f)) != -1) {
		lineno++;
		if (line[0] == ' ' || strstr(line, " : System RAM") == NULL)
			continue;
		errno = 0;
		a = strtoull(line, &end, 16);
		if (errno != 0 || *end != '-') {
			rc = fail_with(cause, RB_EXIT_INPUT, "%s:%d: expected "
			    "START-END : System RAM", path, lineno);
			break;
		}
		b = strtoull(end + 1, &end, 16);
		if (errno != 0 || *end != ' ' || b < a) {
			rc = fail_with(cause, RB_EXIT_INPUT, "%s:%d: expected "
			    "START-END : System RAM", path, lineno);
			break;
		}
		if (a == 0 && b == 0)
			continue;	/* hidden from non-root */
		*ranges = xreallocarray(*ranges, n + 1, sizeof **ranges);
		(*ranges)[n].start = a;
		(*ranges)[n].end = (uint64_t)b + 1;
		n++;
	}
	free(line);
	fclose(f);
	if (rc != 0) {
		free(*ranges);
		*ranges = NULL;
		return (rc);
	}
	*nranges = n;
	return (0);
}

/* Order ranges by start, for the map's binary search. */
static int
damon_range_cmp(const void *a, const void *b)
{
	const struct damon_range *x = a, *y = b;

	return (x->start < y->start ? -1 : x->start > y->start);
}

/* Index of a region key in the map, added when new. */
static int
damon_map_region(struct damon_map *m, int node, int region)
{
	int i;

	for (i = 0; i < m->nregions; i++) {
		if (m->regions[i].node == node &&
		    m->regions[i].region == region)
			return (i);
	}
	m->regions = xreallocarray(m->regions, m->nregions + 1,
	    sizeof *m->regions);
	memset(&m->regions[m->nregions], 0, sizeof *m->regions);
	m->regions[m->nregions].node = node;
	m->regions[m->nregions].region = region;
	return (m->nregions++);
}

/*
 * Build the map from a snapshot's region keys (a region spans its zones'
 * pfn ranges) and the System RAM ranges: each region's span intersected
 * with each RAM range, page aligned.  Where two ranges touch, the later
 * starts a page further on: DAMON merges adjacent regions of a target,
 * and one DAMON region across a boundary would blur two regions.
 * Returns the number of ranges (0: nothing to monitor).
 */
int
damon_map_build(struct damon_map *m, const struct snapshot *snap,
    const struct damon_range *ram, int nram, uint64_t page_size)
{
	struct damon_range *span = NULL, *r;
	const struct snap_entry *e;
	uint64_t s, t;
	int i, j, k, *order, idx;

	memset(m, 0, sizeof *m);
	for (i = 0; i < snap->nentries; i++) {
		e = &snap->entries[i];
		if (e->region < 0 || e->start_pfn == SNAP_UNKNOWN ||
		    e->spanned == SNAP_UNKNOWN || e->spanned == 0)
			continue;
		k = m->nregions;
		idx = damon_map_region(m, e->node, e->region);
		if (idx == k) {
			span = xreallocarray(span, m->nregions, sizeof *span);
			span[idx].start = UINT64_MAX;
			span[idx].end = 0;
		}
		s = e->start_pfn * page_size;
		t = (e->start_pfn + e->spanned) * page_size;
		if (s < span[idx].start)
			span[idx].start = s;
		if (t > span[idx].end)
			span[idx].end = t;
	}
	for (i = 0; i < m->nregions; i++) {
		for (j = 0; j < nram; j++) {
			s = span[i].start > ram[j].start ? span[i].start :
			    ram[j].start;
			t = span[i].end < ram[j].end ? span[i].end : ram[j].end;
			s = (s + page_size - 1) / page_size * page_size;
			t = t / page_size * page_size;
			if (t <= s)
				continue;
			m->ranges = xreallocarray(m->ranges, m->nranges + 1,
			    sizeof *m->ranges);
			m->range_region = xreallocarray(m->range_region,
			    m->nranges + 1, sizeof *m->range_region);
			m->ranges[m->nranges].start = s;
			m->ranges[m->nranges].end = t;
			m->range_region[m->nranges++] = i;
		}
	}
	free(span);
	/* Sort ranges and their regions together. */
	order = xreallocarray(NULL, m->nranges + 1, sizeof *order);
	r = xreallocarray(NULL, m->nranges + 1, sizeof *r);
	for (i = 0; i < m->nranges; i++) {
		r[i] = m->ranges[i];
		r[i].end = (uint64_t)i;	/* position before sorting */
		order[i] = m->range_region[i];
	}
	qsort(r, m->nranges, sizeof *r, damon_range_cmp);
	for (i = 0; i < m->nranges; i++) {
		k = (int)r[i].end;
		r[i].end = m->ranges[k].end;
		m->range_region[i] = order[k];
	}
	free(m->ranges);
	free(order);
	m->ranges = r;
	for (i = 1; i < m->nranges; i++) {
		if (m->ranges[i].start < m->ranges[i - 1].end)
			m->ranges[i].start = m->ranges[i - 1].end;
		if (m->ranges[i].start == m->ranges[i - 1].end)
			m->ranges[i].start += page_size;
	}
	/* A range the gap swallowed goes. */
	for (i = j = 0; i < m->nranges; i++) {
		if (m->ranges[i].end <= m->ranges[i].start)
			continue;
		m->ranges[j] = m->ranges[i];
		m->range_region[j++] = m->range_region[i];
	}
	m->nranges = j;
	return (m->nranges);
}

/*
 * One interval's tried regions onto the memory regions: each DAMON
 * region's bytes go to the regions whose ranges it overlaps (split by
 * overlap), referenced when it had any access in the interval; idle
 * parts keep the shortest age.
 */
void
damon_map_account(struct damon_map *m, const struct damon_tried *tried,
    int ntried)
{
	const struct damon_tried *t;
	struct damon_region *g;
	uint64_t s, e;
	int i, lo, hi, mid;

	for (i = 0; i < m->nregions; i++) {
		g = &m->regions[i];
		g->monitored = g->referenced = g->idle_age = 0;
		g->has_idle = 0;
	}
	for (t = tried; t < tried + ntried; t++) {
		/* The first range ending after the DAMON region's start. */
		lo = 0;
		hi = m->nranges;
		while (lo < hi) {
			mid = (lo + hi) / 2;
			if (m->ranges[mid].end <= t->start)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (i = lo; i < m->nranges && m->ranges[i].start < t->end;
		    i++) {
			s = t->start > m->ranges[i].start ? t->start :
			    m->ranges[i].start;
			e = t->end < m->ranges[i].end ? t->end :
			    m->ranges[i].end;
			if (e <= s)
				continue;
			g = &m->regions[m->range_region[i]];
			g->monitored += e - s;
			if (t->nr_accesses > 0)
				g->referenced += e - s;
			else if (!g->has_idle || t->age < g->idle_age) {
				g->idle_age = t->age;
				g->has_idle = 1;
			}
		}
	}
}

/* Release a map. */
void
damon_map_free(struct damon_map *m)
{
	free(m->regions);
	free(m->ranges);
	free(m->range_region);
	memset(m, 0, sizeof *m);
}
