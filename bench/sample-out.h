/*
 * What `sample` does with each sample besides the results directory: the
 * terminal table or lines, CSV or JSON rows on a pipe, and the Prometheus
 * page (a .prom file and /metrics).  The piped rows and the page are made
 * in the sampler's thread, for every sample (sample_live_each).
 */
#ifndef RB_SAMPLE_OUT_H
#define RB_SAMPLE_OUT_H

#include <jansson.h>
#include <stdint.h>

#include "http-metrics.h"
#include "sampler.h"
#include "sink-openmetrics.h"
#include "snapshot.h"

/* What goes on stdout per sample. */
enum sample_format {
	SAMPLE_TEXT,		/* the table, refreshing on a terminal */
	SAMPLE_CSV,		/* samples.csv rows, header first */
	SAMPLE_JSON		/* one JSON object per line */
};

/* The options of the Prometheus outputs. */
struct sample_live_options {
	const char	*openmetrics;	/* the .prom file, or NULL */
	const char	*listen;	/* ADDR:PORT, or NULL */
	int		 listen_any;
	int		 quiet;
};

/* Where the sampler's thread writes piped samples (csv, json). */
struct sample_pipe {
	int		 format;
	const char	*source;
	volatile int	 gone;		/* stdout closed or failed */
};

/*
 * What the sampler's thread does with every sample: the piped output,
 * and the Prometheus page written to the .prom file and served on
 * /metrics.
 */
struct sample_live {
	struct sample_pipe *pipe;	/* NULL: nothing piped */
	struct sampler	*sampler;	/* its health */
	struct sink_openmetrics om;
	int		 has_om;
	struct http_metrics http;
	int		 has_http;
	volatile int	 om_failed;	/* a write of the file failed */
};

void	 sample_show(const struct snapshot *snap, double t_s, uint64_t seq,
	     int tty, const char *source);
int	 sample_emit(const struct snapshot *snap, double t_s, uint64_t seq,
	     int format, int tty, const char *source);
void	 sample_pipe_each(const struct snapshot *snap, double t_s,
	     uint64_t seq, void *arg);
void	 sample_live_each(const struct snapshot *snap, double t_s,
	     uint64_t seq, void *arg);
void	 sample_live_open(struct sample_live *sl,
	     const struct sample_live_options *opts, const char *source,
	     json_t *system);
void	 sample_live_close(struct sample_live *sl);

#endif
