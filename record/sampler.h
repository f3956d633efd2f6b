/*
 * The sampler: a thread that reads a region source on absolute deadlines
 * and hands each snapshot to the CSV sink and to whoever watches (the live
 * table, the runner).  After the first sample it does not allocate.
 */
#ifndef RB_SAMPLER_H
#define RB_SAMPLER_H

#include <limits.h>
#include <pthread.h>
#include <stdint.h>

#include "sink-csv.h"
#include "snapshot.h"
#include "source.h"

struct sampler_config {
	uint64_t	 interval_ns;
	uint64_t	 count;		/* 0: no limit */
	uint64_t	 duration_ns;	/* 0: no limit */
	int		 buddy_every;	/* buddy.csv rows every N samples */
	int		 pagetype_every; /* read pagetypeinfo every N samples */
	int		 cpu;		/* PU to bind to, -1 for none */
	const char	*record_dir;	/* keep raw files of every sample */
	const char	*replay_dir;	/* read samples from a recording */
	int		 replay_paced;	/* replay on the interval, not at once */
	/*
	 * Called with every sample, in the thread that took it, after the
	 * sink (NULL: none): a reader of sampler_wait_sample sees only the
	 * latest sample, this sees each one.
	 */
	void		(*each)(const struct snapshot *snap, double t_s,
			    uint64_t seq, void *arg);
	void		*each_arg;
};

struct sampler {
	struct sampler_config cfg;
	struct source	*src;
	struct sink_csv	*sink;		/* NULL: nothing written */
	void		*topology;	/* struct topology *, for binding */

	pthread_t	 thread;
	pthread_mutex_t	 lock;
	pthread_cond_t	 cond;		/* signalled after each sample */
	pthread_cond_t	 wake;		/* wakes the sampler early */
	pthread_mutex_t	 busy;		/* held while a sample is taken */

	struct snapshot	 work;		/* the thread's own */
	struct snapshot	 latest;	/* copy for readers, under lock */
	uint64_t	 seq;		/* samples taken, under lock */
	uint64_t	 t0_ns;		/* run start (CLOCK_MONOTONIC) */
	double		 latest_t_s;
	char		 phase[64];
	int		 stop;
	int		 now_pending;	/* an extra sample was requested */
	char		 now_event[32];
	char		 now_detail[128];
	int		 done;		/* the thread has finished */
	int		 rc;		/* 0 or -exit code */
	char		*cause;
	uint64_t	 overruns;
	uint64_t	 take_ns;	/* how long the last sample took to
					   read and write, for each */
	int		 pageblock_order;	/* last known, -1 until read */
	int		 started;
	int		 ready;		/* the thread is past its start-up */
};

int	 sampler_start(struct sampler *s, const struct sampler_config *cfg,
	     struct source *src, struct sink_csv *sink, void *topology,
	     uint64_t t0_ns, const char *phase, char **cause);
int	 sampler_wait_sample(struct sampler *s, uint64_t after_seq,
	     uint64_t timeout_ns, struct snapshot *copy, double *t_s,
	     uint64_t *seq);
int	 sampler_sample_now(struct sampler *s, const char *event,
	     const char *detail);
void	 sampler_set_phase(struct sampler *s, const char *phase);
void	 sampler_event(struct sampler *s, const char *event,
	     const char *detail);
double	 sampler_elapsed(const struct sampler *s);
int	 sampler_stop(struct sampler *s, char **cause);
struct sink_csv *sampler_sink_lock(struct sampler *s);
void	 sampler_sink_unlock(struct sampler *s);
int	 sampler_finished(struct sampler *s);
void	 sampler_hold(struct sampler *s);
void	 sampler_release(struct sampler *s);

#endif
