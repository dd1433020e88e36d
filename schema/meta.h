/* What a result set is made of and where its files lie: FILE.csv, its metadata FILE.meta, its
 * column declaration FILE.columns and its bench description FILE.bench (results/README.md). The
 * writer (harness/) and the readers (analysis/, runner/) name them by these rules alone. */
#ifndef C2C_META_H
#define C2C_META_H
#include <stddef.h>

/* Each version's changes: results/CHANGELOG-schema.md */
#define SCHEMA_VERSION 13

/* The metadata file that goes with a CSV: FILE.csv -> FILE.meta (any other name: NAME.meta). */
void context_meta_path(const char *csv, char *out, size_t n);
/* FILE.columns beside the result set whose .meta is meta (FILE.meta, else meta + .columns). */
void bench_columns_path(const char *meta, char *out, size_t n);
/* FILE.bench beside the result set whose .meta is meta, by the same rule (schema/desc.h). */
void bench_desc_path(const char *meta, char *out, size_t n);

/* Configuration columns the harness writes in every bench's rows (the requested duration and
 * warm-up change results): compare and report join on them as on a bench's own config. */
extern const char *const harness_config[];

/* The placement probe's factor (--valid-probe) a run used when its .meta [validity] does not say:
 * the default. */
#define VALID_PROBE_DEFAULT 2.0
#endif
