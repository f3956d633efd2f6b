/*
 * Terminal size and the progress line.  The size is asked once, then
 * again only after a SIGWINCH (the handler only sets a flag); a stream
 * that is not a terminal, or a terminal that does not say, is 80x24.
 */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "term.h"

static volatile sig_atomic_t term_resized = 1;

/* SIGWINCH: ask the size again before the next line. */
static void
term_on_winch(int sig)
{
	(void)sig;
	term_resized = 1;
}

/* Follow the terminal's size changes. */
void
term_watch_resize(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = term_on_winch;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGWINCH, &sa, NULL);
}

/* Columns (and rows into *rows) of the terminal on fd. */
int
term_size(int fd, int *rows)
{
	static int cols = TERM_DEFAULT_WIDTH, lines = TERM_DEFAULT_HEIGHT;
	static int asked_fd = -1;
	struct winsize ws;

	if (term_resized || asked_fd != fd) {
		term_resized = 0;
		asked_fd = fd;
		cols = TERM_DEFAULT_WIDTH;
		lines = TERM_DEFAULT_HEIGHT;
		if (isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0) {
			if (ws.ws_col > 0)
				cols = ws.ws_col;
			if (ws.ws_row > 0)
				lines = ws.ws_row;
		}
	}
	if (rows != NULL)
		*rows = lines;
	return (cols);
}

/*
 * The width a table written to fd must fit: the terminal's columns, or 0
 * (no limit) when fd is a file or a pipe, so that what a script reads
 * does not depend on where it ran.
 */
int
term_fit_width(int fd)
{
	return (isatty(fd) ? term_size(fd, NULL) : 0);
}

/*
 * One glyph per region, from empty to full, in at most width glyphs: when
 * they do not fit, each glyph stands for the mean of several regions.
 * used[i] is a region's used fraction, <0 when unknown ('?').  Returns the
 * regions per glyph.
 */
int
term_fold(const double *used, int n, int width, char *buf, size_t len)
{
	static const char levels[] = " .:-=+*#%@";
	double sum;
	size_t out = 0;
	int per, i, j, known;

	if (width < 1)
		width = 1;
	per = n <= width ? 1 : (n + width - 1) / width;
	for (i = 0; i < n && out + 1 < len; i += per) {
		sum = 0;
		known = 0;
		for (j = i; j < n && j < i + per; j++) {
			if (used[j] >= 0) {
				sum += used[j] > 1 ? 1 : used[j];
				known++;
			}
		}
		buf[out++] = known == 0 ? '?' :
		    levels[(int)(9.0 * sum / known + 0.5)];
	}
	if (len > 0)
		buf[out < len ? out : len - 1] = '\0';
	return (per);
}

/*
 * As term_fold, with each run of two or more unknown regions (memory not
 * initialised yet, holes) as a single '?', so that they take no room
 * from the regions that hold memory, and at least min_per regions a
 * glyph (a scale that does not change from line to line).  A glyph never
 * spans a run of unknown regions.  Returns the regions per glyph.
 */
int
term_fold_runs(const double *used, int n, int width, int min_per, char *buf,
    size_t len)
{
	static const char levels[] = " .:-=+*#%@";
	double sum;
	size_t out = 0;
	int per, i, j, known = 0, runs = 0, avail, k;

	for (i = 0; i < n; i = j) {
		for (j = i; j < n && used[j] < 0; j++)
			;
		if (j - i >= 2)
			runs++;
		else if (j == i) {
			known++;
			j++;
		} else
			known += j - i;
	}
	if (width < 1)
		width = 1;
	/* Each run is one glyph and may cut one group short. */
	avail = width - (runs > 0 ? 2 * runs : 0);
	if (avail < 1)
		avail = 1;
	per = known <= avail ? 1 : (known + avail - 1) / avail;
	if (per < min_per)
		per = min_per;
	for (i = 0; i < n && out + 1 < len; ) {
		for (j = i; j < n && used[j] < 0; j++)
			;
		if (j - i >= 2) {
			buf[out++] = '?';
			i = j;
			continue;
		}
		sum = 0;
		k = 0;
		for (j = i; j < n && j < i + per; j++) {
			/* A run of unknown regions ends the glyph. */
			if (j > i && used[j] < 0 && j + 1 < n && used[j + 1] < 0)
				break;
			if (used[j] >= 0) {
				sum += used[j] > 1 ? 1 : used[j];
				k++;
			}
		}
		buf[out++] = k == 0 ? '?' : levels[(int)(9.0 * sum / k + 0.5)];
		i = j;
	}
	if (len > 0)
		buf[out < len ? out : len - 1] = '\0';
	return (per);
}

/* The word of a state. */
static const char *
term_state_name(enum term_state state)
{
	switch (state) {
	case TERM_HOLDING:
		return ("holding");
	case TERM_SETTLING:
		return ("settling");
	default:
		return ("running");
	}
}

/*
 * The regions in at most room columns: "[glyphs]" and, when they are
 * folded, " (N per glyph)"; empty when fewer than TERM_MIN_GLYPHS fit.
 */
static int
term_strip(char *buf, size_t len, int room, const double *used, int n,
    int min_per)
{
	char glyphs[1024], note[32];
	int avail, per;

	buf[0] = '\0';
	avail = room - 2;
	/* The glyphs at the scale in use, runs of unknown ones as one. */
	term_fold_runs(used, n, n > 0 ? n : 1, min_per, glyphs,
	    sizeof glyphs);
	if ((int)strlen(glyphs) > avail || min_per > 1) {
		/* The note's width with the fold it will need. */
		snprintf(note, sizeof note, " (%d per glyph)", n);
		avail -= (int)strlen(note);
	}
	if (avail > (int)sizeof glyphs - 1)
		avail = (int)sizeof glyphs - 1;
	if (n == 0 || avail < (n < TERM_MIN_GLYPHS ? n : TERM_MIN_GLYPHS))
		return (0);
	per = term_fold_runs(used, n, avail, min_per, glyphs, sizeof glyphs);
	if (per > 1)
		snprintf(note, sizeof note, " (%d per glyph)", per);
	else
		note[0] = '\0';
	snprintf(buf, len, "[%s]%s", glyphs, note);
	return (per);
}

/*
 * The text of a plain progress line: the first of these forms that fits
 * in width, so that a narrow log loses the least telling parts first (the
 * workload's name when the phase has its own, then the suite, then an
 * unknown time left, then the phase's name).
 */
static void
term_plain_text(char *text, size_t len, int width,
    const struct term_progress *tp, const char *state, const char *when,
    const char *eta)
{
	char phase[160];
	const char *known = tp->left >= 0 ? eta : "";

	if (strcmp(tp->phase_name, tp->workload) == 0)
		snprintf(phase, sizeof phase, "%s", tp->phase_name);
	else
		snprintf(phase, sizeof phase, "%s (%s)", tp->phase_name,
		    tp->workload);
	snprintf(text, len, "%s rep %d/%d: phase %d/%d %s %s %s%s", tp->suite,
	    tp->rep, tp->nreps, tp->phase, tp->nphases, phase, state, when,
	    eta);
	if ((int)strlen(text) <= width)
		return;
	snprintf(text, len, "%s rep %d/%d: phase %d/%d %s %s %s%s", tp->suite,
	    tp->rep, tp->nreps, tp->phase, tp->nphases, tp->phase_name, state,
	    when, eta);
	if ((int)strlen(text) <= width)
		return;
	snprintf(text, len, "rep %d/%d: phase %d/%d %s %s %s%s", tp->rep,
	    tp->nreps, tp->phase, tp->nphases, tp->phase_name, state, when,
	    eta);
	if ((int)strlen(text) <= width)
		return;
	snprintf(text, len, "rep %d/%d: phase %d/%d %s %s %s%s", tp->rep,
	    tp->nreps, tp->phase, tp->nphases, tp->phase_name, state, when,
	    known);
	if ((int)strlen(text) <= width)
		return;
	snprintf(text, len, "rep %d/%d phase %d/%d %s %s", tp->rep,
	    tp->nreps, tp->phase, tp->nphases, state, when);
}

#define TERM_TTY_FORMS	4

/*
 * Form f of the terminal's progress text, from the most to the least
 * said: with the suite's name, without it ("rep" only when there are
 * repetitions), without the word "phase" (when "rep" needs the room),
 * and last without the phase's name.
 */
static void
term_tty_text(char *text, size_t len, int f, const struct term_progress *tp,
    const char *state, const char *when, const char *eta)
{
	char rep[32];

	snprintf(rep, sizeof rep, "rep %d/%d ", tp->rep, tp->nreps);
	switch (f) {
	case 0:
		snprintf(text, len, "%s %sphase %d/%d %s %s %s%s", tp->suite,
		    rep, tp->phase, tp->nphases, tp->phase_name, state, when,
		    eta);
		break;
	case 1:
		snprintf(text, len, "%sphase %d/%d %s %s %s%s", tp->nreps > 1 ?
		    rep : "", tp->phase, tp->nphases, tp->phase_name, state,
		    when, eta);
		break;
	case 2:
		/* Without "phase" only to make room for "rep r/n". */
		if (tp->nreps <= 1) {
			term_tty_text(text, len, 1, tp, state, when, eta);
			break;
		}
		snprintf(text, len, "%s%d/%d %s %s %s%s", tp->nreps > 1 ? rep :
		    "", tp->phase, tp->nphases, tp->phase_name, state, when,
		    eta);
		break;
	default:
		snprintf(text, len, "%s %sphase %d/%d %s %s%s", tp->suite, rep,
		    tp->phase, tp->nphases, state, when, eta);
		break;
	}
}

/*
 * The progress line in at most width columns.  On a terminal (plain 0):
 * one line, the workload's name left out when the regions need the room,
 * the regions left out when fewer than TERM_MIN_GLYPHS fit, the text cut
 * at the width when even that does not fit.  For a file (plain 1): the
 * phase's name too, and the regions on a second line when they do not fit
 * on the first.
 */
void
term_progress_line(char *buf, size_t len, int width, int plain,
    struct term_progress *tp, const double *used, int n)
{
	char text[512], when[64], eta[32], strip[1200], form[512], one[1200];
	const char *state = term_state_name(tp->state);
	int room, f, per, best, bestper = 0;

	if (width < 1)
		width = 1;
	if (tp->state == TERM_RUNNING)
		snprintf(when, sizeof when, "%.0f%% %.0fs", 100 * tp->progress,
		    tp->elapsed);
	else
		snprintf(when, sizeof when, "%.0fs", tp->elapsed);
	if (tp->left >= 0 && tp->left_in_phase)
		snprintf(eta, sizeof eta, " phase ~%.0fs left", tp->left);
	else if (tp->left >= 0)
		snprintf(eta, sizeof eta, " ~%.0fs left", tp->left);
	else if (tp->state == TERM_RUNNING)
		snprintf(eta, sizeof eta, " time left unknown");
	else
		eta[0] = '\0';

	if (plain) {
		term_plain_text(text, sizeof text, width, tp, state, when,
		    eta);
		room = width - (int)strlen(text) - 9;	/* " regions " */
		tp->per = term_strip(strip, sizeof strip, room, used, n,
		    tp->min_per);
		if (strip[0] != '\0' && (n <= TERM_MIN_GLYPHS ||
		    strstr(strip, "per glyph") == NULL)) {
			snprintf(buf, len, "%s regions %s", text, strip);
			return;
		}
		tp->per = term_strip(strip, sizeof strip, width - 10, used, n,
		    tp->min_per);
		if (strip[0] == '\0')
			snprintf(buf, len, "%.*s", width, text);
		else
			snprintf(buf, len, "%.*s\n  regions %s", width, text,
			    strip);
		return;
	}
	/*
	 * The first form with the regions at one region a glyph (or the
	 * scale already in use), else the first with the regions at all;
	 * the phase's name goes last, it says what is running.
	 */
	best = -1;
	/* A form once shortened stays so: the line does not jump. */
	for (f = tp->min_form > 0 && tp->min_form < TERM_TTY_FORMS - 1 ?
	    tp->min_form : 0; f < TERM_TTY_FORMS; f++) {
		term_tty_text(form, sizeof form, f, tp, state, when, eta);
		room = width - (int)strlen(form) - 1;
		per = term_strip(one, sizeof one, room, used, n, tp->min_per);
		if (one[0] == '\0')
			continue;
		if (best < 0 || (per <= (tp->min_per > 1 ? tp->min_per : 1) &&
		    bestper > per && f < TERM_TTY_FORMS - 1)) {
			best = f;
			bestper = per;
			snprintf(text, sizeof text, "%s", form);
			snprintf(strip, sizeof strip, "%s", one);
		}
	}
	if (best < 0) {
		term_tty_text(text, sizeof text, 1, tp, state, when, eta);
		strip[0] = '\0';
	} else {
		tp->per = bestper;
		tp->form = best;
	}
	if ((int)strlen(text) > width) {
		/* A narrow terminal: where the run is, and its state. */
		snprintf(text, sizeof text, "rep %d/%d phase %d/%d %s %s",
		    tp->rep, tp->nreps, tp->phase, tp->nphases, state, when);
		strip[0] = '\0';
	}
	if (strip[0] == '\0')
		snprintf(buf, len, "%.*s", width, text);
	else
		snprintf(buf, len, "%s %s", text, strip);
}
