/*
 * A tiny TAP producer for the C unit tests, run by Automake's tap-driver.
 * Tests that cannot run here call tap_skip_all(), which prints
 * "1..0 # SKIP reason" (exit 77 would count as an error).
 */
#ifndef RB_TAP_H
#define RB_TAP_H

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Print the plan and return the exit status. */
static inline int
tap_done(void)
{
	printf("1..%d\n", tap_count);
	return (tap_failed > 0 ? 1 : 0);
}

#endif
