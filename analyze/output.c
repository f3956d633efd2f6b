/*
 * Output helpers.  Files are replaced through atomic-file.h, so a reader
 * never sees half a summary and an interrupted analyze leaves the old one
 * in place.
 */
#include "config.h"

#include <csv.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "output.h"

/*
 * Write one CSV field, quoted (by libcsv) only when it has to be.  A text
 * that a spreadsheet would run as a formula (first character = + - @, tab
 * or CR) gets a ' in front, as OWASP's CSV injection advice says; numbers
 * go through output_csv_number and are never changed.
 */
void
output_csv_field(FILE *f, const char *s)
{
	char *quoted = NULL;
	size_t len;

	if (s[0] != '\0' && strchr("=+-@\t\r", s[0]) != NULL)
		s = quoted = xasprintf("'%s", s);
	len = strlen(s);
	if (strpbrk(s, ",\"\r\n") != NULL || (len > 0 && (s[0] == ' ' ||
	    s[len - 1] == ' ' || s[0] == '\t' || s[len - 1] == '\t')))
		csv_fwrite(f, s, len);
	else
		fputs(s, f);
	free(quoted);
}

/* fopencookie write: escape control characters on the way to the stream. */
static ssize_t
output_escape_write(void *cookie, const char *buf, size_t len)
{
	FILE *under = cookie;
	unsigned char c;
	size_t i;

	for (i = 0; i < len; i++) {
		c = (unsigned char)buf[i];
		if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
			fprintf(under, "\\x%02x", c);
		else
			putc(c, under);
	}
	/* Flushed here: at exit, stdio may flush under before this stream. */
	if (fflush(under) != 0 || ferror(under))
		return (-1);
	return ((ssize_t)len);
}

/*
 * A stream that shows control characters written to it as \xNN on
 * under; closing it leaves under open.
 */
FILE *
output_escape_open(FILE *under)
{
	static const cookie_io_functions_t io = {
		.write = output_escape_write
	};

	return (fopencookie(under, "w", io));
}

/*
 * From now on, stdout shows control characters from names in a results
 * directory (labels, phases, workloads) as \xNN, so that nothing read from
 * a file can drive the terminal.
 */
void
output_escape_stdout(void)
{
	FILE *f;

	if ((f = output_escape_open(stdout)) == NULL)
		die_errno(RB_EXIT_ENV, "fopencookie");
	stdout = f;
}

/* Write a number; NAN (unknown) is an empty field. */
void
output_csv_number(FILE *f, double v)
{
	if (isnan(v))
		return;
	if (isinf(v))
		fputs(v > 0 ? "inf" : "-inf", f);
	else if (v == floor(v) && fabs(v) < 1e15)
		fprintf(f, "%.0f", v);
	else
		fprintf(f, "%.10g", v);
}

/* Open PATH for replacement: writes go to a temporary file beside it. */
int
output_open(struct output_file *of, const char *path, char **cause)
{
	int rc;

	if ((rc = atomic_file_open(&of->af, path, cause)) != 0) {
		of->f = NULL;
		return (rc);
	}
	of->f = atomic_file_stdio(&of->af);
	return (0);
}

/* Flush, fsync and rename into place. */
int
output_commit(struct output_file *of, char **cause)
{
	of->f = NULL;
	return (atomic_file_commit(&of->af, cause));
}

/* Drop a file being written. */
void
output_abort(struct output_file *of)
{
	if (of->f != NULL)
		atomic_file_abort(&of->af);
	of->f = NULL;
}

/*
 * Write text escaped for XML (JUnit) and HTML attributes and character
 * data; control characters XML 1.0 cannot carry become '?'.
 */
void
output_xml_escape(FILE *f, const char *s)
{
	unsigned char c;

	for (; *s != '\0'; s++) {
		c = (unsigned char)*s;
		switch (c) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&apos;", f);
			break;
		case '\n':
			fputs("&#10;", f);
			break;
		case '\t':
			fputs("&#9;", f);
			break;
		default:
			/* XML 1.0 cannot carry other control characters. */
			if (c < 0x20 || c == 0x7f)
				fputc('?', f);
			else
				fputc(c, f);
		}
	}
}
