/*
 * One run analysed: its metrics reduced per phase (metrics_summarize), the
 * optional power-model rows, and the summary's writers.  summary.csv
 * (phase,metric,value,unit) and summary.json are its two file formats;
 * text and markdown are the tables analyze and run print.  One function
 * per output format.
 */
#ifndef RB_SUMMARY_H
#define RB_SUMMARY_H

#include <stdio.h>

#include "metrics.h"
#include "power.h"

#define SUMMARY_SCHEMA_VERSION	1

/* A results directory with its metrics and summary. */
struct summary_run {
	struct results	*res;
	struct metrics	*m;
	struct summary	 sum;
	int		 power;		/* has power_model.* rows */
};

int	 summary_run_load(struct summary_run *sr, const char *dir,
	     const struct metrics_options *mo, const struct power_model *pm,
	     char **cause);
void	 summary_run_free(struct summary_run *sr);
int	 summary_save(const struct summary_run *sr, char **cause);

void	 summary_write_csv(FILE *f, const struct summary_run *sr);
int	 summary_write_json(FILE *f, const struct summary_run *sr);
void	 summary_print_text(FILE *f, const struct summary_run *sr, int brief);
void	 summary_print_text_fit(FILE *f, const struct summary_run *sr,
	     int brief, int width);
void	 summary_print_markdown(FILE *f, const struct summary_run *sr,
	     int brief);
void	 summary_format_value(char *buf, size_t len, double v,
	     const char *unit);
const char *summary_table_unit(const char *unit);

#endif
