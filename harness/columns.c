/* Column declarations: matching a column against them, the check, and the CSV of them. */
#include "harness/columns.h"
#include <stdlib.h>
#include <string.h>

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
	fputs(COL_CSV_HEADER "\n", f);
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
