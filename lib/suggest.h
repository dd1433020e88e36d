/* "Did you mean": the candidate closest to a mistyped name, offered only when it is close enough
 * to be a typo, so an error never points at an unrelated name. */
#ifndef C2C_SUGGEST_H
#define C2C_SUGGEST_H
#include <stddef.h>

/* Case-insensitive Levenshtein distance. */
int edit_distance(const char *a, const char *b);
/* The closest of n candidates to bad when within typo distance (a third of its length, at least 2;
 * a candidate that starts with bad also counts), else NULL. */
const char *suggest_from(const char *bad, const char *const *cands, int n);
/* The same over a comma (or '|') separated list; writes " (did you mean 'X'?)" into out, or "" when
 * nothing is close. Returns out. */
const char *suggest_list(const char *bad, const char *list, char *out, size_t n);
#endif
