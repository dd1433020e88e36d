/* A preset's runs as child processes of this same binary (/proc/self/exe): `c2cbench run BENCH ...`
 * with stdout and stderr on pipes, read in one place whether they are captured or relayed. */
#ifndef C2C_PRESET_CHILD_H
#define C2C_PRESET_CHILD_H
#include "runner/preset.h"
#include <stddef.h>
#include <sys/types.h>

#define CAPTURE_MAX 65536

/* Where a child's output goes: sink gets each chunk (stream 0: stdout, 1: stderr); tick, when set,
 * is called about every tick_ms while the child runs (to redraw a progress line). */
struct child_io {
	void (*sink)(void *arg, int stream, const char *buf, size_t n);
	void (*tick)(void *arg);
	int tick_ms;
	void *arg;
};

/* The path of this binary (what the children execute). */
const char *self_exe(void);
/* Start `c2cbench run BENCH args... extra...` (extra NULL-terminated); forward_signals: Ctrl-C and
 * SIGTERM reach it through this process. Read both pipes through io until they close; return the
 * exit status (128+signal when killed). */
int child_run(const struct preset_run *r, const char *const *extra, int forward_signals,
	      const struct child_io *io);
/* Run to completion, keeping (the first CAPTURE_MAX-1 bytes of) stdout and stderr, NUL-terminated.
 */
int child_capture(const struct preset_run *r, const char *const *extra, char *out, char *err);
#endif
