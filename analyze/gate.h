/*
 * The CI gate: rules (an INI file, one section per rule) judged against a
 * baseline and a candidate group of runs, with JUnit XML and markdown
 * reports.  compare.h does the statistics; this file only decides.
 */
#ifndef RB_GATE_H
#define RB_GATE_H

#include <stdint.h>
#include <stdio.h>

#include "compare.h"

struct gate_rule {
	char		*name;		/* the INI section */
	char		*metric;	/* fnmatch pattern; default: name */
	char		*phase;		/* pattern; default "*" */
	char		*unit;		/* pattern; default "*" */
	int		 better_lower;	/* -1: the metric's (METRIC_LIST) */
	double		 max_change;	/* NAN until set */
	int		 percent;	/* max_change is a percentage */
	int		 require_significance;
	double		 alpha;
	int		 min_runs;	/* per side; 0 until set */
	int		 harmonic;	/* compare harmonic means (rates) */
};

/*
 * The [data_quality] section: limits on every phase of every run beyond
 * which no rule is judged (NAN: no limit).
 */
struct gate_quality {
	double		 max_overruns;
	double		 max_gap_s;
	double		 max_kpf_error;
};

/*
 * How the p-values of the checks that need significance are judged: each
 * against its alpha alone, or Holm-adjusted over all of them (the [gate]
 * section's correction = none|holm, or gate --correction).
 */
enum gate_correction {
	GATE_CORRECTION_NONE,
	GATE_CORRECTION_HOLM
};

struct gate_rules {
	struct gate_rule *rules;
	int		 n;
	struct gate_quality quality;
	enum gate_correction correction;
};

/* One rule applied to one (phase, metric). */
struct gate_result {
	const struct gate_rule	*rule;
	const struct compare_key *key;	/* NULL: matched nothing */
	int			 judged;	/* 0: no verdict, see message */
	int			 better_lower;	/* the rule's or the metric's */
	int			 nbase;		/* values per side */
	int			 ncand;
	double			 base_mean;	/* arithmetic or harmonic */
	double			 cand_mean;
	double			 worse;		/* > 0: worse */
	double			 worse_pct;	/* of the baseline */
	int			 unchanged;
	int			 tested;
	double			 p;
	double			 p_adjusted;	/* NAN: not corrected */
	int			 family;	/* tests adjusted together */
	int			 failed;
	int			 inconclusive;	/* measured, neither verdict */
	int			 no_variance;	/* both groups constant */
	int			 within;	/* bound within the allowance */
	int			 unit_boot;	/* values are boots, not runs */
	double			 worse_bound_pct; /* worse at 1 - alpha */
	int			 need;		/* values a side to decide; 0 */
	char			*reason;	/* why the verdict, or none */
	char			*message;
};

/* What gate_evaluate found. */
struct gate_counts {
	int		 checks;
	int		 failed;
	int		 unjudged;	/* inconclusive ones too */
	int		 inconclusive;
	int		 adjusted;	/* p-values Holm-adjusted together */
};

int	 gate_rules_load(const char *path, struct gate_rules *rules,
	     char **cause);
void	 gate_rules_free(struct gate_rules *rules);
int	 gate_correction_parse(const char *word,
	     enum gate_correction *out, char **cause);
int	 gate_evaluate(const struct gate_rules *rules,
	     const struct compare_set *set, enum compare_test test,
	     struct gate_result **out, int *nout);
char	*gate_quality_refusal(const struct gate_quality *q,
	     const struct compare_set *set);
void	 gate_count(const struct gate_result *r, int n,
	     struct gate_counts *c);
const char *gate_outcome(const struct gate_counts *c);
void	 gate_results_free(struct gate_result *r, int n);
const char *gate_better_word(const struct gate_result *res);
void	 gate_limit_text(const struct gate_rule *rule, char *buf,
	     size_t len);
/* What the gate is asked to judge (the gate command's options). */
struct gate_request {
	const char	*rules;		/* NULL: gate-rules.ini, found */
	const char	*correction;	/* NULL: the rules' */
	char		**baseline;	/* directories or db: selections */
	int		 nbaseline;
	char		**candidate;
	int		 ncandidate;
	enum compare_test test;
	enum compare_unit unit;
	int		 force;		/* judge runs that differ */
	int		 allow_unjudged;
	uint64_t	 empty_tolerance;
	const char	*db;		/* the database of db: selections */
};

/* What gate_run found: the checks, their counts and the exit code. */
struct gate_outcome {
	char		*rules_path;
	struct gate_rules rules;
	int		 have_rules;
	struct compare_set *set;
	struct gate_result *results;
	int		 n;
	struct gate_counts counts;
	int		 exit_code;	/* 0 holds, 1 fails, 2 not judged */
	char		*note;		/* why not judged, or NULL */
};

/* A report writer: JUnit XML or markdown; -1 when writing failed. */
typedef int (*gate_writer)(FILE *f, const struct compare_set *set,
    const struct gate_result *r, int n);

void	 gate_print(FILE *f, const struct compare_set *set,
	     const struct gate_result *r, int n, const char *rules_path);
int	 gate_write_file(const char *path, const struct compare_set *set,
	     const struct gate_result *r, int n, gate_writer writer,
	     char **cause);
int	 gate_write_junit(FILE *f, const struct compare_set *set,
	     const struct gate_result *r, int n);
int	 gate_write_markdown(FILE *f, const struct compare_set *set,
	     const struct gate_result *r, int n);
int	 gate_print_json(FILE *f, const struct compare_set *set,
	     const struct gate_result *r, int n, const char *rules_path);

int	 gate_run(const struct gate_request *req, struct gate_outcome *out,
	     char **cause);
int	 gate_outcome_print(FILE *f, const struct gate_outcome *out,
	     int json);
int	 gate_outcome_report(const struct gate_outcome *out,
	     const char *path, gate_writer writer, char **cause);
void	 gate_outcome_free(struct gate_outcome *out);

#endif
