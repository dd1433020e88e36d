/* One result row: ordered column -> text value pairs, built whole before it is written. */
#ifndef C2C_ROW_H
#define C2C_ROW_H

#define ROW_MAX 512 /* 32 events x (roles + 1) columns fit beside a bench's own */
#define ROW_SLOTS 1024 /* the keys' hash table: open addressing, at most half full */

struct row {
	int n;
	char *key[ROW_MAX];
	char *val[ROW_MAX];
	unsigned short slot[ROW_SLOTS]; /* key index + 1 by hash of the key, 0: free (a row of { 0 }
					   is empty) */
	char na_reason[16384]; /* "column: why; ..." for every NA in the row, whole reasons only */
};

void row_set(struct row *r, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Mark a column as not measured: the value is NA and the reason is kept for the na_reason column.
 */
void row_na(struct row *r, const char *key, const char *reason);
/* Append one whole reason ("col: why") to na_reason, "; "-separated; one that does not fit whole
 * is left out whole, never cut (its columns then read "no reason recorded" in the report). */
void row_na_reason(struct row *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *row_get(const struct row *r, const char *key);
/* The value as a number; returns 0 and sets *ok = 0 when missing or NA. */
double row_num(const struct row *r, const char *key, int *ok);
void row_copy(struct row *dst, const struct row *src);
void row_clear(struct row *r);
#endif
