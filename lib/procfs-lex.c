/*
 * Tokenising /proc text for the parsers.  The whole buffer is checked once
 * for NUL bytes and carriage returns (cheap memchr passes) so that the
 * per-line code only has to look at the tokens it needs; lines that a
 * parser skips are never scanned byte by byte.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "procfs-lex.h"

/* Line number (1-based) of the byte at pos. */
static int
procfs_lex_line_of(const char *buf, const char *pos)
{
	const char *p = buf;
	int n = 1;

	while ((p = memchr(p, '\n', pos - p)) != NULL) {
		n++;
		p++;
	}
	return (n);
}

/* Start reading buf; refuses NUL bytes and CRLF text up front. */
int
procfs_lex_init(struct procfs_lex *lx, const char *path, const char *buf,
    size_t len, char **cause)
{
	const char *bad;

	memset(lx, 0, sizeof *lx);
	lx->path = path;
	lx->next = buf;
	lx->end = buf + len;
	lx->cause = cause;
	if ((bad = memchr(buf, '\0', len)) != NULL)
		return (procfs_lex_fail_at(lx, procfs_lex_line_of(buf, bad),
		    "expected text, found a NUL byte (binary data?)"));
	if ((bad = memchr(buf, '\r', len)) != NULL)
		return (procfs_lex_fail_at(lx, procfs_lex_line_of(buf, bad),
		    "expected lines ending in LF, found a carriage return "
		    "(CRLF text?)"));
	return (0);
}

/* Move to the next line: 1 when there is one, 0 at the end, <0 error. */
int
procfs_lex_next(struct procfs_lex *lx)
{
	const char *eol;

	if (lx->next >= lx->end)
		return (0);
	lx->lineno++;
	lx->line = lx->p = lx->next;
	eol = memchr(lx->line, '\n', lx->end - lx->line);
	if (eol == NULL) {
		lx->eol = lx->end;
		if (lx->end - lx->line > PROCFS_MAX_LINE)
			goto toolong;
		return (procfs_lex_fail(lx, "expected a newline at the end of "
		    "the last line, found none (file truncated mid-line?)"));
	}
	lx->eol = eol;
	if (eol - lx->line > PROCFS_MAX_LINE)
		goto toolong;
	lx->next = eol + 1;
	return (1);

toolong:
	return (procfs_lex_fail(lx, "expected a line of at most %d bytes, "
	    "found one of %zu bytes", PROCFS_MAX_LINE,
	    (size_t)(lx->eol - lx->line)));
}

/* Fail with "PATH:LINE: message" for line lineno, from a va_list. */
static int
procfs_lex_vfail(struct procfs_lex *lx, int lineno, const char *fmt,
    va_list ap)
{
	char *msg;
	int r;

	msg = xvasprintf(fmt, ap);
	r = fail_with(lx->cause, RB_EXIT_INPUT, "%s:%d: %s", lx->path,
	    lineno, msg);
	free(msg);
	return (r);
}

/* Fail with "PATH:LINE: message" for a given line. */
int
procfs_lex_fail_at(struct procfs_lex *lx, int lineno, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = procfs_lex_vfail(lx, lineno, fmt, ap);
	va_end(ap);
	return (r);
}

/* Fail with "PATH:LINE: message" for the current line. */
int
procfs_lex_fail(struct procfs_lex *lx, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = procfs_lex_vfail(lx, lx->lineno == 0 ? 1 : lx->lineno, fmt, ap);
	va_end(ap);
	return (r);
}

/*
 * Fail with "expected WHAT, found X" where X quotes the token at the cursor
 * (shortened, with unprintable bytes escaped) or says the line ended.
 */
int
procfs_lex_expect(struct procfs_lex *lx, const char *what)
{
	char found[80];
	const char *p;
	size_t n = 0;

	if (lx->line == NULL)
		return (procfs_lex_fail(lx, "expected %s, found an empty file",
		    what));
	procfs_lex_blank(lx);
	if (lx->p >= lx->eol)
		return (procfs_lex_fail(lx, "expected %s, found the end of the "
		    "line", what));
	found[n++] = '\'';
	for (p = lx->p; p < lx->eol && *p != ' ' && *p != '\t' &&
	    n < sizeof found - 8; p++) {
		if (*p >= 0x20 && *p < 0x7f)
			found[n++] = *p;
		else
			n += snprintf(found + n, sizeof found - n, "\\x%02x",
			    (unsigned char)*p);
	}
	if (p < lx->eol && *p != ' ' && *p != '\t')
		n += snprintf(found + n, sizeof found - n, "...");
	found[n++] = '\'';
	found[n] = '\0';
	return (procfs_lex_fail(lx, "expected %s, found %s", what, found));
}

/* Consume word if it comes next (after blanks); 1 if it did. */
int
procfs_lex_word(struct procfs_lex *lx, const char *word)
{
	size_t n = strlen(word);

	procfs_lex_blank(lx);
	return (procfs_lex_is(lx, word, n));
}

/*
 * Read an unsigned decimal number ending at a blank, a comma or the line
 * end.  Signs, overflow past 64 bits and trailing junk are refused.
 */
int
procfs_lex_u64(struct procfs_lex *lx, uint64_t *v, const char *what)
{
	const char *p, *start;
	uint64_t n = 0;
	unsigned d;

	procfs_lex_blank(lx);
	start = p = lx->p;
	while (p < lx->eol && (d = (unsigned)(*p - '0')) <= 9) {
		if (n > (UINT64_MAX - d) / 10) {
			while (p < lx->eol && *p >= '0' && *p <= '9')
				p++;
			return (procfs_lex_fail(lx, "expected %s below 2^64, "
			    "found a number of %zu digits", what,
			    (size_t)(p - start)));
		}
		n = n * 10 + d;
		p++;
	}
	if (p == start || (p < lx->eol && *p != ' ' && *p != '\t' &&
	    *p != ',')) {
		if (p == start && p < lx->eol && *p == '-') {
			char buf[128];

			snprintf(buf, sizeof buf, "%s (an unsigned number)",
			    what);
			return (procfs_lex_expect(lx, buf));
		}
		return (procfs_lex_expect(lx, what));
	}
	lx->p = p;
	*v = n;
	return (0);
}

/* Read a node or region number no larger than max. */
int
procfs_lex_index(struct procfs_lex *lx, int max, int *v, const char *what)
{
	uint64_t n;
	int r;

	if ((r = procfs_lex_u64(lx, &n, what)) != 0)
		return (r);
	if (n > (uint64_t)max)
		return (procfs_lex_fail(lx, "expected %s from 0 to %d, found "
		    "%llu", what, max, (unsigned long long)n));
	*v = (int)n;
	return (0);
}

/* Read a name (zone or migratetype) of printable characters. */
int
procfs_lex_name(struct procfs_lex *lx, char *name, const char *what)
{
	const char *p, *start;
	char buf[128];

	procfs_lex_blank(lx);
	start = p = lx->p;
	while (p < lx->eol && *p > ' ' && *p < 0x7f && *p != ',')
		p++;
	if (p == start || p - start >= SNAP_NAME_LEN ||
	    (p < lx->eol && *p != ' ' && *p != '\t' && *p != ',')) {
		snprintf(buf, sizeof buf, "%s (1 to %d printable characters)",
		    what, SNAP_NAME_LEN - 1);
		return (procfs_lex_expect(lx, buf));
	}
	memcpy(name, start, p - start);
	name[p - start] = '\0';
	lx->p = p;
	return (0);
}

/*
 * Read "Node N, [Region R, | REG R,] zone NAME" from the start of the line.
 * Returns <0 on error, else 0 (no region), 1 (Region) or 2 (REG); *region
 * is -1 without one.  The cursor stops right after the zone name.
 */
int
procfs_lex_key(struct procfs_lex *lx, int *node, int *region, char *zone)
{
	int kind = 0, r;

	*region = -1;
	if (!PROCFS_IS(lx, "Node"))
		return (procfs_lex_expect(lx, "'Node'"));
	if ((r = procfs_lex_index(lx, PROCFS_MAX_NODE, node,
	    "a node number")) != 0)
		return (r);
	if (lx->p >= lx->eol || *lx->p != ',')
		return (procfs_lex_expect(lx, "',' after the node number"));
	lx->p++;
	procfs_lex_blank(lx);
	if (PROCFS_IS(lx, "Region"))
		kind = 1;
	else if (PROCFS_IS(lx, "REG"))
		kind = 2;
	if (kind != 0) {
		if ((r = procfs_lex_index(lx, PROCFS_MAX_REGION, region,
		    "a region number")) != 0)
			return (r);
		if (lx->p >= lx->eol || *lx->p != ',')
			return (procfs_lex_expect(lx,
			    "',' after the region number"));
		lx->p++;
		procfs_lex_blank(lx);
	}
	if (!PROCFS_IS(lx, "zone"))
		return (procfs_lex_expect(lx, kind == 0 ?
		    "'zone' or 'Region' after the node number" :
		    "'zone' after the region number"));
	if ((r = procfs_lex_name(lx, zone, "a zone name")) != 0)
		return (r);
	return (kind);
}

/*
 * Find the entry of a key.  The files list keys in the same order, so the
 * entry after the previous hit (or the previous hit itself: pagetypeinfo
 * has a row per migratetype) is tried first and lookups stay linear.
 */
struct snap_entry *
procfs_lookup(struct snapshot *snap, int *hint, int node, int region,
    const char *zone)
{
	struct snap_entry *e;
	int i;

	for (i = *hint; i >= *hint - 1 && i >= 0; i--) {
		if (i >= snap->nentries)
			continue;
		e = &snap->entries[i];
		if (e->node == node && e->region == region &&
		    strcmp(e->zone, zone) == 0) {
			*hint = i + 1;
			return (e);
		}
	}
	for (i = 0; i < snap->nentries; i++) {
		e = &snap->entries[i];
		if (e->node == node && e->region == region &&
		    strcmp(e->zone, zone) == 0) {
			*hint = i + 1;
			return (e);
		}
	}
	return (NULL);
}

/* Format a key the way the kernel headers print it, for messages. */
const char *
procfs_key_str(char *buf, size_t len, int node, int region, const char *zone)
{
	if (region < 0)
		snprintf(buf, len, "Node %d, zone %s", node, zone);
	else
		snprintf(buf, len, "Node %d, region %d, zone %s", node, region,
		    zone);
	return (buf);
}
