/*
 * The tables of csv-schema.h expanded into data: column arrays and the
 * header rows, joined at compile time so the sink writes them without
 * building strings.
 */
#include "config.h"

#include <string.h>

#include "csv-schema.h"

#define CSV_COLUMN_DEF(id, name, type, t) { name, type },
#define CSV_HEADER_PART(id, name, type, t) "," name

#define CSV_TABLE_COLUMNS(id, name, columns, opt)			\
	static const struct csv_column csv_cols_##id[] = {		\
		columns(CSV_COLUMN_DEF, id)				\
	};
CSV_TABLES(CSV_TABLE_COLUMNS)

/* Each header starts with a comma, skipped by taking the string from [1]. */
#define CSV_TABLE_DEF(id, name, columns, opt)				\
	[CSV_##id] = {							\
		.file = name,						\
		.header = &columns(CSV_HEADER_PART, id)[1],		\
		.cols = csv_cols_##id,					\
		.ncols = (int)(sizeof csv_cols_##id /			\
		    sizeof csv_cols_##id[0]),				\
		.may_be_absent = opt,					\
	},
static const struct csv_table_def csv_tables[CSV_NTABLES] = {
	CSV_TABLES(CSV_TABLE_DEF)
};

/* The definition of a table. */
const struct csv_table_def *
csv_schema_table(enum csv_table table)
{
	return (&csv_tables[table]);
}

/* May a row leave this column empty (an unknown value)? */
int
csv_schema_empty_ok(const struct csv_column *col)
{
	int type = col->type & ~CSV_LATER;

	return (type == CSV_INT_OPT || type == CSV_REAL_OPT ||
	    type == CSV_TEXT);
}

/* Must the header have this column (older files have all others)? */
int
csv_schema_required(const struct csv_column *col)
{
	return ((col->type & CSV_LATER) == 0);
}

/* Does the table have a region column (rows that need regions.csv)? */
int
csv_schema_names_region(const struct csv_table_def *def)
{
	int i;

	for (i = 0; i < def->ncols; i++) {
		if (strcmp(def->cols[i].name, "region") == 0)
			return (1);
	}
	return (0);
}
