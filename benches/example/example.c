/* example: each thread adds to a counter of its own, the counters side by side (packed: false
 * sharing) or 128 bytes apart (padded). The smallest bench: docs/hacking.md, "Writing a bench". */
#include "harness/bench.h"

static uint64_t ex_batch(struct thr *t, void *arg)
{
	long *m = arg, *mine = m + 16 + t->idx * m[0]; /* m[0]: the stride, alone on its block */
	for (int i = 0; i < 256; i++)
		__atomic_fetch_add(mine, 1, __ATOMIC_RELAXED);
	return 256;
}

static int ex_prepare(struct bench_ctx *c, char *err)
{
	static const struct role_req adders = { "adder", 2 };
	bench_variant(c, "packed", 1);
	bench_variant(c, "padded", 16);
	return bench_plan(c, &adders, 1, err);
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

static const char *const ex_summary[] = { "ns_per_add", NULL };
static const struct bench example = {
	.name = "example", .desc = "two threads add to counters of their own, packed or padded",
	.variant_col = "layout", .summary = ex_summary, .flags = BENCH_PLACED | BENCH_WINDOW,
	.roles = "adder", .corun = "adder", .prepare = ex_prepare, .run = ex_run,
};
BENCH_REGISTER(example)
