/* One strict grammar for every number, list and CPU list c2cbench reads: the command line, presets
 * and result CSVs all parse with these, so a value means the same thing everywhere (docs/input.md).
 */
#ifndef C2C_PARSE_H
#define C2C_PARSE_H
#include <stddef.h>

/* Largest OS CPU number a CPU list may name (no machine has more; keeps bitmaps small). */
#define CPU_NUMBER_MAX 65535

/* Integer: [-]DIGITS, decimal, nothing else (no '+', spaces, hex, octal prefix, suffix). Overflow
 * fails. Return 0 or -1. */
int parse_long(const char *s, long *out);
/* Real: [-]DIGITS[.DIGITS][(e|E)[+|-]DIGITS], finite (no inf, nan, hex floats, spaces). Return 0 or
 * -1. */
int parse_double(const char *s, double *out);
/* Whole number in [lo, hi] (same grammar as parse_long). Return 0 or -1. */
int parse_long_in(const char *s, long lo, long hi, long *out);

/* A comma list: one or more elements, none empty ("a,,b", ",a", "a," fail).
 * Return the element count, or -1 with why (a phrase such as "element 2 is empty"). */
int list_count(const char *s, char *why, size_t n);
/* Does the comma list `list` contain `item`? */
int list_has(const char *list, const char *item);
/* Split a comma list into at most max items (strdup'ed into *out); return the count. */
int list_split(const char *list, char **out, int max);

/* CPU list: RANGE[,RANGE...], RANGE = N or N-M (N <= M), N, M whole numbers 0..CPU_NUMBER_MAX.
 * Order is kept as written; a CPU named twice fails. Fills at most max CPUs into cpus.
 * Return the count, or -1 with why. */
int parse_cpulist(const char *s, int *cpus, int max, char *why, size_t n);
#endif
