/*
 * Kill points (see killpoint.h).  Operations are numbered in the order they
 * start, over every thread of the process; the one chosen kills the whole
 * process when it has done its part.
 */
#include "config.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "killpoint.h"

static pthread_once_t	 killpoint_once = PTHREAD_ONCE_INIT;
static unsigned long	 killpoint_at;		/* 0: off */
static int		 killpoint_torn;
static unsigned long	 killpoint_count;

/* Read REGIONBENCH_TEST_KILL_AT once; anything malformed leaves it off. */
static void
killpoint_init(void)
{
	const char *s = getenv(KILLPOINT_ENV);
	unsigned long n;
	char *end;

	if (s == NULL || *s < '0' || *s > '9')
		return;
	n = strtoul(s, &end, 10);
	if (strcmp(end, "/torn") == 0)
		killpoint_torn = 1;
	else if (*end != '\0')
		return;
	killpoint_at = n;
}

/* Number the operation that starts now (0 when the hook is off). */
unsigned long
killpoint_begin(void)
{
	pthread_once(&killpoint_once, killpoint_init);
	if (killpoint_at == 0)
		return (0);
	return (__atomic_add_fetch(&killpoint_count, 1, __ATOMIC_SEQ_CST));
}

/* How many of the len bytes write operation op may write before its end. */
size_t
killpoint_cut(unsigned long op, size_t len)
{
	if (op != 0 && op == killpoint_at && killpoint_torn)
		return (len / 2);
	return (len);
}

/* Operation op has done its part: die here if it is the chosen one. */
void
killpoint_end(unsigned long op)
{
	if (op != 0 && op == killpoint_at)
		kill(getpid(), SIGKILL);
}

/* One operation that cannot be cut in half (create, fsync, rename). */
void
killpoint_op(void)
{
	killpoint_end(killpoint_begin());
}
