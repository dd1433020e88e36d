/* The bench contract (after will-it-scale): a name, options, variants to compare, one run function.
 * The harness does the rest: options, topology, repetitions in shuffled order, CSV, summary. */
#ifndef C2C_BENCH_H
#define C2C_BENCH_H
/* Only what a bench uses; the harness's own state in struct bench_ctx is behind pointers, and
 * anything else the file that needs it includes (tests/test_layers.c holds this list). */
#include "harness/columns.h"   /* its column declaration */
#include "harness/evidence.h"  /* each thread's evidence */
#include "harness/placement.h" /* its plan (bench_plan's roles) */
#include "harness/row.h"       /* its row: row_set, row_na */
#include "harness/threads.h"   /* its threads, batch_fn, each role's sum */
#include "harness/topo.h"      /* the machine (c->topo) */
#include "lib/opts.h"          /* its options */
#include "schema/desc.h"       /* its views, its resolved settings */
#include <stdint.h>

#define VARIANTS_MAX 256     /* variants a user lists or sweeps (layouts, offsets) */
#define CONFIGS_MAX (1 << 22) /* variants one run may hold (pingpong: pairs x modes, 2,048 PUs) */
#define SUMMARY_MAX 8        /* summary columns per bench */

/* One of the things a bench compares side by side (a layout, a check mode, a worker mode...). */
struct variant {
	char name[48];
	long param;
};

struct bench;
struct bench_block;
struct context;
struct reps_auto;
struct vrules;
#define BENCH_ROLES 8 /* roles a plan may name (c->sum) */

struct csv;
struct bench_ctx {
	const struct bench *b;
	struct opts *o;
	struct topo *topo;
	struct context *ctx; /* the run's context (harness/context.h) */
	struct plan plan; /* filled by the bench's prepare (bench_plan), printed by --dry-run */
	struct variant *var; /* grown by bench_variant */
	int nvar, var_cap;
	double duration, warmup;
	double
	    run_s; /* seconds one run() takes, when prepare knows better than warmup + duration */
	int reps;
	uint64_t seed;
	const struct thr_hooks *hooks; /* per-thread hooks for measured threads (may be NULL) */
	/* Filled by bench_threads, kept until the run returns (the harness frees them): the
	 * threads' records (plan.n) and each role's threads added up (sum[role]). */
	struct thr *thr;
	struct thr_sum sum[BENCH_ROLES];
	/* bench_mem's blocks, freed by the harness once the run's row has its columns; mem_at is
	 * the contended memory whose node the mem_node_actual column records (set by the bench, or
	 * bench_mem's first block). */
	struct bench_block *mem;
	int nmem;
	const void *mem_at;
	int mem_touch_cpu; /* the CPU that first touched bench_mem's first block (the first
			    * worker's, pinned), -1 when none could be pinned there */
	const char
	    *out_path; /* the main CSV being written (NULL under --dry-run): for side files */
	const char *columns_path; /* its column declaration (FILE.columns), written after the first
				   * row; NULL: none (no .meta either) */
	/* Where the CSV is no result set of its own (standard output, a pipe, --meta elsewhere): a
	 * whole copy in a private directory, rows, .meta and side files, that the summary reads
	 * (harness/driver.c); NULL: the CSV is one. */
	struct csv *tee;
	const char *tee_columns;
	void *priv;                    /* bench-private */
	int cleanup_failed; /* set by the bench's cleanup: an output it wrote failed */
	/* Validity (docs/validity.md): the run's evidence, filled by bench_evidence during pass 0
	 */
	struct evidence ev;
	int ev_on;                     /* this pass records evidence */
	struct vrules *rules;          /* the rules as set (harness/validity.h), the driver's */
	int attempts;                  /* attempts per repetition at most (--attempts) */
	int reps_auto;                 /* --reps auto: reps is the cap */
	struct reps_auto *autocfg;     /* its settings (harness/repsauto.h), the driver's */
};

enum bench_flags {
	/* takes --placement and --mem-node: the harness plans with them (bench_plan) and writes
	 * the placement* and mem_node* columns */
	BENCH_PLACED = 1,
	BENCH_WINDOW =
	    2, /* its co-running threads measure for --duration: the window rule applies */
};

/* The harness's resolved entries for a BENCH_PLACED bench's .resolved (bench_resolved's default
 * is these three): --placement as given and as applied; --mem-node as given, the node planned
 * (the one an older file without mem_node_requested joins on, so first) and the node found. */
#define BENCH_RESOLVED_PLACEMENT { "placement_requested", "placement", NULL }
#define BENCH_RESOLVED_MEM_NODE                                                                   \
	{ "mem_node_requested", "mem_node", NULL },                                               \
		{ "mem_node_requested", "mem_node_actual", NULL }

struct bench {
	const char *name;
	const char *desc;
	const struct opt_spec *opts; /* bench options, { 0 }-terminated */
	const char *variant_col;    /* CSV column naming the variant: "layout", "check", ... */
	/* metric columns for the summary table, NULL-terminated; NULL: the declared metrics
	 * (.columns) that have a better side, in their order */
	const char *const *summary;
	/* Optional comma list of columns ("mode,class"): the summary has a line per group of rows
	 * with equal values there (reduced to their median within each repetition) instead of per
	 * variant. A column written "COL?" groups too, but is named in the lines only where its
	 * value varies between them (analysis/runsum_by.c); the values hold no '/'. */
	const char *summary_by;
	/* Optional, with summary_by: what may separate a line's values into populations (the
	 * summary marks a line whose variants' values split at an empty gap:
	 * analysis/runsum_split.c).
	 * A row's attribute is the integer value its cols (a comma list of declared columns) all
	 * hold, else -1 (schema/desc.h, desc_split_attr_of): pingpong's "pkg_a,pkg_b" is the
	 * pair's package, -1 across packages. Written to FILE.bench (split_cols, split_name).
	 * { NULL }: the parts are named by their range. */
	struct bench_split {
		const char *cols; /* "pkg_a,pkg_b" */
		const char *name; /* what the attribute is: "package" (required with cols) */
	} split;
	/* Optional: the metrics that carry its verdict, "NAME" or "NAME:lower"/"NAME:higher" where
	 * the seed predicts the variants move that way from the baseline (schema/columns.h,
	 * docs/validity.md "The verdict"), NULL-terminated: only they are tested, their p values
	 * adjusted over one another; every other metric is descriptive. NULL: every summary metric
	 * with a better side. Declared beside the columns (its columns.c). */
	const char *const *verdict;
	unsigned flags;
	/* Optional: the bench's own form of harness option s (pingpong's --placement is a set of
	 * PUs), s itself, or NULL when it does not take s, with *why saying why in a few words.
	 * NULL hook: every harness option, --placement and --mem-node only with BENCH_PLACED. */
	const struct opt_spec *(*harness_opt)(const struct opt_spec *s, const char **why);
	/* Every hook below is optional: NULL does nothing.
	 * Check options, plan threads, fill c->var. Error: message, exit 2, nothing run. NULL: one
	 * variant, "default". */
	int (*prepare)(struct bench_ctx *c, char *err);
	/* Measure one variant once and fill the row's bench columns. Error: no row is written. */
	int (*run)(struct bench_ctx *c, const struct variant *v, int rep, struct row *r, char *err);
	/* After the last row. An output it writes there (pingpong's --matrix) that cannot be had:
	 * it says so on one line and sets c->cleanup_failed, and the run exits 1. The harness
	 * frees c->priv after it. */
	void (*cleanup)(struct bench_ctx *c);
	/* Optional: columns derived from the counter columns, filled after the counters are in the
	 * row. */
	void (*finish_row)(struct bench_ctx *c, struct row *r);
	/* Optional: called before each repetition with the harness's shuffled order of the variants
	 * (a permutation of 0 .. nvar-1), which it may rearrange (pingpong keeps the rows of a
	 * round together, so each round's rows are written one after the other) and cut: the
	 * repetition runs order[0 .. returned) (pingpong --resume leaves out the rows it has).
	 * Error: -1, the run stops. */
	int (*reorder)(struct bench_ctx *c, int rep, int *order, char *err);
	/* Optional: called once the row is judged (its attempt and valid are in it), just before it
	 * is written: side tables carry the attempt and validity of the row they belong to. Error:
	 * no row. */
	int (*row_done)(struct bench_ctx *c, struct row *r, char *err);
	/* CSV columns besides bench and variant_col that are configuration, not measurement or
	 * machine context: `compare` joins rows on them. NULL-terminated; NULL: bench and
	 * variant_col only. A setting the run resolves ("auto", "0: the kernel's formula") is here
	 * as requested. NULL with BENCH_PLACED: placement_requested and mem_node_requested
	 * (bench_config). */
	const char *const *config;
	/* What those settings resolved to: compare and report show each side's beside its numbers
	 * and never join on it; a file without the requested column (an older schema) joins on
	 * the resolved one (the first entry naming that requested column: one setting may resolve
	 * to several columns, mem_node_requested to mem_node and mem_node_actual).
	 * { 0 }-terminated; NULL: none, or with BENCH_PLACED and no config, the harness's placement
	 * and mem_node entries (bench_resolved). */
	const struct bench_resolved *resolved;
	/* Optional: configurations on one side only that differ from one on the other side only in
	 * the variant and the loose columns are joined when the by column has the same value and
	 * each side has one such configuration (pingpong: a pair per class, on different CPUs). */
	struct bench_match {
		const char *by;
		const char *const *loose;
	} match;
	/* Validity: roles that record evidence (a column oncpu_ROLE each), the ones among them that
	 * must run at the same time (ops, window, on-CPU and overlap rules), and the two roles
	 * whose CPUs the placement probe times ("writer,reader"), or probe_pairs for benches
	 * without a plan. { NULL }: no evidence columns, no co-running rule, no placement probe. */
	struct bench_validity {
		const char *roles, *corun, *probe;
		int (*probe_pairs)(struct bench_ctx *c, const struct variant *v, int *a, int *b,
				   int max);
	} validity;
	/* What report draws ({ VIEW_END }-terminated; NULL: a bar chart per summary column). */
	const struct bench_view *views;
	/* Variants in the order a person compares them, baseline first (NULL-terminated; NULL: as
	 * run). */
	const char *const *variant_order;
	/* Optional: the line printed under the summary's changes (text): the figures the bench
	 * reproduces (a seed's); and a column of its rows that says whether they describe the run
	 * (only_if): "yes", else "no: WHY" in a few words. With only_if the text is printed only
	 * when the rows say yes, else a line with the why (desc_note_instead, schema/desc.h). */
	struct bench_note {
		const char *text, *only_if;
	} summary_note;
	/* Optional: why variant var's value of a summary metric is fixed by construction under this
	 * run's settings (an invariant of the model, not a measurement), in a few words; NULL:
	 * measured. The summary marks it a bound and takes no ratio or change against it. */
	const char *(*by_construction)(const struct bench_ctx *c, int var, const char *metric);
	/* Optional (BENCH_PLACED): the placement --placement auto plans and why, for --help
	 * ({ "spread", "workers spread over cores" }); { NULL }: the planner's auto
	 * (harness/placement.h). */
	struct bench_auto {
		const char *name, *why;
	} auto_placement;
	/* Every column its rows hold besides the harness's (harness/columns.h), { 0 }-terminated:
	 * the names above (config, summary, views...) are declared here; a row with an undeclared
	 * column aborts where the check is on (col_checking). */
	const struct col_decl *columns;
	/* Optional: its side tables, { 0 }-terminated (`list --columns BENCH/NAME`). */
	const struct col_side *sides;
};

void bench_register(const struct bench *b);
const struct bench *bench_find(const char *name);
const struct bench *bench_at(int i);
const char *bench_names(void);

#define BENCH_REGISTER(b) \
	static void __attribute__((constructor)) register_##b(void) { bench_register(&b); }

/* The harness options b takes, by its flags (into out, room for max, { 0 }-terminated): what its
 * parser accepts and its --help lists. Returns out. */
#define HARNESS_OPTS_MAX 40
const struct opt_spec *bench_harness_opts(const struct bench *b, struct opt_spec *out, int max);
/* 1 when name (without "--") is a harness option that b does not take; *why (may be NULL) gets
 * why in a few words. */
int bench_refuses(const struct bench *b, const char *name, const char **why);

/* Plan the bench's threads from --placement and --mem-node. */
int bench_plan(struct bench_ctx *c, const struct role_req *roles, int nroles, char *err);
/* Add a variant. */
void bench_variant(struct bench_ctx *c, const char *name, long param);
/* Room for n variants in all, so that many bench_variant calls do not grow the array step by step.
 */
void bench_variants_reserve(struct bench_ctx *c, int n);
/* The harness's thread runner: one thread per plan slot runs body(thread, arg) after the start
 * barrier, for c->warmup then c->duration (thr_drive or thr_measure_begin/end mark the window);
 * then every thread's evidence is recorded by its role and c->thr and c->sum filled. 0, or -1 with
 * the message (nothing measured). */
int bench_threads(struct bench_ctx *c, void (*body)(struct thr *, void *), void *arg, char *err);
/* The same, each thread running thr_drive(fn, arg): batches of fn until the window ends. */
int bench_drive(struct bench_ctx *c, batch_fn fn, void *arg, char *err);
/* col := the role's ns per operation over its threads' windows (from c->sum), NA when none. */
void bench_ns_per_op(struct bench_ctx *c, struct row *r, const char *col, int role);
/* size zeroed bytes on the plan's memory node (--mem-node), freed by the harness after the run;
 * NULL with the message. */
void *bench_mem(struct bench_ctx *c, size_t size, char *err);
/* Record threads' evidence after a run: by their plan role names, or under one role name. */
void bench_evidence(struct bench_ctx *c, const struct thr *t, int n);
void bench_evidence_role(struct bench_ctx *c, const struct thr *t, const char *role);
/* Or a record kept since its run (pingpong measures a round once for several rows). */
void bench_evidence_copy(struct bench_ctx *c, const struct ev_thread *x);
/* A calibrated work as achieved (docs/validity.md, rule setting): the threads of the roles in mask
 * (bit 1 << role) that timed it (thr.work_ns_achieved, ns) give col their mean in unit (ns /
 * scale), and the one furthest from requested (in unit) to the rule; NA with na_why when none did.
 */
struct work_setting {
	const char *name, *unit, *col, *na_why;
	double requested, scale;
};
void bench_work_achieved(struct bench_ctx *c, const struct thr *t, int n, unsigned mask,
			 const struct work_setting *w, struct row *r);
/* The CPU pairs the placement probe times for a variant (at most max). */
int bench_probe_pairs(struct bench_ctx *c, const struct variant *v, int *a, int *b, int max);

/* Entry point for `c2cbench run BENCH ...`; returns the exit status. */
int bench_main(const struct bench *b, int argc, char **argv);
/* The run summary, printed after the run from the result set it wrote (csv, its .meta beside) to
 * f: cli/ sets analysis/'s (harness/ writes rows, never their analysis); NULL: none. 0, or -1 with
 * a one-line message. */
typedef int (*bench_summary_fn)(void *f, const char *csv, char *err);
void bench_set_summary(bench_summary_fn fn);
/* The harness options every bench takes. */
extern const struct opt_spec harness_opts[];
#endif
