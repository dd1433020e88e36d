/* Small shared helpers: error strings, clocks, cache-block alignment. */
#ifndef C2C_UTIL_H
#define C2C_UTIL_H
#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* Harness-private data is padded to this, so the harness never false-shares with itself
 * (two 64-byte lines: defeats the adjacent-line prefetcher too). */
#define C2C_BLOCK 128
#define C2C_ALIGNED __attribute__((aligned(C2C_BLOCK)))

#define ERRLEN 1024
/* Columns of an error message: after "c2cbench: error: " (17), its line fits in 100 with a bad
 * value of up to 10 characters (tests/test_error_widths.c). A list of what is accepted that would
 * not fit is named where it is printed instead (`c2cbench events --all`, --help). */
#define ERR_WIDTH 83
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Exit statuses. */
enum { EXIT_BADINPUT = 2, EXIT_NOCOUNTERS = 3, EXIT_NOVALID = 4 };

/* Format an error into err (size ERRLEN) and return -1, so callers can `return err_set(...)`. */
int err_set(char *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* err_set's message, then "; accepted: LIST", or "; accepted: WHERE" (where the list is printed:
 * "those `c2cbench list` names") when the line would be over ERR_WIDTH. */
int err_accepted(char *err, const char *list, const char *where, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Print "c2cbench: error: MSG" on one line and exit with status code. */
void die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));

static inline uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void sleep_ns(uint64_t ns);

/* Strict number parsing (parse_long, parse_double): lib/parse.h, one grammar for every input.
 */
#include "lib/parse.h"

/* Duplicate a string or allocate, or exit 1 with one line (out_of_memory): never a NULL to crash
 * on. */
char *xstrdup(const char *s);
void *xcalloc(size_t n, size_t size);
/* The one-line out-of-memory exit, for allocations that cannot use xcalloc (aligned_alloc,
 * realloc). */
void out_of_memory(size_t bytes) __attribute__((noreturn));
/* qsort, for an array that may be NULL when it holds no elements (qsort may not be handed one) */
void sort_n(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
/* A file's text, its first max bytes at most, NUL-terminated (malloc'ed); NULL when it cannot be
 * opened or is not a regular file (lib/infile.h: fopen_regular). */
char *file_text(const char *path, size_t max);
/* What to remove before that exit (the run's empty CSV and .meta); called once, from out_of_memory.
 */
void oom_cleanup(void (*fn)(void));

/* Copy s into out (size n) printable and on one line: control bytes become \n, \t, \r or \xNN.
 * C1 controls too, which 8-bit and UTF-8 terminals obey: a raw byte 0x80 to 0x9f (0x9b is CSI)
 * becomes \x9b, and U+0080 to U+009F encoded (\xc2\x80 to \xc2\x9f) becomes its two bytes,
 * \xc2\x9b. Valid UTF-8 text ("±", "µ", "€") stays as it is; any other byte of no valid UTF-8
 * sequence becomes \xNN. Cut before an escape or character that does not fit whole; out is
 * always terminated. Used for any user or file text that goes into a message. */
void text_escape(const char *s, char *out, size_t n);
/* Whether s holds a control character, which text_escape would escape: C0, DEL, or C1 (a raw
 * byte 0x80 to 0x9f outside a valid UTF-8 sequence, or U+0080 to U+009F encoded). Other bytes of
 * no valid UTF-8 sequence (a Latin-1 name's 0xe9) are not controls. */
int text_has_control(const char *s);
#endif
