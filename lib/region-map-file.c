/*
 * The --region-map file: regions listed as node,start_pfn,end_pfn rows
 * (libcsv), each checked against the node spans sysfs gave and against
 * the rows before it.
 */
#include "config.h"

#include <csv.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input-file.h"
#include "log.h"
#include "region-map-private.h"

#define REGION_MAP_LINE_MAX	4096

/* Parse state of one --region-map line. */
struct region_map_row {
	char		 field[3][64];
	int		 nfields;
	int		 too_long;
	int		 rows;
};

/* libcsv field callback for a --region-map line. */
static void
region_map_csv_field(void *s, size_t len, void *data)
{
	struct region_map_row *row = data;

	if (row->nfields < 3) {
		if (len >= sizeof row->field[0])
			row->too_long = 1;
		snprintf(row->field[row->nfields], sizeof row->field[0], "%s",
		    s != NULL ? (const char *)s : "");
	}
	row->nfields++;
}

/* libcsv row callback for a --region-map line. */
static void
region_map_csv_row(int c, void *data)
{
	struct region_map_row *row = data;

	(void)c;
	row->rows++;
}

/* Parse a pfn field of a --region-map row (decimal or 0x hex). */
static int
region_map_parse_pfn(const char *s, uint64_t *out)
{
	char *end;

	if (*s == '\0' || *s == '-' || *s == '+' || *s == ' ')
		return (-1);
	errno = 0;
	*out = strtoull(s, &end, 0);
	if (*end != '\0' || errno != 0)
		return (-1);
	return (0);
}

/* Check one --region-map range against the nodes and earlier ranges. */
static int
region_map_check_range(struct region_map *map, const char *where, int node,
    uint64_t start, uint64_t end, char **cause)
{
	const struct region_span *r;
	const struct region_node *n;
	int ni, i, inside = 0;

	if (start >= end)
		return (fail_with(cause, RB_EXIT_INPUT, "%s: start_pfn %" PRIu64
		    " is not below end_pfn %" PRIu64, where, start, end));
	if ((ni = region_map_node_index(map, node, 0)) == -1)
		return (fail_with(cause, RB_EXIT_INPUT, "%s: node %d has no "
		    "memory", where, node));
	n = &map->nodes[ni];
	if (start < n->start_pfn || end > n->end_pfn)
		return (fail_with(cause, RB_EXIT_INPUT, "%s: range %" PRIu64
		    "-%" PRIu64 " is outside node %d (pfn %" PRIu64 "-%" PRIu64
		    "): regions must not cross nodes", where, start, end, node,
		    n->start_pfn, n->end_pfn));
	for (i = 0; i < map->nblocks; i++) {
		if (map->blocks[i].node == node &&
		    map->blocks[i].start_pfn < end &&
		    map->blocks[i].end_pfn > start)
			inside = 1;
	}
	if (!inside)
		return (fail_with(cause, RB_EXIT_INPUT, "%s: range %" PRIu64
		    "-%" PRIu64 " holds no memory block of node %d", where,
		    start, end, node));
	for (i = 0; i < map->nregions; i++) {
		r = &map->regions[i];
		if (r->node == node && start < r->start_pfn)
			return (fail_with(cause, RB_EXIT_INPUT, "%s: not "
			    "sorted: start_pfn %" PRIu64 " comes after node %d "
			    "region %d at %" PRIu64, where, start, node,
			    r->region, r->start_pfn));
		if (start < r->end_pfn && end > r->start_pfn)
			return (fail_with(cause, RB_EXIT_INPUT, "%s: range %"
			    PRIu64 "-%" PRIu64 " overlaps node %d region %d (%"
			    PRIu64 "-%" PRIu64 ")", where, start, end, r->node,
			    r->region, r->start_pfn, r->end_pfn));
	}
	return (0);
}

/* Parse one line of a --region-map file and add its region. */
static int
region_map_file_line(struct region_map *map, int *cap, const char *line,
    size_t len, int lineno, char **cause)
{
	struct region_map_row row;
	struct csv_parser parser;
	char where[4200];
	uint64_t start, end;
	long node;
	char *endp;
	int rc;

	snprintf(where, sizeof where, "%s:%d", map->file, lineno);
	memset(&row, 0, sizeof row);
	if (csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI |
	    CSV_APPEND_NULL) != 0)
		die(RB_EXIT_ENV, "csv_init: out of memory");
	rc = csv_parse(&parser, line, len, region_map_csv_field,
	    region_map_csv_row, &row) != len ||
	    csv_fini(&parser, region_map_csv_field, region_map_csv_row,
	    &row) != 0;
	if (rc)
		rc = fail_with(cause, RB_EXIT_INPUT, "%s: bad CSV: %s", where,
		    csv_strerror(csv_error(&parser)));
	csv_free(&parser);
	if (rc != 0)
		return (rc);
	if (row.rows == 0)
		return (0);
	if (lineno == 1 && row.nfields == 3 &&
	    strcmp(row.field[0], "node") == 0 &&
	    strcmp(row.field[1], "start_pfn") == 0 &&
	    strcmp(row.field[2], "end_pfn") == 0)
		return (0);
	if (row.nfields != 3 || row.too_long)
		return (fail_with(cause, RB_EXIT_INPUT, "%s: expected 3 fields "
		    "node,start_pfn,end_pfn, got %d", where, row.nfields));
	errno = 0;
	node = strtol(row.field[0], &endp, 10);
	if (row.field[0][0] == '\0' || *endp != '\0' || errno != 0 ||
	    node < 0 || node > 65535)
		return (fail_with(cause, RB_EXIT_INPUT, "%s: expected a node "
		    "number, got '%s'", where, row.field[0]));
	if (region_map_parse_pfn(row.field[1], &start) != 0)
		return (fail_with(cause, RB_EXIT_INPUT, "%s: expected a "
		    "start_pfn, got '%s'", where, row.field[1]));
	if (region_map_parse_pfn(row.field[2], &end) != 0)
		return (fail_with(cause, RB_EXIT_INPUT, "%s: expected an "
		    "end_pfn, got '%s'", where, row.field[2]));
	if ((rc = region_map_check_range(map, where, (int)node, start, end,
	    cause)) != 0)
		return (rc);
	region_map_add_region(map, cap, (int)node, start, end);
	return (0);
}

/* Regions listed in a CSV file of node,start_pfn,end_pfn rows. */
int
region_map_read_file(struct region_map *map, char **cause)
{
	char line[REGION_MAP_LINE_MAX];
	int lineno = 0, cap = 0, rc;
	size_t len;
	FILE *f;

	if ((f = input_fopen(map->file, cause)) == NULL)
		return (-RB_EXIT_INPUT);
	while (fgets(line, sizeof line, f) != NULL) {
		lineno++;
		len = strlen(line);
		if (len == sizeof line - 1 && line[len - 1] != '\n') {
			fclose(f);
			return (fail_with(cause, RB_EXIT_INPUT, "%s:%d: line "
			    "longer than %d bytes", map->file, lineno,
			    REGION_MAP_LINE_MAX));
		}
		if (memchr(line, '\0', len) != NULL || len != strlen(line)) {
			fclose(f);
			return (fail_with(cause, RB_EXIT_INPUT, "%s:%d: NUL "
			    "byte", map->file, lineno));
		}
		while (len > 0 && (line[len - 1] == '\n' ||
		    line[len - 1] == '\r'))
			line[--len] = '\0';
		if (len == 0 || line[0] == '#')
			continue;
		if ((rc = region_map_file_line(map, &cap, line, len, lineno,
		    cause)) != 0) {
			fclose(f);
			return (rc);
		}
	}
	fclose(f);
	if (map->nregions == 0)
		return (fail_with(cause, RB_EXIT_INPUT, "%s:%d: no regions "
		    "(expected node,start_pfn,end_pfn rows)", map->file,
		    lineno));
	return (0);
}
