/*
 * meta.json contents.  The system part (host, kernel, page size, topology,
 * vm settings) is gathered once; a replayed recording brings its own so
 * that re-analysed runs still describe the machine they came from.  Also
 * the one reader of meta.json that analysis, charts, the report and verify
 * share.
 */
#include "config.h"

#include <sys/random.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "atomic-file.h"
#include "input-file.h"
#include "log.h"
#include "meta.h"
#include "vm-facts.h"
#include "procfile.h"
#include "source.h"
#include "topology.h"

/* Current UTC time as ISO 8601 with seconds. */
char *
meta_utc_now(void)
{
	char buf[32];
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return (xstrdup(buf));
}

/* A one-line file's contents without the newline, or NULL. */
static json_t *
meta_file_line(const char *root, const char *name)
{
	struct procfile pf;
	json_t *v = NULL;
	size_t len;

	procfile_init(&pf);
	if (procfile_read(&pf, root, name, NULL) == 0) {
		len = strcspn(pf.buf, "\n");
		v = json_stringn(pf.buf, len);
	}
	procfile_free(&pf);
	return (v != NULL ? v : json_null());
}

/*
 * Inside a guest of `regionbench vm`: the boot's facts (kernel image,
 * boot arguments, memory, nodes, accelerator) from the "guest" object of
 * the file $REGIONBENCH_VM_FACTS names.  NULL elsewhere.
 */
static json_t *
meta_guest(void)
{
	json_t *facts, *guest;

	if ((facts = vm_facts_read(getenv(VM_FACTS_ENV))) == NULL)
		return (NULL);
	guest = json_object_get(facts, "guest");
	if (guest != NULL && json_is_object(guest))
		json_incref(guest);
	else
		guest = NULL;
	json_decref(facts);
	return (guest);
}

/* Gather host, kernel, page size, topology, vm settings and, in a guest
 * of `regionbench vm`, the boot's facts. */
json_t *
meta_system(const char *proc_root)
{
	static const char *const sysctls[] = {
		"min_free_kbytes", "watermark_scale_factor",
		"watermark_boost_factor", "zone_reclaim_mode",
		"compaction_proactiveness", "extfrag_threshold",
		"percpu_pagelist_high_fraction", "swappiness",
		"overcommit_memory", "numa_zonelist_order", NULL
	};
	struct topology topo;
	struct utsname u;
	json_t *sys = json_object(), *vm = json_object(), *kernel, *guest;
	char path[64], host[256] = "unknown";
	int i;

	gethostname(host, sizeof host - 1);
	json_object_set_new(sys, "host", json_string(host));
	uname(&u);
	kernel = json_pack("{s:s, s:s, s:s}", "release", u.release,
	    "version", u.version, "machine", u.machine);
	json_object_set_new(kernel, "cmdline", meta_file_line(proc_root,
	    "cmdline"));
	/* Which boot: repeats within one boot are not independent. */
	json_object_set_new(kernel, "boot_id", meta_file_line(proc_root,
	    "sys/kernel/random/boot_id"));
	json_object_set_new(sys, "kernel", kernel);
	json_object_set_new(sys, "page_size",
	    json_integer(sysconf(_SC_PAGESIZE)));
	if (topology_load(&topo, NULL) == 0) {
		json_object_set_new(sys, "topology", topology_json(&topo));
		topology_free(&topo);
	} else {
		json_object_set_new(sys, "topology", json_null());
	}
	json_object_set_new(vm, "thp_enabled", meta_file_line("/sys",
	    "kernel/mm/transparent_hugepage/enabled"));
	json_object_set_new(vm, "thp_defrag", meta_file_line("/sys",
	    "kernel/mm/transparent_hugepage/defrag"));
	for (i = 0; sysctls[i] != NULL; i++) {
		snprintf(path, sizeof path, "sys/vm/%s", sysctls[i]);
		json_object_set_new(vm, sysctls[i], meta_file_line(proc_root,
		    path));
	}
	json_object_set_new(sys, "vm", vm);
	if ((guest = meta_guest()) != NULL)
		json_object_set_new(sys, "guest", guest);
	return (sys);
}

/*
 * A random (version 4) UUID naming one run wherever its results go: the
 * results database keys runs by it, so a run loaded twice stays one run.
 */
static json_t *
meta_run_id(void)
{
	unsigned char b[16];
	size_t got = 0;
	ssize_t n;

	while (got < sizeof b) {
		n = getrandom(b + got, sizeof b - got, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return (json_null());
		got += (size_t)n;
	}
	b[6] = (b[6] & 0x0f) | 0x40;
	b[8] = (b[8] & 0x3f) | 0x80;
	return (json_sprintf("%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
	    "%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2], b[3], b[4], b[5],
	    b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]));
}

/* Start a meta.json document for a command; takes a reference to system. */
json_t *
meta_new(const char *command, const char *label, json_t *system)
{
	json_t *meta = json_object();
	char *now = meta_utc_now();

	json_object_set_new(meta, "schema_version",
	    json_integer(META_SCHEMA_VERSION));
	json_object_set_new(meta, "tool", json_pack("{s:s, s:s}", "name",
	    PACKAGE_NAME, "version", PACKAGE_VERSION));
	json_object_set_new(meta, "run_id", meta_run_id());
	json_object_set_new(meta, "command", json_string(command));
	json_object_set_new(meta, "suite", json_null());
	json_object_set_new(meta, "label", json_string(label != NULL ? label :
	    ""));
	json_object_set_new(meta, "start_time", json_string(now));
	json_object_set_new(meta, "end_time", json_null());
	json_object_update(meta, system);
	json_object_set_new(meta, "status", json_string("running"));
	json_object_set_new(meta, "samples", json_integer(0));
	free(now);
	return (meta);
}

/*
 * Describe the region source: its name, why it was chosen, its roots and
 * what it adds itself, and the emulated region size when there is one.
 */
void
meta_set_source(json_t *meta, struct source *src)
{
	json_t *obj = json_pack("{s:s, s:s, s:s, s:s}", "name",
	    src->ops->name, "why", src->why != NULL ? src->why : "",
	    "proc_root", src->cfg.proc_root, "sys_root", src->cfg.sys_root);

	if (src->passed_over != NULL) {
		json_t *list = json_array();
		char *copy = xstrdup(src->passed_over), *line, *save = NULL;

		for (line = strtok_r(copy, "\n", &save); line != NULL;
		    line = strtok_r(NULL, "\n", &save))
			json_array_append_new(list, json_string(line));
		free(copy);
		json_object_set_new(obj, "passed_over", list);
	}
	if (src->ops->describe != NULL)
		src->ops->describe(src, obj);
	json_object_set_new(meta, "source", obj);
	json_object_set_new(meta, "region_size_bytes",
	    source_region_bytes(src) != 0 ?
	    json_integer((json_int_t)source_region_bytes(src)) : json_null());
}

/* Set the status; a final status also records the end time. */
void
meta_set_status(json_t *meta, const char *status)
{
	char *now;

	json_object_set_new(meta, "status", json_string(status));
	if (strcmp(status, "running") != 0) {
		now = meta_utc_now();
		json_object_set_new(meta, "end_time", json_string(now));
		free(now);
	}
}

/*
 * meta.json is padded with spaces (JSON allows them) to META_ROOM bytes
 * past the next 4 KiB boundary, so that the final rewrite still fits in
 * the blocks it holds when the filesystem is full.
 */
#define META_ROOM 8192

/*
 * Rewrite meta.json in place, within its present size: the last resort
 * when no new file fits (a full filesystem).  Not atomic, but the blocks
 * are already there, so the write cannot run out of space.
 */
static int
meta_rewrite_in_place(int dirfd, const char *line, size_t len)
{
	struct stat st;
	char *buf;
	int fd, rc = -1;

	if ((fd = openat(dirfd, "meta.json", O_WRONLY | O_NOFOLLOW |
	    O_CLOEXEC)) == -1)
		return (-1);
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    (size_t)st.st_size >= len) {
		buf = xmalloc(st.st_size);
		memcpy(buf, line, len);
		memset(buf + len, ' ', st.st_size - len);
		buf[st.st_size - 1] = '\n';
		if (pwrite(fd, buf, st.st_size, 0) == st.st_size &&
		    fsync(fd) == 0)
			rc = 0;
		free(buf);
	}
	close(fd);
	return (rc);
}

/*
 * Write meta.json atomically into the results directory open as dirfd
 * (named dir in messages), or at dir when dirfd is -1.
 */
int
meta_writeat(json_t *meta, int dirfd, const char *dir, char **cause)
{
	char *text = json_dumps(meta, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	char *line, *path;
	size_t len, padded;
	int rc;

	if (text == NULL)
		return (fail_with(cause, RB_EXIT_ENV,
		    "meta.json could not be encoded"));
	len = strlen(text) + 1;
	padded = ((len + 4095) & ~(size_t)4095) + META_ROOM;
	line = xmalloc(padded);
	memcpy(line, text, len - 1);
	memset(line + len - 1, ' ', padded - len + 1);
	line[len - 1] = '\n';
	line[padded - 1] = '\n';
	if (dirfd != -1) {
		rc = atomic_file_writeat(dirfd, dir, "meta.json", line,
		    padded, cause);
		if (rc != 0 && meta_rewrite_in_place(dirfd, line, len) == 0) {
			if (cause != NULL) {
				free(*cause);
				*cause = NULL;
			}
			rc = 0;
		}
	}
	else {
		path = xasprintf("%s/meta.json", dir);
		rc = atomic_file_write(path, line, padded, cause);
		free(path);
	}
	free(line);
	free(text);
	return (rc);
}

/* Write meta.json atomically into a results directory. */
int
meta_write(json_t *meta, const char *dir, char **cause)
{
	return (meta_writeat(meta, -1, dir, cause));
}

/*
 * Load a JSON file that must hold an object, of at most INPUT_JSON_MAX
 * bytes; a link at path is not followed (meta.json is in a results
 * directory, where anyone who could write it could plant one).  Errors
 * name the file and the line, as "PATH:LINE: what" (or "PATH: why").
 */
json_t *
meta_read_object(const char *path, char **cause)
{
	return (input_json_object(path, O_NOFOLLOW, INPUT_JSON_MAX, cause));
}

/* Is v a positive power of two? */
static int
meta_power_of_two(json_t *v)
{
	json_int_t n = json_integer_value(v);

	return (json_is_integer(v) && n > 0 && (n & (n - 1)) == 0);
}

/*
 * Read DIR/meta.json, the one door every reader of a results directory
 * uses: a JSON object of schema version 1 with a page size that is a power
 * of two and a region size that is positive or null.  Returns the document
 * (json_decref it), or NULL with a cause.
 */
json_t *
meta_read(const char *dir, char **cause)
{
	char *path = xasprintf("%s/meta.json", dir);
	const char *why = NULL;
	struct stat st;
	json_t *root, *v;

	if (lstat(path, &st) == -1) {
		fail_with(cause, RB_EXIT_INPUT, "%s: %s (not a results "
		    "directory?)", path, strerror(errno));
		free(path);
		return (NULL);
	}
	if ((root = meta_read_object(path, cause)) == NULL) {
		free(path);
		return (NULL);
	}
	v = json_object_get(root, "schema_version");
	if (!json_is_integer(v) || json_integer_value(v) !=
	    META_SCHEMA_VERSION)
		why = "schema_version: expected 1 (a newer regionbench wrote "
		    "this?)";
	else if (!meta_power_of_two(json_object_get(root, "page_size")))
		why = "page_size: expected a positive power of two";
	else if ((v = json_object_get(root, "region_size_bytes")) != NULL &&
	    !json_is_null(v) && (!json_is_integer(v) ||
	    json_integer_value(v) <= 0))
		why = "region_size_bytes: expected a positive integer or null";
	if (why != NULL) {
		fail_with(cause, RB_EXIT_INPUT, "%s: %s", path, why);
		json_decref(root);
		root = NULL;
	}
	free(path);
	return (root);
}

/*
 * A member by dotted path ("kernel.release", "suite.name"), or NULL when
 * any step is absent or not an object.
 */
json_t *
meta_get(json_t *meta, const char *path)
{
	char key[64];
	const char *dot;
	size_t len;

	while (json_is_object(meta) && (dot = strchr(path, '.')) != NULL) {
		len = (size_t)(dot - path);
		if (len >= sizeof key)
			return (NULL);
		memcpy(key, path, len);
		key[len] = '\0';
		meta = json_object_get(meta, key);
		path = dot + 1;
	}
	return (json_is_object(meta) ? json_object_get(meta, path) : NULL);
}

/* A string member by dotted path, or NULL when absent or not a string. */
const char *
meta_get_string(json_t *meta, const char *path)
{
	return (json_string_value(meta_get(meta, path)));
}
