/* `compare A B`: two result sets joined on the full configuration (analysis/resultset.h), and per
 * configuration and metric what changed: medians, ratio B/A with its 95% bootstrap interval, the
 * Mann-Whitney p-value and a plain verdict; a geometric mean per bench and metric over the joined
 * configurations. The front end is cli/cmd_compare.c; the rule itself is stats/twosample.h. */
#ifndef C2C_ANALYSIS_COMPARE_H
#define C2C_ANALYSIS_COMPARE_H
#include "analysis/resultset.h"
#include "stats/twosample.h"
#include "lib/wrap.h"
#include <stdio.h>

#define CMP_WIDTH TEXT_WIDTH /* columns the text output fits in */

/* Side A's and side B's values of a cell through the one two-sample rule (ts_compute). */
void cmp_stat(const struct grp_vals *a, const struct grp_vals *b, struct ts_stat *s);

/* One configuration and metric. */
struct cmp_line {
	int group, metric;
	int group_b;                  /* B's configuration: group, or the one matched by match_by */
	const struct grp_cell *a, *b; /* NULL: no row of it on that side */
	struct ts_stat s;
	char verdict[128];
	/* a line of cmp.extra: "nearest", "farthest" (classes of each side) */
	const char *baseline;
};

/* The baseline between machines of any shape: side A's nearest (or farthest) class's configuration
 * ga against side B's gb, where their classes differ (analysis/compare_baseline.c). */
struct cmp_extra {
	int ga, gb;
	const char *what; /* "nearest", "farthest", or "nearest and farthest" */
};

/* A geometric mean of ratios over the joined configurations of one bench and metric. */
struct cmp_geo {
	int bench, metric, n;
	int significant; /* of the n, the configurations whose change was called */
	int within;      /* of the n, those shown to be no change beyond the margin */
	int undecided;   /* of the n, the inconclusive ones */
	int descriptive; /* a metric outside the verdict: no test behind the mean */
	int disputed;    /* not tested, and why: ts_stat.disputed */
	double ratio;
	char why[160];   /* the first inconclusive line's reason */
	char verdict[320];
};

struct cmp_ctx;
struct cmp_class;

struct cmp {
	struct groups g;
	int side[2];       /* the groups' sides that are A and B: 0 and 1, or two of report's */
	int joined;        /* configurations on both sides */
	int only[2];       /* configurations on one side only */
	int matched;       /* pairs of them joined by their bench's match_by (pingpong: class) */
	int *match;        /* per group: the other side's group it was matched with, else -1 */
	struct cmp_extra *extra; /* the baseline's nearest and farthest classes of each side */
	char presets[2048]; /* the entries of one preset that A and B ran differently, a line each
			     * (analysis/preset_diff.h), "" when none */
	int nextra;
	/* the classes of benches with a class view, each side's pairs split at empty gaps
	 * (analysis/compare_split.c, filled once by cmp_splits) */
	struct cmp_class *cls;
	int ncls;
	int *cls_of; /* per group: its class, -1 for none */
	/* filled by cmp_walk: */
	int nline, small;  /* lines; lines with too few values for significance (ts_small) */
	struct cmp_ctx *ctx; /* per configuration and side: validity options and probe range */
	struct cmp_geo *geo;
	int ngeo;
	/* the families' multiplicity (cmp_tests): a family per bench, its verdict metrics over
	 * every configuration joined (docs/validity.md, "The verdict") */
	int ntest;          /* lines that are tests (ts_is_test), all families */
	const char *adjust; /* how the largest family's p values are adjusted: "Holm" or "BH" */
	double *padj; /* per line in walk order: its adjusted p; -1 for a line that is no test */
	int *fam_m;   /* per bench: the tests of its family */
	int *fam_plan; /* per bench: its family's lines that are tests with enough repetitions */
	const char **fam_method; /* per bench: how they are adjusted */
	int undecided; /* lines of verdict metrics that are inconclusive (filled by cmp_walk) */
	int within;    /* lines shown to be no change beyond the margin */
};

/* Read A and B and join them. Error (exit 2): unreadable input, unknown --metric, no configuration
 * in common (the message says what each side holds and where their configurations differ). */
int cmp_run(struct cmp *c, const char *a, const char *b, const char *metrics, char *err);
/* Compute each line in output order (configurations as groups.order, then metrics) and hand it to
 * fn (a nonzero return stops); lines are not kept, so memory stays with the groups. Afterwards
 * c->nline, c->small and the geometric means are set. Return what fn returned last. */
int cmp_walk(struct cmp *c, int (*fn)(void *u, const struct cmp *c, const struct cmp_line *l),
	     void *u);
void cmp_free(struct cmp *c);
/* Compare two sides a and b of groups that report read (one side per machine): the same join,
 * families and words as compare's, on g borrowed (not copied, not freed: g must outlive c). */
void cmp_pair(struct cmp *c, const struct groups *g, int a, int b);
void cmp_pair_free(struct cmp *c);
/* Bench b on both sides: where its first configuration of A and of B differ, "col (A x, B y)
 * ..." into out; 0 when one side has none of it. */
int cmp_differs(const struct cmp *c, int b, char *out, size_t n);
/* Each family's tests (a bench's verdict metrics), counted and their p values adjusted together
 * (once; cmp_walk calls it): the verdicts use the adjusted p. */
int cmp_tests(struct cmp *c);

/* analysis/compare_baseline.c: fill c->extra after the join. */
void cmp_baseline_pairs(struct cmp *c);
struct bench_view;
/* The bench's baseline matrix view whose class column is the one its match_by names (pingpong's
 * class), or NULL. */
const struct bench_view *cmp_class_view(const struct grp_bench *b);
/* The bench's key column named col, or -1. */
int cmp_key_of(const struct grp_bench *b, const char *col);

/* analysis/compare_split.c: classes that split (stats/split.h, docs/report.md#classes-that-split):
 * per bench with a class view, settings (every configuration column but the variant, the loose
 * ones and the class), class, side and metric, the pairs' values (each configuration's median)
 * split at empty gaps, each pair's package its attribute. cmp_splits fills c->cls once. */
void cmp_splits(struct cmp *c);
void cmp_splits_free(struct cmp *c);
/* Line l's class in words where it splits on a side, for --csv and --json ("class same-package
 * splits. A: package 0: 107.6 ns (3,840 pairs), .... B: ...."); "" and 0 when it splits on
 * neither side in l's metric (or cmp_splits was not called). */
int cmp_split_words(const struct cmp *c, const struct cmp_line *l, char *out, size_t n);
/* The between-sides table's block: each class that splits on a side, each side's groups and,
 * where both split by the same packages, B/A per group. Nothing when none splits. */
void cmp_print_splits(FILE *f, struct cmp *c);
/* The table's block of classes whose pairs differ between the sides (a full matrix against a
 * run's class probes, two machines of other shapes), each side's pairs pooled: its median over
 * them, its pair count, and B/A. A class that splits is left to cmp_print_splits. */
void cmp_print_classes(FILE *f, struct cmp *c);
/* analysis/compare_resolved.c: what each side resolved the line's settings to
 * ("placement=same-socket lazy_max_effective=16384" into ra and rb, rn bytes each; "" for a bench
 * without such settings), and in words where they differ or the line was matched by match_by
 * ("placement auto became A same-socket, B cross-llc: B's threads cross an L3, A's stay in one
 * package; the change includes that"). Returns 1 when words were written. */
int cmp_resolved(const struct cmp *c, const struct cmp_line *l, char *ra, char *rb, size_t rn,
		 char *words, size_t n);

/* analysis/compare_context.c: what each side's rows say about how far to trust a line, read from
 * the rows (probe_pairs, probe_before_ns, probe_after_ns of valid rows) and each file's .meta
 * [validity]. cmp_ctx_hook is the groups row hook cmp_run installs. */
int cmp_ctx_hook(void *arg, const struct grp_row *r, char *err);
void cmp_ctx_free(struct cmp_ctx *x);
/* The relaxed rules a result file's rows were judged by (its .meta [validity] relaxed_by, as
 * "--valid-oncpu 0") into by; 1 when relaxed, 0 strict or unknown. */
int cmp_file_relaxed(const char *csv, char *by, size_t n);
/* Side s (0 A, 1 B): 1 when a file of its rows was judged with relaxed validity, its rules into
 * by ("--valid-oncpu 0"). */
int cmp_side_relaxed(const struct cmp *c, int s, char *by, size_t n);
/* Side s of line l (0 A, 1 B): its validity in words ("strict", "relaxed: --valid-oncpu 0",
 * "unknown": no [validity] in its .meta, "mixed: ..." when its files differ) and its probe range
 * ("28-322" ns over its valid rows, the pair that moved most; "NA" without a probe). */
void cmp_ctx_side(const struct cmp *c, const struct cmp_line *l, int s, char *validity,
		  size_t vn, char *probe, size_t pn);
/* The words on the line's context, "" when there is nothing to say: validity relaxed on one side
 * only ("A judged with relaxed validity (--valid-oncpu 0), B strict"), a probe that moved by more
 * than that side's --valid-probe factor over its repetitions ("A's placement probe ranged
 * 28-322 ns over its repetitions: the hypervisor moved vCPUs"). Returns 1 when words were
 * written. */
int cmp_ctx_words(const struct cmp *c, const struct cmp_line *l, char *out, size_t n);
/* The i-th input file (in the order its first row was read): its path, and the sides its rows
 * are on (1 A, 2 B, 3 both); 0 past the last. */
int cmp_ctx_input(const struct cmp *c, int i, const char **path);

/* Print text from column col (already on this line), continuation lines indented by indent, at
 * most CMP_WIDTH columns a line (UTF-8 characters), broken at spaces; ends the line. */
static inline void cmp_wrap(FILE *f, int col, int indent, const char *text)
{
	text_wrap(f, col, indent, CMP_WIDTH, text);
}

/* The outputs; each returns 0, or -1 when writing failed (full device). */
int cmp_print_text(FILE *f, const struct cmp *c);
int cmp_print_csv(FILE *f, const struct cmp *c);
int cmp_print_json(FILE *f, const struct cmp *c);
/* The text output's last part (analysis/compare_within.c): within each side, each input file's own
 * run summary (analysis/runsum.h), the one a run printed and `c2cbench summary FILE` prints, under
 * "== A: PATH" (B, or "A and B" for a file whose rows are on both sides). */
void cmp_print_within(FILE *f, const struct cmp *c);
#endif
