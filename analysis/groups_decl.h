/* A result set's own column declaration: X.columns beside X.csv (results/README.md), which the
 * harness writes with the rows. compare and report take a bench's keys, metrics and which way each
 * metric is better from it, so a result set of a bench this build does not know, or of another
 * version, compares as it was declared; without one (an older schema) they fall back to the
 * bench's description (groups_desc.c), else to the header's *_ns_per_op columns. */
#ifndef C2C_GROUPS_DECL_H
#define C2C_GROUPS_DECL_H
#include "lib/csvread.h"

#define DECL_BYTES_MAX (1L << 20) /* a bigger X.columns is refused, as a bigger X.bench */

struct grp_decl {
	int present;   /* 1 when X.columns was there and read */
	struct table t; /* column,declared_as,kind,unit,higher_better,description */
};

/* Read the declaration beside csv_path (X.csv -> X.columns). None there: 0 with present 0. One
 * there that is not a declaration (larger than DECL_BYTES_MAX, no rows, a column declared twice, a
 * link that loops): -1 with a one-line message naming it and what it must hold. */
int grp_decl_read(struct grp_decl *d, const char *csv_path, char *err);
/* The same from text (len bytes), named name in messages: the fallback for a result set without
 * one (groups_set_desc_fallback). */
int grp_decl_parse(struct grp_decl *d, const char *name, const char *text, size_t len, char *err);
void grp_decl_free(struct grp_decl *d);
/* Row i's fields (i < d->t.nrows): its column name, kind, unit and direction (1 higher is
 * better, -1 lower, 0 neither). */
const char *grp_decl_name(const struct grp_decl *d, long i);
const char *grp_decl_kind(const struct grp_decl *d, long i);
const char *grp_decl_unit(const struct grp_decl *d, long i);
int grp_decl_direction(const struct grp_decl *d, long i);
/* The row declaring column name, or -1. */
long grp_decl_find(const struct grp_decl *d, const char *name);
#endif
