/*
 * The sampler as the other threads see it (sampler.c is its own thread):
 * waiting for a sample, asking for one now, phases, events, and holding it
 * between samples or stopping it.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "sampler.h"
#include "units.h"

/*
 * Wait until a sample newer than after_seq exists (or the sampler ended,
 * or timeout_ns passed) and copy it.  Returns 1 with a new sample, 0 on
 * timeout, -1 when the sampler has finished and nothing new is left.
 */
int
sampler_wait_sample(struct sampler *s, uint64_t after_seq,
    uint64_t timeout_ns, struct snapshot *copy, double *t_s, uint64_t *seq)
{
	struct timespec ts;
	int rc = 0;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += (time_t)(timeout_ns / NS_PER_SEC);
	ts.tv_nsec += (long)(timeout_ns % NS_PER_SEC);
	if (ts.tv_nsec >= (long)NS_PER_SEC) {
		ts.tv_sec++;
		ts.tv_nsec -= (long)NS_PER_SEC;
	}
	pthread_mutex_lock(&s->lock);
	while (s->seq <= after_seq && !s->done) {
		if (pthread_cond_timedwait(&s->cond, &s->lock, &ts) ==
		    ETIMEDOUT)
			break;
	}
	if (s->seq > after_seq) {
		if (copy != NULL)
			snapshot_copy(copy, &s->latest);
		if (t_s != NULL)
			*t_s = s->latest_t_s;
		if (seq != NULL)
			*seq = s->seq;
		rc = 1;
	} else if (s->done) {
		rc = -1;
	}
	pthread_mutex_unlock(&s->lock);
	return (rc);
}

/*
 * Take an extra sample now, recorded with an event (a checkpoint), and
 * wait until it is written.  Returns 0, or -1 when the sampler has ended.
 */
int
sampler_sample_now(struct sampler *s, const char *event, const char *detail)
{
	pthread_mutex_lock(&s->lock);
	while (s->now_pending && !s->done)
		pthread_cond_wait(&s->cond, &s->lock);
	if (s->done) {
		pthread_mutex_unlock(&s->lock);
		return (-1);
	}
	snprintf(s->now_event, sizeof s->now_event, "%s", event);
	snprintf(s->now_detail, sizeof s->now_detail, "%s", detail);
	s->now_pending = 1;
	pthread_cond_signal(&s->wake);
	while (s->now_pending && !s->done)
		pthread_cond_wait(&s->cond, &s->lock);
	pthread_mutex_unlock(&s->lock);
	return (0);
}

/* Change the phase name written with the following samples. */
void
sampler_set_phase(struct sampler *s, const char *phase)
{
	pthread_mutex_lock(&s->lock);
	snprintf(s->phase, sizeof s->phase, "%s", phase);
	pthread_mutex_unlock(&s->lock);
}

/* Record an event row now, in the current phase. */
void
sampler_event(struct sampler *s, const char *event, const char *detail)
{
	pthread_mutex_lock(&s->lock);
	if (s->sink != NULL) {
		sink_csv_event(s->sink, sampler_elapsed(s), event, detail,
		    s->phase, NULL);
		sink_csv_flush(s->sink, NULL);
	}
	pthread_mutex_unlock(&s->lock);
}

/*
 * Borrow the sink to write rows of another table (placement, workloads)
 * between samples; NULL when there is no sink.  Pair with
 * sampler_sink_unlock, which flushes.
 */
struct sink_csv *
sampler_sink_lock(struct sampler *s)
{
	pthread_mutex_lock(&s->lock);
	return (s->sink);
}

/* Flush and give the sink back to the sampler thread. */
void
sampler_sink_unlock(struct sampler *s)
{
	if (s->sink != NULL)
		sink_csv_flush(s->sink, NULL);
	pthread_mutex_unlock(&s->lock);
}

/* Has the sampler thread ended by itself (count, duration, error)? */
int
sampler_finished(struct sampler *s)
{
	int done;

	pthread_mutex_lock(&s->lock);
	done = s->done;
	pthread_mutex_unlock(&s->lock);
	return (done);
}

/* Stop the thread, wait for it and return its error, if any. */
int
sampler_stop(struct sampler *s, char **cause)
{
	int rc;

	if (!s->started)
		return (0);
	pthread_mutex_lock(&s->lock);
	s->stop = 1;
	pthread_cond_signal(&s->wake);
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->thread, NULL);
	s->started = 0;
	rc = s->rc;
	if (rc != 0 && cause != NULL) {
		*cause = s->cause;
		s->cause = NULL;
	}
	free(s->cause);
	s->cause = NULL;
	snapshot_free(&s->work);
	snapshot_free(&s->latest);
	pthread_cond_destroy(&s->cond);
	pthread_cond_destroy(&s->wake);
	pthread_mutex_destroy(&s->lock);
	return (rc);
}

/*
 * Keep the sampler thread between samples until sampler_release: the
 * runner forks its workloads under this, so that no lock the sampler takes
 * while sampling (the allocator's among them, which a sanitizer build's
 * child was seen to wait on for ever) is held in the child at fork time.
 */
void
sampler_hold(struct sampler *s)
{
	if (s->started)
		pthread_mutex_lock(&s->busy);
}

/* Let the sampler thread take samples again. */
void
sampler_release(struct sampler *s)
{
	if (s->started)
		pthread_mutex_unlock(&s->busy);
}
