/*
 * Unit parsing and formatting.  Sizes use binary multiples (K = 1024) as the
 * kernel and numactl do; a percentage is resolved later against MemAvailable
 * by whoever knows what the size is for.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "units.h"

/* Parse a decimal unsigned integer in [min, max]. */
int
units_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out,
    char **cause)
{
	unsigned long long v;
	char *end;

	if (s == NULL || *s == '\0')
		return (fail_with(cause, RB_EXIT_INPUT, "empty number"));
	if (!isdigit((unsigned char)*s))
		return (fail_with(cause, RB_EXIT_INPUT,
		    "'%s' is not a non-negative integer", s));
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return (fail_with(cause, RB_EXIT_INPUT,
		    "'%s' is too large", s));
	if (*end != '\0')
		return (fail_with(cause, RB_EXIT_INPUT,
		    "'%s' is not an integer", s));
	if (v < min || v > max)
		return (fail_with(cause, RB_EXIT_INPUT,
		    "%s is out of range (%" PRIu64 " to %" PRIu64 ")", s, min,
		    max));
	*out = v;
	return (0);
}

/* Parse a decimal signed integer in [min, max]. */
int
units_parse_long(const char *s, long min, long max, long *out, char **cause)
{
	long v;
	char *end;

	if (s == NULL || *s == '\0')
		return (fail_with(cause, RB_EXIT_INPUT, "empty number"));
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno == ERANGE)
		return (fail_with(cause, RB_EXIT_INPUT,
		    "'%s' is out of range", s));
	if (end == s || *end != '\0' || isspace((unsigned char)*s))
		return (fail_with(cause, RB_EXIT_INPUT,
		    "'%s' is not an integer", s));
	if (v < min || v > max)
		return (fail_with(cause, RB_EXIT_INPUT,
		    "%s is out of range (%ld to %ld)", s, min, max));
	*out = v;
	return (0);
}

/* Parse a non-negative decimal number and return where it ends. */
static int
parse_number(const char *s, double *v, char **end, char **cause)
{
	if (s == NULL || *s == '\0')
		return (fail_with(cause, RB_EXIT_INPUT, "empty value"));
	if (!isdigit((unsigned char)*s) && *s != '.')
		return (fail_with(cause, RB_EXIT_INPUT,
		    "'%s' does not start with a number", s));
	errno = 0;
	*v = strtod(s, end);
	if (errno == ERANGE || !isfinite(*v) || *end == s)
		return (fail_with(cause, RB_EXIT_INPUT,
		    "'%s' is not a usable number", s));
	return (0);
}

/* Parse a size such as 4096, 512K, 512M, 1.5G, 2T (binary multiples). */
int
units_parse_size(const char *s, uint64_t *bytes, char **cause)
{
	double v, mult = 1;
	char *end;
	int rc;

	if ((rc = parse_number(s, &v, &end, cause)) != 0)
		return (rc);
	switch (toupper((unsigned char)*end)) {
	case '\0':
		break;
	case 'B':
		end++;
		break;
	case 'K':
		mult = 1024.0;
		end++;
		break;
	case 'M':
		mult = 1024.0 * 1024;
		end++;
		break;
	case 'G':
		mult = 1024.0 * 1024 * 1024;
		end++;
		break;
	case 'T':
		mult = 1024.0 * 1024 * 1024 * 1024;
		end++;
		break;
	default:
		return (fail_with(cause, RB_EXIT_INPUT,
		    "'%s': unknown size unit (use K, M, G or T)", s));
	}
	if (mult > 1 && (strcasecmp(end, "iB") == 0 || strcasecmp(end, "B") ==
	    0))
		end += strlen(end);
	if (*end != '\0')
		return (fail_with(cause, RB_EXIT_INPUT,
		    "'%s': unexpected '%s' after the size", s, end));
	v *= mult;
	if (v >= 18446744073709551615.0)
		return (fail_with(cause, RB_EXIT_INPUT,
		    "'%s' is too large", s));
	*bytes = (uint64_t)v;
	return (0);
}

/*
 * Parse a size or a percentage (of MemAvailable, resolved by the caller).
 * Exactly one of *bytes and *pct is non-zero afterwards.
 */
int
units_parse_size_pct(const char *s, uint64_t *bytes, double *pct,
    char **cause)
{
	size_t len = s != NULL ? strlen(s) : 0;
	double v;
	char *end;
	int rc;

	if (len > 0 && s[len - 1] == '%') {
		if ((rc = parse_number(s, &v, &end, cause)) != 0)
			return (rc);
		if (end != s + len - 1)
			return (fail_with(cause, RB_EXIT_INPUT,
			    "'%s' is not a percentage", s));
		if (v <= 0 || v > 100)
			return (fail_with(cause, RB_EXIT_INPUT,
			    "'%s': a percentage must be above 0 and at most "
			    "100", s));
		*pct = v;
		*bytes = 0;
		return (0);
	}
	*pct = 0;
	return (units_parse_size(s, bytes, cause));
}

/* Parse a duration: 250ms, 30s, 2m, 1h, 500us, 10ns; a bare number is s. */
int
units_parse_duration(const char *s, uint64_t *ns, char **cause)
{
	static const struct {
		const char *suffix;
		double mult;
	} units[] = {
		{ "", 1e9 }, { "s", 1e9 }, { "ms", 1e6 }, { "us", 1e3 },
		{ "ns", 1 }, { "m", 60e9 }, { "min", 60e9 }, { "h", 3600e9 },
	};
	double v;
	char *end;
	size_t i;
	int rc;

	if ((rc = parse_number(s, &v, &end, cause)) != 0)
		return (rc);
	for (i = 0; i < sizeof units / sizeof units[0]; i++) {
		if (strcmp(end, units[i].suffix) != 0)
			continue;
		v *= units[i].mult;
		if (v >= 1.8e19)
			return (fail_with(cause, RB_EXIT_INPUT,
			    "'%s' is too long", s));
		*ns = (uint64_t)llround(v);
		return (0);
	}
	return (fail_with(cause, RB_EXIT_INPUT,
	    "'%s': unknown time unit (use ns, us, ms, s, m or h)", s));
}

/* Format a byte count with the largest binary unit that keeps it short. */
void
units_format_size(char *buf, size_t len, uint64_t bytes)
{
	static const char suffix[] = "KMGTPE";
	double v = (double)bytes;
	int i = -1;

	while (v >= 1024 && i < 5) {
		v /= 1024;
		i++;
	}
	if (i < 0)
		snprintf(buf, len, "%" PRIu64 "B", bytes);
	else if (v == (double)(uint64_t)v)
		snprintf(buf, len, "%.0f%c", v, suffix[i]);
	else
		snprintf(buf, len, "%.1f%c", v, suffix[i]);
}

/* Format a duration in the most natural unit. */
void
units_format_duration(char *buf, size_t len, uint64_t ns)
{
	if (ns >= 3600 * NS_PER_SEC && ns % (3600 * NS_PER_SEC) == 0)
		snprintf(buf, len, "%" PRIu64 "h",
		    (uint64_t)(ns / (3600 * NS_PER_SEC)));
	else if (ns >= 60 * NS_PER_SEC && ns % (60 * NS_PER_SEC) == 0)
		snprintf(buf, len, "%" PRIu64 "m", (uint64_t)(ns / (60 * NS_PER_SEC)));
	else if (ns >= NS_PER_SEC)
		snprintf(buf, len, "%.3gs", (double)ns / 1e9);
	else if (ns >= 1000000)
		snprintf(buf, len, "%.3gms", (double)ns / 1e6);
	else
		snprintf(buf, len, "%.3gus", (double)ns / 1e3);
}

/* Nanoseconds from CLOCK_MONOTONIC. */
uint64_t
units_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * NS_PER_SEC + (uint64_t)ts.tv_nsec);
}

/* Nanoseconds from CLOCK_REALTIME. */
uint64_t
units_realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ((uint64_t)ts.tv_sec * NS_PER_SEC + (uint64_t)ts.tv_nsec);
}

/* A field of /proc/meminfo in bytes, or 0 when it can't be read. */
static uint64_t
units_meminfo_bytes(const char *key)
{
	char line[256];
	unsigned long long kb;
	uint64_t bytes = 0;
	size_t len = strlen(key);
	FILE *f;

	if ((f = fopen("/proc/meminfo", "re")) == NULL)
		return (0);
	while (fgets(line, sizeof line, f) != NULL) {
		if (strncmp(line, key, len) == 0 && line[len] == ':' &&
		    sscanf(line + len + 1, "%llu kB", &kb) == 1) {
			bytes = (uint64_t)kb * 1024;
			break;
		}
	}
	fclose(f);
	return (bytes);
}

/* MemAvailable from /proc/meminfo in bytes, or 0 when it can't be read. */
uint64_t
units_mem_available(void)
{
	return (units_meminfo_bytes("MemAvailable"));
}

/* MemTotal from /proc/meminfo in bytes, or 0 when it can't be read. */
uint64_t
units_mem_total(void)
{
	return (units_meminfo_bytes("MemTotal"));
}
