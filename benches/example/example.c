/* example (docs/hacking.md, "Writing a bench"): two threads add to counters of their own. */
#include "harness/bench.h"

static uint64_t ex_batch(struct thr *t, void *arg)
{
	long *m = arg, *mine = m + 16 + t->idx * m[0]; /* m[0]: the stride, alone on its block */
	for (int i = 0; i < 256; i++)
		__atomic_fetch_add(mine, 1, __ATOMIC_RELAXED);
	return 256;
}

static const struct role_req ex_adders = { "adder", 2 };
static int ex_prepare(struct bench_ctx *c, char *err)
{
	bench_variant(c, "packed", 1);
	bench_variant(c, "padded", 16);
	return bench_plan(c, &ex_adders, 1, err);
}

static int ex_run(struct bench_ctx *c, const struct variant *v, int rep, struct row *r, char *err)
{
	long *m = bench_mem(c, 128 * (size_t)(c->plan.n + 1), err);
	(void)rep;
	if (!m)
		return -1;
	m[0] = v->param;
	if (bench_drive(c, ex_batch, m, err))
		return -1;
	bench_ns_per_op(c, r, "ns_per_add", 0);
	return 0;
}
static const struct col_decl ex_columns[] = { /* the summary: its metrics, by default */
					      { "layout", COL_CONFIG, "text", COL_NOSIDE,
						"packed (false sharing) or padded (128 B apart)" },
					      { "ns_per_add", COL_METRIC, "ns", COL_LOWER,
						"ns per atomic add over the adders' windows" },
					      { 0 }
};
static const struct bench example = {
	.name = "example", .desc = "two threads add to counters of their own, packed or padded",
	.variant_col = "layout", .columns = ex_columns, .flags = BENCH_PLACED | BENCH_WINDOW,
	.validity = { .roles = "adder", .corun = "adder" }, .prepare = ex_prepare, .run = ex_run,
};
BENCH_REGISTER(example)
