/*
 * The vacate probe at a phase's checkpoints (suite key "vacate"): after
 * the checkpoint's sample and placement scan, the regions named are
 * vacated (lib/vacate.c) while the workload runs, or stands still with
 * checkpoint-freeze; each region's outcome is a "vacate" event and every
 * probe of the run goes into vacate.json (docs/vacate.md).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic-file.h"
#include "log.h"
#include "runner-int.h"
#include "vacate.h"

#define RUNNER_VACATE_TIMEOUT_NS	(60ULL * 1000000000ULL)

/* Does any phase vacate? */
static int
runner_vacates(const struct suite *suite)
{
	int i;

	for (i = 0; i < suite->nphases; i++) {
		if (suite->phases[i].nvacate > 0)
			return (1);
	}
	return (0);
}

/*
 * Before anything runs: a suite that vacates needs the emulated regions
 * (the kpageflags source), a guest, regions the map has and a kernel that
 * can offline memory.  Exit 2 for the suite's mistakes, 3 for the
 * machine's.
 */
int
runner_vacate_check(struct runner *r, const char *proc_root, char **cause)
{
	const struct suite_phase *ph;
	struct vacate v;
	char *err = NULL, why[512];
	int i, rc = 0;

	if (!runner_vacates(r->suite))
		return (0);
	if (r->map == NULL)
		return (fail_with(cause, RB_EXIT_ENV, "run: %s: vacate needs "
		    "emulated regions: the kpageflags source (root, --source "
		    "kpageflags), not a replay", r->suite->path));
	for (i = 0; i < r->suite->nphases && rc == 0; i++) {
		ph = &r->suite->phases[i];
		if (ph->nvacate == 0)
			continue;
		memset(&v, 0, sizeof v);
		v.proc_root = xstrdup(proc_root);
		if ((rc = vacate_init(&v, r->map, ph->vacate_node,
		    ph->vacate_region, ph->nvacate, &err)) == 0 &&
		    !vacate_check_guest(r->map->sys_root, why, sizeof why))
			rc = fail_with(cause, RB_EXIT_ENV, "run: %s:%d: refusing "
			    "to vacate regions outside a guest: %s; run the "
			    "suite in `regionbench vm`", r->suite->path,
			    ph->vacate_line, why);
		else if (rc != 0 ||
		    (rc = vacate_check_offlinable(&v, &err)) != 0) {
			rc = fail_with(cause, -rc, "run: %s:%d: %s",
			    r->suite->path, ph->vacate_line, err);
			free(err);
			err = NULL;
		}
		vacate_free(&v);
	}
	if (rc == 0)
		r->proc_root = proc_root;
	return (rc);
}

/* Write every probe of this repetition to vacate.json, whole. */
static void
runner_vacate_save(struct runner *r)
{
	char *path, *text, *cause = NULL;

	path = xasprintf("%s/vacate.json", r->dir);
	text = json_dumps(r->vacate, JSON_INDENT(2) | JSON_REAL_PRECISION(6));
	if (text == NULL || atomic_file_write(path, text, strlen(text),
	    &cause) != 0) {
		log_warnx("run: %s", cause != NULL ? cause : path);
		free(cause);
	}
	free(text);
	free(path);
}

/* Vacate the phase's regions at checkpoint label. */
void
runner_vacate(struct runner *r, const struct suite_phase *ph,
    const char *label)
{
	const struct vacate_region *vr;
	struct vacate v;
	char *cause = NULL, text[640];
	json_t *probe;
	int i, rc;

	if (ph->nvacate == 0 || r->map == NULL || r->proc_root == NULL)
		return;
	if (r->vacate == NULL || strcmp(r->vacate_dir, r->dir) != 0) {
		json_decref(r->vacate);
		r->vacate = json_array();
		snprintf(r->vacate_dir, sizeof r->vacate_dir, "%s", r->dir);
	}
	memset(&v, 0, sizeof v);
	v.proc_root = xstrdup(r->proc_root);
	if (vacate_init(&v, r->map, ph->vacate_node, ph->vacate_region,
	    ph->nvacate, &cause) != 0) {
		snprintf(text, sizeof text, "%s: %s", label, cause);
		sampler_event(&r->session.sampler, "vacate", text);
		free(cause);
		vacate_free(&v);
		return;
	}
	v.timeout_ns = ph->vacate_timeout_ns != 0 ? ph->vacate_timeout_ns :
	    RUNNER_VACATE_TIMEOUT_NS;
	v.stop = session_stop_flag();
	if ((rc = vacate_run(&v, &cause)) != 0) {
		snprintf(text, sizeof text, "%s: %s", label, cause);
		sampler_event(&r->session.sampler, "vacate", text);
		if (rc == -RB_EXIT_ENV)
			log_errorx("run: vacate at %s: %s", label, cause);
		free(cause);
	}
	for (i = 0; i < v.nregions; i++) {
		vr = &v.regions[i];
		if (vr->emptied)
			snprintf(text, sizeof text, "%s: region %d/%d emptied in "
			    "%.3f s, %llu pages moved", label, vr->node,
			    vr->region, vr->seconds,
			    (unsigned long long)vr->migrated);
		else
			snprintf(text, sizeof text, "%s: region %d/%d not "
			    "emptied: %s", label, vr->node, vr->region,
			    vr->reason);
		sampler_event(&r->session.sampler, "vacate", text);
	}
	probe = vacate_to_json(&v);
	json_object_set_new(probe, "phase", json_string(ph->name));
	json_object_set_new(probe, "checkpoint", json_string(label));
	json_array_append_new(r->vacate, probe);
	runner_vacate_save(r);
	vacate_free(&v);
}
