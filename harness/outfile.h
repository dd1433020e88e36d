/* Outputs written whole or not at all, and inputs that are what they claim to be. */
#ifndef C2C_OUTFILE_H
#define C2C_OUTFILE_H
#include <limits.h>
#include <stdio.h>
#include <sys/types.h>

struct outfile {
	FILE *f;
	char path[PATH_MAX];
	char tmp[PATH_MAX + 16];
};

enum { OUTFILE_REPLACE, OUTFILE_NEW };

/* A fresh file of our own beside path (DIR/.NAME.XXXXXX: mkstemp, O_EXCL, mode 0644), so a file
 * of the user's is never opened, and readers that skip dot files never see it half-written.
 * NULL with errno. */
FILE *outfile_open(struct outfile *o, const char *path);
/* Flush it, check every write and the close, then move it to path: over what is there
 * (OUTFILE_REPLACE, rename) or only where nothing is (OUTFILE_NEW, link: EEXIST otherwise). The
 * temporary is gone afterwards, whatever happened. 0, or -1 with errno. */
int outfile_commit(struct outfile *o, int how);
/* Close and remove the temporary (a failure before the commit). */
void outfile_abort(struct outfile *o);

/* path opened for reading only when, links followed, it is a regular file: never a FIFO that
 * blocks the reader or a device that never ends. NULL with errno (EINVAL: not a regular file). */
FILE *fopen_regular(const char *path);
/* What a file of this st_mode is, in words: "a regular file", "a FIFO", "a character device"... */
const char *file_kind(mode_t mode);
#endif
