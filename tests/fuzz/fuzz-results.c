/*
 * libFuzzer harness: the results reader of analyze (results_load) on a
 * results directory made from one input.  The input is the files of the
 * directory in a fixed order, separated by NUL bytes; a missing part
 * leaves that file out (all but regions.csv and samples.csv are
 * optional).  The metrics are computed on whatever loads, as analyze does.
 */
#include "config.h"

#include "fuzz-util.h"
#include "metrics.h"
#include "results.h"

static const char *const fuzz_results_files[] = {
	"meta.json", "regions.csv", "samples.csv", "buddy.csv",
	"pageblocks.csv", "pagetype.csv", "placement.csv", "workloads.csv",
	"events.csv", "references.csv"
};
#define FUZZ_NFILES	((int)(sizeof fuzz_results_files / \
	sizeof fuzz_results_files[0]))

/* Silence the reader's warnings (dropped samples) once. */
int	LLVMFuzzerInitialize(int *argc, char ***argv);
int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	log_set_quiet(1);
	return (0);
}

/* Compute and summarize the metrics, as analyze does. */
static void
fuzz_metrics(const struct results *res)
{
	struct metrics_options mo;
	struct metrics *m;
	struct summary sum;
	char *cause = NULL;

	metrics_options_default(&mo);
	if (metrics_compute(res, &mo, &m, &cause) == 0) {
		memset(&sum, 0, sizeof sum);
		metrics_summarize(m, &sum);
		summary_free(&sum);
		metrics_free(m);
	}
	free(cause);
}

/* One input: the files of a results directory, NUL-separated. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_part parts[FUZZ_NFILES];
	struct results *res;
	const char *dir = fuzz_dir();
	char *cause = NULL;
	int n, i;

	n = fuzz_split(data, size, parts, FUZZ_NFILES);
	for (i = 0; i < FUZZ_NFILES; i++) {
		if (i < n)
			fuzz_write(dir, fuzz_results_files[i], parts[i].buf,
			    parts[i].len);
		else
			fuzz_unlink(dir, fuzz_results_files[i]);
	}
	fuzz_split_free(parts, n);
	if (results_load(dir, &res, &cause) == 0) {
		fuzz_metrics(res);
		results_free(res);
	}
	free(cause);
	return (0);
}
