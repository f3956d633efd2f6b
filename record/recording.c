/*
 * Recordings (recording.h): writing the raw files of each sample and the
 * system part of meta.json, and reading them back for a replay.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic-file.h"
#include "input-file.h"
#include "log.h"
#include "meta.h"
#include "procfile.h"
#include "recording.h"
#include "sink-csv.h"
#include "snapshot-json.h"
#include "src-recorded.h"

/* The first sample of a recording (DIR/0000), which must exist. */
int
recording_first(const char *replay, char *buf, size_t len,
    char **cause)
{
	snprintf(buf, len, "%s/0000", replay);
	if (access(buf, F_OK) == -1)
		return (fail_with(cause, RB_EXIT_INPUT, "%s: no recorded "
		    "samples (expected %s)", replay, buf));
	return (0);
}

/*
 * The system part of meta.json: what a recording kept, else live.  A
 * replay of a recording that kept none describes this machine, but not
 * its boot: the samples came from another, so the boot is "unknown".
 */
json_t *
recording_system(const char *replay, const char *proc_root,
    char **cause)
{
	char path[4096];
	json_t *sys;

	if (replay != NULL) {
		snprintf(path, sizeof path, "%s/system.json", replay);
		if (access(path, F_OK) == 0)
			return (input_json_object(path, 0, INPUT_JSON_MAX,
			    cause));
		/* No system.json: this host's facts, but not its boot. */
		sys = meta_system(proc_root);
		json_object_set_new(json_object_get(sys, "kernel"), "boot_id",
		    json_string("unknown"));
		return (sys);
	}
	return (meta_system(proc_root));
}

/* Keep the system part of meta.json in a --record directory. */
int
recording_write_system(const char *record, json_t *system, char **cause)
{
	char path[4096], *text, *why = NULL;
	int rc;

	if (sink_make_dir(record, &why) != 0) {
		rc = fail_with(cause, RB_EXIT_INPUT, "--record: %s", why);
		free(why);
		return (rc);
	}
	snprintf(path, sizeof path, "%s/system.json", record);
	if ((text = json_dumps(system, JSON_INDENT(1))) == NULL)
		return (fail_with(cause, RB_EXIT_ENV, "%s", path));
	rc = atomic_file_write(path, text, strlen(text), cause);
	free(text);
	return (rc != 0 ? -RB_EXIT_ENV : 0);
}

/* Write one raw file of a recorded sample. */
static int
recording_write_file(const char *dir, const char *name, const char *buf,
    size_t len, char **cause)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
	    0644);
	if (fd == -1)
		return (fail_with(cause, RB_EXIT_ENV, "%s: %s", path,
		    strerror(errno)));
	while (len > 0) {
		n = write(fd, buf, len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0) {
			close(fd);
			return (fail_with(cause, RB_EXIT_ENV,
			    "%s: write: %s", path, strerror(errno)));
		}
		buf += n;
		len -= (size_t)n;
	}
	close(fd);
	return (0);
}

/*
 * Keep what the source is (its description, region map, what it cannot
 * give) in DIR/recording.json: written before the first sample, so that
 * a recording cut short still replays, and again at the end (samples > 0)
 * with what the source found meanwhile (the kpageflags accuracy), how many
 * samples there are and when the run stopped.
 */
int
recording_write_source(const char *record, struct source *src,
    uint64_t samples, double end_t_s, char **cause)
{
	char path[PATH_MAX], *text;
	json_t *rec;
	int rc;

	snprintf(path, sizeof path, "%s/%s", record, SRC_RECORDED_FILE);
	rec = src_recorded_describe_source(src);
	if (samples > 0) {
		json_object_set_new(rec, "samples",
		    json_integer((json_int_t)samples));
		json_object_set_new(rec, "end_t_s", json_real(end_t_s));
	}
	text = json_dumps(rec, JSON_INDENT(1));
	json_decref(rec);
	if (text == NULL)
		return (fail_with(cause, RB_EXIT_ENV, "%s", path));
	rc = atomic_file_write(path, text, strlen(text), cause);
	free(text);
	return (rc != 0 ? -RB_EXIT_ENV : 0);
}

/*
 * Keep the raw text the source read for sample number i and the figures
 * it computed from it (snapshot.json: what a replay gives back).
 */
int
recording_write_sample(const char *record, uint64_t i,
    const struct source *src, const struct snapshot *snap, double t_s,
    char **cause)
{
	char dir[PATH_MAX], text[64], *figures;
	json_t *obj;
	int rc, n;

	snprintf(dir, sizeof dir, "%s/%04" PRIu64, record, i);
	if (mkdir(dir, 0755) == -1 && errno != EEXIST)
		return (fail_with(cause, RB_EXIT_ENV, "%s: mkdir: %s", dir,
		    strerror(errno)));
	if ((src->files_read & SOURCE_FILE_ZONEINFO) && (rc =
	    recording_write_file(dir, "zoneinfo", src->zoneinfo.buf,
	    src->zoneinfo.len, cause)) != 0)
		return (rc);
	if ((src->files_read & SOURCE_FILE_BUDDYINFO) && (rc =
	    recording_write_file(dir, "buddyinfo", src->buddyinfo.buf,
	    src->buddyinfo.len, cause)) != 0)
		return (rc);
	if ((src->files_read & SOURCE_FILE_PAGETYPEINFO) && (rc =
	    recording_write_file(dir, "pagetypeinfo", src->pagetypeinfo.buf,
	    src->pagetypeinfo.len, cause)) != 0)
		return (rc);
	obj = snapshot_to_json(snap);
	figures = json_dumps(obj, JSON_COMPACT);
	json_decref(obj);
	if (figures == NULL)
		return (fail_with(cause, RB_EXIT_ENV, "%s/%s: out of memory",
		    dir, SRC_RECORDED_SNAPSHOT));
	rc = recording_write_file(dir, SRC_RECORDED_SNAPSHOT, figures,
	    strlen(figures), cause);
	free(figures);
	if (rc != 0)
		return (rc);
	n = snprintf(text, sizeof text, "%.3f\n", t_s);
	return (recording_write_file(dir, "time", text, (size_t)n, cause));
}

/*
 * Point the source at recorded sample i.  Returns 1 when it exists (and
 * sets its recorded time), 0 at the end of the recording.
 */
int
recording_read_sample(const char *replay, uint64_t i, struct source *src,
    double *t_s, int *flags, char **cause)
{
	struct procfile pf;
	char dir[PATH_MAX];
	char *end;
	int rc;

	snprintf(dir, sizeof dir, "%s/%04" PRIu64, replay, i);
	if (access(dir, F_OK) == -1)
		return (0);
	snprintf(src->cfg.proc_root, sizeof src->cfg.proc_root, "%s", dir);
	*flags = procfile_exists(dir, "pagetypeinfo") ?
	    SOURCE_READ_PAGETYPE : 0;
	procfile_init(&pf);
	rc = procfile_read(&pf, dir, "time", NULL);
	if (rc == 0) {
		*t_s = strtod(pf.buf, &end);
		if (end == pf.buf || (*end != '\n' && *end != '\0') ||
		    *t_s < 0)
			rc = -1;
	}
	procfile_free(&pf);
	if (rc != 0)
		return (fail_with(cause, RB_EXIT_INPUT,
		    "%s/time: expected the sample time in seconds", dir));
	return (1);
}

/*
 * How many samples a whole recording has and when its run stopped, from
 * DIR/recording.json; 0 when it does not say (version 1, or cut short).
 */
uint64_t
recording_end(const char *replay, double *end_t_s)
{
	json_t *rec, *n, *t;
	uint64_t samples = 0;
	char *cause = NULL;

	if (src_recorded_load(replay, &rec, &cause) != 0) {
		free(cause);
		return (0);
	}
	n = json_object_get(rec, "samples");
	t = json_object_get(rec, "end_t_s");
	if (json_is_integer(n) && json_integer_value(n) > 0 &&
	    json_is_number(t) && json_number_value(t) >= 0) {
		samples = (uint64_t)json_integer_value(n);
		*end_t_s = json_number_value(t);
	}
	json_decref(rec);
	return (samples);
}

/*
 * Recorded figures keep the regions the run cut: say so when the command
 * line asks the recorded source for other settings (a string option not
 * at its default, such as --region-size), rather than ignore it silently.
 */
static void
recording_warn_settings(const struct source_cli *cli, const char *recorded,
    const char *command)
{
	const struct source_ops *ops = source_lookup(recorded);
	const struct opt_def *def;
	const char *text;
	int i;

	if (ops == NULL || ops->options == NULL ||
	    (i = source_index(ops)) < 0 || cli->settings[i] == NULL)
		return;
	for (def = ops->options; def->name != NULL; def++) {
		if (def->type != OPT_STRING)
			continue;
		text = *(char **)((char *)cli->settings[i] + def->offset);
		if (text == NULL || (def->def != NULL &&
		    strcmp(text, def->def) == 0))
			continue;
		log_warnx("%s: --%s %s is not applied: a replay gives the "
		    "figures the %s source computed with the settings it was "
		    "recorded with", command, def->name, text, recorded);
	}
}

/*
 * Open the recorded figures of rec as the source (taking rec and why),
 * warning of settings that no longer apply; 0, or a negative exit code
 * with a cause.
 */
static int
recording_open_recorded(struct source *src, const struct source_config *cfg,
    json_t *rec, const struct source_cli *cli, const char *command,
    char *why, char **cause)
{
	char *err = NULL;
	int rc;

	recording_warn_settings(cli, src_recorded_name(rec), command);
	rc = src_recorded_open(src, cfg, rec, why, &err);
	free(why);
	json_decref(rec);
	if (rc != 0) {
		rc = fail_with(cause, -rc, "%s: %s", command, err);
		free(err);
	}
	return (rc);
}

/*
 * Open the source a replay of DIR asks for; 0, or a negative exit code
 * with a cause that names the recording when it cannot give it.  auto (the default) gives
 * back what the run's source computed, when the recording kept it
 * (version 2); a source named with --source that reads /proc text (zone,
 * patched, sorted-buddy) parses the recorded text again; the recorded
 * source named again gives its recorded figures.
 */
int
recording_open_source(const char *replay, const struct source_cli *cli,
    struct source *src, const char *command, char **out)
{
	struct source_config cfg;
	char first[PATH_MAX], *cause = NULL, *why;
	const char *name = cli->source, *recorded = NULL;
	json_t *rec = NULL;
	int rc, is_auto;

	if ((rc = recording_first(replay, first, sizeof first, &cause)) != 0 ||
	    (rc = src_recorded_load(replay, &rec, &cause)) != 0 ||
	    (rc = source_cli_config(cli, &cfg, &cause)) != 0) {
		rc = fail_with(out, -rc, "%s: %s", command, cause);
		free(cause);
		json_decref(rec);
		return (rc);
	}
	snprintf(cfg.proc_root, sizeof cfg.proc_root, "%s", first);
	cfg.replay = replay;
	is_auto = name == NULL || strcmp(name, "auto") == 0;
	if (rec != NULL)
		recorded = src_recorded_name(rec);
	if (rec != NULL && is_auto) {
		why = xasprintf("replay of %s: the figures the %s source "
		    "computed when it was recorded", replay, recorded);
		return (recording_open_recorded(src, &cfg, rec, cli, command,
		    why, out));
	}
	if ((rc = source_open(src, name, &cfg, &cause)) == 0) {
		json_decref(rec);
		return (0);
	}
	if (rc != -RB_EXIT_ENV || source_lookup(name) == NULL) {
		rc = fail_with(out, -rc, "%s: %s", command, cause);
		free(cause);
		json_decref(rec);
		return (rc);
	}
	/* The named source does not apply to the recorded text. */
	if (rec != NULL && strcmp(name, recorded) == 0) {
		free(cause);
		why = xasprintf("replay of %s with --source %s: the figures "
		    "the %s source computed when it was recorded", replay,
		    name, recorded);
		return (recording_open_recorded(src, &cfg, rec, cli, command,
		    why, out));
	}
	if (rec == NULL)
		rc = fail_with(out, RB_EXIT_INPUT, "%s: --replay %s cannot "
		    "give the %s source: the recording keeps only /proc text "
		    "(version 1, no %s: recorded before figures were kept), "
		    "and %s", command, replay, name, SRC_RECORDED_FILE, cause);
	else
		rc = fail_with(out, RB_EXIT_INPUT, "%s: --replay %s cannot "
		    "give the %s source: the recording keeps the figures of "
		    "the %s source and the /proc text it read, and %s",
		    command, replay, name, recorded, cause);
	free(cause);
	json_decref(rec);
	return (rc);
}
