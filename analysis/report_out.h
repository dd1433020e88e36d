/* The report's output directory: everything is written into a fresh temporary directory beside
 * DIR and renamed into place when whole; on any failure the temporary directory is removed. */
#ifndef C2C_REPORT_OUT_H
#define C2C_REPORT_OUT_H
#include <limits.h>
#include <stdio.h>

struct outdir {
	char dir[PATH_MAX]; /* the final directory */
	char tmp[PATH_MAX]; /* where it is written */
	int force;
	int failed;         /* a write failed: err holds the first message */
	char err[512];
};

/* Check DIR can be written (new, empty, or force) and make the temporary directory with data/.
 * -1 with err: exit 2 when DIR is refused, exit 1 when it cannot be created (*status). */
int out_begin(struct outdir *o, const char *dir, int force, int *status, char *err);
/* Open NAME (relative) in the temporary directory; NULL on failure (recorded). */
FILE *out_open(struct outdir *o, const char *name);
/* Close f, checking every write reached the file; a failure is recorded, naming DIR/NAME. */
void out_close(struct outdir *o, FILE *f, const char *name);
/* Record a failure naming DIR/NAME. */
void out_fail(struct outdir *o, const char *name, const char *why);
/* The temporary path of NAME. */
void out_path(const struct outdir *o, const char *name, char *buf, size_t cap);
/* Rename the temporary directory into place (replacing DIR when forced). -1 with err. */
int out_commit(struct outdir *o, char *err);
/* Remove the temporary directory and all in it (after a failure). */
void out_abort(struct outdir *o);
#endif
