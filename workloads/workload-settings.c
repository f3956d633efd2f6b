/*
 * The options every workload takes, and setting a run's options from a
 * command line or a suite file's key=value pairs.
 */
#include "config.h"

#include <stdlib.h>

#include "log.h"
#include "workload-private.h"

static const char *const workload_bind_choices[] = {
	"none", "compact", "scatter", NULL
};
static const char *const workload_thp_choices[] = {
	"default", "always", "never", NULL
};

#define CO(f) offsetof(struct workload_common, f)
const struct opt_def workload_common_options[] = {
	{ .name = "threads", .type = OPT_LONG, .offset = CO(threads),
	  .arg = "N", .def = "0", .max = WORKLOAD_MAX_THREADS,
	  .help = "worker threads (0: one per core hwloc finds)" },
	{ .name = "size", .type = OPT_SIZE_PCT, .offset = CO(size),
	  .arg = "SIZE", .def = "10%", .max = INT64_MAX,
	  .help = "memory to use, all threads together (bytes or N% of "
	  "MemAvailable)" },
	{ .name = "duration", .type = OPT_DURATION, .offset = CO(duration_ns),
	  .arg = "D", .def = "0",
	  .help = "run for this long (0: do a fixed amount of work)" },
	{ .name = "cpu-bind", .type = OPT_ENUM, .offset = CO(cpu_bind),
	  .arg = "MODE", .def = "none", .choices = workload_bind_choices,
	  .help = "bind each thread to a core (hwloc)" },
	{ .name = "node", .type = OPT_LONG, .offset = CO(node), .arg = "N",
	  .def = "-1", .min = -1, .max = 4095,
	  .help = "bind memory to this NUMA node (-1: no binding)" },
	{ .name = "thp", .type = OPT_ENUM, .offset = CO(thp), .arg = "MODE",
	  .def = "default", .choices = workload_thp_choices,
	  .help = "transparent huge pages, by madvise" },
	{ .name = "warmup", .type = OPT_DURATION, .offset = CO(warmup_ns),
	  .arg = "D", .def = "0",
	  .help = "run unmeasured for this long first" },
	{ .name = "force", .type = OPT_FLAG, .offset = CO(force),
	  .help = "run even when the size exceeds what the machine can spare" },
	{ .name = "user", .type = OPT_STRING, .offset = CO(user), .arg = "NAME",
	  .help = "run the workload as this user (as root; the sampler "
	  "keeps root)" },
	{ .name = NULL }
};
#undef CO
/*
 * What the size guard keeps for the rest of the system: 1 GiB, or an
 * eighth of MemTotal on a machine under 8 GiB, so that a small guest booted
 * to run one suite can run it (a 1 GiB guest would otherwise spare nothing).
 * An unreadable MemTotal (0) keeps the whole GiB.
 */
uint64_t
workload_size_reserve(uint64_t total)
{
	uint64_t gib = 1ULL << 30;

	return (total > 0 && total / 8 < gib ? total / 8 : gib);
}

/* What --size may reach without --force: MemAvailable less the reserve
 * and 2.5 %. */
uint64_t
workload_size_limit(uint64_t available, uint64_t total)
{
	uint64_t margin = workload_size_reserve(total) + available / 40;

	return (available > margin ? available - margin : 0);
}

/* The common settings of a run, to read or change before the start. */
struct workload_common *
workload_common_settings(struct workload_run *run)
{
	return (&run->common);
}

/* The workload's own settings struct. */
void *
workload_settings(struct workload_run *run)
{
	return (run->settings);
}

/*
 * Set one option by its long name, from the workload's table or the common
 * one (suite files: key=value).  Unknown keys and bad values give
 * -RB_EXIT_INPUT with a cause.
 */
int
workload_set_option(struct workload_run *run, const char *key,
    const char *value, char **cause)
{
	const struct opt_def *def = NULL;

	if (run->desc->options != NULL)
		def = opt_find(run->desc->options, key);
	if (def != NULL)
		return (opt_set_value(def, run->settings, value, cause));
	if ((def = opt_find(workload_common_options, key)) != NULL)
		return (opt_set_value(def, &run->common, value, cause));
	return (fail_with(cause, RB_EXIT_INPUT,
	    "workload %s has no option '%s' (see regionbench workload %s "
	    "--help)", run->desc->name, key, run->desc->name));
}

/*
 * Parse a command line against the workload's table, the common table and
 * optionally the caller's own; returns what opt_parse returns.
 */
int
workload_parse_args(struct workload_run *run, int argc, char **argv,
    const struct opt_set *extra, int *first_arg, char **cause)
{
	static const struct opt_def none[] = { { .name = NULL } };
	struct opt_set sets[3];
	int n = 0;

	sets[n].defs = run->desc->options != NULL ? run->desc->options : none;
	sets[n++].settings = run->settings;
	sets[n].defs = workload_common_options;
	sets[n++].settings = &run->common;
	if (extra != NULL)
		sets[n++] = *extra;
	return (opt_parse(sets, n, argc, argv, first_arg, cause));
}
