/* The bench contract (after will-it-scale): a name, options, variants to compare, one run function.
 * The harness does the rest: options, topology, repetitions in shuffled order, CSV, summary. */
#ifndef C2C_BENCH_H
#define C2C_BENCH_H
#include "harness/context.h"
#include "harness/opts.h"
#include "harness/placement.h"
#include "harness/row.h"
#include "harness/threads.h"
#include "harness/topo.h"
#include <stdint.h>

#define SCHEMA_VERSION 1
#define VARIANTS_MAX 256     /* variants a user lists or sweeps (layouts, offsets) */
#define CONFIGS_MAX 262144   /* variants one run may hold (pingpong: pairs x modes) */
#define SUMMARY_MAX 8        /* summary columns per bench */

/* One of the things a bench compares side by side (a layout, a check mode, a worker mode...). */
struct variant {
	char name[48];
	long param;
};

struct bench;

struct bench_ctx {
	const struct bench *b;
	struct opts *o;
	struct topo *topo;
	struct context ctx;
	struct plan plan; /* filled by the bench's prepare (bench_plan), printed by --dry-run */
	struct variant *var; /* grown by bench_variant */
	int nvar, var_cap;
	double duration, warmup;
	double run_s; /* seconds one run() takes, when prepare knows better than warmup + duration */
	int reps;
	uint64_t seed;
	const struct thr_hooks *hooks; /* per-thread hooks for measured threads (may be NULL) */
	const char *out_path;          /* the main CSV being written (NULL under --dry-run): for side files */
	void *priv;                    /* bench-private */
};

enum bench_flags {
	BENCH_PLACED = 1, /* takes --placement and --mem-node */
	BENCH_PU_SET = 2, /* takes --placement auto|cpus:LIST as the set of PUs it places itself on */
	BENCH_UNTIMED = 4, /* measures counts, not time windows: no --duration, no --warmup */
};

struct bench {
	const char *name;
	const char *desc;
	const struct opt_spec *opts; /* bench options, { 0 }-terminated */
	const char *variant_col;    /* CSV column naming the variant: "layout", "check", ... */
	const char *const *summary; /* metric columns for the summary table, NULL-terminated */
	/* Optional comma list of columns ("mode,class"): the summary has a line per group of rows with
	 * equal values there (reduced to their median within each repetition) instead of per variant. */
	const char *summary_by;
	unsigned flags;
	/* Check options, plan threads, fill c->var. Error: message, exit 2, nothing run. */
	int (*prepare)(struct bench_ctx *c, char *err);
	/* Measure one variant once and fill the row's bench columns. Error: no row is written. */
	int (*run)(struct bench_ctx *c, const struct variant *v, int rep, struct row *r, char *err);
	void (*cleanup)(struct bench_ctx *c);
	/* Optional: columns derived from the counter columns, filled after the counters are in the row. */
	void (*finish_row)(struct bench_ctx *c, struct row *r);
	/* CSV columns besides bench and variant_col that are configuration, not measurement or machine
	 * context: `compare` joins rows on them. NULL-terminated; NULL: bench and variant_col only. */
	const char *const *config;
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
/* 1 when name (without "--") is a harness option that b does not take. */
int bench_refuses(const struct bench *b, const char *name);

/* Plan the bench's threads from --placement and --mem-node. */
int bench_plan(struct bench_ctx *c, const struct role_req *roles, int nroles, char *err);
/* Add a variant. */
void bench_variant(struct bench_ctx *c, const char *name, long param);

/* Entry point for `c2cbench run BENCH ...`; returns the exit status. */
int bench_main(const struct bench *b, int argc, char **argv);
/* The harness options every bench takes. */
extern const struct opt_spec harness_opts[];
#endif
