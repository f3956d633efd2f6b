/*
 * The runner's progress on stderr: a refreshing line on a terminal (suite,
 * repetition, phase and its state, progress, time left and the regions,
 * lib/term.c), or a plain line every 10 s when stderr is a file.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
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

/* Each region's used fraction (<0 unknown) into r->used; returns how many. */
static int
runner_used(struct runner *r, const struct snapshot *snap)
{
	uint64_t present, used;
	int i, j, n = 0;

	for (i = 0; i < snap->nentries; i = j) {
		present = used = 0;
		for (j = i; j < snap->nentries &&
		    snap->entries[j].node == snap->entries[i].node &&
		    snap->entries[j].region == snap->entries[i].region; j++) {
			if (snap->entries[j].present != SNAP_UNKNOWN)
				present += snap->entries[j].present;
			used += snap_entry_used(&snap->entries[j]);
		}
		if (n == r->used_cap) {
			r->used_cap = r->used_cap == 0 ? 64 : 2 * r->used_cap;
			r->used = xreallocarray(r->used, (size_t)r->used_cap,
			    sizeof *r->used);
		}
		r->used[n++] = present == 0 ? -1 : (double)used /
		    (double)present;
	}
	return (n);
}

/*
 * Seconds left in the suite from phase index on, or -1 when unknown (a
 * phase of fixed work whose progress is too small to extrapolate, or that
 * holds its memory for a time the runner does not know).  While settling,
 * elapsed counts from the end of the workload.  When a later phase's
 * length cannot be known yet, the seconds left in this phase, and
 * *in_phase is set.
 */
static double
runner_left(const struct runner *r, int index, enum term_state state,
    double progress, double elapsed, int *in_phase)
{
	const struct suite_phase *ph = &r->suite->phases[index];
	double left = -1;
	int i;

	if (state == TERM_SETTLING)
		left = (double)ph->settle_ns / 1e9 - elapsed;
	else if (ph->duration_ns > 0)
		left = (double)ph->duration_ns / 1e9 - elapsed +
		    (double)ph->settle_ns / 1e9;
	else if (state == TERM_RUNNING && progress > 0.02)
		left = elapsed * (1 - progress) / progress +
		    (double)ph->settle_ns / 1e9;
	if (left < 0 && !(state == TERM_SETTLING && left > -1))
		return (-1);
	if (left < 0)
		left = 0;
	*in_phase = 0;
	for (i = index + 1; i < r->suite->nphases; i++) {
		if (r->suite->phases[i].duration_ns == 0) {
			*in_phase = 1;
			return (left);
		}
		left += (double)(r->suite->phases[i].duration_ns +
		    r->suite->phases[i].settle_ns) / 1e9;
	}
	return (left);
}

/*
 * Show progress: a refreshing line that fits the terminal, or a line per
 * 10 s (80 columns) when stderr is a file.
 */
void
runner_show(struct runner *r, int index, const struct suite_phase *ph,
    enum term_state state, double progress, uint64_t phase_start_ns,
    int force)
{
	uint64_t now = units_now_ns();
	struct term_progress tp;
	char line[2048];
	int n = 0, width;

	if (r->set->quiet)
		return;
	if (r->tty && !force && now - r->last_show_ns < RUNNER_SHOW_NS)
		return;
	if (!r->tty && !force && now - r->last_plain_ns < RUNNER_PLAIN_NS)
		return;
	memset(&tp, 0, sizeof tp);
	tp.suite = r->suite->name;
	tp.rep = r->rep + 1;
	tp.nreps = r->nreps;
	tp.phase = index + 1;
	tp.nphases = r->suite->nphases;
	tp.phase_name = ph->name;
	tp.workload = ph->workload;
	tp.state = state;
	tp.progress = progress;
	tp.elapsed = (double)(now - phase_start_ns) / 1e9;
	tp.left = runner_left(r, index, state, progress, tp.elapsed,
	    &tp.left_in_phase);
	/* One scale for the region bar, one form of the text: they only
	 * ever grow (shorter text, more regions a glyph). */
	tp.min_per = r->glyph_per;
	tp.min_form = r->text_form;
	if (sampler_wait_sample(&r->session.sampler, 0, 0, &r->view, NULL,
	    NULL) > 0)
		n = runner_used(r, &r->view);
	if (r->tty) {
		/* One column short: no terminal wraps the line early. */
		width = term_size(STDERR_FILENO, NULL) - 1;
		term_progress_line(line, sizeof line, width, 0, &tp, r->used,
		    n);
		fprintf(stderr, "\r\033[K%s", line);
		r->last_show_ns = now;
	} else {
		term_progress_line(line, sizeof line, TERM_DEFAULT_WIDTH, 1,
		    &tp, r->used, n);
		fprintf(stderr, "%s\n", line);
		r->last_plain_ns = now;
	}
	if (tp.per > r->glyph_per)
		r->glyph_per = tp.per;
	if (tp.form > r->text_form)
		r->text_form = tp.form;
	fflush(stderr);
}
