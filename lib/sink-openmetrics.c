/*
 * Prometheus sink (see sink-openmetrics.h).  A page is built whole in one
 * buffer after each sample, then either replaces the .prom file (a
 * temporary file beside it renamed over it, lib/atomic-file.c, so the
 * textfile collector never reads half a page) or is handed to the HTTP
 * endpoint, which swaps it in whole.  Buffers grow on the first samples
 * and are reused, so the sampler's loop stays allocation-free.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomic-file.h"
#include "log.h"
#include "region-metrics.h"
#include "sink-openmetrics.h"

/* The suffix node_exporter's textfile collector reads. */
#define SINK_OPENMETRICS_SUFFIX	".prom"

/* Label values of the used-page classes, in enum snap_used_class order. */
static const char *const sink_openmetrics_classes[SNAP_USED_NCLASS] = {
	[SNAP_USED_ANON] = "anon",
	[SNAP_USED_FILE] = "file",
	[SNAP_USED_SLAB] = "slab",
	[SNAP_USED_PGTABLE] = "pagetable",
	[SNAP_USED_OTHER] = "other",
};

/* Make room for len more bytes in the page. */
static void
om_reserve(struct sink_openmetrics *om, size_t len)
{
	if (om->len + len <= om->cap)
		return;
	while (om->len + len > om->cap)
		om->cap = om->cap == 0 ? 16384 : om->cap * 2;
	om->buf = xreallocarray(om->buf, om->cap, 1);
}

/* Append formatted text to the page. */
static void RB_PRINTF(2, 3)
om_printf(struct sink_openmetrics *om, const char *fmt, ...)
{
	va_list ap;
	int n;

	om_reserve(om, 256);
	va_start(ap, fmt);
	n = vsnprintf(om->buf + om->len, om->cap - om->len, fmt, ap);
	va_end(ap);
	if ((size_t)n >= om->cap - om->len) {
		om_reserve(om, (size_t)n + 1);
		va_start(ap, fmt);
		vsnprintf(om->buf + om->len, om->cap - om->len, fmt, ap);
		va_end(ap);
	}
	om->len += (size_t)n;
}

/* Append a label value, escaped as the exposition format wants. */
static void
om_label_value(struct sink_openmetrics *om, const char *s)
{
	om_reserve(om, 2 * strlen(s) + 1);
	for (; *s != '\0'; s++) {
		if (*s == '\\' || *s == '"')
			om->buf[om->len++] = '\\';
		if (*s == '\n') {
			om->buf[om->len++] = '\\';
			om->buf[om->len++] = 'n';
			continue;
		}
		om->buf[om->len++] = *s;
	}
}

/* The HELP and TYPE lines of a metric family. */
static void
om_family(struct sink_openmetrics *om, const char *name, const char *type,
    const char *help)
{
	om_printf(om, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* A sample line's name and region key labels, up to the open label set. */
static void
om_key(struct sink_openmetrics *om, const char *name,
    const struct snap_entry *e)
{
	om_printf(om, "%s{node=\"%d\",region=\"%d\",zone=\"", name, e->node,
	    e->region);
	om_label_value(om, e->zone);
	om_printf(om, "\",source=\"");
	om_label_value(om, om->source);
	om_printf(om, "\"");
}

/* A sample line of a metric with the source label only. */
static void
om_global(struct sink_openmetrics *om, const char *name, const char *value)
{
	om_printf(om, "%s{source=\"", name);
	om_label_value(om, om->source);
	om_printf(om, "\"} %s\n", value);
}

/*
 * Refuse a file name node_exporter's textfile collector would not read:
 * it reads only *.prom files, so anything else would be written for
 * nobody.
 */
int
sink_openmetrics_check_path(const char *path, char **cause)
{
	const char *name = strrchr(path, '/');
	size_t len, slen = strlen(SINK_OPENMETRICS_SUFFIX);

	name = name == NULL ? path : name + 1;
	len = strlen(name);
	if (len <= slen || strcmp(name + len - slen,
	    SINK_OPENMETRICS_SUFFIX) != 0)
		return (fail_with(cause, RB_EXIT_INPUT, "%s: the file name must "
		    "end in " SINK_OPENMETRICS_SUFFIX " (node_exporter's "
		    "textfile collector reads only those)", path));
	if (len > NAME_MAX)
		return (fail_with(cause, RB_EXIT_INPUT, "%s: file name too "
		    "long", path));
	return (0);
}

/*
 * Set up the sink: the source label, the page size that turns pages into
 * bytes and, when path is not NULL, the .prom file to replace after each
 * sample.  Its directory is held open, so the file lands where it was
 * named even if the path changes under a long run.
 */
int
sink_openmetrics_open(struct sink_openmetrics *om, const char *path,
    const char *source, uint64_t page_size, char **cause)
{
	struct atomic_file probe;
	const char *slash;
	int rc;

	memset(om, 0, sizeof *om);
	om->dirfd = -1;
	om->source = xstrdup(source);
	om->page_size = page_size;
	if (path == NULL)
		return (0);
	if ((rc = sink_openmetrics_check_path(path, cause)) != 0)
		return (rc);
	slash = strrchr(path, '/');
	if (slash == NULL)
		snprintf(om->dir, sizeof om->dir, ".");
	else if (slash == path)
		snprintf(om->dir, sizeof om->dir, "/");
	else if ((size_t)(slash - path) >= sizeof om->dir)
		return (fail_with(cause, RB_EXIT_INPUT, "%s: path too long",
		    path));
	else
		snprintf(om->dir, sizeof om->dir, "%.*s", (int)(slash - path),
		    path);
	snprintf(om->name, sizeof om->name, "%s", slash == NULL ? path :
	    slash + 1);
	om->dirfd = open(om->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (om->dirfd == -1)
		return (fail_with(cause, errno == ENOENT || errno == ENOTDIR ?
		    RB_EXIT_INPUT : RB_EXIT_ENV, "%s: %s", om->dir,
		    strerror(errno)));
	/* A directory we cannot write to is found now, not at each sample. */
	if ((rc = atomic_file_openat(&probe, om->dirfd, om->dir, om->name,
	    cause)) != 0)
		return (rc);
	atomic_file_abort(&probe);
	return (0);
}

/* The index of a region in the scratch arrays, added when new. */
static int
om_region(struct sink_openmetrics *om, const struct snap_entry *e)
{
	int i, n;

	for (i = 0; i < om->nregions; i++) {
		if (om->regions[i].node == e->node &&
		    om->regions[i].region == e->region)
			return (i);
	}
	if (om->nregions == om->region_cap) {
		n = om->region_cap == 0 ? 64 : om->region_cap * 2;
		om->regions = xreallocarray(om->regions, n,
		    sizeof *om->regions);
		om->present = xreallocarray(om->present, n,
		    sizeof *om->present);
		om->used = xreallocarray(om->used, n, sizeof *om->used);
		om->uninit = xreallocarray(om->uninit, n, sizeof *om->uninit);
		om->used_lo = xreallocarray(om->used_lo, n,
		    sizeof *om->used_lo);
		om->partial = xreallocarray(om->partial, n,
		    sizeof *om->partial);
		om->sorted = xreallocarray(om->sorted, n, sizeof *om->sorted);
		om->region_cap = n;
	}
	i = om->nregions++;
	om->regions[i].node = e->node;
	om->regions[i].region = e->region;
	om->present[i] = om->used[i] = om->uninit[i] = 0;
	om->used_lo[i] = om->partial[i] = 0;
	return (i);
}

/*
 * The figures of the regions, zones summed as analyze sums them: present
 * pages and used pages (present - free per zone, never below 0).
 */
static void
om_regions(struct sink_openmetrics *om, const struct snapshot *snap,
    struct region_sample *rs)
{
	const struct snap_entry *e;
	int i, r;

	om->nregions = 0;
	for (i = 0; i < snap->nentries; i++) {
		e = &snap->entries[i];
		r = om_region(om, e);
		if (e->present != SNAP_UNKNOWN)
			om->present[r] += e->present;
		om->used[r] += snap_entry_used(e);
		if (e->has_used)
			om->uninit[r] += e->uninit;
		/* A sampled scan's fewest used pages (region-metrics.c). */
		if (e->free_interval) {
			om->partial[r] = 1;
			om->used_lo[r] += e->present > e->free_hi ?
			    e->present - e->free_hi : 0;
		} else
			om->used_lo[r] += snap_entry_used(e);
	}
	region_metrics_sort_present(om->present, om->nregions, om->sorted);
	region_metrics_sample(om->present, om->used, om->uninit, om->used_lo,
	    om->partial, om->sorted, om->nregions, om->tolerance, rs);
}

/* Build the page of one sample in om->buf (om->len bytes). */
void
sink_openmetrics_render(struct sink_openmetrics *om,
    const struct snapshot *snap, const struct sink_openmetrics_health *health)
{
	const struct snap_entry *e;
	struct region_sample rs;
	char v[64];
	int i, c, any_used = 0;

	om->len = 0;
	om_family(om, "regionbench_region_present_bytes", "gauge",
	    "Memory present in a region key (node, region, zone).");
	for (i = 0; i < snap->nentries; i++) {
		e = &snap->entries[i];
		if (e->present == SNAP_UNKNOWN)
			continue;
		om_key(om, "regionbench_region_present_bytes", e);
		om_printf(om, "} %" PRIu64 "\n", e->present * om->page_size);
	}
	om_family(om, "regionbench_region_free_bytes", "gauge",
	    "Free memory in a region key (node, region, zone).");
	for (i = 0; i < snap->nentries; i++) {
		e = &snap->entries[i];
		om_key(om, "regionbench_region_free_bytes", e);
		om_printf(om, "} %" PRIu64 "\n", e->free_pages *
		    om->page_size);
		any_used |= e->has_used;
	}
	if (any_used) {
		om_family(om, "regionbench_region_used_bytes", "gauge",
		    "Used memory in a region key by class of page "
		    "(kpageflags source only).");
		for (i = 0; i < snap->nentries; i++) {
			e = &snap->entries[i];
			if (!e->has_used)
				continue;
			for (c = 0; c < SNAP_USED_NCLASS; c++) {
				if (e->used[c] == SNAP_UNKNOWN)
					continue;
				om_key(om, "regionbench_region_used_bytes", e);
				om_printf(om, ",class=\"%s\"} %" PRIu64 "\n",
				    sink_openmetrics_classes[c], e->used[c] *
				    om->page_size);
			}
		}
	}

	om_regions(om, snap, &rs);
	om_family(om, "regionbench_active_regions", "gauge",
	    "Regions (zones summed) holding used memory.");
	snprintf(v, sizeof v, "%d", rs.active);
	om_global(om, "regionbench_active_regions", v);
	om_family(om, "regionbench_empty_regions", "gauge",
	    "Regions (zones summed) with memory present and none used.");
	snprintf(v, sizeof v, "%d", rs.empty);
	om_global(om, "regionbench_empty_regions", v);
	om_family(om, "regionbench_unproven_regions", "gauge",
	    "Regions a sampled scan did not read whole and did not see in "
	    "use: neither active nor empty.");
	snprintf(v, sizeof v, "%d", rs.unproven);
	om_global(om, "regionbench_unproven_regions", v);
	om_family(om, "regionbench_empty_bytes", "gauge",
	    "Memory present in empty regions: what could be powered down.");
	snprintf(v, sizeof v, "%" PRIu64, rs.empty_pages * om->page_size);
	om_global(om, "regionbench_empty_bytes", v);
	om_family(om, "regionbench_spread_index", "gauge",
	    "Active regions over the fewest regions that could hold the "
	    "used memory (1 is fully consolidated).");
	snprintf(v, sizeof v, "%.9g", rs.spread_index);
	om_global(om, "regionbench_spread_index", v);

	om_family(om, "regionbench_sample_duration_seconds", "gauge",
	    "How long the last sample took to read and write.");
	snprintf(v, sizeof v, "%.9f", health->duration_s);
	om_global(om, "regionbench_sample_duration_seconds", v);
	om_family(om, "regionbench_samples_total", "counter",
	    "Samples taken since the sampler started.");
	snprintf(v, sizeof v, "%" PRIu64, health->samples);
	om_global(om, "regionbench_samples_total", v);
	om_family(om, "regionbench_sampler_overruns_total", "counter",
	    "Sample deadlines the sampler missed because a sample took "
	    "longer than the interval.");
	snprintf(v, sizeof v, "%" PRIu64, health->overruns);
	om_global(om, "regionbench_sampler_overruns_total", v);
}

/* Replace the .prom file with the page built last, if there is a file. */
int
sink_openmetrics_write(struct sink_openmetrics *om, char **cause)
{
	if (om->dirfd == -1)
		return (0);
	return (atomic_file_writeat(om->dirfd, om->dir, om->name, om->buf,
	    om->len, cause));
}

/* Free the sink; the .prom file stays with the last sample in it. */
void
sink_openmetrics_close(struct sink_openmetrics *om)
{
	if (om->dirfd != -1)
		close(om->dirfd);
	om->dirfd = -1;
	free(om->source);
	free(om->buf);
	free(om->regions);
	free(om->present);
	free(om->used);
	free(om->uninit);
	free(om->used_lo);
	free(om->partial);
	free(om->sorted);
	memset(om, 0, sizeof *om);
	om->dirfd = -1;
}
