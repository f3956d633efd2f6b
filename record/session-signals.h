/*
 * The signals that end a session cleanly (session-signals.c): what the
 * recording loops, the references' poller and vacate probes check
 * between steps.
 */
#ifndef RB_SESSION_SIGNALS_H
#define RB_SESSION_SIGNALS_H

#include <signal.h>

/* session_catch_signals flags. */
#define SESSION_SIGHUP		0x1	/* SIGHUP ends it too */
#define SESSION_NO_SIGPIPE	0x2	/* a closed pipe must not kill it */

void	 session_catch_signals(int flags);
int	 session_signal(void);
volatile sig_atomic_t *session_stop_flag(void);

#endif
