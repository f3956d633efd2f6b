/*
 * One option table per command or workload is the single source of an
 * option's name, type, range, default and help (the fio idea).  The same
 * table parses command lines, suite-file keys and prints --help.
 */
#ifndef RB_OPT_H
#define RB_OPT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum opt_type {
	OPT_FLAG,	/* int: 0 or 1, takes no argument on the command line */
	OPT_LONG,	/* long, range [min, max] */
	OPT_U64,	/* uint64_t, range [min, max] */
	OPT_SIZE,	/* uint64_t bytes: 4096, 512M, 1G */
	OPT_SIZE_PCT,	/* struct opt_size: bytes or % of MemAvailable */
	OPT_DURATION,	/* uint64_t nanoseconds: 100ms, 30s */
	OPT_STRING,	/* char *, owned by the settings */
	OPT_ENUM,	/* int: index into choices */
	OPT_LIST,	/* struct opt_list: repeatable string option */
	OPT_DOUBLE	/* double, finite, range [dmin, dmax] */
};

/* A size that may be a share of MemAvailable until resolved. */
struct opt_size {
	uint64_t	 bytes;
	double		 pct;	/* > 0: percent of MemAvailable */
};

/* Every value of a repeatable option, in order. */
struct opt_list {
	int		 n;
	char		**v;
};

struct opt_def {
	const char	*name;		/* long name without dashes */
	enum opt_type	 type;
	size_t		 offset;	/* offsetof() into the settings struct */
	const char	*arg;		/* argument name for help, e.g. "SIZE" */
	const char	*def;		/* default, as the user would type it */
	int64_t		 min;		/* range for numbers (both 0: none) */
	int64_t		 max;
	const char *const *choices;	/* OPT_ENUM: NULL-terminated */
	const char	*help;
	/* OPT_DOUBLE: range [dmin, dmax] (both 0: none); dopen excludes
	 * the bounds themselves. */
	double		 dmin;
	double		 dmax;
	int		 dopen;
	/* OPT_LIST: the arguments after the value up to the next option
	 * are values too (--baseline a b c). */
	int		 multi;
	/* Shown without brackets in usage lines (the command checks it). */
	int		 required;
};

/* One table and the settings struct it writes into. */
struct opt_set {
	const struct opt_def	*defs;	/* terminated by name == NULL */
	void			*settings;
};

#define OPT_HELP_REQUESTED 1

int	 opt_defaults(const struct opt_def *defs, void *settings,
	     char **cause);
const struct opt_def *opt_find(const struct opt_def *defs,
	     const char *name);
int	 opt_set_value(const struct opt_def *def, void *settings,
	     const char *value, char **cause);
int	 opt_parse(const struct opt_set *sets, int nsets, int argc,
	     char **argv, int *first_arg, char **cause);
int	 opt_help_width(int terminal_width);
void	 opt_print_help(FILE *f, const struct opt_def *defs, int width);
void	 opt_print_wrapped(FILE *f, const char *text, int col, int indent,
	     int width);
char	*opt_synopsis(const struct opt_def *defs);
void	 opt_print_troff(FILE *f, const struct opt_def *defs);
void	 opt_troff_escape(FILE *f, const char *s);
void	 opt_free(const struct opt_def *defs, void *settings);
uint64_t opt_size_resolve(const struct opt_size *size, uint64_t available);

#endif
