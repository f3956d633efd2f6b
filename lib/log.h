/*
 * Messages, fatal errors and allocation wrappers shared by every part of
 * regionbench.  Library code returns a negative exit code plus a caller-freed
 * cause string; only command code calls die().
 */
#ifndef RB_LOG_H
#define RB_LOG_H

#include <stdarg.h>
#include <stddef.h>

/* Exit codes of the program (docs/architecture.md section 7). */
enum rb_exit {
	RB_EXIT_OK = 0,
	RB_EXIT_FAIL = 1,	/* gate found a regression, verify found damage */
	RB_EXIT_INPUT = 2,	/* usage or input error */
	RB_EXIT_ENV = 3,	/* environment can't run it */
	RB_EXIT_NODATA = 4,	/* verify: stopped before the first sample */
	RB_EXIT_INTR = 130	/* interrupted */
};

#define RB_PRINTF(f, a) __attribute__((format(printf, f, a)))

void	 log_set_program(const char *name);
const char *log_program(void);
void	 log_set_quiet(int quiet);
int	 log_is_quiet(void);
void	 log_warnx(const char *fmt, ...) RB_PRINTF(1, 2);
void	 log_infox(const char *fmt, ...) RB_PRINTF(1, 2);
void	 log_errorx(const char *fmt, ...) RB_PRINTF(1, 2);
__attribute__((noreturn)) void die(int code, const char *fmt, ...)
	RB_PRINTF(2, 3);
__attribute__((noreturn)) void die_errno(int code, const char *fmt, ...)
	RB_PRINTF(2, 3);

void	*xmalloc(size_t size);
void	*xcalloc(size_t nmemb, size_t size);
void	*xreallocarray(void *ptr, size_t nmemb, size_t size);
char	*xstrdup(const char *s);
char	*xstrndup(const char *s, size_t n);
char	*xasprintf(const char *fmt, ...) RB_PRINTF(1, 2);
char	*xvasprintf(const char *fmt, va_list ap);

/* Set *cause (if cause is not NULL) and return -code: the library idiom. */
int	 fail_with(char **cause, int code, const char *fmt, ...)
	RB_PRINTF(3, 4);

#endif
