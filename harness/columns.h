/* Column declarations: every CSV column a bench's rows may hold, as data (name, kind, unit,
 * which way is better, a line of meaning). Benches declare their own (struct bench .columns); the
 * harness declares the ones it writes in every bench's rows (harness_columns). A declared name may
 * hold placeholders, upper-case words: ROLE stands for one of the bench's roles (bench.roles),
 * any other (EVENT, NAME) for one or more characters. */
#ifndef C2C_COLUMNS_H
#define C2C_COLUMNS_H
#include <stdio.h>

enum col_kind {
	COL_CONFIG = 1, /* a setting: compare joins rows on it (or shows it beside) */
	COL_METRIC,     /* a measurement */
	COL_EVIDENCE,   /* what says whether the measurement holds (validity, settings achieved) */
	COL_CONTEXT,    /* the machine, the build, the row's identity, where things ran */
};

enum col_better {
	COL_NOSIDE = 0, /* neither: a count that describes, a setting, a text */
	COL_HIGHER,
	COL_LOWER,
};

struct col_decl {
	const char *name;
	enum col_kind kind;
	const char *unit; /* "ns", "count", "text", ... */
	enum col_better better;
	const char *desc; /* one line */
};

/* The columns the harness writes in every bench's rows, { 0 }-terminated. */
extern const struct col_decl harness_columns[];

const char *col_kind_name(enum col_kind k);
const char *col_better_name(enum col_better b);
/* 1 when column name matches the declared name decl (placeholders expanded; ROLE to an item of
 * the comma list roles, or to any name when roles is NULL). */
int col_match(const char *decl, const char *name, const char *roles);
/* The declaration of name: the first match in own (a bench's, may be NULL), then in
 * harness_columns; NULL when undeclared. */
const struct col_decl *col_find(const struct col_decl *own, const char *roles, const char *name);
/* 1 when writing an undeclared column must abort: C2C_CHECK_COLUMNS=1 in the environment (the test
 * suite sets it), or a build with -DC2C_DEBUG. */
int col_checking(void);
/* The declaration as CSV (header column,declared_as,kind,unit,higher_better,description): one
 * line per name of cols (a result set's header, n names), or, with cols NULL, one per declared
 * name, the bench's first. Returns 0, or -1 when a write failed. */
int col_write_csv(FILE *f, const struct col_decl *own, const char *roles, char *const *cols, int n);
#endif
