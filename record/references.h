/*
 * The DAMON reference source of sample and run (docs/damon.md): which
 * regions were referenced in each aggregation interval, read by a thread
 * of its own (the kernel may block the update for one interval, which the
 * sampler's deadlines cannot afford) into references.csv.
 */
#ifndef RB_REFERENCES_H
#define RB_REFERENCES_H

#include <jansson.h>
#include <pthread.h>
#include <stdint.h>

#include "damon.h"
#include "opt.h"
#include "sampler.h"

enum references_mode { REFERENCES_OFF, REFERENCES_ON, REFERENCES_AUTO };

/* The --references options (a table sample and run share). */
struct references_settings {
	int		 mode;		/* enum references_mode */
	uint64_t	 sample;	/* ns */
	uint64_t	 aggr;		/* ns */
};

extern const struct opt_def references_options[];

struct references {
	struct references_settings set;
	int		 active;	/* DAMON is ours to use */
	char		*unavailable;	/* why not (--references auto) */
	char		*record;	/* the record file of our kdamond */
	struct damon	 damon;

	struct damon_map map;
	double		 aggr_s;

	struct sampler	*sampler;
	pthread_t	 thread;
	int		 running;
	pthread_mutex_t	 lock;
	pthread_cond_t	 cond;
	int		 stop;		/* under lock */
	char		*error;		/* the thread's failure, kept */
	uint64_t	 reads;		/* updates read */
	double		*read_ms;	/* each update and read, ms */
	int		 read_cap;
	uint64_t	 rows;		/* references.csv rows */
	long		 pid;		/* our kdamond, for meta.json */
	int		 leftover;	/* a leftover of ours was cleaned */
	int		 tcg;		/* in a TCG guest (warned once) */
};

int	 references_open(struct references *r,
	     const struct references_settings *set, const char *sys_root,
	     const char *proc_root, char **cause);
int	 references_start(struct references *r, struct sampler *s,
	     const char *proc_root, char **cause);
int	 references_stop(struct references *r, char **cause);
void	 references_describe(const struct references *r, json_t *meta);
void	 references_close(struct references *r);

#endif
