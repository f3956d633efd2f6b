/*
 * The runner's progress on stderr: a refreshing line on a terminal (suite,
 * repetition, phase, progress, time left and one glyph per region), or a
 * plain line every 10 s when stderr is a file.
 */
#include "config.h"

#include <stdio.h>

#include "runner-int.h"
#include "units.h"

#define RUNNER_SHOW_NS		250000000ULL
#define RUNNER_PLAIN_NS		(10 * NS_PER_SEC)

/* The run's name for messages: the suite's, with the repetition if any. */
void
runner_name(const struct runner *r, char *buf, size_t len)
{
	if (r->nreps > 1)
		snprintf(buf, len, "%s rep %d/%d", r->suite->name, r->rep + 1,
		    r->nreps);
	else
		snprintf(buf, len, "%s", r->suite->name);
}

/* One glyph per region from empty to full, for the progress line. */
static void
runner_glyphs(const struct snapshot *snap, char *buf, size_t len)
{
	static const char levels[] = " .:-=+*#%@";
	uint64_t present, used;
	size_t n = 0;
	int i, j;

	for (i = 0; i < snap->nentries && n + 1 < len; i = j) {
		present = used = 0;
		for (j = i; j < snap->nentries &&
		    snap->entries[j].node == snap->entries[i].node &&
		    snap->entries[j].region == snap->entries[i].region; j++) {
			if (snap->entries[j].present != SNAP_UNKNOWN)
				present += snap->entries[j].present;
			used += snap_entry_used(&snap->entries[j]);
		}
		buf[n++] = present == 0 ? '?' : levels[(int)(9.0 *
		    (double)used / (double)present + 0.5)];
	}
	buf[n] = '\0';
}

/*
 * Seconds left in the suite from phase index on, or -1 when unknown (a
 * phase of fixed work whose progress is too small to extrapolate).
 */
static double
runner_left(const struct runner *r, int index, double progress,
    double elapsed)
{
	const struct suite_phase *ph = &r->suite->phases[index];
	double left = -1;
	int i;

	if (ph->duration_ns > 0)
		left = (double)ph->duration_ns / 1e9 - elapsed;
	else if (progress > 0.02)
		left = elapsed * (1 - progress) / progress;
	if (left < 0)
		return (-1);
	left += (double)ph->settle_ns / 1e9;
	for (i = index + 1; i < r->suite->nphases; i++) {
		if (r->suite->phases[i].duration_ns == 0)
			return (-1);
		left += (double)(r->suite->phases[i].duration_ns +
		    r->suite->phases[i].settle_ns) / 1e9;
	}
	return (left);
}

/* Show progress: a refreshing line on a terminal, a line per 10 s else. */
void
runner_show(struct runner *r, int index, const struct suite_phase *ph,
    double progress, uint64_t phase_start_ns, int force)
{
	uint64_t now = units_now_ns();
	double elapsed = (double)(now - phase_start_ns) / 1e9, left;
	char glyphs[256] = "", eta[32], name[96];

	if (r->set->quiet)
		return;
	if (r->tty && !force && now - r->last_show_ns < RUNNER_SHOW_NS)
		return;
	if (!r->tty && !force && now - r->last_plain_ns < RUNNER_PLAIN_NS)
		return;
	if ((left = runner_left(r, index, progress, elapsed)) >= 0)
		snprintf(eta, sizeof eta, "~%.0fs left", left);
	else
		snprintf(eta, sizeof eta, "time left unknown");
	if (sampler_wait_sample(&r->session.sampler, 0, 0, &r->view, NULL,
	    NULL) > 0)
		runner_glyphs(&r->view, glyphs, sizeof glyphs);
	runner_name(r, name, sizeof name);
	if (r->tty) {
		fprintf(stderr, "\r\033[K%s phase %d/%d %s %3.0f%% %.1fs %s "
		    "[%s]", name, index + 1, r->suite->nphases, ph->workload,
		    100 * progress, elapsed, eta, glyphs);
		r->last_show_ns = now;
	} else {
		fprintf(stderr, "%s: phase %d/%d %s (%s) %3.0f%% %.1fs %s "
		    "regions [%s]\n", name, index + 1, r->suite->nphases,
		    ph->name, ph->workload, 100 * progress, elapsed, eta,
		    glyphs);
		r->last_plain_ns = now;
	}
	fflush(stderr);
}
