/*
 * The options the analysis commands share (analyze, compare, gate,
 * store), from one set of rows: the database, the significance test, the
 * unit of a value, forcing runs that differ, the empty tolerance.  A
 * command embeds struct analysis_cli in its settings and names the table
 * of the options it takes in its command_entry (shared_options,
 * shared_offset).
 */
#ifndef RB_ANALYSIS_CLI_H
#define RB_ANALYSIS_CLI_H

#include <stdint.h>

#include "compare.h"
#include "opt.h"

struct analysis_cli {
	char		*db;
	int		 test;
	int		 force;
	int		 unit;
	uint64_t	 empty_tolerance;
};

/* compare and gate: every row. */
extern const struct opt_def analysis_cli_options[];
/* store: the database and the empty tolerance. */
extern const struct opt_def analysis_cli_store_options[];
/* report: the test, the unit and the empty tolerance. */
extern const struct opt_def analysis_cli_report_options[];
/* analyze: the empty tolerance. */
extern const struct opt_def analysis_cli_metrics_options[];

enum compare_test analysis_cli_test(const struct analysis_cli *cli);
enum compare_unit analysis_cli_unit(const struct analysis_cli *cli);

#endif
