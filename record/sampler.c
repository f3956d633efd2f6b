/*
 * Sampler thread.  Deadlines are absolute (t0 + i * interval on
 * CLOCK_MONOTONIC) so that the rate does not drift with the cost of a
 * sample; it waits on a condition variable with that deadline so a stop or
 * a checkpoint request wakes it at once.  Everything it touches per sample
 * was sized by the first sample, so the loop itself does not allocate, but
 * for the JSON of recordings: --record writes each sample's figures and a
 * replay of recorded figures reads them (under busy, like the rest).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "recording.h"
#include "sampler.h"
#include "topology.h"
#include "units.h"

/* Convert monotonic nanoseconds to a timespec. */
static struct timespec
ns_to_timespec(uint64_t ns)
{
	struct timespec ts;

	ts.tv_sec = (time_t)(ns / NS_PER_SEC);
	ts.tv_nsec = (long)(ns % NS_PER_SEC);
	return (ts);
}

/* Seconds since the run started. */
double
sampler_elapsed(const struct sampler *s)
{
	return ((double)(units_now_ns() - s->t0_ns) / 1e9);
}

/* Take one sample: read, record, write rows, publish to readers. */
static int
sampler_take(struct sampler *s, uint64_t i, int flags, double t_s,
    const char *event, const char *detail, char **cause)
{
	uint64_t seq, begin = units_now_ns();
	int rc, with_buddy;

	snapshot_reset(&s->work);
	if ((rc = source_read(s->src, &s->work, flags, cause)) != 0)
		return (rc);
	if (s->cfg.record_dir != NULL &&
	    (rc = recording_write_sample(
	    s->cfg.record_dir, i, s->src, &s->work, t_s, cause)) != 0)
		return (rc);
	with_buddy = s->cfg.buddy_every <= 1 ||
	    i % (uint64_t)s->cfg.buddy_every == 0;

	pthread_mutex_lock(&s->lock);
	if (s->sink != NULL) {
		if (event != NULL)
			sink_csv_event(s->sink, t_s, event, detail, s->phase,
			    NULL);
		rc = sink_csv_sample(s->sink, &s->work, t_s, s->phase,
		    with_buddy, cause);
	}
	snapshot_copy(&s->latest, &s->work);
	s->latest_t_s = t_s;
	if (s->work.pageblock_order >= 0)
		s->pageblock_order = s->work.pageblock_order;
	seq = ++s->seq;
	s->take_ns = units_now_ns() - begin;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	if (rc == 0 && s->cfg.each != NULL)
		s->cfg.each(&s->work, t_s, seq, s->cfg.each_arg);
	return (rc);
}

/* A replay read as fast as it goes: no deadlines, the recording's times. */
static int
sampler_unpaced(const struct sampler *s)
{
	return (s->cfg.replay_dir != NULL && !s->cfg.replay_paced);
}

/*
 * Take regular sample number i: pick the files (live or recorded), read
 * them and write the rows.  Returns 1 when a sample was taken, 0 at the end
 * of a recording, or a negative exit code.
 */
static int
sampler_step(struct sampler *s, uint64_t i, const char *event,
    const char *detail, char **cause)
{
	double t_s = sampler_elapsed(s);
	int rc, flags;

	flags = event != NULL || (s->cfg.pagetype_every > 0 && (i %
	    (uint64_t)s->cfg.pagetype_every == 0)) ? SOURCE_READ_PAGETYPE : 0;
	if (s->cfg.replay_dir != NULL) {
		rc = recording_read_sample(s->cfg.replay_dir, i, s->src,
		    &t_s, &flags, cause);
		if (rc <= 0)
			return (rc);
		/*
		 * An unpaced replay outruns the recording, so its --duration
		 * counts the recorded time, ending where the live run would
		 * have: past the end by more than half the recording's own
		 * interval.
		 */
		if (sampler_unpaced(s) && s->cfg.duration_ns > 0 && i > 0 &&
		    t_s - (double)s->cfg.duration_ns / 1e9 >
		    (t_s - s->latest_t_s) / 2)
			return (0);
	}
	rc = sampler_take(s, i, flags, t_s, event, detail, cause);
	return (rc == 0 ? 1 : rc);
}

/*
 * Wait for the next deadline (not in an unpaced replay), a checkpoint
 * request or a stop.  Returns -1 to stop, 1 for a checkpoint (its event
 * and detail copied out), 0 when the deadline has come.
 */
static int
sampler_wait_turn(struct sampler *s, uint64_t deadline, char *event,
    size_t event_len, char *detail, size_t detail_len)
{
	struct timespec ts;
	int turn;

	pthread_mutex_lock(&s->lock);
	while (!s->stop && !s->now_pending && !sampler_unpaced(s)) {
		ts = ns_to_timespec(deadline);
		if (pthread_cond_timedwait(&s->wake, &s->lock, &ts) ==
		    ETIMEDOUT)
			break;
	}
	turn = s->stop ? -1 : s->now_pending ? 1 : 0;
	if (turn == 1) {
		snprintf(event, event_len, "%s", s->now_event);
		snprintf(detail, detail_len, "%s", s->now_detail);
	}
	pthread_mutex_unlock(&s->lock);
	return (turn);
}

/*
 * A checkpoint: an extra sample with pagetypeinfo, off the regular
 * deadlines (a replay takes the next recorded snapshot for it); the
 * requester is woken when it is written.
 */
static int
sampler_checkpoint(struct sampler *s, uint64_t i, const char *event,
    const char *detail, char **cause)
{
	int rc;

	rc = sampler_step(s, i, event, detail, cause);
	pthread_mutex_lock(&s->lock);
	s->now_pending = 0;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	return (rc);
}

/*
 * An overrun as an event of the current phase, so that analysis can say
 * which phase lost samples (meta.json only has the run's total).  The
 * row is written with the next sample; nothing is allocated.
 */
static void
sampler_overrun(struct sampler *s, uint64_t skipped)
{
	char detail[64];

	snprintf(detail, sizeof detail, "%" PRIu64 " sample%s skipped",
	    skipped, skipped == 1 ? "" : "s");
	pthread_mutex_lock(&s->lock);
	if (s->sink != NULL)
		sink_csv_event(s->sink, sampler_elapsed(s), "overrun", detail,
		    s->phase, NULL);
	pthread_mutex_unlock(&s->lock);
}

/* The sampler thread's loop, from sample 1 on. */
static void *
sampler_main(void *arg)
{
	struct sampler *s = arg;
	uint64_t i, deadline, now, end = 0, skipped, taken, soonest;
	char *cause = NULL, event[32], detail[128];
	int rc = 0, turn;

	/*
	 * A new thread's first allocations refill its empty cache from the
	 * allocator's shared lists under their locks; binding allocates.
	 * Do that under busy and tell sampler_start when it is over, so a
	 * fork under sampler_hold never copies one of those locks held.
	 */
	pthread_mutex_lock(&s->busy);
	if (s->cfg.cpu >= 0 && s->topology != NULL &&
	    topology_bind_self(s->topology, s->cfg.cpu, &cause) != 0) {
		/* Binding is an optimisation: go on unbound. */
		free(cause);
		cause = NULL;
	}
	pthread_mutex_unlock(&s->busy);
	pthread_mutex_lock(&s->lock);
	s->ready = 1;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	if (s->cfg.duration_ns > 0)
		end = s->t0_ns + s->cfg.duration_ns;
	deadline = s->t0_ns + s->cfg.interval_ns;
	for (i = 1; s->cfg.count == 0 || i < s->cfg.count; i++) {
		turn = sampler_wait_turn(s, deadline, event, sizeof event,
		    detail, sizeof detail);
		if (turn < 0)
			break;
		if (turn > 0) {
			pthread_mutex_lock(&s->busy);
			rc = sampler_checkpoint(s, i, event, detail, &cause);
			pthread_mutex_unlock(&s->busy);
			if (rc <= 0)
				break;
			rc = 0;
			continue;
		}
		now = units_now_ns();
		if (end > 0 && now > end + s->cfg.interval_ns / 2 &&
		    !sampler_unpaced(s))
			break;
		pthread_mutex_lock(&s->busy);
		/* Its time as samples.csv will say, or within a microsecond. */
		taken = units_now_ns();
		rc = sampler_step(s, i, NULL, NULL, &cause);
		pthread_mutex_unlock(&s->busy);
		if (rc <= 0)
			break;
		rc = 0;
		deadline += s->cfg.interval_ns;
		/* An unpaced replay has no deadlines to miss: a stall of
		 * this process is not a sample the recording lost. */
		if (sampler_unpaced(s))
			continue;
		/*
		 * Skip missed deadlines rather than bursting: a deadline
		 * closer than 0.9 intervals to the sample just taken (it woke
		 * late, or its scan outlasted the interval) is skipped, so two
		 * samples are never closer than that.
		 */
		soonest = taken + s->cfg.interval_ns - s->cfg.interval_ns / 10;
		if (deadline < soonest) {
			s->overruns++;
			skipped = (soonest - deadline + s->cfg.interval_ns - 1) /
			    s->cfg.interval_ns;
			deadline += skipped * s->cfg.interval_ns;
			sampler_overrun(s, skipped);
		}
	}
	pthread_mutex_lock(&s->lock);
	s->rc = rc < 0 ? rc : 0;
	s->cause = cause;
	s->done = 1;
	s->now_pending = 0;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	return (NULL);
}

/*
 * Take the first sample in the caller's thread, so that errors in the
 * files show up before anything runs and the storage gets its final size,
 * then start the thread for the rest.
 */
int
sampler_start(struct sampler *s, const struct sampler_config *cfg,
    struct source *src, struct sink_csv *sink, void *topology,
    uint64_t t0_ns, const char *phase, char **cause)
{
	pthread_condattr_t attr;
	int rc;

	memset(s, 0, sizeof *s);
	s->cfg = *cfg;
	if (s->cfg.interval_ns == 0)
		s->cfg.interval_ns = NS_PER_SEC;
	s->src = src;
	s->sink = sink;
	s->topology = topology;
	s->t0_ns = t0_ns;
	s->pageblock_order = -1;
	snprintf(s->phase, sizeof s->phase, "%s", phase);
	snapshot_init(&s->work);
	snapshot_init(&s->latest);
	pthread_mutex_init(&s->lock, NULL);
	pthread_mutex_init(&s->busy, NULL);
	pthread_cond_init(&s->cond, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&s->wake, &attr);
	pthread_condattr_destroy(&attr);
	if (s->cfg.record_dir != NULL && mkdir(s->cfg.record_dir, 0755) ==
	    -1 && errno != EEXIST)
		return (fail_with(cause, RB_EXIT_ENV, "%s: mkdir: %s",
		    s->cfg.record_dir, strerror(errno)));
	rc = sampler_step(s, 0, "start", "", cause);
	if (rc == 0)
		rc = fail_with(cause, RB_EXIT_INPUT,
		    "%s: no recorded samples (expected %s/0000/)",
		    s->cfg.replay_dir, s->cfg.replay_dir);
	if (rc < 0) {
		snapshot_free(&s->work);
		snapshot_free(&s->latest);
		return (rc);
	}
	if ((rc = pthread_create(&s->thread, NULL, sampler_main, s)) != 0)
		return (fail_with(cause, RB_EXIT_ENV,
		    "starting the sampler thread: %s", strerror(rc)));
	s->started = 1;
	pthread_mutex_lock(&s->lock);
	while (!s->ready)
		pthread_cond_wait(&s->cond, &s->lock);
	pthread_mutex_unlock(&s->lock);
	return (0);
}
