/* Inputs that are what they claim to be: regular files (outputs are written whole by replace.h). */
#ifndef C2C_INFILE_H
#define C2C_INFILE_H
#include <stdio.h>
#include <sys/types.h>

/* path opened for reading only when, links followed, it is a regular file: never a FIFO that
 * blocks the reader or a device that never ends. NULL with errno (EINVAL: not a regular file). */
FILE *fopen_regular(const char *path);
/* What a file of this st_mode is, in words: "a regular file", "a FIFO", "a character device"... */
const char *file_kind(mode_t mode);
#endif
