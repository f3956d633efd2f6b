/*
 * regionbench ab's naming of the boots whose guest kernel reported a bug
 * (vm/vm-ab.c), on boot directories as the A/B leaves them: each such
 * boot of either side is named with its report, its side and its log;
 * boots beyond the A/B's count or without a readable vm.json are not.
 * The verdict on such a kernel is the gate's (analyze-gate.sh).
 */
#include "config.h"

#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "vm-ab.h"

static char top[4096];

/* Write top/LABEL-N/vm.json holding text, or only the directory. */
static void
boot(const char *label, int n, const char *text)
{
	char path[4300];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s-%d", top, label, n);
	if (mkdir(path, 0755) != 0) {
		perror(path);
		exit(99);
	}
	if (text == NULL)
		return;
	strncat(path, "/" VM_FACTS_FILE, sizeof path - strlen(path) - 1);
	if ((f = fopen(path, "w")) == NULL || fputs(text, f) == EOF ||
	    fclose(f) != 0) {
		perror(path);
		exit(99);
	}
}

/* What naming the reports wrote to stderr, captured in a file. */
static void
name_reports(const char *const labels[2], long boots, char *said,
    size_t len)
{
	char path[4300];
	FILE *f;
	size_t n;
	int saved;

	snprintf(path, sizeof path, "%s/stderr", top);
	fflush(stderr);
	saved = dup(2);
	if ((f = freopen(path, "w", stderr)) == NULL)
		exit(99);
	vm_ab_name_kernel_reports(top, labels, boots);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	f = fopen(path, "r");
	n = f != NULL ? fread(said, 1, len - 1, f) : 0;
	said[n] = '\0';
	if (f != NULL)
		fclose(f);
}

int
main(void)
{
	static const char *const healthy[2] = { "plain", "same" };
	static const char *const sick_a[2] = { "plain", "patched" };
	static const char *const sick_b[2] = { "patched", "plain" };
	char said[8192];

	snprintf(top, sizeof top, "%s", tap_scratch_dir("t-vm-ab"));
	boot("plain", 1, "{\"status\": \"ok\", \"exit\": 0}");
	boot("plain", 2, "{\"status\": \"ok\", \"exit\": 0}");
	boot("same", 1, "{\"status\": \"ok\", \"exit\": 0}");
	boot("same", 2, "{\"status\": \"ok\", \"exit\": 0}");
	boot("patched", 1, "{\"status\": \"ok\", \"exit\": 0}");
	boot("patched", 2, "{\"status\": \"ok\", \"exit\": 0, "
	    "\"kernel_report\": \"WARNING: CPU: 1 PID: 77 at "
	    "mm/page_alloc.c:4410 __alloc_pages+0x2b1/0x330\"}");
	boot("patched", 3, NULL);
	boot("patched", 4, "{\"kernel_report\": ");

	name_reports(healthy, 2, said, sizeof said);
	tap_ok(said[0] == '\0', "healthy kernels: nothing is said");

	name_reports(sick_b, 2, said, sizeof said);
	tap_ok(strstr(said, "in boot patched-2 (baseline) the guest kernel "
	    "reported \"WARNING: CPU: 1 PID: 77 at mm/page_alloc.c:4410")
	    != NULL && strstr(said, "/patched-2/vm-dmesg.log") != NULL,
	    "a baseline's boot is named with its report and its log");
	name_reports(sick_a, 2, said, sizeof said);
	tap_ok(strstr(said, "in boot patched-2 (candidate) the guest kernel "
	    "reported \"WARNING") != NULL && strstr(said, "plain-") == NULL,
	    "a candidate's boot is named, its healthy baseline is not");
	tap_ok(strchr(said, '\n') == strrchr(said, '\n'),
	    "one line for one boot with a report");

	name_reports(sick_a, 1, said, sizeof said);
	tap_ok(said[0] == '\0',
	    "only the boots of this A/B count (patched-2 is beyond it)");
	name_reports((const char *const[2]){ "plain", "patched" }, 0, said,
	    sizeof said);
	tap_ok(said[0] == '\0', "no boots, no reports");
	/* patched-3 has no vm.json, patched-4 a cut one. */
	{
		char moved[4300], back[4300];

		snprintf(moved, sizeof moved, "%s/patched-2", top);
		snprintf(back, sizeof back, "%s/patched-9", top);
		rename(moved, back);
		name_reports(sick_a, 4, said, sizeof said);
		tap_ok(said[0] == '\0', "boots without a readable vm.json "
		    "hold no report");
		rename(back, moved);
	}

	return (tap_done());
}
