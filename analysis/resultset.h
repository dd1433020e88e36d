/* The result-set reader: what compare, report and the summary of files know of result sets.
 *
 * A result set is what one run wrote (results/README.md, schema/meta.h names its files):
 * - X.csv: a header, then one row per configuration and repetition. Its first columns
 *   are schema_version, bench, the bench's variant column and rep; columns are read by name.
 * - X.columns: the declaration of every column of X.csv (name, kind, unit, which way is better):
 *   a configuration column is what rows are joined on (the bench's own, the harness's requested
 *   placement, memory node, duration and warm-up), a metric is measured, evidence says whether a
 *   measurement holds (valid, invalid_reason) and context names the machine and the build.
 * - X.bench: how to read the bench (schema/desc.h): its variant column, configuration, resolved
 *   settings, summary and verdict metrics and views. A set without it (an older schema) is read by
 *   the description this build would write (groups_set_desc_fallback, from cli/).
 * - X.meta: the run's context, its machine fingerprint and how the run ended (one interrupted,
 *   failed or cut short is warned about on stderr).
 * - side tables X-NAME.csv (a side_table column, with their own X-NAME.columns): no result rows;
 *   skipped in a directory, refused when named.
 * - a directory is its *.csv files in name order, and, for a fleet or preset directory, each
 *   subdirectory with a metadata.txt (slurm/ and interrupted/ are not result sets).
 * Every schema_version up to SCHEMA_VERSION is read as today's (results/CHANGELOG-schema.md): a
 * renamed column under today's name, one a version did not record as "not recorded (schema N)",
 * joined on what the run asked or on its effective value.
 *
 * Rows are filed under their full configuration (a group: bench, variant, every configuration
 * column) and a side: an input of compare, or a machine label for report (GROUPS_BY_LABEL). A
 * cell (a group on a side) keeps the values of its valid rows. A machine is a label (its rows'
 * label column, or --label DIR=NAME's) with the host, CPU model and fingerprint it names: two
 * hosts or CPU models under one label are an error (exit 2).
 *
 * - Groups and cells are found by hashing, never by linear search; input is read one row at a time:
 *   memory grows with the number of groups and values kept, not with the rows' text.
 * - Only valid rows (column `valid` = yes; a CSV without that column: every row) give values; each
 *   cell counts its rows and its valid rows, for "n valid of N".
 * - Two machine fingerprints under one label (a field known on both differs) are shown as
 *   LABEL#ID6, with a note on stderr naming the fields that differ. Rows without a label column
 *   (older schemas) are named by their host, or by host and CPU model when another machine
 *   already has that host name; and, with no requested duration recorded, their measured
 *   duration_s to two digits stands in for it ("~1.5 (measured)"), so runs of another length
 *   still never pool.
 *
 * Use: groups_init, groups_add for each input, groups_finish, then walk g->order and ask
 * groups_cell(g, group, side) for each side. Every error is one line for exit status 2.
 * The reader's own files (analysis/groups*.c) share groups_int.h, groups_decl.h (X.columns) and
 * groups_schema.h (older schemas); nothing else includes them (tests/test_layers.c). */
#ifndef C2C_RESULTSET_H
#define C2C_RESULTSET_H
#include <stddef.h>
#include <stdint.h>

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
	int group, side, valid; /* group -1 under rows_only */
	int bench;              /* index in groups.bench */
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
	/* Set before the first groups_add: every row is checked and handed to row, but filed in no
	 * configuration (groups, cells and order stay empty): the run summary, which keeps what it
	 * needs of each row itself (analysis/runsum.c). */
	int rows_only;
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
/* on: the reader's warnings (a bench without metrics, a file marked interrupted, ...) are dropped
 * until called with 0: compare's within-side summaries read again files compare has read and
 * warned of once. */
void groups_quiet(int on);

/* compare and report --label DIR=NAME: the rows of every file under DIR (a result directory or a
 * CSV, as given or any path to it) are machine NAME, whatever label they hold, so that two machines
 * run under one label are compared without editing files. Checked: NAME a label, DIR existing;
 * groups_finish refuses one that named none of the inputs. -1 and err on a bad spec. */
int groups_relabel(const char *spec, char *err);
void groups_relabel_clear(void);

/* A result set without FILE.bench (an older schema) is read by what fn gives for its bench: the
 * text of a bench description and of the column declaration this build would have written with
 * that header (schema/desc.h, X.columns), each malloc'ed; 1, or 0 for a bench it does not know.
 * NULL (the default): none. cli/ sets it from the registry; analysis/ knows no bench. */
typedef int (*groups_desc_fn)(const char *bench, const char *const *header, int ncols,
			      char **desc, char **columns);
void groups_set_desc_fallback(groups_desc_fn fn);

/* For compare's joins: */
/* Do groups x and y agree on every key column but those skip marks (NULL: none): equal where both
 * recorded it, the effective values equal where one did not, anything where nothing stands in? */
int grp_agree(const struct groups *g, int x, int y, const unsigned char *skip);
/* Configuration x's bucket: its bench and its values of the key columns k with use[k] set
 * (FNV-1a): configurations equal in those columns share it. Sorted with grp_by_bucket (by bucket,
 * then group), the candidates for a join sit next to each other: linear, not square. */
uint64_t grp_bucket(const struct groups *g, int x, const unsigned char *use);
struct grp_bucketed {
	uint64_t h;
	int group;
};
int grp_by_bucket(const void *x, const void *y);
/* A machine's fingerprint field key (schema/fingerprint.h's fp_keys), or NULL when unknown. */
const char *grp_fp_field(const struct grp_fp *fp, const char *key);
#endif
