/*
 * One results-directory session, shared by sample and run: open the CSV
 * sink, write meta.json saying "running" before the first row, run the
 * sampler, then record how it ended (status, samples, overruns, what the
 * source found) in the final meta.json.  Also the signals that end a
 * session cleanly.
 */
#ifndef RB_SESSION_H
#define RB_SESSION_H

#include <jansson.h>
#include <signal.h>

#include "references.h"
#include "sampler.h"
#include "session-signals.h"
#include "sink-csv.h"
#include "source.h"

struct session_config {
	const char	*command;	/* "sample", "run": meta and messages */
	const char	*dir;		/* results directory; NULL: none */
	const char	*label;
	json_t		*system;	/* borrowed */
	struct source	*src;
	double		 interval_s;
	const char	*replay;	/* recording read instead of /proc */
	const char	*end_phase;	/* phase of the stop event; NULL: none */
	/*
	 * A replay of a whole recording stops when the recorded run stopped
	 * (replay_end_t_s after replay_samples samples), one cut short at
	 * its last sample; 0 samples: at the time it took.
	 */
	uint64_t	 replay_samples;
	double		 replay_end_t_s;
	/* DAMON references (references_open done), or NULL: none. */
	struct references *refs;
	const char	*proc_root;	/* for /proc/iomem */
};

struct session {
	struct session_config cfg;
	struct sink_csv	 sink;
	struct sink_csv	*sinkp;		/* NULL without a directory */
	int		 dirfd;		/* the directory, held open; -1 */
	json_t		*meta;		/* NULL without a directory */
	struct sampler	 sampler;
	const char	*status;	/* after session_finish */
	double		 stop_t_s;	/* time of the stop event */
};

void	 session_protect_from_oom(void);

int	 session_open(struct session *s, const struct session_config *cfg,
	     json_t *phases, char **cause);
int	 session_start(struct session *s, const struct sampler_config *scfg,
	     void *topology, const char *first_phase, char **cause);
int	 session_finish(struct session *s, int interrupted);

#endif
