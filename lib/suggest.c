#include "lib/suggest.h"
#include "lib/util.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	int *row = xcalloc(lb + 1, sizeof(int));
	for (size_t j = 0; j <= lb; j++)
		row[j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		int diag = row[0];
		row[0] = (int)i;
		for (size_t j = 1; j <= lb; j++) {
			int up = row[j];
			int sub = diag + (tolower((unsigned char)a[i - 1]) !=
					  tolower((unsigned char)b[j - 1]));
			int best = up + 1 < row[j - 1] + 1 ? up + 1 : row[j - 1] + 1;
			row[j] = sub < best ? sub : best;
			diag = up;
		}
	}
	int d = row[lb];
	free(row);
	return d;
}

/* How far a typo may be from what was meant: long names tolerate more slips. */
static int typo_limit(const char *bad)
{
	int l = (int)strlen(bad) / 3;
	return l < 2 ? 2 : l;
}

const char *suggest_from(const char *bad, const char *const *cands, int n)
{
	const char *best = NULL;
	int bd = 1 << 30;
	size_t bl = strlen(bad);
	if (!bl)
		return NULL;
	for (int i = 0; i < n; i++) {
		if (!cands[i] || !cands[i][0])
			continue;
		int d = edit_distance(bad, cands[i]);
		if (bl >= 3 && !strncasecmp(cands[i], bad, bl))
			d = d < 1 ? d : 1; /* an abbreviation is as good as one slip */
		if (d < bd) {
			bd = d;
			best = cands[i];
		}
	}
	return best && bd <= typo_limit(bad) && (size_t)bd < bl ? best : NULL;
}

const char *suggest_list(const char *bad, const char *list, char *out, size_t n)
{
	char *dup = xstrdup(list ? list : ""), *save = NULL;
	const char *c[512];
	int k = 0;
	for (char *t = strtok_r(dup, ",|", &save); t && k < 512; t = strtok_r(NULL, ",|", &save)) {
		while (*t == ' ')
			t++;
		c[k++] = t;
	}
	const char *s = suggest_from(bad, c, k);
	if (s)
		snprintf(out, n, " (did you mean '%s'?)", s);
	else if (n)
		out[0] = 0;
	free(dup);
	return out;
}
