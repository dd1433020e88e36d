/* Write-then-rename, the one way a file is written whole: a reader of PATH (or a crash) sees the
 * old file or the complete new one, never a part. */
#ifndef C2C_REPLACE_H
#define C2C_REPLACE_H
#include <limits.h>
#include <stdio.h>

struct replace {
	FILE *f;
	char tmp[PATH_MAX];  /* DIR/.NAME.XXXXXX beside PATH: a name of our own (mkstemp, O_EXCL) */
	char path[PATH_MAX];
};

enum { REPLACE_OVER, REPLACE_NEW };

/* The stream to write PATH's new text to: a temporary of our own, mode 0644, never a file of the
 * user's (a PATH.tmp of theirs is never opened or removed). NULL with errno set. */
FILE *replace_open(struct replace *r, const char *path);
/* Close the temporary and put it at PATH: REPLACE_OVER renames it over what is there;
 * REPLACE_NEW links it, keeping a file that appeared at PATH meanwhile (EEXIST). 0, or -1 with
 * errno set (a failed write, a full disk); the temporary is gone either way. */
int replace_commit(struct replace *r, int how);
/* Close and remove the temporary; PATH is untouched. */
void replace_abort(struct replace *r);
#endif
