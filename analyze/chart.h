/*
 * Charts of a results directory, drawn with cairo into PNG and SVG files:
 * the region heatmap, spread over time, placement, the seed table and
 * fragmentation, and the spread of several runs or groups overlaid.  The
 * numbers come from results.h and metrics.h only, so a chart always shows
 * what analyze prints.  The runner calls chart_all() at the end of a run;
 * the report embeds the same charts through chart_svg_all() and
 * chart_svg_compare().  The charts themselves are listed in chart-run.h.
 */
#ifndef RB_CHART_H
#define RB_CHART_H

#include <stddef.h>
#include <stdio.h>

#include "compare.h"

#define CHART_PNG	0x1u
#define CHART_SVG	0x2u
/*
 * With chart_all(): no note for a chart whose data is recorded only on
 * request (power states need --references).  The runner passes it, as
 * the user who ran without --references asked for no such chart.
 */
#define CHART_QUIET_OPT_IN	0x4u

/* The power-states chart (apart: the report shows it in its own section). */
#define CHART_POWER_STATES	"power-states"

/* One chart rendered into memory as SVG (for the report). */
struct chart_svg {
	char		*name;		/* "heatmap", "spread", ... */
	char		*title;		/* what it shows, for a caption */
	int		 apart;		/* the report shows it in its own
					   section (chart_def.apart) */
	char		*data;		/* the SVG document */
	size_t		 len;
};

int	 chart_parse_formats(const char *list, unsigned *formats,
	     char **cause);
int	 chart_all(const char *dir, const char *outdir, unsigned formats,
	     FILE *list, char **cause);
int	 chart_compare(char **paths, int npaths, enum compare_group_by by,
	     const char *outdir, unsigned formats, FILE *list, char **cause);
int	 chart_svg_all(const char *dir, struct chart_svg **out, int *n,
	     char **cause);
int	 chart_svg_compare(char **paths, int npaths, enum compare_group_by by,
	     struct chart_svg **out, int *n, char **cause);
void	 chart_svg_free(struct chart_svg *charts, int n);
void	 chart_cleanup(void);

#endif
