/* Column declarations (schema/columns.h): benches declare their own (struct bench .columns); the
 * harness declares the ones it writes in every bench's rows (harness_columns), finds a column's
 * declaration, checks rows against them and writes them beside each result set (FILE.columns). */
#ifndef C2C_COLUMNS_H
#define C2C_COLUMNS_H
#include "schema/columns.h"
#include <stdio.h>

/* The columns the harness writes in every bench's rows, { 0 }-terminated. */
extern const struct col_decl harness_columns[];

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
