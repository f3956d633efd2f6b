/*
 * Unit tests for lib/units.c: sizes, durations and ranges, including
 * every way a user can mistype them.  The option tables are in t-opt.c.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "log.h"
#include "tap.h"
#include "units.h"

/* Size and duration parsing. */
static void
test_units(void)
{
	uint64_t v = 0;
	double pct = 0;
	char *cause = NULL;

	tap_ok(units_parse_size("512M", &v, NULL) == 0 && v == 512ULL << 20,
	    "512M");
	tap_ok(units_parse_size("1.5G", &v, NULL) == 0 &&
	    v == 3ULL << 29, "1.5G");
	tap_ok(units_parse_size("4096", &v, NULL) == 0 && v == 4096, "4096");
	tap_ok(units_parse_size("2GiB", &v, NULL) == 0 && v == 2ULL << 30,
	    "2GiB");
	tap_ok(units_parse_size("12X", &v, &cause) == -RB_EXIT_INPUT,
	    "unknown unit refused");
	tap_ok(cause != NULL && strstr(cause, "unit") != NULL,
	    "cause names the unit problem");
	free(cause);
	cause = NULL;
	tap_ok(units_parse_size("-5M", &v, NULL) < 0, "negative size refused");
	tap_ok(units_parse_size("", &v, NULL) < 0, "empty size refused");
	tap_ok(units_parse_size("99999999999T", &v, NULL) < 0,
	    "overflowing size refused");
	tap_ok(units_parse_size_pct("25%", &v, &pct, NULL) == 0 && pct == 25,
	    "25%% is a percentage");
	tap_ok(units_parse_size_pct("150%", &v, &pct, NULL) < 0,
	    "150%% refused");
	tap_ok(units_parse_duration("100ms", &v, NULL) == 0 &&
	    v == 100000000ULL, "100ms");
	tap_ok(units_parse_duration("2m", &v, NULL) == 0 &&
	    v == 120 * NS_PER_SEC, "2m");
	tap_ok(units_parse_duration("30", &v, NULL) == 0 &&
	    v == 30 * NS_PER_SEC, "bare number is seconds");
	tap_ok(units_parse_duration("1fortnight", &v, NULL) < 0,
	    "unknown time unit refused");
	tap_ok(units_parse_u64("18446744073709551616", 0, UINT64_MAX, &v,
	    NULL) < 0, "u64 overflow refused");
	tap_ok(units_parse_u64("-1", 0, UINT64_MAX, &v, NULL) < 0,
	    "negative u64 refused");
}

int
main(void)
{
	test_units();
	return (tap_done());
}
