/*
 * Messages go to stderr prefixed with the program name so that a line in a
 * CI log says who printed it.  Allocation failures are not recoverable in a
 * benchmark, so the x* wrappers die with exit status 3.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "log.h"

static const char *log_name = "regionbench";
static int log_quiet;

/* Set the name printed in front of every message. */
void
log_set_program(const char *name)
{
	const char *slash = strrchr(name, '/');

	log_name = slash != NULL ? slash + 1 : name;
}

/* Return the name printed in front of every message. */
const char *
log_program(void)
{
	return (log_name);
}

/* Is the program quiet (--quiet)? */
int
log_is_quiet(void)
{
	return (log_quiet);
}

/* Silence informational messages (warnings and errors still print). */
void
log_set_quiet(int quiet)
{
	log_quiet = quiet;
}

/*
 * Copy src to dst (of len bytes) with control characters but newline and
 * tab as \xNN: messages quote names read from files, which must not drive
 * the terminal.
 */
static void
log_escape(char *dst, size_t len, const char *src)
{
	unsigned char c;
	size_t o = 0;

	for (; *src != '\0' && o + 5 < len; src++) {
		c = (unsigned char)*src;
		if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
			o += (size_t)snprintf(dst + o, len - o, "\\x%02x", c);
		else
			dst[o++] = (char)c;
	}
	dst[o] = '\0';
}

/* The columns of the terminal on stderr, 0 when it is not one. */
static int
log_width(void)
{
	struct winsize ws;

	if (!isatty(STDERR_FILENO) ||
	    ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) != 0)
		return (0);
	return (ws.ws_col);
}

/*
 * Break the lines of a message (in place, at blanks) so that none passes
 * width columns, continuation lines indented by two; col is where the
 * message starts.  A word longer than a line stays whole.
 */
static void
log_wrap(char *dst, size_t len, const char *src, int col, int width)
{
	const char *word;
	size_t o = 0, n;

	while (*src != '\0' && o + 4 < len) {
		if (*src == '\n') {
			dst[o++] = *src++;
			col = 0;
			continue;
		}
		if (*src == ' ') {
			for (word = src; *word == ' '; word++)
				;
			for (n = 0; word[n] != '\0' && word[n] != ' ' &&
			    word[n] != '\n'; n++)
				;
			if (col > 2 && col + (int)(word - src) +
			    (int)n > width) {
				dst[o++] = '\n';
				dst[o++] = ' ';
				dst[o++] = ' ';
				col = 2;
				src = word;
				continue;
			}
		}
		/* UTF-8 continuation bytes take no column. */
		if (((unsigned char)*src & 0xc0) != 0x80)
			col++;
		dst[o++] = *src++;
	}
	dst[o] = '\0';
}

/*
 * Print one message line with a prefix; on a terminal, broken between
 * words to fit its width (a file or a pipe gets it on one line).
 */
static void
log_vprint(const char *kind, const char *fmt, va_list ap)
{
	char raw[4096], line[4096], prefix[128];
	int width;

	vsnprintf(raw, sizeof raw, fmt, ap);
	log_escape(line, sizeof line, raw);
	if (kind != NULL)
		snprintf(prefix, sizeof prefix, "%s: %s: ", log_name, kind);
	else
		snprintf(prefix, sizeof prefix, "%s: ", log_name);
	if ((width = log_width()) > 0) {
		log_wrap(raw, sizeof raw, line, (int)strlen(prefix), width);
		fprintf(stderr, "%s%s\n", prefix, raw);
	} else
		fprintf(stderr, "%s%s\n", prefix, line);
	fflush(stderr);
}

/* Print a warning. */
void
log_warnx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vprint("warning", fmt, ap);
	va_end(ap);
}

/* Print an informational message unless quiet. */
void
log_infox(const char *fmt, ...)
{
	va_list ap;

	if (log_quiet)
		return;
	va_start(ap, fmt);
	log_vprint(NULL, fmt, ap);
	va_end(ap);
}

/* Print an error without exiting. */
void
log_errorx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vprint("error", fmt, ap);
	va_end(ap);
}

/* Print an error and exit with the given code. */
void
die(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vprint("error", fmt, ap);
	va_end(ap);
	exit(code);
}

/* Print an error with strerror(errno) appended and exit. */
void
die_errno(int code, const char *fmt, ...)
{
	char raw[4096], line[4096];
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(raw, sizeof raw, fmt, ap);
	va_end(ap);
	log_escape(line, sizeof line, raw);
	fprintf(stderr, "%s: error: %s: %s\n", log_name, line,
	    strerror(saved));
	exit(code);
}

/* Die because memory ran out. */
static void
out_of_memory(size_t size)
{
	die(RB_EXIT_ENV, "out of memory allocating %zu bytes", size);
}

/* Allocate or die. */
void *
xmalloc(size_t size)
{
	void *p = malloc(size == 0 ? 1 : size);

	if (p == NULL)
		out_of_memory(size);
	return (p);
}

/* Allocate zeroed memory or die. */
void *
xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb == 0 ? 1 : nmemb, size == 0 ? 1 : size);

	if (p == NULL)
		out_of_memory(nmemb * size);
	return (p);
}

/* Resize an array, checking the multiplication, or die. */
void *
xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	void *p;

	if (size != 0 && nmemb > ((size_t)-1) / size)
		out_of_memory((size_t)-1);
	p = realloc(ptr, nmemb * size == 0 ? 1 : nmemb * size);
	if (p == NULL)
		out_of_memory(nmemb * size);
	return (p);
}

/* Duplicate a string or die. */
char *
xstrdup(const char *s)
{
	char *p = strdup(s);

	if (p == NULL)
		out_of_memory(strlen(s) + 1);
	return (p);
}

/* Duplicate at most n bytes of a string or die. */
char *
xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (p == NULL)
		out_of_memory(n + 1);
	return (p);
}

/* Format into a new string or die. */
char *
xvasprintf(const char *fmt, va_list ap)
{
	char *p;

	if (vasprintf(&p, fmt, ap) < 0)
		out_of_memory(strlen(fmt));
	return (p);
}

/* Format into a new string or die. */
char *
xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	p = xvasprintf(fmt, ap);
	va_end(ap);
	return (p);
}

/* Fill in a cause string and return the negated exit code. */
int
fail_with(char **cause, int code, const char *fmt, ...)
{
	va_list ap;

	if (cause != NULL) {
		va_start(ap, fmt);
		*cause = xvasprintf(fmt, ap);
		va_end(ap);
	}
	return (-code);
}
