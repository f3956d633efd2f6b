/*
 * Line and token reading shared by the /proc parsers (internal to
 * lib/procfs-*.c).  The parsers run at up to 10 Hz on the sampler thread,
 * so this is a hand-written tokeniser over the buffer in place: no copies,
 * no allocation, no sscanf.  Every failure becomes a "PATH:LINE: expected
 * ..." cause with exit code RB_EXIT_INPUT.
 */
#ifndef RB_PROCFS_LEX_H
#define RB_PROCFS_LEX_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "snapshot.h"

#define PROCFS_MAX_LINE		4096	/* longest line any kernel prints */
#define PROCFS_MAX_NODE		1023
#define PROCFS_MAX_REGION	65535

struct procfs_lex {
	const char	*path;
	const char	*end;		/* end of the buffer */
	const char	*next;		/* start of the next line */
	const char	*line;		/* current line */
	const char	*eol;		/* its end (the '\n') */
	const char	*p;		/* cursor inside the line */
	int		 lineno;
	char		**cause;
};

int	 procfs_lex_init(struct procfs_lex *lx, const char *path,
	     const char *buf, size_t len, char **cause);
int	 procfs_lex_next(struct procfs_lex *lx);
int	 procfs_lex_fail(struct procfs_lex *lx, const char *fmt, ...)
	     __attribute__((format(printf, 2, 3)));
int	 procfs_lex_fail_at(struct procfs_lex *lx, int lineno,
	     const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int	 procfs_lex_expect(struct procfs_lex *lx, const char *what);

int	 procfs_lex_word(struct procfs_lex *lx, const char *word);
int	 procfs_lex_u64(struct procfs_lex *lx, uint64_t *v, const char *what);
int	 procfs_lex_index(struct procfs_lex *lx, int max, int *v,
	     const char *what);
int	 procfs_lex_name(struct procfs_lex *lx, char *name, const char *what);
int	 procfs_lex_key(struct procfs_lex *lx, int *node, int *region,
	     char *zone);

struct snap_entry *procfs_lookup(struct snapshot *snap, int *hint, int node,
	     int region, const char *zone);
const char *procfs_key_str(char *buf, size_t len, int node, int region,
	     const char *zone);

/* Skip spaces and tabs inside the current line. */
static inline void
procfs_lex_blank(struct procfs_lex *lx)
{
	while (lx->p < lx->eol && (*lx->p == ' ' || *lx->p == '\t'))
		lx->p++;
}

/* Is the rest of the line empty (after blanks)? */
static inline int
procfs_lex_at_eol(struct procfs_lex *lx)
{
	procfs_lex_blank(lx);
	return (lx->p == lx->eol);
}

/* Does the cursor start with word (followed by a blank or the line end)? */
static inline int
procfs_lex_is(struct procfs_lex *lx, const char *word, size_t n)
{
	if ((size_t)(lx->eol - lx->p) < n || memcmp(lx->p, word, n) != 0)
		return (0);
	if (lx->p + n < lx->eol && lx->p[n] != ' ' && lx->p[n] != '\t')
		return (0);
	lx->p += n;
	return (1);
}

/* Does the cursor start with prefix (anything may follow)? */
static inline int
procfs_lex_prefix(struct procfs_lex *lx, const char *prefix, size_t n)
{
	if ((size_t)(lx->eol - lx->p) < n || memcmp(lx->p, prefix, n) != 0)
		return (0);
	lx->p += n;
	return (1);
}

#define PROCFS_IS(lx, lit)	procfs_lex_is((lx), (lit), sizeof(lit) - 1)
#define PROCFS_PREFIX(lx, lit)	procfs_lex_prefix((lx), (lit), sizeof(lit) - 1)

#endif
