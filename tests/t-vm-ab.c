/*
 * regionbench ab's judgement of the guest kernels' health (lib/vm-ab.c)
 * on boot directories as the A/B leaves them: a bug reported by B's
 * kernel in any boot fails a verdict the gate passed, one of A only warns,
 * and a boot without a readable vm.json holds no report.
 */
#include "config.h"

#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "vm.h"

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

/* What the judgement wrote to stderr, captured in a file. */
static int
judge(const char *const labels[2], long boots, int verdict, char *said,
    size_t len)
{
	char path[4300];
	FILE *f;
	size_t n;
	int saved, rc;

	snprintf(path, sizeof path, "%s/stderr", top);
	fflush(stderr);
	saved = dup(2);
	if ((f = freopen(path, "w", stderr)) == NULL)
		exit(99);
	rc = vm_ab_judge_kernels(top, labels, boots, verdict);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	f = fopen(path, "r");
	n = f != NULL ? fread(said, 1, len - 1, f) : 0;
	said[n] = '\0';
	if (f != NULL)
		fclose(f);
	return (rc);
}

int
main(void)
{
	static const char *const healthy[2] = { "plain", "same" };
	static const char *const sick_a[2] = { "plain", "patched" };
	static const char *const sick_b[2] = { "patched", "plain" };
	const char *tmp = getenv("TMPDIR");
	char said[8192];

	snprintf(top, sizeof top, "%s/t-vm-ab.XXXXXX", tmp != NULL ? tmp :
	    "/tmp");
	if (mkdtemp(top) == NULL)
		tap_skip_all("mkdtemp failed");
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

	tap_ok(judge(healthy, 2, 0, said, sizeof said) == 0 &&
	    said[0] == '\0', "healthy kernels: the gate's pass stands, "
	    "silently");
	tap_ok(judge(healthy, 2, 1, said, sizeof said) == 1,
	    "healthy kernels: the gate's failure stands");

	tap_ok(judge(sick_b, 2, 0, said, sizeof said) == 0,
	    "a bug in A only leaves the gate's pass");
	tap_ok(strstr(said, "in boot patched-2 the guest kernel reported "
	    "\"WARNING: CPU: 1 PID: 77 at mm/page_alloc.c:4410") != NULL &&
	    strstr(said, "/patched-2/vm-dmesg.log") != NULL,
	    "the boot, its report and its log are named");
	tap_ok(strstr(said, "kernel A (patched) reported a bug in 1 of 2 "
	    "boots") != NULL && strstr(said, "FAIL") == NULL,
	    "A's report is a warning about the baseline");

	tap_ok(judge(sick_a, 2, 0, said, sizeof said) == 1,
	    "a bug in B fails what the gate passed");
	tap_ok(strstr(said, "FAIL: kernel B (patched) reported a bug in 1 of "
	    "2 boots; its figures passed the gate") != NULL,
	    "the failure says the log failed, not the figures");
	tap_ok(judge(sick_a, 2, 1, said, sizeof said) == 1 &&
	    strstr(said, "FAIL: kernel B (patched)") != NULL,
	    "a bug in B is named when the gate failed too");

	tap_ok(judge(sick_a, 1, 0, said, sizeof said) == 0,
	    "only the boots of this A/B count (patched-2 is beyond it)");
	tap_ok(judge((const char *const[2]){ "plain", "patched" }, 0, 0, said,
	    sizeof said) == 0, "no boots, no reports");
	/* patched-3 has no vm.json, patched-4 a cut one. */
	{
		char moved[4300], back[4300];

		snprintf(moved, sizeof moved, "%s/patched-2", top);
		snprintf(back, sizeof back, "%s/patched-9", top);
		rename(moved, back);
		tap_ok(judge(sick_a, 4, 0, said, sizeof said) == 0 &&
		    said[0] == '\0', "boots without a readable vm.json hold "
		    "no report");
		rename(back, moved);
	}

	snprintf(said, sizeof said, "rm -rf '%s'", top);
	if (system(said) != 0)
		tap_diag("could not remove %s", top);
	return (tap_done());
}
