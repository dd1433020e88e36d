/* CSV output (RFC 4180 quoting): a header line, then rows written whole or not at all. */
#ifndef C2C_CSV_H
#define C2C_CSV_H
#include "harness/row.h"
#include "lib/csvfield.h"
#include <stddef.h>
#include <stdint.h>

struct csv {
	int fd;
	char *path;
	int ncols;
	char **cols; /* the header, fixed by the first row */
	long rows;
	int created; /* a new regular file of ours (may be removed if it stays empty) */
	uint64_t synced_ns; /* when the file was last flushed to the device (fdatasync) */
};

/* Rows reach the kernel as they are written (a killed run keeps every whole row); they are flushed
 * to the device at most this often and at close: pingpong writes thousands of rows a second. */
#define CSV_SYNC_NS 1000000000ull

/* Create path (parent directory must exist); an existing file is never truncated: refuse it.
 * "-" is standard output. */
int csv_open(struct csv *c, const char *path, char *err);
/* Append one row in a single write; its columns must be the header's, in order. The header and
 * any row CSV_SYNC_NS after the last flush are flushed to the device (fdatasync). */
int csv_write(struct csv *c, const struct row *r, char *err);
int csv_close(struct csv *c, char *err);
#endif
