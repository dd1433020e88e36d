/* The result-set reader's own header, shared by its files (analysis/groups*.c) only: the rest of
 * the program reads result sets through analysis/resultset.h. */
#ifndef C2C_GROUPS_INT_H
#define C2C_GROUPS_INT_H
#include "analysis/resultset.h"
#include <stdio.h>

/* The bench's index, made on its first file; d: that file's column declaration (may be NULL);
 * desc: that file's description (may be NULL), taken over when it describes this bench. */
int grp_bench_of(struct groups *g, const char *name, const char *variant_col,
		 const char *const *header, int ncols, const struct grp_decl *d,
		 struct bench_desc *desc);
/* groups_desc.c: the description of bench name, from the file's (taken over: file's emptied)
 * or the fallback's (*fb: its column declaration); NULL when neither has it. Freed by
 * grp_desc_free. */
struct bench_desc *grp_desc_of(struct groups *g, const char *name, struct bench_desc *file,
			       const char *const *header, int ncols, struct grp_decl **fb);
void grp_desc_free(struct bench_desc *d, struct grp_decl *fb);
/* A file's own description (d, read from path) is of its CSV (csv, its header hdr): each column
 * it names (variant, configuration, summary, verdict, resolved settings, views) is one of the
 * header's, and none it keys on (variant, configuration, requested settings) is one its
 * declaration (decl, may be NULL) makes a metric or evidence. 0, or -1 with the first that is
 * not. */
int grp_desc_check(const struct bench_desc *d, const struct grp_decl *decl, const char *path,
		   const char *csv, const char *const *hdr, int ncols, char *err);
/* nrec, eff: per key column, resultset.h's grp_group (NULL: every column recorded). */
int grp_group_of(struct groups *g, int bench, const char *const *val, const int *nrec,
		 const char *const *eff);
/* groups_join.c: join each configuration holding a column its rows did not record with the one
 * configuration that agrees on the effective value (called by groups_finish). */
void grp_join_unrecorded(struct groups *g);
/* groups.c: drop each group gi with into[gi] >= 0 after moving its cells to group into[gi]
 * (into NULL: none dropped, the cells filed again after their groups changed). */
void grp_merge_groups(struct groups *g, const int *into);
/* This build's declaration of bench name's columns (FILE.columns as its run would write it),
 * for an input that carries none: NULL when the fallback has none. Freed by grp_desc_free. */
struct grp_decl *grp_decl_fallback(struct groups *g, const char *name,
				   const char *const *header, int ncols);
/* The fallback's description of bench name (for its verdict list: a set written before the
 * families), or NULL. Freed by grp_desc_free. */
struct bench_desc *grp_desc_fallback(struct groups *g, const char *name,
				     const char *const *header, int ncols);
struct grp_cell *grp_cell_of(struct groups *g, int group, int side);
int grp_machine_of(struct groups *g, const char *label, const char *host, const char *cpu,
		   const struct grp_fp *fp, const char *file, long line, int side, int *mach,
		   char *err);
/* groups_fp.c: a CSV's fingerprint from its .meta (row_id: the row's fingerprint column, used when
 * the .meta is missing or has none); copies, frees; the count of fields known on both that differ
 * (written "key A vs B, ..." to out when not NULL); merging b's known fields into a; one field. */
void grp_fp_read(const char *csv, const char *row_id, struct grp_fp *fp);
void grp_fp_copy(struct grp_fp *dst, const struct grp_fp *src);
void grp_fp_free(struct grp_fp *fp);
int grp_fp_differ(const struct grp_fp *a, const struct grp_fp *b, char *out, size_t n);
void grp_fp_absorb(struct grp_fp *into, const struct grp_fp *from);
int grp_side_of(struct groups *g, int side, const char *name);
/* groups_once.c: refuse (-1, one line) a file read before into the same scope (the side given to
 * groups_add: by device and inode) and a row read before there (its hash over the scope, the
 * header's names and the row's values, rep and attempt left out: a renumbered copy is the same
 * row); the row is of the file noted last. */
int grp_once_file(struct groups *g, const char *path, int scope, char *err);
uint64_t grp_once_hash(struct groups *g, int scope, const char *const *name,
		       const struct csvs *s);
int grp_once_row(struct groups *g, uint64_t h, const char *path, long line, char *err);
void grp_once_free(struct groups *g);
int grp_label_taken(struct groups *g, const char *label, const char *host, const char *cpu);
/* groups_read.c: one CSV file into side, for groups_dir.c's walk (in_dir: met in a directory;
 * *marked: given set when its directory is marked unfinished, set when its run is). */
int grp_add_file(struct groups *g, const char *path, int side, int in_dir, int *marked,
		 char *err);
/* groups_relabel.c: the label --label gives the file at path, or NULL; a spec that matched no file
 * yet, for groups_finish's refusal (NULL: none). */
const char *grp_relabel_of(const char *path);
const char *grp_relabel_unused(void);

/* groups_warn.c: where a warning goes, standard error unless groups_quiet */
FILE *grp_warn_to(void);
#endif
