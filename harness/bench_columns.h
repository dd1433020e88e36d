/* A bench's column declaration checked: the names its other declarations use, and a row's keys. */
#ifndef C2C_BENCH_COLUMNS_H
#define C2C_BENCH_COLUMNS_H
#include "harness/bench.h"

/* The declaration of column name in b's rows (its own, then the harness's), or NULL. */
const struct col_decl *bench_column(const struct bench *b, const char *name);
/* Every column name b's other declarations use (variant_col, config, resolved, summary,
 * summary_by, split.cols, match.by, match.loose, the views' columns) is declared, config's (and
 * the requested side of resolved) as configuration, summary's as metrics, each view metric's
 * higher_better agrees with its declaration, and split has its name with its cols (both or
 * neither). Returns 0, or -1 with a message naming the first that is not. */
int bench_columns_check(const struct bench *b, char *err);
/* r's attribute by b's split (split.cols; schema/desc.h, desc_split_attr): -1 without one. */
long bench_split_attr(const struct bench *b, const struct row *r);
/* Where the check is on (col_checking): abort, saying which, when a key of r is undeclared. The
 * driver checks a CSV's first row, which fixes its header (csv_write holds later rows to it). */
void bench_row_check(const struct bench *b, const struct row *r);
/* The same for a row of one of b's side tables (shepherd's gap histogram), declared in t (then
 * in the harness's columns); table names it in the message. */
void bench_side_row_check(const struct bench *b, const struct col_decl *t, const char *table,
			  const struct row *r);
/* The declaration of the n columns of a result set's header as CSV into path (written whole, or
 * not at all); b's description goes beside it after (FILE.bench, bench_desc_out). Returns 0, or -1
 * with a message. */
int bench_columns_write(const struct bench *b, const char *path, char *const *cols, int n,
			char *err);
/* The same for a side table's n columns, declared in t: beside its CSV (X.csv: X.columns). */
/* Before anything is written: the result set's declaration and description (beside meta), and
 * each side table's CSV and declaration (beside csv), are not there yet (anything at one of those
 * names, a link dangling or looping too, is the user's); 0 or -1 with the one-line error. Each is
 * later created only if still absent (replace_commit's REPLACE_NEW). */
int bench_sides_absent(const struct bench *b, const char *csv, const char *meta, char *err);
int bench_side_columns_write(const struct bench *b, const struct col_decl *t, const char *csv,
			     char *const *cols, int n, char *err);
/* b's configuration columns and what they resolve to. A BENCH_PLACED bench that declares
 * neither gets the harness's own: placement_requested (resolved: placement) and
 * mem_node_requested (resolved: mem_node, the node planned, and mem_node_actual, the node
 * found). */
const char *const *bench_config(const struct bench *b);
const struct bench_resolved *bench_resolved(const struct bench *b);
/* Is col in b's verdict family? Its declared verdict; a bench that declares none (a new bench
 * before it chooses): every metric with a better side. *predict (may be NULL): the seed's
 * direction, -1 lower, 1 higher, 0 none. */
int bench_in_verdict(const struct bench *b, const char *col, int *predict);
/* A metric's direction (1 higher is better, -1 lower, 0 unknown) and unit (*unit, may be NULL):
 * from b's declaration and views (b may be NULL), else from its name: _per_s higher, _ns lower. */
int bench_direction(const struct bench *b, const char *col, const char **unit);
#endif
