/*
 * The Prometheus sink (lib/sink-openmetrics.c) on a hand-made snapshot:
 * the exact page, the region figures by the rules analyze uses, label
 * escaping, the .prom name check and the file replaced whole.  Ends with
 * the cost of a page of 128 regions, as docs/fleet.md quotes it.
 */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "sink-openmetrics.h"
#include "snapshot.h"
#include "tap.h"
#include "units.h"

/* Add a zone of a region with its present and free pages. */
static struct snap_entry *
zone(struct snapshot *snap, int node, int region, const char *name,
    uint64_t present, uint64_t free_pages)
{
	struct snap_entry *e = snapshot_add(snap, node, region, name);

	e->present = present;
	e->free_pages = free_pages;
	return (e);
}

/* Give a zone used-page classes, as the kpageflags source does. */
static void
classes(struct snap_entry *e, uint64_t anon, uint64_t file, uint64_t slab,
    uint64_t pgtable, uint64_t other)
{
	e->has_used = 1;
	e->used[SNAP_USED_ANON] = anon;
	e->used[SNAP_USED_FILE] = file;
	e->used[SNAP_USED_SLAB] = slab;
	e->used[SNAP_USED_PGTABLE] = pgtable;
	e->used[SNAP_USED_OTHER] = other;
}

static const char expected[] =
"# HELP regionbench_region_present_bytes Memory present in a region key (node, region, zone).\n"
"# TYPE regionbench_region_present_bytes gauge\n"
"regionbench_region_present_bytes{node=\"0\",region=\"0\",zone=\"DMA\",source=\"kpageflags\"} 4096000\n"
"regionbench_region_present_bytes{node=\"0\",region=\"0\",zone=\"Normal\",source=\"kpageflags\"} 12288000\n"
"regionbench_region_present_bytes{node=\"0\",region=\"1\",zone=\"Normal\",source=\"kpageflags\"} 16384000\n"
"regionbench_region_present_bytes{node=\"0\",region=\"2\",zone=\"Normal\",source=\"kpageflags\"} 8192000\n"
"regionbench_region_present_bytes{node=\"1\",region=\"0\",zone=\"Normal\",source=\"kpageflags\"} 0\n"
"# HELP regionbench_region_free_bytes Free memory in a region key (node, region, zone).\n"
"# TYPE regionbench_region_free_bytes gauge\n"
"regionbench_region_free_bytes{node=\"0\",region=\"0\",zone=\"DMA\",source=\"kpageflags\"} 1638400\n"
"regionbench_region_free_bytes{node=\"0\",region=\"0\",zone=\"Normal\",source=\"kpageflags\"} 12288000\n"
"regionbench_region_free_bytes{node=\"0\",region=\"1\",zone=\"Normal\",source=\"kpageflags\"} 16384000\n"
"regionbench_region_free_bytes{node=\"0\",region=\"2\",zone=\"Normal\",source=\"kpageflags\"} 2048000\n"
"regionbench_region_free_bytes{node=\"1\",region=\"0\",zone=\"Normal\",source=\"kpageflags\"} 0\n"
"# HELP regionbench_region_used_bytes Used memory in a region key by class of page (kpageflags source only).\n"
"# TYPE regionbench_region_used_bytes gauge\n"
"regionbench_region_used_bytes{node=\"0\",region=\"0\",zone=\"DMA\",source=\"kpageflags\",class=\"anon\"} 1228800\n"
"regionbench_region_used_bytes{node=\"0\",region=\"0\",zone=\"DMA\",source=\"kpageflags\",class=\"file\"} 819200\n"
"regionbench_region_used_bytes{node=\"0\",region=\"0\",zone=\"DMA\",source=\"kpageflags\",class=\"slab\"} 204800\n"
"regionbench_region_used_bytes{node=\"0\",region=\"0\",zone=\"DMA\",source=\"kpageflags\",class=\"pagetable\"} 102400\n"
"regionbench_region_used_bytes{node=\"0\",region=\"0\",zone=\"DMA\",source=\"kpageflags\",class=\"other\"} 102400\n"
"regionbench_region_used_bytes{node=\"0\",region=\"0\",zone=\"Normal\",source=\"kpageflags\",class=\"anon\"} 0\n"
"regionbench_region_used_bytes{node=\"0\",region=\"0\",zone=\"Normal\",source=\"kpageflags\",class=\"file\"} 0\n"
"regionbench_region_used_bytes{node=\"0\",region=\"0\",zone=\"Normal\",source=\"kpageflags\",class=\"slab\"} 0\n"
"regionbench_region_used_bytes{node=\"0\",region=\"0\",zone=\"Normal\",source=\"kpageflags\",class=\"pagetable\"} 0\n"
"regionbench_region_used_bytes{node=\"0\",region=\"0\",zone=\"Normal\",source=\"kpageflags\",class=\"other\"} 0\n"
"regionbench_region_used_bytes{node=\"0\",region=\"2\",zone=\"Normal\",source=\"kpageflags\",class=\"anon\"} 6144000\n"
"regionbench_region_used_bytes{node=\"0\",region=\"2\",zone=\"Normal\",source=\"kpageflags\",class=\"file\"} 0\n"
"regionbench_region_used_bytes{node=\"0\",region=\"2\",zone=\"Normal\",source=\"kpageflags\",class=\"slab\"} 0\n"
"regionbench_region_used_bytes{node=\"0\",region=\"2\",zone=\"Normal\",source=\"kpageflags\",class=\"pagetable\"} 0\n"
"regionbench_region_used_bytes{node=\"0\",region=\"2\",zone=\"Normal\",source=\"kpageflags\",class=\"other\"} 0\n"
"# HELP regionbench_active_regions Regions (zones summed) holding used memory.\n"
"# TYPE regionbench_active_regions gauge\n"
"regionbench_active_regions{source=\"kpageflags\"} 2\n"
"# HELP regionbench_empty_regions Regions (zones summed) with memory present and none used.\n"
"# TYPE regionbench_empty_regions gauge\n"
"regionbench_empty_regions{source=\"kpageflags\"} 1\n"
"# HELP regionbench_unproven_regions Regions a sampled scan did not read whole and did not see in use: neither active nor empty.\n"
"# TYPE regionbench_unproven_regions gauge\n"
"regionbench_unproven_regions{source=\"kpageflags\"} 0\n"
"# HELP regionbench_empty_bytes Memory present in empty regions: what could be powered down.\n"
"# TYPE regionbench_empty_bytes gauge\n"
"regionbench_empty_bytes{source=\"kpageflags\"} 16384000\n"
"# HELP regionbench_spread_index Active regions over the fewest regions that could hold the used memory (1 is fully consolidated).\n"
"# TYPE regionbench_spread_index gauge\n"
"regionbench_spread_index{source=\"kpageflags\"} 2\n"
"# HELP regionbench_sample_duration_seconds How long the last sample took to read and write.\n"
"# TYPE regionbench_sample_duration_seconds gauge\n"
"regionbench_sample_duration_seconds{source=\"kpageflags\"} 0.001500000\n"
"# HELP regionbench_samples_total Samples taken since the sampler started.\n"
"# TYPE regionbench_samples_total counter\n"
"regionbench_samples_total{source=\"kpageflags\"} 7\n"
"# HELP regionbench_sampler_overruns_total Sample deadlines the sampler missed because a sample took longer than the interval.\n"
"# TYPE regionbench_sampler_overruns_total counter\n"
"regionbench_sampler_overruns_total{source=\"kpageflags\"} 3\n";

/* The page as a string (the buffer is not terminated). */
static char *
page(const struct sink_openmetrics *om)
{
	return (xasprintf("%.*s", (int)om->len, om->buf));
}

/* Compare line by line, so a failure names the first line that differs. */
static void
same_lines(const char *got, const char *want, const char *what)
{
	const char *g = got, *w = want, *ge, *we;
	int line = 1;

	for (;;) {
		ge = strchr(g, '\n');
		we = strchr(w, '\n');
		if (ge == NULL || we == NULL || ge - g != we - w ||
		    memcmp(g, w, ge - g) != 0)
			break;
		g = ge + 1;
		w = we + 1;
		line++;
	}
	if (!tap_ok(strcmp(g, w) == 0, "%s", what))
		tap_diag("line %d: got '%.*s', want '%.*s'", line,
		    (int)strcspn(g, "\n"), g, (int)strcspn(w, "\n"), w);
}

/* The file's contents, or NULL. */
static char *
slurp(const char *path)
{
	char buf[65536];
	ssize_t n;
	int fd;

	if ((fd = open(path, O_RDONLY)) == -1)
		return (NULL);
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n < 0)
		return (NULL);
	buf[n] = '\0';
	return (xstrdup(buf));
}

/* How many entries besides . and .. a directory holds. */
static int
entries(const char *dir)
{
	struct dirent *de;
	DIR *d;
	int n = 0;

	if ((d = opendir(dir)) == NULL)
		return (-1);
	while ((de = readdir(d)) != NULL)
		n += strcmp(de->d_name, ".") != 0 &&
		    strcmp(de->d_name, "..") != 0;
	closedir(d);
	return (n);
}

/*
 * A snapshot of n regions of 512 MiB with classes, like a kpageflags
 * sample of a 64 GiB machine when n is 128.
 */
static void
big_snapshot(struct snapshot *snap, int n)
{
	struct snap_entry *e;
	int r;

	snapshot_reset(snap);
	for (r = 0; r < n; r++) {
		e = zone(snap, r / (n / 2), r % (n / 2), "Normal", 131072,
		    r % 3 == 0 ? 131072 : 65536);
		classes(e, 131072 - e->free_pages, 0, 0, 0, 0);
	}
}

int
main(void)
{
	struct sink_openmetrics_health health = { 0.0015, 3, 7 };
	struct sink_openmetrics om;
	struct snapshot snap;
	struct snap_entry *e;
	char tmpl[4096], *path, *text, *file;
	char *cause = NULL;
	uint64_t t0, render_ns, write_ns;
	int i, rounds = 2000, writes = 200;

	snapshot_init(&snap);
	e = zone(&snap, 0, 0, "DMA", 1000, 400);
	classes(e, 300, 200, 50, 25, 25);
	e = zone(&snap, 0, 0, "Normal", 3000, 3000);
	classes(e, 0, 0, 0, 0, 0);
	zone(&snap, 0, 1, "Normal", 4000, 4000);
	e = zone(&snap, 0, 2, "Normal", 2000, 500);
	classes(e, 1500, 0, 0, 0, 0);
	zone(&snap, 1, 0, "Normal", 0, 0);

	tap_ok(sink_openmetrics_open(&om, NULL, "kpageflags", 4096,
	    &cause) == 0, "open without a file");
	sink_openmetrics_render(&om, &snap, &health);
	text = page(&om);
	/*
	 * Regions: n0r0 (two zones, 600 used) and n0r2 (1500 used) active,
	 * n0r1 empty, n1r0 no memory (neither); the 2100 used pages fit in
	 * one region of 4000, so the spread index is 2 / 1.
	 */
	same_lines(text, expected, "the page of a hand-made snapshot, "
	    "exactly");
	free(text);

	/* A second page replaces the first, not appended. */
	health.samples = 8;
	sink_openmetrics_render(&om, &snap, &health);
	text = page(&om);
	tap_ok(strstr(text, "regionbench_samples_total{source=\"kpageflags\"} "
	    "8\n") != NULL && strlen(text) == strlen(expected),
	    "a new sample builds a new page of the same size");
	free(text);
	sink_openmetrics_close(&om);

	/*
	 * A sampled scan: n0r1's estimate says all free, but the interval
	 * leaves room for used pages, so it is unproven, not empty; n0r2's
	 * interval still proves 1000 used pages.
	 */
	e = snapshot_find(&snap, 0, 1, "Normal");
	e->free_interval = 1;
	e->free_lo = 3000;
	e->free_hi = 4000;
	e = snapshot_find(&snap, 0, 2, "Normal");
	e->free_interval = 1;
	e->free_lo = 100;
	e->free_hi = 1000;
	sink_openmetrics_open(&om, NULL, "kpageflags", 4096, NULL);
	sink_openmetrics_render(&om, &snap, &health);
	text = page(&om);
	tap_ok(strstr(text, "regionbench_empty_regions{source=\"kpageflags\"} "
	    "0\n") != NULL && strstr(text, "regionbench_unproven_regions{"
	    "source=\"kpageflags\"} 1\n") != NULL && strstr(text,
	    "regionbench_active_regions{source=\"kpageflags\"} 2\n") != NULL,
	    "a sampled region not seen in use is unproven, never empty; one "
	    "seen in use is active");
	free(text);
	sink_openmetrics_close(&om);
	snapshot_find(&snap, 0, 1, "Normal")->free_interval = 0;
	snapshot_find(&snap, 0, 2, "Normal")->free_interval = 0;

	/* Without classes there is no used_bytes family at all. */
	for (i = 0; i < snap.nentries; i++)
		snap.entries[i].has_used = 0;
	sink_openmetrics_open(&om, NULL, "a\"b\\c\nd", 4096, NULL);
	sink_openmetrics_render(&om, &snap, &health);
	text = page(&om);
	tap_ok(strstr(text, "regionbench_region_used_bytes") == NULL,
	    "no classes known: no regionbench_region_used_bytes");
	tap_ok(strstr(text, "regionbench_empty_regions{source="
	    "\"a\\\"b\\\\c\\nd\"} 1\n") != NULL,
	    "label values escape quote, backslash and newline");
	free(text);
	sink_openmetrics_close(&om);

	/* File names. */
	tap_ok(sink_openmetrics_check_path("/x/regionbench.prom", NULL) == 0,
	    "a .prom name is accepted");
	tap_eq_u64(-sink_openmetrics_check_path("/x/regionbench.txt", NULL),
	    RB_EXIT_INPUT, "another suffix is an input error");
	tap_eq_u64(-sink_openmetrics_check_path("/x/.prom", NULL),
	    RB_EXIT_INPUT, "a bare .prom is refused");
	tap_eq_u64(-sink_openmetrics_check_path("x.prom/", NULL),
	    RB_EXIT_INPUT, "a directory is refused");
	tap_eq_u64(-sink_openmetrics_open(&om, "/nonexistent/dir/r.prom",
	    "zone", 4096, &cause), RB_EXIT_INPUT, "a missing directory is "
	    "an input error");
	free(cause);
	cause = NULL;
	sink_openmetrics_close(&om);

	/* The file is replaced whole and no temporary file stays. */
	snprintf(tmpl, sizeof tmpl, "%s",
	    tap_scratch_dir("t-sink-openmetrics"));
	path = xasprintf("%s/regionbench.prom", tmpl);
	tap_ok(sink_openmetrics_open(&om, path, "zone", 4096, &cause) == 0,
	    "open with a file");
	sink_openmetrics_render(&om, &snap, &health);
	tap_ok(sink_openmetrics_write(&om, &cause) == 0, "write the file");
	file = slurp(path);
	text = page(&om);
	tap_ok(file != NULL && strcmp(file, text) == 0,
	    "the file holds the page");
	tap_eq_u64(entries(tmpl), 1, "only the .prom file is left");
	free(file);
	free(text);

	/* What a sample of a 64 GiB machine in 512M regions costs. */
	big_snapshot(&snap, 128);
	t0 = units_now_ns();
	for (i = 0; i < rounds; i++)
		sink_openmetrics_render(&om, &snap, &health);
	render_ns = (units_now_ns() - t0) / rounds;
	t0 = units_now_ns();
	for (i = 0; i < writes; i++)
		sink_openmetrics_write(&om, NULL);
	write_ns = (units_now_ns() - t0) / writes;
	tap_ok(om.len > 0, "a page of 128 regions with classes: %zu bytes",
	    om.len);
	tap_diag("cost per sample, 128 regions with classes: build %.1f us, "
	    "replace the file %.1f us (%s)", render_ns / 1e3, write_ns / 1e3,
	    tmpl);
	sink_openmetrics_close(&om);
	unlink(path);
	rmdir(tmpl);
	free(path);
	snapshot_free(&snap);
	return (tap_done());
}
