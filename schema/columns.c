/* Column declarations' words and name matching (columns.h). */
#include "schema/columns.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>

const char *col_kind_name(enum col_kind k)
{
	switch (k) {
	case COL_CONFIG:
		return "configuration";
	case COL_METRIC:
		return "metric";
	case COL_EVIDENCE:
		return "evidence";
	case COL_CONTEXT:
		return "context";
	}
	return "undeclared";
}

const char *col_better_name(enum col_better b)
{
	return b == COL_HIGHER ? "higher" : b == COL_LOWER ? "lower" : "n/a";
}

static size_t upper_run(const char *s)
{
	size_t n = 0;
	while (isupper((unsigned char)s[n]))
		n++;
	return n;
}

int col_match(const char *decl, const char *name, const char *roles)
{
	size_t ph = upper_run(decl);
	if (!ph) {
		if (*decl != *name)
			return 0;
		return !*decl || col_match(decl + 1, name + 1, roles);
	}
	if (ph == 4 && !strncmp(decl, "ROLE", 4) && roles) {
		for (const char *r = roles; *r;) {
			size_t n = strcspn(r, ",");
			if (n && !strncmp(name, r, n) && col_match(decl + ph, name + n, roles))
				return 1;
			r += n + (r[n] == ',');
		}
		return 0;
	}
	for (size_t k = 1; k <= strlen(name); k++)
		if (col_match(decl + ph, name + k, roles))
			return 1;
	return 0;
}

int col_kind_of(const char *word)
{
	for (int k = COL_CONFIG; k <= COL_CONTEXT; k++)
		if (!strcmp(word, col_kind_name((enum col_kind)k)))
			return k;
	return !strcmp(word, "undeclared") ? 0 : -1;
}

int col_better_of(const char *word)
{
	for (int b = COL_NOSIDE; b <= COL_LOWER; b++)
		if (!strcmp(word, col_better_name((enum col_better)b)))
			return b;
	return !strcmp(word, "NA") ? COL_NOSIDE : -1;
}

int col_verdict_of(const char *item, char *name, unsigned nn)
{
	size_t k = strcspn(item, ":");
	const char *suf = item[k] ? item + k + 1 : NULL;
	int v = !suf			    ? COL_VERDICT
		: !strcmp(suf, "lower")	    ? COL_VERDICT_LOWER
		: !strcmp(suf, "higher")    ? COL_VERDICT_HIGHER
					    : -1;
	if (v < 0 || !k)
		return -1;
	snprintf(name, nn, "%.*s", (int)k, item);
	return v;
}

int col_verdict_in(const char *const *list, const char *col, int direction, int *predict)
{
	char name[256];
	if (predict)
		*predict = 0;
	if (!list || !list[0])
		return direction != 0;
	for (int i = 0; list[i]; i++) {
		int v = col_verdict_of(list[i], name, sizeof(name));
		if (v < 0 || strcmp(name, col))
			continue;
		if (predict)
			*predict = v == COL_VERDICT_LOWER ? -1 : v == COL_VERDICT_HIGHER ? 1 : 0;
		return 1;
	}
	return 0;
}
