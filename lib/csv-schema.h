/*
 * The CSV files of a results directory (docs/csv-schema.md), declared once:
 * file names, column names, their order and their types.  The sink writes
 * its header rows from here and the reader in analyze/ finds its columns by
 * these names, so a column added here is added to both.  Columns are only
 * ever appended to a table, never renamed (older results keep reading).
 *
 * Each table is an X-macro list X(ID, "name", TYPE, t), with t what the
 * list was given (the table's ID where an expansion needs it); ID becomes
 * the column's index, CSV_<TABLE>_<ID>, in the order the sink writes it.
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

#define CSV_REGIONS_COLUMNS(X, t)					\
	X(NODE,		"node",			CSV_INT, t)		\
	X(REGION,	"region",		CSV_INT, t)		\
	X(ZONE,		"zone",			CSV_TEXT, t)		\
	X(START_PFN,	"start_pfn",		CSV_INT_OPT, t)		\
	X(SPANNED,	"spanned_pages",	CSV_INT_OPT, t)		\
	X(PRESENT,	"present_pages",	CSV_INT, t)		\
	X(MANAGED,	"managed_pages",	CSV_INT_OPT | CSV_LATER, t) \
	X(ZONE_REGION,	"zone_region",		CSV_INT_OPT | CSV_LATER, t)

/* The columns every per-sample table of regions starts with. */
#define CSV_SAMPLE_KEY_COLUMNS(X, t)					\
	X(T,		"t_s",			CSV_REAL, t)		\
	X(PHASE,	"phase",		CSV_TEXT, t)		\
	X(NODE,		"node",			CSV_INT, t)		\
	X(REGION,	"region",		CSV_INT, t)		\
	X(ZONE,		"zone",			CSV_TEXT, t)

#define CSV_SAMPLES_COLUMNS(X, t)					\
	CSV_SAMPLE_KEY_COLUMNS(X, t)					\
	X(PRESENT,	"present_pages",	CSV_INT, t)		\
	X(FREE,		"free_pages",		CSV_INT, t)		\
	X(MANAGED,	"managed_pages",	CSV_INT_OPT | CSV_LATER, t) \
	X(ANON,		"anon_pages",		CSV_INT_OPT | CSV_LATER, t) \
	X(FILE,		"file_pages",		CSV_INT_OPT | CSV_LATER, t) \
	X(SLAB,		"slab_pages",		CSV_INT_OPT | CSV_LATER, t) \
	X(PGTABLE,	"pgtable_pages",	CSV_INT_OPT | CSV_LATER, t) \
	X(OTHER,	"other_pages",		CSV_INT_OPT | CSV_LATER, t) \
	X(UNINIT,	"uninit_pages",		CSV_INT_OPT | CSV_LATER, t) \
	X(FREE_LO,	"free_pages_lo",	CSV_INT_OPT | CSV_LATER, t) \
	X(FREE_HI,	"free_pages_hi",	CSV_INT_OPT | CSV_LATER, t) \
	X(COUNTED_AT,	"counted_at_s",		CSV_REAL_OPT | CSV_LATER, t)

#define CSV_BUDDY_COLUMNS(X, t)						\
	CSV_SAMPLE_KEY_COLUMNS(X, t)					\
	X(ORDER,	"order",		CSV_INT, t)		\
	X(FREE_BLOCKS,	"free_blocks",		CSV_INT, t)

#define CSV_PAGETYPE_COLUMNS(X, t)					\
	CSV_SAMPLE_KEY_COLUMNS(X, t)					\
	X(MIGRATETYPE,	"migratetype",		CSV_TEXT, t)		\
	X(ORDER,	"order",		CSV_INT, t)		\
	X(FREE_BLOCKS,	"free_blocks",		CSV_INT, t)		\
	X(CAPPED,	"capped",		CSV_INT | CSV_LATER, t)

#define CSV_PAGEBLOCKS_COLUMNS(X, t)					\
	CSV_SAMPLE_KEY_COLUMNS(X, t)					\
	X(MIGRATETYPE,	"migratetype",		CSV_TEXT, t)		\
	X(BLOCKS,	"blocks",		CSV_INT, t)

#define CSV_PLACEMENT_COLUMNS(X, t)					\
	X(T,		"t_s",			CSV_REAL, t)		\
	X(PHASE,	"phase",		CSV_TEXT, t)		\
	X(WORKLOAD,	"workload",		CSV_TEXT, t)		\
	X(PID,		"pid",			CSV_INT, t)		\
	X(NODE,		"node",			CSV_INT, t)		\
	X(REGION,	"region",		CSV_INT, t)		\
	X(PAGES,	"pages",		CSV_INT, t)

#define CSV_WORKLOADS_COLUMNS(X, t)					\
	X(PHASE,	"phase",		CSV_TEXT, t)		\
	X(WORKLOAD,	"workload",		CSV_TEXT, t)		\
	X(THREAD,	"thread",		CSV_TEXT, t)		\
	X(METRIC,	"metric",		CSV_TEXT, t)		\
	X(VALUE,	"value",		CSV_REAL_OPT, t)	\
	X(UNIT,		"unit",			CSV_TEXT, t)

/*
 * references.csv: what DAMON saw referenced in each region over one
 * aggregation interval (docs/csv-schema.md).  idle_age_s is empty when no
 * part of the region was idle.
 */
#define CSV_REFERENCES_COLUMNS(X, t)					\
	X(T,		"t_s",			CSV_REAL, t)		\
	X(PHASE,	"phase",		CSV_TEXT, t)		\
	X(NODE,		"node",			CSV_INT, t)		\
	X(REGION,	"region",		CSV_INT, t)		\
	X(MONITORED,	"monitored_bytes",	CSV_INT, t)		\
	X(REFERENCED,	"referenced_bytes",	CSV_INT, t)		\
	X(IDLE_AGE,	"idle_age_s",		CSV_REAL_OPT, t)

#define CSV_EVENTS_COLUMNS(X, t)					\
	X(T,		"t_s",			CSV_REAL, t)		\
	X(EVENT,	"event",		CSV_TEXT, t)		\
	X(DETAIL,	"detail",		CSV_TEXT, t)		\
	X(PHASE,	"phase",		CSV_TEXT | CSV_LATER, t)

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
	X(REFERENCES,	"references.csv",	CSV_REFERENCES_COLUMNS,	1) \
	X(EVENTS,	"events.csv",		CSV_EVENTS_COLUMNS,	1)

enum csv_table {
#define CSV_TABLE_ENUM(id, file, cols, opt) CSV_##id,
	CSV_TABLES(CSV_TABLE_ENUM)
#undef CSV_TABLE_ENUM
	CSV_NTABLES
};

/* Column indexes: CSV_REGIONS_NODE, CSV_SAMPLES_T, ... */
#define CSV_COLUMN_ENUM(id, name, type, t) CSV_##t##_##id,
#define CSV_TABLE_COLUMN_ENUM(id, file, columns, opt)			\
	enum { columns(CSV_COLUMN_ENUM, id) CSV_##id##_NCOLS };
CSV_TABLES(CSV_TABLE_COLUMN_ENUM)
#undef CSV_TABLE_COLUMN_ENUM
#undef CSV_COLUMN_ENUM

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
