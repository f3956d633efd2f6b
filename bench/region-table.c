/*
 * Region tables.  Used is present minus free (docs/metrics.md); the
 * bar makes a consolidated layout visible at a glance: full regions at the
 * bottom, empty ones at the top.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "opt.h"
#include "region-table.h"
#include "term.h"

#define BAR_WIDTH 20	/* the widest bar */
#define TABLE_NARROW	0x100	/* no managed column, for a terminal */

/* Append a number, or a dash when unknown, to a line. */
static void
table_u64(char *line, size_t len, int width, uint64_t v)
{
	size_t at = strlen(line);

	if (v == SNAP_UNKNOWN)
		snprintf(line + at, len - at, " %*s", width, "-");
	else
		snprintf(line + at, len - at, " %*" PRIu64, width, v);
}

/* The header line of a table with a bar of bar_width (0: none). */
static void
table_header(char *line, size_t len, int flags, int bar_width)
{
	size_t at;

	snprintf(line, len, "%4s %6s %-8s", "node", "region", "zone");
	at = strlen(line);
	if (flags & REGION_TABLE_LAYOUT)
		snprintf(line + at, len - at, " %10s %10s", "start_pfn",
		    "spanned");
	at = strlen(line);
	if (flags & TABLE_NARROW)
		snprintf(line + at, len - at, " %10s %10s %6s", "present",
		    "free", "used%");
	else
		snprintf(line + at, len - at, " %10s %10s %10s %6s", "present",
		    "managed", "free", "used%");
	at = strlen(line);
	if (bar_width > 0)
		snprintf(line + at, len - at, "  %s", "used");
}

/* One region key's line, with a bar of bar_width (0: none). */
static void
table_row(char *line, size_t len, const struct snap_entry *e, int flags,
    int bar_width)
{
	char bar[256];
	double used_pct;
	size_t at;
	int fill;

	snprintf(line, len, "%4d %6d %-8s", e->node, e->region, e->zone);
	if (flags & REGION_TABLE_LAYOUT) {
		table_u64(line, len, 10, e->start_pfn);
		table_u64(line, len, 10, e->spanned);
	}
	table_u64(line, len, 10, e->present);
	if (!(flags & TABLE_NARROW))
		table_u64(line, len, 10, e->managed);
	table_u64(line, len, 10, e->free_pages);
	at = strlen(line);
	if (e->present == SNAP_UNKNOWN || e->present == 0) {
		snprintf(line + at, len - at, " %6s", "-");
		used_pct = 0;
	} else {
		used_pct = 100.0 * (double)snap_entry_used(e) /
		    (double)e->present;
		snprintf(line + at, len - at, " %5.1f%%", used_pct);
	}
	if (bar_width > (int)sizeof bar - 1)
		bar_width = (int)sizeof bar - 1;
	if (bar_width > 0) {
		fill = (int)(used_pct * bar_width / 100.0 + 0.5);
		if (fill > bar_width)
			fill = bar_width;
		memset(bar, '#', (size_t)fill);
		memset(bar + fill, '.', (size_t)(bar_width - fill));
		bar[bar_width] = '\0';
		at = strlen(line);
		snprintf(line + at, len - at, "  [%s]", bar);
	}
}

/* Print one line per region key, in the width of f's terminal. */
void
region_table_print(FILE *f, const struct snapshot *snap, int flags)
{
	const struct snap_entry *e;
	char line[512], *note;
	int i, bar = flags & REGION_TABLE_BAR ? BAR_WIDTH : 0;
	int width = opt_help_width(term_size(fileno(f), NULL));

	/* As the live table does: managed goes first when it does not fit. */
	table_header(line, sizeof line, flags, bar);
	if ((int)strlen(line) > width) {
		flags |= TABLE_NARROW;
		table_header(line, sizeof line, flags, bar);
	}
	fprintf(f, "%s\n", line);
	for (i = 0; i < snap->nentries; i++) {
		table_row(line, sizeof line, &snap->entries[i], flags, bar);
		fprintf(f, "%s\n", line);
	}
	/* Present but unmanaged pages count as used: say so when it shows. */
	for (i = 0; i < snap->nentries; i++) {
		e = &snap->entries[i];
		if (e->present == SNAP_UNKNOWN || e->managed == SNAP_UNKNOWN ||
		    e->managed >= e->present ||
		    e->present - e->managed < e->present / 10)
			continue;
		note = xasprintf("node %d region %d %s: %" PRIu64 " of %"
		    PRIu64 " present pages are not managed by the page "
		    "allocator (reserved, not yet initialised, or unplugged "
		    "by virtio-mem or a balloon); they count as used.",
		    e->node, e->region, e->zone, e->present - e->managed,
		    e->present);
		fputs("note: ", f);
		opt_print_wrapped(f, note, 6, 6, width);
		free(note);
	}
}

/* What a region key holds: 0 used memory, 1 only free, 2 no memory. */
static int
table_kind(const struct snap_entry *e)
{
	if (e->present == SNAP_UNKNOWN || e->present == 0)
		return (2);
	return (snap_entry_used(e) > 0 ? 0 : 1);
}

/*
 * The table in at most width columns and height lines, for a terminal:
 * the title, the header, the regions that hold memory first (then the
 * empty ones, then those without memory) as many as fit, and a summary
 * line: "N regions: A active, E empty, H without memory; showing the
 * first K".  The bar shrinks, then goes, to fit the width, then the
 * managed column; every line is cut at the width.
 */
void
region_table_print_fit(FILE *f, const struct snapshot *snap, int flags,
    int width, int height, const char *title)
{
	char line[512], summary[256];
	int i, k, kind, shown, room, bar = 0, count[3] = { 0, 0, 0 };

	if (width < 1)
		width = 1;
	if (width > (int)sizeof line - 1)
		width = (int)sizeof line - 1;
	table_header(line, sizeof line, flags, 0);
	if ((int)strlen(line) > width)
		flags |= TABLE_NARROW;
	if (flags & REGION_TABLE_BAR) {
		table_header(line, sizeof line, flags, 0);
		/* "  [" and "]" around the bar. */
		bar = width - (int)strlen(line) - 4;
		if (bar > BAR_WIDTH)
			bar = BAR_WIDTH;
		if (bar < 5)
			bar = 0;
	}
	for (i = 0; i < snap->nentries; i++)
		count[table_kind(&snap->entries[i])]++;
	/* The title, the header and the summary take three lines. */
	room = height - 3;
	if (room < 0)
		room = 0;
	shown = snap->nentries < room ? snap->nentries : room;

	if (height >= 1)
		fprintf(f, "%.*s\n", width, title);
	if (height >= 2) {
		table_header(line, sizeof line, flags, bar);
		fprintf(f, "%.*s\n", width, line);
	}
	for (k = 0, kind = 0; kind < 3 && k < shown; kind++) {
		for (i = 0; i < snap->nentries && k < shown; i++) {
			if (table_kind(&snap->entries[i]) != kind)
				continue;
			table_row(line, sizeof line, &snap->entries[i], flags,
			    bar);
			fprintf(f, "%.*s\n", width, line);
			k++;
		}
	}
	if (height < 3)
		return;
	snprintf(summary, sizeof summary, "%d regions: %d active, %d empty, "
	    "%d without memory", snap->nentries, count[0], count[1],
	    count[2]);
	if (shown < snap->nentries) {
		i = (int)strlen(summary);
		snprintf(summary + i, sizeof summary - (size_t)i,
		    "; showing the first %d", shown);
		if ((int)strlen(summary) > width)
			snprintf(summary, sizeof summary, "%d/%d regions shown "
			    "(%d active)", shown, snap->nentries, count[0]);
	}
	fprintf(f, "%.*s\n", width, summary);
}
