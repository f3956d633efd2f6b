/*
 * The vacate probe's results as a table for people, CSV rows (one per
 * block) and a JSON document (the results file: every block touched and
 * its final state).
 */
#include "config.h"

#include <csv.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "units.h"
#include "vacate.h"

#define VACATE_CSV_HEADER \
	"node,region,block,start_pfn,end_pfn,state_before,valid_zones," \
	"removable,result,offline_s,pgmigrate_success,pgmigrate_fail," \
	"errno,reason,state_after,valid_zones_after,notes"

/* One CSV text field, quoted (by libcsv) only when it needs it. */
static void
vacate_csv_text(FILE *f, const char *s)
{
	if (strpbrk(s, ",\"\r\n") == NULL)
		fputs(s, f);
	else
		csv_fwrite(f, s, strlen(s));
}

/* A region's line: what happened to it as a whole. */
static void
vacate_print_region(FILE *f, const struct vacate *v,
    const struct vacate_region *r)
{
	char size[32];

	units_format_size(size, sizeof size, (r->end_pfn - r->start_pfn) *
	    v->page_size);
	fprintf(f, "region %d/%d: pfn %" PRIu64 "-%" PRIu64 " (%s), %d "
	    "block%s: ", r->node, r->region, r->start_pfn, r->end_pfn, size,
	    r->nblocks, r->nblocks == 1 ? "" : "s");
	if (v->dry_run)
		fprintf(f, "dry run, nothing offlined\n");
	else if (r->emptied)
		fprintf(f, "emptied in %.3f s, %" PRIu64 " pages moved\n",
		    r->seconds, r->migrated);
	else
		fprintf(f, "not emptied (%s)\n", r->reason);
}

/* The table: per region a line, then its blocks. */
void
vacate_print_table(FILE *f, const struct vacate *v)
{
	const struct vacate_region *r;
	const struct vacate_block *b;
	int i, j;

	for (i = 0; i < v->nregions; i++) {
		r = &v->regions[i];
		vacate_print_region(f, v, r);
		fprintf(f, "  %-10s %-9s %-16s %-9s %-11s %9s %9s %7s\n",
		    "block", "state", "valid_zones", "removable", "result",
		    "offline_s", "migrated", "failed");
		for (j = 0; j < r->nblocks; j++) {
			b = &r->blocks[j];
			fprintf(f, "  memory%-4d %-9s %-16s %-9s %-11s %9.3f "
			    "%9" PRIu64 " %7" PRIu64 "\n", b->id,
			    b->state_before, b->valid_zones[0] != '\0' ?
			    b->valid_zones : "-", b->removable[0] != '\0' ?
			    b->removable : "absent",
			    vacate_result_name(b->result), b->offline_s,
			    b->migrated, b->migrate_failed);
			if (b->reason[0] != '\0')
				fprintf(f, "             %s\n", b->reason);
			else if (b->notes[0] != '\0')
				fprintf(f, "             %s\n", b->notes);
			if (strcmp(b->state_after, b->state_before) != 0 ||
			    strcmp(b->zones_after, b->valid_zones) != 0)
				fprintf(f, "             now %s, %s\n",
				    b->state_after, b->zones_after);
		}
	}
}

/* One row per block. */
void
vacate_print_csv(FILE *f, const struct vacate *v)
{
	const struct vacate_region *r;
	const struct vacate_block *b;
	int i, j;

	fprintf(f, "%s\n", VACATE_CSV_HEADER);
	for (i = 0; i < v->nregions; i++) {
		r = &v->regions[i];
		for (j = 0; j < r->nblocks; j++) {
			b = &r->blocks[j];
			fprintf(f, "%d,%d,memory%d,%" PRIu64 ",%" PRIu64 ",",
			    r->node, r->region, b->id, b->start_pfn,
			    b->end_pfn);
			vacate_csv_text(f, b->state_before);
			fputc(',', f);
			vacate_csv_text(f, b->valid_zones);
			fputc(',', f);
			vacate_csv_text(f, b->removable);
			fprintf(f, ",%s,%.6f,%" PRIu64 ",%" PRIu64 ",%d,",
			    vacate_result_name(b->result), b->offline_s,
			    b->migrated, b->migrate_failed, b->error);
			vacate_csv_text(f, b->reason);
			fputc(',', f);
			vacate_csv_text(f, b->state_after);
			fputc(',', f);
			vacate_csv_text(f, b->zones_after);
			fputc(',', f);
			vacate_csv_text(f, b->notes);
			fputc('\n', f);
		}
	}
}

/* A block's pages by class, when kpageflags explained a refusal. */
static json_t *
vacate_pages_json(const struct vacate_pages *p)
{
	if (!p->known)
		return (json_null());
	return (json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
	    "free", (json_int_t)p->free, "anon", (json_int_t)p->anon,
	    "file", (json_int_t)p->file, "slab", (json_int_t)p->slab,
	    "pgtable", (json_int_t)p->pgtable,
	    "reserved", (json_int_t)p->reserved,
	    "unclassified", (json_int_t)p->other));
}

static json_t *
vacate_block_json(const struct vacate_block *b)
{
	char name[32];

	snprintf(name, sizeof name, "memory%d", b->id);
	return (json_pack("{s:s, s:i, s:I, s:I, s:s, s:s, s:s*, s:s, s:f, "
	    "s:I, s:I, s:i, s:s, s:s, s:s, s:s*, s:s, s:b, s:o}",
	    "block", name, "id", b->id,
	    "start_pfn", (json_int_t)b->start_pfn,
	    "end_pfn", (json_int_t)b->end_pfn,
	    "state_before", b->state_before,
	    "valid_zones", b->valid_zones,
	    "removable", b->removable[0] != '\0' ? b->removable : NULL,
	    "result", vacate_result_name(b->result),
	    "offline_s", b->offline_s,
	    "pgmigrate_success", (json_int_t)b->migrated,
	    "pgmigrate_fail", (json_int_t)b->migrate_failed,
	    "errno", b->error, "reason", b->reason,
	    "state_after", b->state_after,
	    "valid_zones_after", b->zones_after,
	    "last_step", b->step, "notes", b->notes,
	    "offline_now", b->offlined != 0,
	    "pages", vacate_pages_json(&b->pages)));
}

/* The whole probe: status, then every region with its blocks. */
json_t *
vacate_to_json(const struct vacate *v)
{
	const struct vacate_region *r;
	json_t *doc, *regions, *blocks;
	int i, j;

	regions = json_array();
	for (i = 0; i < v->nregions; i++) {
		r = &v->regions[i];
		blocks = json_array();
		for (j = 0; j < r->nblocks; j++)
			json_array_append_new(blocks,
			    vacate_block_json(&r->blocks[j]));
		json_array_append_new(regions, json_pack("{s:i, s:i, s:I, "
		    "s:I, s:o, s:f, s:I, s:I, s:s, s:o}",
		    "node", r->node, "region", r->region,
		    "start_pfn", (json_int_t)r->start_pfn,
		    "end_pfn", (json_int_t)r->end_pfn,
		    "emptied", v->dry_run ? json_null() :
		    json_boolean(r->emptied),
		    "seconds", r->seconds,
		    "pgmigrate_success", (json_int_t)r->migrated,
		    "pgmigrate_fail", (json_int_t)r->migrate_failed,
		    "reason", r->reason, "blocks", blocks));
	}
	doc = json_pack("{s:s, s:b, s:I, s:f, s:o}", "status", v->status,
	    "dry_run", v->dry_run != 0, "page_size", (json_int_t)v->page_size,
	    "timeout_s", (double)v->timeout_ns / 1e9,
	    "regions", regions);
	return (doc);
}
