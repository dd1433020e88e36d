/* Every schema a result set was ever written with, read as today's (results/CHANGELOG-schema.md):
 * per version, which of today's columns it did not record, which of its columns hold what a
 * column of today's is named otherwise, and how a join stands in for what it did not record. */
#ifndef C2C_GROUPS_SCHEMA_H
#define C2C_GROUPS_SCHEMA_H
#include <stddef.h>

/* One change of the schema, as its readers need it: from version `since` on, today's column
 * `col` (of bench, or of every bench when NULL) is written; a file of an older version holds it
 * under `old` (NULL: not at all), and a join stands in for it with its effective value: the
 * column `eff_old` of that file (NULL: none), or the constant `eff_const` (NULL: none). */
struct grp_schema_change {
	int since;
	const char *bench, *col, *old, *eff_old, *eff_const;
	const char *what; /* the effective value in words, for the line that says so */
};
extern const struct grp_schema_change grp_schema_changes[];

/* The column that holds today's col in a file of schema version v of bench: col itself, another
 * name, or NULL where version v did not record it (it lacks the column or it meant another
 * thing). A column renamed is followed back through the changes before the rename. The last
 * change that says so in *ch (NULL: none). */
const char *grp_schema_col(int v, const char *bench, const char *col,
			   const struct grp_schema_change **ch);

/* Today's name of the column col of a file of schema version v of bench: the column whose
 * grp_schema_col there is col (pingpong's mem_node_req of 11: mem_node_requested), else col. */
const char *grp_schema_today(int v, const char *bench, const char *col);

/* A description (FILE.bench) of schema version v read as today's: the columns it keys on (config,
 * resolved) renamed to today's names, so that an older set joins on the same keys as a newer one
 * whichever is read first. Its strings stay owned by d. */
struct bench_desc;
void grp_schema_desc(int v, const char *bench, struct bench_desc *d);

/* A configuration value its older writers spelled otherwise, as today's: pingpong's request
 * (mem_node_requested, mem_node_req up to schema 11), --mem-node a, b, N before --home (every
 * schema up to 11 and --mem-node today), reads as first, reader, node:N. v itself, or the value
 * in buf. */
const char *grp_schema_value(const char *bench, const char *col, const char *v, char *buf,
			     size_t n);

/* What the run of csv asked for col, from its result directory's record of the command line
 * (metadata.txt, older key: value or INI), for a file that did not record it: its option's value,
 * or the option's default where every schema had the same (pending-bit's placement: auto).
 * 1 and out set; 0 when the record does not say. */
int grp_schema_asked(const char *csv, const char *bench, const char *col, char *out, size_t n);
#endif
