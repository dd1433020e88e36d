/* Column declarations: matching a column against them, the check, and the CSV of them. */
#include "harness/columns.h"
#include <ctype.h>
#include <stdlib.h>
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

static const struct col_decl *find_in(const struct col_decl *t, const char *name)
{
	for (; t && t->name; t++)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}

static const struct col_decl *match_in(const struct col_decl *t, const char *roles,
				       const char *name)
{
	for (; t && t->name; t++)
		if (col_match(t->name, name, roles))
			return t;
	return NULL;
}

const struct col_decl *col_find(const struct col_decl *own, const char *roles, const char *name)
{
	const struct col_decl *c = find_in(own, name);
	if (!c)
		c = find_in(harness_columns, name);
	if (!c)
		c = match_in(own, roles, name);
	return c ? c : match_in(harness_columns, roles, name);
}

int col_checking(void)
{
#ifdef C2C_DEBUG
	return 1;
#else
	const char *e = getenv("C2C_CHECK_COLUMNS");
	return e && !strcmp(e, "1");
#endif
}

/* A CSV field: quoted when it holds a comma, a quote or a line end (RFC 4180). */
static void field(FILE *f, const char *s, const char *end)
{
	if (strpbrk(s, ",\"\r\n")) {
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	} else {
		fputs(s, f);
	}
	fputs(end, f);
}

static void line(FILE *f, const char *name, const struct col_decl *c)
{
	field(f, name, ",");
	field(f, c ? c->name : "NA", ",");
	field(f, c ? col_kind_name(c->kind) : "undeclared", ",");
	field(f, c ? c->unit : "NA", ",");
	field(f, c ? col_better_name(c->better) : "NA", ",");
	field(f, c ? c->desc : "NA", "\n");
}

int col_write_csv(FILE *f, const struct col_decl *own, const char *roles, char *const *cols, int n)
{
	fputs("column,declared_as,kind,unit,higher_better,description\n", f);
	if (cols)
		for (int i = 0; i < n; i++)
			line(f, cols[i], col_find(own, roles, cols[i]));
	else
		for (int h = 0; h < 2; h++)
			for (const struct col_decl *c = h ? harness_columns : own; c && c->name;
			     c++)
				line(f, c->name, c);
	return ferror(f) ? -1 : 0;
}
