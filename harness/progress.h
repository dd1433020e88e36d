/* The live progress line on a terminal (`run` and `preset` share it): one line on stderr, redrawn
 * in place, cleared before anything else is printed; nothing at all when stderr is not a terminal.
 */
#ifndef C2C_PROGRESS_H
#define C2C_PROGRESS_H
#include <stddef.h>
#include <stdio.h>

/* Set by preset for its runs, whose stderr is a pipe: instead of the line, each redraw writes one
 * line PROGRESS_LEFT "SECONDS (WHERE)\n" (what is left of the run, then where it is), which preset
 * reads and does not relay. */
#define PROGRESS_ENV "C2C_PROGRESS_LINES"
#define PROGRESS_LEFT "c2cbench-progress: left "

struct progress {
	FILE *f;
	int on;    /* f is a terminal and the user did not ask for quiet */
	int lines; /* not a terminal, and PROGRESS_ENV is set: progress_left writes lines */
	int shown; /* a line is on the terminal and must be cleared before other output */
	double t0; /* seconds (monotonic) at progress_start */
};

/* wanted: 0 under --quiet. The line is drawn only when f is a terminal. */
void progress_start(struct progress *p, FILE *f, int wanted);
/* Draw fmt (one line, no newline) in place of the previous line. */
void progress_show(struct progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* With lines on: one line saying how many seconds are left, and where the work is (free text). */
void progress_left(struct progress *p, double seconds, const char *where);
/* Remove the line, so the next output starts at the left margin. */
void progress_clear(struct progress *p);
/* Seconds since progress_start. */
double progress_elapsed(const struct progress *p);
/* A duration as h:mm:ss (every ETA and elapsed time the tools print). */
void fmt_hms(char *b, size_t n, double seconds);
/* Seconds left, retries counted: the `attempts` finished attempts took elapsed seconds (est: the
 * planned seconds per attempt until one has been measured); done of total repetitions are finished,
 * the one in progress is at its attempt-th attempt, running for `in` seconds. Each repetition left
 * is expected to take as many attempts as the finished ones took on average; the attempt running
 * counts down. */
double progress_eta(double elapsed, double in, int attempts, int done, int total, int attempt,
		    double est);
/* While this thread waits (sleep_or_stop), call draw(arg) about once a second; NULL stops it. The
 * hook is this thread's only: a measuring thread that sleeps never draws. */
void progress_ticker(void (*draw)(void *arg), void *arg);
/* Called by the waits of the controlling thread: draws when a second has passed since the last. */
void progress_tick(void);
#endif
