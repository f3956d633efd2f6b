/*
 * Output helpers.  Files are written to a temporary name in the same
 * directory, flushed, fsync()ed and renamed, so a reader never sees half a
 * summary and an interrupted analyze leaves the old one in place.
 */
#include "config.h"

#include <csv.h>
#include <errno.h>
#include <sys/stat.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "output.h"

/* Write one CSV field, quoted (by libcsv) only when it has to be. */
void
output_csv_field(FILE *f, const char *s)
{
	size_t len = strlen(s);

	if (strpbrk(s, ",\"\r\n") != NULL || (len > 0 && (s[0] == ' ' ||
	    s[len - 1] == ' ' || s[0] == '\t' || s[len - 1] == '\t')))
		csv_fwrite(f, s, len);
	else
		fputs(s, f);
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
	mode_t mask;
	int fd;

	of->path = xstrdup(path);
	of->tmp = xasprintf("%s.tmp.XXXXXX", path);
	if ((fd = mkstemp(of->tmp)) == -1) {
		int rc = fail_with(cause, RB_EXIT_ENV, "%s: cannot create: %s",
		    of->tmp, strerror(errno));

		free(of->tmp);
		free(of->path);
		of->tmp = of->path = NULL;
		return (rc);
	}
	/* mkstemp makes 0600; results are shared like any file the user
	 * creates. */
	mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	if ((of->f = fdopen(fd, "w")) == NULL)
		die_errno(RB_EXIT_ENV, "fdopen %s", of->tmp);
	return (0);
}

/* Flush, fsync and rename into place. */
int
output_commit(struct output_file *of, char **cause)
{
	int rc = 0;

	if (fflush(of->f) != 0 || ferror(of->f) || fsync(fileno(of->f)) != 0)
		rc = fail_with(cause, RB_EXIT_ENV, "%s: write failed: %s",
		    of->tmp, strerror(errno));
	if (fclose(of->f) != 0 && rc == 0)
		rc = fail_with(cause, RB_EXIT_ENV, "%s: close failed: %s",
		    of->tmp, strerror(errno));
	of->f = NULL;
	if (rc == 0 && rename(of->tmp, of->path) != 0)
		rc = fail_with(cause, RB_EXIT_ENV, "%s: rename failed: %s",
		    of->path, strerror(errno));
	if (rc != 0)
		unlink(of->tmp);
	free(of->tmp);
	free(of->path);
	of->tmp = of->path = NULL;
	return (rc);
}

/* Drop a file being written. */
void
output_abort(struct output_file *of)
{
	if (of->f != NULL)
		fclose(of->f);
	if (of->tmp != NULL)
		unlink(of->tmp);
	free(of->tmp);
	free(of->path);
	of->f = NULL;
	of->tmp = of->path = NULL;
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
