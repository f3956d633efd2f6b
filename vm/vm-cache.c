/*
 * The cache of what `regionbench vm` builds once and boots many times (an
 * unpacked vmlinux per kernel image, an initramfs per kernel, init and
 * modules tree), in $XDG_CACHE_HOME/regionbench/vm: its directory, entries
 * stored whole and checked before use, and the least recently used pruned.
 */
#include "config.h"

#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/types.h>

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <fts.h>
#include <limits.h>
#include <lzma.h>
#include <nettle/sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "atomic-file.h"
#include "input-file.h"
#include "log.h"
#include "trusted-path.h"
#include "units.h"
#include "vm.h"
#include "vm-private.h"
#include "vm-private.h"

/* The cache directory, created; NULL with a cause. */
char *
vm_cache_dir(char **cause)
{
	const char *base = getenv("XDG_CACHE_HOME");
	char *dir, *p;

	if (base != NULL && base[0] == '/')
		dir = xasprintf("%s/regionbench/vm", base);
	else if (getenv("HOME") != NULL)
		dir = xasprintf("%s/.cache/regionbench/vm", getenv("HOME"));
	else {
		fail_with(cause, RB_EXIT_ENV, "no cache directory: set "
		    "XDG_CACHE_HOME or HOME");
		return (NULL);
	}
	for (p = dir + 1; ; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		char c = *p;

		*p = '\0';
		if (mkdir(dir, 0755) == -1 && errno != EEXIST) {
			fail_with(cause, RB_EXIT_ENV, "%s: %s", dir,
			    strerror(errno));
			free(dir);
			return (NULL);
		}
		*p = c;
		if (c == '\0')
			break;
	}
	/*
	 * The guest boots what it finds here, as root, with the host's
	 * files in reach: nobody else may be able to put anything here.
	 */
	if (trusted_dir(dir, "the vm cache ($XDG_CACHE_HOME or $HOME/.cache)",
	    cause) != 0) {
		free(dir);
		return (NULL);
	}
	return (dir);
}

/*
 * The cache holds an unpacked vmlinux (tens of MiB) for every kernel image
 * booted and an initramfs for every kernel, init and modules tree, so a
 * kernel developer rebuilding all day would fill the disk.  Every use of an
 * entry refreshes its modification time; after one is added, the least
 * recently used go while the cache is over VM_CACHE_MAX
 * (REGIONBENCH_VM_CACHE_MAX overrides), sparing those used in the last
 * VM_CACHE_MIN_AGE seconds, which a boot starting now may be about to open.
 */
#define VM_CACHE_MAX		(1ULL << 30)
#define VM_CACHE_MIN_AGE	3600

struct vm_cache_entry {
	char	*path;
	time_t	 used;
	off_t	 size;
};

/* Mark a cache entry as used now. */
void
vm_cache_used(const char *path)
{
	utimensat(AT_FDCWD, path, NULL, 0);
}

static int
vm_cache_entry_cmp(const void *a, const void *b)
{
	const struct vm_cache_entry *x = a, *y = b;

	return (x->used < y->used ? -1 : x->used > y->used);
}

/* Is this file of the cache's own: a vmlinux or an initramfs? */
static int
vm_cache_is_entry(const char *name)
{
	size_t len = strlen(name);

	if (len > 7 && strcmp(name + len - 7, ".sha256") == 0)
		return (0);
	return (strncmp(name, "vmlinux-", 8) == 0 ||
	    strncmp(name, "initramfs-", 10) == 0);
}

/*
 * Store a cache entry and, beside it (PATH.sha256), the hash of what was
 * written; 0 or a negative exit code with a cause.
 */
int
vm_cache_store(const char *path, const void *data, size_t len, char **cause)
{
	char hash[65], *side;
	int rc;

	vm_sha256(data, len, hash);
	side = xasprintf("%s.sha256", path);
	hash[64] = '\n';
	rc = atomic_file_write(path, data, len, cause) != 0 ||
	    atomic_file_write(side, hash, 65, cause) != 0 ? -RB_EXIT_ENV : 0;
	free(side);
	return (rc);
}

/*
 * Is the cached file at path usable: this user's or root's, writable by
 * nobody else, and still what was stored (its hash)?  Anything else is
 * removed, with a warning when it is not merely absent, and rebuilt.
 */
int
vm_cache_valid(const char *path)
{
	char want[66] = "", have[65], *side, *why = NULL;
	FILE *f;
	int ok;

	if (access(path, F_OK) == -1)
		return (0);
	side = xasprintf("%s.sha256", path);
	if ((f = fopen(side, "re")) != NULL) {
		if (fgets(want, sizeof want, f) == NULL)
			want[0] = '\0';
		fclose(f);
	}
	want[strcspn(want, "\n")] = '\0';
	ok = trusted_file(path, "vm cache", &why) == 0 &&
	    trusted_file(side, "vm cache", &why) == 0 &&
	    vm_sha256_file(path, have, NULL) == 0 && strcmp(want, have) == 0;
	if (!ok) {
		log_warnx("vm: %s: %s; built again", path, why != NULL ? why :
		    "not what was stored (its hash differs)");
		unlink(path);
		unlink(side);
	}
	free(why);
	free(side);
	return (ok);
}

/* Remove the least recently used entries while the cache is too big. */
void
vm_cache_prune(const char *dir)
{
	const char *env = getenv("REGIONBENCH_VM_CACHE_MAX");
	struct vm_cache_entry *e = NULL;
	uint64_t max = VM_CACHE_MAX, total = 0;
	struct dirent *d;
	struct stat st;
	time_t now = time(NULL);
	size_t n = 0, i;
	DIR *dp;

	if (env != NULL && units_parse_size(env, &max, NULL) != 0) {
		log_warnx("vm: REGIONBENCH_VM_CACHE_MAX=%s is not a size; "
		    "the cache is kept to 1G", env);
		max = VM_CACHE_MAX;
	}
	if ((dp = opendir(dir)) == NULL)
		return;
	while ((d = readdir(dp)) != NULL) {
		if (!vm_cache_is_entry(d->d_name) ||
		    fstatat(dirfd(dp), d->d_name, &st,
		    AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
			continue;
		e = xreallocarray(e, n + 1, sizeof *e);
		e[n].path = xasprintf("%s/%s", dir, d->d_name);
		e[n].used = st.st_mtime;
		e[n++].size = st.st_size;
		total += (uint64_t)st.st_size;
	}
	closedir(dp);
	qsort(e, n, sizeof *e, vm_cache_entry_cmp);
	for (i = 0; i < n && total > max; i++) {
		if (now - e[i].used < VM_CACHE_MIN_AGE)
			break;
		if (unlink(e[i].path) == 0) {
			char *side = xasprintf("%s.sha256", e[i].path);

			unlink(side);
			free(side);
			total -= (uint64_t)e[i].size;
		}
	}
	for (i = 0; i < n; i++)
		free(e[i].path);
	free(e);
}
