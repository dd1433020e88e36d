/* Result CSVs read whole (a table), through the one RFC 4180 parser (csvstream.h): compare and
 * report read files users hand them. */
#ifndef C2C_CSVREAD_H
#define C2C_CSVREAD_H
#include <stddef.h>

#define CSVR_MAX_BYTES (512L << 20) /* a bigger file is refused, not read half */
#define CSVR_MAX_COLS 1024
#define CSVR_MAX_FIELD 65536

struct table {
	char *path;
	int ncols;
	char **cols;   /* header */
	long nrows;
	char ***cell;  /* cell[row][col], NUL-terminated strings */
	long *line;    /* first line of each row in the file (for messages) */
};

/* Read a whole CSV: header, then rows with exactly the header's field count.
 * Return 0, or -1 with a one-line message naming path and line. */
int table_read(struct table *t, const char *path, char *err);
/* Parse CSV text (len bytes; may hold any byte) as if read from path. */
int table_parse(struct table *t, const char *path, const char *text, size_t len, char *err);
void table_free(struct table *t);
/* Column index of name, or -1. */
int table_col(const struct table *t, const char *name);
/* Cell of row r in column name, or NULL when the column is absent. */
const char *table_get(const struct table *t, long r, const char *name);
#endif
