/*
 * The parts of a run's meta.json analysis needs (read by meta_read in
 * lib/meta.c), and the vm.json of the boot a guest run was made in.
 */
#include "config.h"

#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "meta.h"
#include "results.h"
#include "results-csv.h"
#include "vm-facts.h"

/* A string member by dotted path, copied, or dflt when absent. */
static char *
meta_copy(json_t *meta, const char *path, const char *dflt)
{
	const char *v = meta_get_string(meta, path);

	if (v == NULL)
		v = dflt;
	return (v != NULL ? xstrdup(v) : NULL);
}

/*
 * Names analysis prints and draws (label, host, phases ...) are short in
 * any real run; megabytes of them are a damaged or hostile file.
 */
#define RESULTS_NAME_MAX 1024

/* Refuse a meta.json whose names are longer than RESULTS_NAME_MAX. */
static int
meta_check_names(json_t *root, const char *dir, char **cause)
{
	static const char *const keys[] = { "label", "host", "command",
	    "status", "suite.name", "kernel.release", "source.name",
	    "kernel.version", "run_id", "start_time", "end_time" };
	const char *s;
	json_t *v;
	size_t i;

	for (i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		s = meta_get_string(root, keys[i]);
		if (s != NULL && strlen(s) > RESULTS_NAME_MAX)
			return (fail_with(cause, RB_EXIT_INPUT, "%s/meta.json: "
			    "%s: longer than %d bytes", dir, keys[i],
			    RESULTS_NAME_MAX));
	}
	v = json_object_get(root, "phases");
	for (i = 0; json_is_array(v) && i < json_array_size(v); i++) {
		s = json_string_value(json_array_get(v, i));
		if (s != NULL && strlen(s) > RESULTS_NAME_MAX)
			return (fail_with(cause, RB_EXIT_INPUT, "%s/meta.json: "
			    "phases[%zu]: longer than %d bytes", dir, i,
			    RESULTS_NAME_MAX));
	}
	return (0);
}

/*
 * How the counts were read: "exact" (a kernel's own counts, or kpageflags
 * scans of every region, at once or in rotation) or the sampled-scan
 * settings, which make every count an estimate with an interval.
 */
static char *
meta_scan(json_t *root)
{
	json_t *frac = meta_get(root, "source.scan_fraction");
	json_t *every = meta_get(root, "source.full_scan_every");

	if (!json_is_number(frac) || json_number_value(frac) >= 1)
		return (xstrdup("exact"));
	return (xasprintf("sampled (--scan-fraction %g, a full scan every "
	    "%lld), estimates", json_number_value(frac), json_is_integer(every) ?
	    (long long)json_integer_value(every) : 0LL));
}

/* Take the parts of meta.json analysis needs (meta_read checked them). */
int
results_meta_load(struct results *res, char **cause)
{
	json_t *root, *v;
	size_t i;
	int rc;

	if ((root = meta_read(res->dir, cause)) == NULL)
		return (-RB_EXIT_INPUT);
	if ((rc = meta_check_names(root, res->dir, cause)) != 0) {
		json_decref(root);
		return (rc);
	}
	res->page_size = json_integer_value(json_object_get(root,
	    "page_size"));
	v = json_object_get(root, "region_size_bytes");
	if (json_is_integer(v))
		res->region_size_bytes = json_integer_value(v);
	res->interval_s = NAN;
	v = json_object_get(root, "interval_s");
	if (json_is_number(v) && json_number_value(v) > 0)
		res->interval_s = json_number_value(v);
	res->pageblock_order = 9;
	v = json_object_get(root, "pageblock_order");
	if (v == NULL)
		v = meta_get(root, "source.pageblock_order");
	if (json_is_integer(v) && json_integer_value(v) >= 0 &&
	    json_integer_value(v) < RESULTS_MAX_ORDER)
		res->pageblock_order = json_integer_value(v);
	res->label = meta_copy(root, "label", "");
	res->host = meta_copy(root, "host", "unknown");
	res->command = meta_copy(root, "command", NULL);
	res->status = meta_copy(root, "status", "unknown");
	res->suite = meta_copy(root, "suite.name", NULL);
	res->kernel_release = meta_copy(root, "kernel.release", "unknown");
	res->boot_id = meta_copy(root, "kernel.boot_id", NULL);
	/* A replay of a recording that did not keep its boot. */
	if (res->boot_id != NULL && strcmp(res->boot_id, "unknown") == 0) {
		free(res->boot_id);
		res->boot_id = NULL;
	}
	res->kernel_version = meta_copy(root, "kernel.version", NULL);
	res->guest_kernel_sha256 = meta_copy(root, "guest.kernel.sha256",
	    NULL);
	res->run_id = meta_copy(root, "run_id", NULL);
	res->start_time = meta_copy(root, "start_time", NULL);
	res->end_time = meta_copy(root, "end_time", NULL);
	res->source = meta_copy(root, "source.name", NULL);
	res->scan = meta_scan(root);
	res->counts_checked = json_is_object(meta_get(root,
	    "source.accuracy"));
	v = json_object_get(root, "phases");
	for (i = 0; json_is_array(v) && i < json_array_size(v); i++) {
		if (json_is_string(json_array_get(v, i)))
			results_phase_intern(res, json_string_value(json_array_get(v,
			    i)));
	}
	json_decref(root);
	return (0);
}

/*
 * Did the kernel of the boot that made the run report a bug?  A run made
 * in a regionbench vm (or ab) boot records the guest kernel's checksum in
 * meta.json and sits in the boot's directory, beside the vm.json that
 * holds the kernel's report; a vm.json of another kernel is not its boot's
 * (the run was copied there), and a run away from its vm.json is not
 * counted as a guest run: nothing says how its kernel fared.
 */
void
results_guest_boot(struct results *res)
{
	const char *sha, *report;
	char *real;
	json_t *facts;

	if (res->guest_kernel_sha256 == NULL ||
	    (real = realpath(res->dir, NULL)) == NULL)
		return;
	*strrchr(real, '/') = '\0';	/* realpath's are absolute */
	facts = vm_facts_read_dir(*real != '\0' ? real : "/");
	free(real);
	sha = vm_facts_string(facts, "guest.kernel.sha256");
	if (sha != NULL && strcmp(sha, res->guest_kernel_sha256) == 0) {
		res->guest = 1;
		report = vm_facts_string(facts, "kernel_report");
		if (report != NULL)
			res->guest_kernel_report = xstrdup(report);
	}
	json_decref(facts);
}
