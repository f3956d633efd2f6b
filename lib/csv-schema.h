/*
 * The CSV files of a results directory (docs/csv-schema.md), declared once:
 * file names, column names, their order and their types.  The sink writes
 * its header rows from here and the reader in analyze/ finds its columns by
 * these names, so a column added here is added to both.  Columns are only
 * ever appended to a table, never renamed (older results keep reading).
 *
 * Each table is an X-macro list X(ID, "name", TYPE); ID becomes the column's
 * index, CSV_<TABLE>_<ID>, in the order the sink writes it.
 */
#ifndef RB_CSV_SCHEMA_H
#define RB_CSV_SCHEMA_H

/* What a column holds and whether the reader needs a value in it. */
enum csv_type {
	CSV_INT,	/* non-negative integer, always written */
	CSV_INT_OPT,	/* non-negative integer, empty when unknown */
	CSV_REAL,	/* decimal number, always written */
	CSV_REAL_OPT,	/* decimal number, empty when unknown */
	CSV_TEXT,	/* text, quoted when it needs to be */
};

/* A column the reader may do without (written by newer versions only). */
#define CSV_LATER	0x100

#define CSV_REGIONS_COLUMNS(X)						\
	X(NODE,		"node",			CSV_INT)		\
	X(REGION,	"region",		CSV_INT)		\
	X(ZONE,		"zone",			CSV_TEXT)		\
	X(START_PFN,	"start_pfn",		CSV_INT)		\
	X(SPANNED,	"spanned_pages",	CSV_INT)		\
	X(PRESENT,	"present_pages",	CSV_INT)		\
	X(MANAGED,	"managed_pages",	CSV_INT_OPT | CSV_LATER) \
	X(ZONE_REGION,	"zone_region",		CSV_INT_OPT | CSV_LATER)

#define CSV_SAMPLES_COLUMNS(X)						\
	X(T,		"t_s",			CSV_REAL)		\
	X(PHASE,	"phase",		CSV_TEXT)		\
	X(NODE,		"node",			CSV_INT)		\
	X(REGION,	"region",		CSV_INT)		\
	X(ZONE,		"zone",			CSV_TEXT)		\
	X(PRESENT,	"present_pages",	CSV_INT)		\
	X(FREE,		"free_pages",		CSV_INT)		\
	X(MANAGED,	"managed_pages",	CSV_INT_OPT | CSV_LATER) \
	X(ANON,		"anon_pages",		CSV_INT_OPT | CSV_LATER) \
	X(FILE,		"file_pages",		CSV_INT_OPT | CSV_LATER) \
	X(SLAB,		"slab_pages",		CSV_INT_OPT | CSV_LATER) \
	X(PGTABLE,	"pgtable_pages",	CSV_INT_OPT | CSV_LATER) \
	X(OTHER,	"other_pages",		CSV_INT_OPT | CSV_LATER)

#define CSV_BUDDY_COLUMNS(X)						\
	X(T,		"t_s",			CSV_REAL)		\
	X(PHASE,	"phase",		CSV_TEXT)		\
	X(NODE,		"node",			CSV_INT)		\
	X(REGION,	"region",		CSV_INT)		\
	X(ZONE,		"zone",			CSV_TEXT)		\
	X(ORDER,	"order",		CSV_INT)		\
	X(FREE_BLOCKS,	"free_blocks",		CSV_INT)

#define CSV_PAGETYPE_COLUMNS(X)						\
	X(T,		"t_s",			CSV_REAL)		\
	X(PHASE,	"phase",		CSV_TEXT)		\
	X(NODE,		"node",			CSV_INT)		\
	X(REGION,	"region",		CSV_INT)		\
	X(ZONE,		"zone",			CSV_TEXT)		\
	X(MIGRATETYPE,	"migratetype",		CSV_TEXT)		\
	X(ORDER,	"order",		CSV_INT)		\
	X(FREE_BLOCKS,	"free_blocks",		CSV_INT)		\
	X(CAPPED,	"capped",		CSV_INT | CSV_LATER)

#define CSV_PAGEBLOCKS_COLUMNS(X)					\
	X(T,		"t_s",			CSV_REAL)		\
	X(PHASE,	"phase",		CSV_TEXT)		\
	X(NODE,		"node",			CSV_INT)		\
	X(REGION,	"region",		CSV_INT)		\
	X(ZONE,		"zone",			CSV_TEXT)		\
	X(MIGRATETYPE,	"migratetype",		CSV_TEXT)		\
	X(BLOCKS,	"blocks",		CSV_INT)

#define CSV_PLACEMENT_COLUMNS(X)					\
	X(T,		"t_s",			CSV_REAL)		\
	X(PHASE,	"phase",		CSV_TEXT)		\
	X(WORKLOAD,	"workload",		CSV_TEXT)		\
	X(PID,		"pid",			CSV_INT)		\
	X(NODE,		"node",			CSV_INT)		\
	X(REGION,	"region",		CSV_INT)		\
	X(PAGES,	"pages",		CSV_INT)

#define CSV_WORKLOADS_COLUMNS(X)					\
	X(PHASE,	"phase",		CSV_TEXT)		\
	X(WORKLOAD,	"workload",		CSV_TEXT)		\
	X(THREAD,	"thread",		CSV_TEXT)		\
	X(METRIC,	"metric",		CSV_TEXT)		\
	X(VALUE,	"value",		CSV_REAL_OPT)		\
	X(UNIT,		"unit",			CSV_TEXT)

#define CSV_EVENTS_COLUMNS(X)						\
	X(T,		"t_s",			CSV_REAL)		\
	X(EVENT,	"event",		CSV_TEXT)		\
	X(DETAIL,	"detail",		CSV_TEXT)		\
	X(PHASE,	"phase",		CSV_TEXT | CSV_LATER)

/*
 * Every table: X(ID, "file.csv", COLUMNS, may_be_absent).  Only regions.csv
 * and samples.csv must exist in a run that took a sample.
 */
#define CSV_TABLES(X)							\
	X(REGIONS,	"regions.csv",		CSV_REGIONS_COLUMNS,	0) \
	X(SAMPLES,	"samples.csv",		CSV_SAMPLES_COLUMNS,	0) \
	X(BUDDY,	"buddy.csv",		CSV_BUDDY_COLUMNS,	1) \
	X(PAGETYPE,	"pagetype.csv",		CSV_PAGETYPE_COLUMNS,	1) \
	X(PAGEBLOCKS,	"pageblocks.csv",	CSV_PAGEBLOCKS_COLUMNS,	1) \
	X(PLACEMENT,	"placement.csv",	CSV_PLACEMENT_COLUMNS,	1) \
	X(WORKLOADS,	"workloads.csv",	CSV_WORKLOADS_COLUMNS,	1) \
	X(EVENTS,	"events.csv",		CSV_EVENTS_COLUMNS,	1)

enum csv_table {
#define CSV_TABLE_ENUM(id, file, cols, opt) CSV_##id,
	CSV_TABLES(CSV_TABLE_ENUM)
#undef CSV_TABLE_ENUM
	CSV_NTABLES
};

/* Column indexes: CSV_REGIONS_NODE, CSV_SAMPLES_T, ... */
#define CSV_COLUMN_ENUM(table, id, name, type) CSV_##table##_##id,
#define CSV_COLUMN_ENUM_REGIONS(id, name, type)				\
	CSV_COLUMN_ENUM(REGIONS, id, name, type)
#define CSV_COLUMN_ENUM_SAMPLES(id, name, type)				\
	CSV_COLUMN_ENUM(SAMPLES, id, name, type)
#define CSV_COLUMN_ENUM_BUDDY(id, name, type)				\
	CSV_COLUMN_ENUM(BUDDY, id, name, type)
#define CSV_COLUMN_ENUM_PAGETYPE(id, name, type)			\
	CSV_COLUMN_ENUM(PAGETYPE, id, name, type)
#define CSV_COLUMN_ENUM_PAGEBLOCKS(id, name, type)			\
	CSV_COLUMN_ENUM(PAGEBLOCKS, id, name, type)
#define CSV_COLUMN_ENUM_PLACEMENT(id, name, type)			\
	CSV_COLUMN_ENUM(PLACEMENT, id, name, type)
#define CSV_COLUMN_ENUM_WORKLOADS(id, name, type)			\
	CSV_COLUMN_ENUM(WORKLOADS, id, name, type)
#define CSV_COLUMN_ENUM_EVENTS(id, name, type)				\
	CSV_COLUMN_ENUM(EVENTS, id, name, type)
enum { CSV_REGIONS_COLUMNS(CSV_COLUMN_ENUM_REGIONS) CSV_REGIONS_NCOLS };
enum { CSV_SAMPLES_COLUMNS(CSV_COLUMN_ENUM_SAMPLES) CSV_SAMPLES_NCOLS };
enum { CSV_BUDDY_COLUMNS(CSV_COLUMN_ENUM_BUDDY) CSV_BUDDY_NCOLS };
enum { CSV_PAGETYPE_COLUMNS(CSV_COLUMN_ENUM_PAGETYPE) CSV_PAGETYPE_NCOLS };
enum {
	CSV_PAGEBLOCKS_COLUMNS(CSV_COLUMN_ENUM_PAGEBLOCKS)
	CSV_PAGEBLOCKS_NCOLS
};
enum {
	CSV_PLACEMENT_COLUMNS(CSV_COLUMN_ENUM_PLACEMENT)
	CSV_PLACEMENT_NCOLS
};
enum {
	CSV_WORKLOADS_COLUMNS(CSV_COLUMN_ENUM_WORKLOADS)
	CSV_WORKLOADS_NCOLS
};
enum { CSV_EVENTS_COLUMNS(CSV_COLUMN_ENUM_EVENTS) CSV_EVENTS_NCOLS };

/* One column of a table. */
struct csv_column {
	const char	*name;
	int		 type;		/* enum csv_type, maybe | CSV_LATER */
};

/* One file of a results directory. */
struct csv_table_def {
	const char		*file;
	const char		*header;	/* names joined by commas */
	const struct csv_column	*cols;
	int			 ncols;
	int			 may_be_absent;
};

const struct csv_table_def *csv_schema_table(enum csv_table table);
int	 csv_schema_empty_ok(const struct csv_column *col);
int	 csv_schema_required(const struct csv_column *col);
int	 csv_schema_names_region(const struct csv_table_def *def);

#endif
