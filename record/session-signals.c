/*
 * The signals that end a session cleanly: a handler that only remembers
 * which one came, read by every loop that must stop (session-signals.h).
 */
#include "config.h"

#include <signal.h>
#include <string.h>

#include "session-signals.h"

static volatile sig_atomic_t session_caught;

/* Remember which signal asked us to stop; the loops notice it. */
static void
session_on_signal(int sig)
{
	session_caught = sig;
}

/* SIGINT and SIGTERM (and SIGHUP if asked) end the session cleanly. */
void
session_catch_signals(int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = session_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (flags & SESSION_SIGHUP)
		sigaction(SIGHUP, &sa, NULL);
	if (flags & SESSION_NO_SIGPIPE)
		signal(SIGPIPE, SIG_IGN);
}

/* The signal that asked us to stop, or 0. */
int
session_signal(void)
{
	return (session_caught);
}

/* The same, for code that must notice it between system calls. */
volatile sig_atomic_t *
session_stop_flag(void)
{
	return (&session_caught);
}
