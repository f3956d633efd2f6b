/*
 * A tiny TAP producer for the C unit tests, run by Automake's tap-driver.
 * Tests that cannot run here call tap_skip_all(), which prints
 * "1..0 # SKIP reason" (exit 77 would count as an error).
 */
#ifndef RB_TAP_H
#define RB_TAP_H

#include <ftw.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int tap_count;
static int tap_failed;

/* Report one test result; returns cond so callers can chain diagnostics. */
static inline int __attribute__((format(printf, 2, 3)))
tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", cond ? "ok" : "not ok", ++tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	if (!cond)
		tap_failed++;
	return (cond);
}

/* Print a diagnostic line. */
static inline void __attribute__((format(printf, 1, 2)))
tap_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* Skip the whole test program. */
static inline void __attribute__((noreturn))
tap_skip_all(const char *reason)
{
	printf("1..0 # SKIP %s\n", reason);
	exit(0);
}

/* Compare two unsigned integers. */
#define tap_eq_u64(got, want, ...) do {					\
	uint64_t tap_g_ = (uint64_t)(got), tap_w_ = (uint64_t)(want);	\
	if (!tap_ok(tap_g_ == tap_w_, __VA_ARGS__))			\
		tap_diag("got %" PRIu64 ", want %" PRIu64, tap_g_, tap_w_); \
} while (0)

/* Compare two strings. */
#define tap_eq_str(got, want, ...) do {					\
	const char *tap_g_ = (got), *tap_w_ = (want);			\
	if (!tap_ok(tap_g_ != NULL && strcmp(tap_g_, tap_w_) == 0,	\
	    __VA_ARGS__))						\
		tap_diag("got '%s', want '%s'", tap_g_ ? tap_g_ : "(null)", \
		    tap_w_);						\
} while (0)

/* Compare two doubles within an absolute tolerance. */
#define tap_near(got, want, tol, ...) do {				\
	double tap_g_ = (got), tap_w_ = (want);				\
	if (!tap_ok(fabs(tap_g_ - tap_w_) <= (tol), __VA_ARGS__))	\
		tap_diag("got %.10g, want %.10g (tolerance %g)", tap_g_,	\
		    tap_w_, (double)(tol));				\
} while (0)

#define TAP_SCRATCH_MAX	8

/* The scratch directories made, and the process that made them. */
static char tap_scratch[TAP_SCRATCH_MAX][4096];
static int tap_nscratch;
static pid_t tap_scratch_owner;

/* nftw callback of the scratch removal. */
static inline int
tap_scratch_unlink(const char *path, const struct stat *st, int flag,
    struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return (flag == FTW_DP ? rmdir(path) : unlink(path));
}

/*
 * At exit of the process that made them: remove the scratch directories,
 * or keep them (named) when a test failed or RB_KEEP_WORK is set, as the
 * shell tests keep their work directory.
 */
static inline void
tap_scratch_cleanup(void)
{
	const char *keep = getenv("RB_KEEP_WORK");
	int i;

	if (getpid() != tap_scratch_owner)
		return;
	for (i = 0; i < tap_nscratch; i++) {
		if (tap_failed > 0 || (keep != NULL && *keep != '\0'))
			printf("# scratch directory kept: %s\n", tap_scratch[i]);
		else if (nftw(tap_scratch[i], tap_scratch_unlink, 16,
		    FTW_DEPTH | FTW_PHYS) != 0)
			printf("# could not remove %s\n", tap_scratch[i]);
	}
}

/*
 * A private scratch directory, $TMPDIR/NAME.XXXXXX (/tmp without TMPDIR),
 * removed with everything in it when the test ends; the whole test is
 * skipped when it cannot be made.  Returns its path (valid to the end).
 */
static inline const char *
tap_scratch_dir(const char *name)
{
	const char *tmp = getenv("TMPDIR");
	char *dir;

	if (tap_nscratch == TAP_SCRATCH_MAX)
		tap_skip_all("too many scratch directories");
	dir = tap_scratch[tap_nscratch];
	if ((size_t)snprintf(dir, sizeof tap_scratch[0], "%s/%s.XXXXXX",
	    tmp != NULL && *tmp != '\0' ? tmp : "/tmp", name) >=
	    sizeof tap_scratch[0] - 64)
		tap_skip_all("TMPDIR is too long for a scratch directory");
	if (mkdtemp(dir) == NULL)
		tap_skip_all("cannot make a scratch directory in TMPDIR");
	if (tap_nscratch++ == 0) {
		tap_scratch_owner = getpid();
		atexit(tap_scratch_cleanup);
	}
	return (dir);
}

/* Print the plan and return the exit status. */
static inline int
tap_done(void)
{
	printf("1..%d\n", tap_count);
	return (tap_failed > 0 ? 1 : 0);
}

#endif
