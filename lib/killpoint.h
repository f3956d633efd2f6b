/*
 * Kill points: a test hook that makes the process SIGKILL itself right
 * after its Nth file operation on results (a directory or file created, a
 * write, an fsync, a rename), so a test can stop a run at every point where
 * what is on disk changes and check that what is left is never damaged.
 *
 * REGIONBENCH_TEST_KILL_AT=N picks the operation (1 is the first); with
 * "N/torn", when operation N is a write only its first half is written
 * before the kill, as a SIGKILL in the middle of a large write(2) does.
 * Unset (the normal case) each call costs one load of a flag.
 */
#ifndef RB_KILLPOINT_H
#define RB_KILLPOINT_H

#include <stddef.h>

#define KILLPOINT_ENV	"REGIONBENCH_TEST_KILL_AT"

unsigned long	 killpoint_begin(void);
size_t		 killpoint_cut(unsigned long op, size_t len);
void		 killpoint_end(unsigned long op);
void		 killpoint_op(void);

#endif
