/*
 * Numbers with units as users type them: sizes (512M, 1.5G, 25%), durations
 * (100ms, 30s, 2m) and plain integers with ranges.  Every parser rejects
 * trailing garbage, overflow and negative values with a cause string.
 */
#ifndef RB_UNITS_H
#define RB_UNITS_H

#include <stdint.h>
#include <stddef.h>

#define NS_PER_SEC	1000000000ULL

int	 units_parse_u64(const char *s, uint64_t min, uint64_t max,
	     uint64_t *out, char **cause);
int	 units_parse_long(const char *s, long min, long max, long *out,
	     char **cause);
int	 units_parse_size(const char *s, uint64_t *bytes, char **cause);
int	 units_parse_size_pct(const char *s, uint64_t *bytes, double *pct,
	     char **cause);
int	 units_parse_duration(const char *s, uint64_t *ns, char **cause);
void	 units_format_size(char *buf, size_t len, uint64_t bytes);
void	 units_format_duration(char *buf, size_t len, uint64_t ns);
uint64_t units_now_ns(void);
uint64_t units_realtime_ns(void);
uint64_t units_mem_available(void);
uint64_t units_mem_total(void);

#endif
