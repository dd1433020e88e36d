/* The grouping engine of compare and report: result rows streamed from CSV files and filed under
 * their full configuration (bench, variant, every declared configuration column, the requested
 * duration and warm-up) and a side (an input of compare, or a machine label for report).
 *
 * - Groups and cells are found by hashing, never by linear search; input is read one row at a time:
 *   memory grows with the number of groups and values kept, not with the rows' text.
 * - Only valid rows (column `valid` = yes; a CSV without that column: every row) give values; each
 *   cell counts its rows and its valid rows, for "n valid of N".
 * - A label names one machine: two hosts or CPU models under one label is an error (exit 2); two
 *   machine fingerprints under one label (a field known on both differs) are two machines, shown as
 *   LABEL#ID6, with a note on stderr naming the fields that differ. Rows
 *   without a label column (older schemas) are named by their host, or by host and CPU model when
 *   another machine already has that host name; and, with no requested duration recorded, their
 *   measured duration_s to two digits stands in for it ("~1.5 (measured)"), so runs of another
 *   length still never pool.
 * - A directory is its *.csv files, or, for a fleet directory, each subdirectory with a
 *   metadata.txt (one result set per machine; slurm/ and interrupted/ are not result sets).
 * - Inputs marked interrupted (FILE.meta [run] status, metadata.txt state) are warned about on
 * stderr.
 *
 * Use: groups_init, groups_add for each input, groups_finish, then walk g->order and ask
 * groups_cell(g, group, side) for each side. Every error is one line for exit status 2. */
#ifndef C2C_GROUPS_H
#define C2C_GROUPS_H
#include <stdint.h>
#include <stddef.h>

struct table;
struct csvs;
struct bench_desc;
struct grp_decl;

#define GROUPS_BY_LABEL (-1) /* groups_add side: one side per machine label */

struct grp_vals {
	double *v;
	long *row; /* per value: which of its cell's valid rows it came from (0: the first) */
	size_t n, cap;
	int nrec; /* the oldest schema of a valid row whose file had no such column (0: none) */
};

/* A bench met in the inputs, with the columns its rows are keyed and measured by. */
struct grp_bench {
	char *name;
	/* Its description (schema/desc.h): its result set's FILE.bench, else the fallback's (this
	 * build's bench of that name); NULL: neither (keyed on its variant column only). */
	struct bench_desc *b;
	struct grp_decl *fb_decl; /* with the fallback's description: its column declaration */
	int nkey;
	char **key_col; /* [0]: the variant column; then the bench's config; then the harness's */
	int nmet;
	char **metric; /* the metric columns (--metric, or the bench's summary and view columns) */
	int *direction;        /* per metric: 1 higher is better, -1 lower is better, 0 unknown */
	const char **unit;     /* per metric: the unit its view declares, or NULL */
	int *met_seen;         /* per metric: 1 when some input's header has the column */
	/* per metric: in the bench's verdict family (tested) or descriptive, and the seed's
	 * predicted direction (-1 lower, 1 higher, 0 none): the description's verdict list, an
	 * older set's from the fallback, --metric's names all in it, and a bench declaring none:
	 * every metric with a direction (docs/validity.md, "The verdict") */
	int *in_verdict, *predict;
	/* per metric, no verdict: ts_stat.disputed (1 better sides differ, 2 no metric, 3 units
	 * differ) */
	int *disputed;
	char **decl_unit; /* per metric: the unit the first input's X.columns declares, or NULL */
	/* the fallback's description that gave the list, or NULL */
	struct bench_desc *verdict_desc;
	char *avail; /* the inputs' candidate metric columns, comma-separated (for messages) */
	int *varies; /* after groups_finish, per key column: 1 when its groups differ there */
	int nres;              /* the bench's resolved settings (its description's resolved) */
	int *res_key;          /* per resolved setting: the key column of its requested value */
	const char **res_col;  /* per resolved setting: the column of what it resolved to */
	const char **res_unit; /* per resolved setting: its unit in words, or NULL */
};

/* One configuration. */
struct grp_group {
	int bench;          /* index in groups.bench */
	const char **val;   /* per key column: its value, NULL when the column was absent */
	int variant_rank; /* the variant's place in the bench's declared order (unlisted: after) */
	/* per key column: the schema version of rows that did not record it (0: recorded), its
	 * val then "not recorded (schema N)", and eff what stands in for it in a join (the
	 * effective value: groups_schema.h), NULL where nothing does */
	int *nrec;
	const char **eff;
	int *joined; /* per key column: the schema version of another group's rows that did not
		      * record it and were joined into this one on its effective value (0: none) */
};

/* One configuration on one side. */
struct grp_cell {
	int group, side;
	long rows, valid;       /* rows read; rows with valid=yes (or no valid column) */
	int mach;               /* the machine (groups.mach) of its first row */
	int mixed;              /* rows of more than one machine (a side of several machines) */
	struct grp_vals *met;   /* [bench.nmet]: values of the valid rows, NA left out */
	char **res; /* [bench.nres]: what each resolved setting resolved to in its first row
		     * ("(absent)" where the file lacks the column), NULL before a row */
	unsigned char *res_mixed; /* [bench.nres]: its rows resolved it to more than one value */
	char **why; /* [bench.nkey]: for a key column its rows did not record, how the join took
		     * it ("not recorded (schema 6); the node used: 0"), else NULL */
	/* The bench's summary_note_if column over the valid rows: "yes" while every one says yes,
	 * else the first other value; NULL before a valid row; note_absent: a valid row lacked it
	 */
	char *note_val;
	int note_absent;
	/* an imported set's rows: their source and its statistic ("core-to-core-latency: mean
	 * of round trip / 2", from source_tool, source_statistic); NULL: rows c2cbench measured */
	char *source;
};

/* grp_group.nrec of a setting an imported row's source did not record (NA there): joined without
 * it, as an older schema's column with nothing to stand in. */
#define GRP_NREC_IMPORTED (-1)
/* its cell's why */
#define GRP_WHY_IMPORTED "not in the imported matrix: joined without it"

#define GRP_FP_KEYS 16 /* room for schema/fingerprint.h's fp_keys */

/* A machine fingerprint as read from a result file: its id and its fields (NULL: unknown). */
struct grp_fp {
	char id[24];            /* "" when unknown (a CSV of an older schema without its .meta) */
	char *val[GRP_FP_KEYS]; /* per fp_keys */
};

/* A machine: a label and the host, CPU model and fingerprint it names. Two fingerprints that
 * differ under one label are two machines, shown as LABEL#ID6 (the first 6 digits of each id). */
struct grp_machine {
	char *label, *host, *cpu_model, *file; /* label: as shown; file: where it was first seen */
	char *raw;                             /* the label as its rows give it */
	struct grp_fp fp;                      /* the fields of its rows' files, merged */
	int twin; /* the next machine of the same raw label, -1 for none */
	int side;
};

/* A side: one input of compare, or one label. */
struct grp_side {
	char *name;         /* the input path (compare) or the label (report) */
	long rows, valid;
	int files;
	int interrupted; /* an input of this side is marked interrupted, failed or never finished */
	int nmach;
	int *mach;          /* machines seen on this side, in order of first appearance */
};

struct grp_hash {
	size_t cap, n;
	unsigned long long *h; /* hash of each slot's entry */
	int *idx;              /* entry index + 1; 0: empty */
};

/* One data row as the engine filed it, for a caller that looks at rows too (report: NA reasons,
 * rows not used, each machine's context). one: the header and this row as a one-row table, valid
 * during the call only. */
struct grp_row {
	const struct table *one;
	int group, side, valid;
};

struct groups {
	int nbench, ngroup, ncell, nside, nmach;
	struct grp_bench *bench;
	struct grp_group *group;
	struct grp_cell *cell;
	struct grp_side *side;
	struct grp_machine *mach;
	int by_label;      /* sides are labels (report): a split renames them too */
	int *order; /* after groups_finish: group indices, bench by name, then variant in declared
		     * order (baseline first), then the other key values in natural order */
	long rows;         /* rows read in all */
	int warnings;      /* warnings printed */
	int (*row)(void *arg, const struct grp_row *r,
		   char *err); /* optional: called for every row filed */
	void *row_arg;
	/* private */
	int nwant;
	char **want;       /* --metric names, or none */
	char **key_blob;   /* per group: its hashed key (the values point into it) */
	struct grp_hash gh, ch, mh;
	int cap_group, cap_cell, cap_mach;
	char *kbuf;
	size_t kbuf_cap;
	struct grp_once *once; /* groups_once.c: the files and rows read so far */
};

/* Start empty. metrics: a comma list of metric columns for every bench, or NULL for each bench's
 * own (summary and view columns). Error: an empty name in the list. */
int groups_init(struct groups *g, const char *metrics, char *err);
/* Read a result CSV, or every *.csv directly in a directory (side tables skipped), into side
 * (>= 0: that side, named by path; GROUPS_BY_LABEL: the side of each row's label). */
int groups_add(struct groups *g, const char *path, int side, char *err);
/* After the last input: order the groups; with --metric, refuse a metric no input has (the message
 * lists the metric columns the inputs hold). */
int groups_finish(struct groups *g, char *err);
/* The cell of group gi on side s, or NULL when that side has no row of it. */
const struct grp_cell *groups_cell(const struct groups *g, int gi, int s);
/* "col=val col=val" of the key columns of gi whose values differ between groups of its bench
 * (what tells rows apart); the variant always. */
void groups_label(const struct groups *g, int gi, char *out, size_t n);
/* The metric columns of the inputs' headers, comma-separated (for messages). */
void groups_available(const struct groups *g, char *out, size_t n);
void groups_free(struct groups *g);
/* Warn on stderr (return 1) when a CSV's .meta, or a result directory's metadata.txt, says the run
 * or preset did not finish: report uses the same warnings as compare. */
int groups_warn_file(const char *csv);
int groups_warn_dir(const char *dir);

/* A result set without FILE.bench (an older schema) is read by what fn gives for its bench: the
 * text of a bench description and of the column declaration this build would have written with
 * that header (schema/desc.h, X.columns), each malloc'ed; 1, or 0 for a bench it does not know.
 * NULL (the default): none. cli/ sets it from the registry; analysis/ knows no bench. */
/* compare and report --label DIR=NAME: the rows of every file under DIR (a result directory or a
 * CSV, as given or any path to it) are machine NAME, whatever label they hold, so that two machines
 * run under one label are compared without editing files. Checked: NAME a label, DIR existing;
 * groups_finish refuses one that named none of the inputs. -1 and err on a bad spec. */
int groups_relabel(const char *spec, char *err);
void groups_relabel_clear(void);

typedef int (*groups_desc_fn)(const char *bench, const char *const *header, int ncols,
			      char **desc, char **columns);
void groups_set_desc_fallback(groups_desc_fn fn);

/* Internal, shared by groups.c, groups_read.c and groups_dir.c. */
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
/* nrec, eff: per key column, groups.h's grp_group (NULL: every column recorded). */
int grp_group_of(struct groups *g, int bench, const char *const *val, const int *nrec,
		 const char *const *eff);
/* Do groups x and y agree on every key column but those skip marks (NULL: none): equal where both
 * recorded it, the effective values equal where one did not, anything where nothing stands in? */
int grp_agree(const struct groups *g, int x, int y, const unsigned char *skip);
/* groups_join.c: join each configuration holding a column its rows did not record with the one
 * configuration that agrees on the effective value (called by groups_finish). */
void grp_join_unrecorded(struct groups *g);
/* Configuration x's bucket: its bench and its values of the key columns k with use[k] set
 * (FNV-1a): configurations equal in those columns share it. Sorted with grp_by_bucket (by bucket,
 * then group), the candidates for a join sit next to each other: linear, not square. */
uint64_t grp_bucket(const struct groups *g, int x, const unsigned char *use);
struct grp_bucketed {
	uint64_t h;
	int group;
};
int grp_by_bucket(const void *x, const void *y);
/* groups.c: drop each group gi with into[gi] >= 0 after moving its cells to group into[gi]
 * (into NULL: none dropped, the cells filed again after their groups changed). */
void grp_merge_groups(struct groups *g, const int *into);
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
const char *grp_fp_field(const struct grp_fp *fp, const char *key);
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
#endif
