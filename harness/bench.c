/* The bench registry: benches/ files register themselves at start-up; no harness edit per bench. */
#include "harness/bench.h"
#include "harness/registry.h"
#include <stdlib.h>
#include <string.h>

static const char *bench_name(const void *b)
{
	return ((const struct bench *)b)->name;
}

static struct reg benches = { .name = bench_name };

void bench_register(const struct bench *b)
{
	reg_add(&benches, b);
}

const struct bench *bench_find(const char *name)
{
	return reg_find(&benches, name);
}

const struct bench *bench_at(int i)
{
	return reg_at(&benches, i);
}

const char *bench_names(void)
{
	return benches.names;
}

/* pingpong-like benches take --placement only as the set of PUs they pair up themselves. */
static const struct opt_spec pu_set_placement = {
	"placement", OPT_TEXT, "auto", "auto|cpus:LIST", "the PUs the bench places its own threads on: auto (every allowed PU) or cpus:LIST", NULL, NULL
};

/* A bench that reads --mem-node itself (BENCH_MEM_NODE) names its own values; unset by default. */
static const struct opt_spec own_mem_node = {
	"mem-node", OPT_TEXT, NULL, "a|b|N", "where the bench's lines live: a (first touch from the pair's first PU, when not given), b (from the second) or NUMA node N", NULL, NULL
};

int bench_refuses(const struct bench *b, const char *name)
{
	if (!strcmp(name, "mem-node"))
		return !(b->flags & (BENCH_PLACED | BENCH_MEM_NODE));
	if (!strcmp(name, "placement"))
		return !(b->flags & (BENCH_PLACED | BENCH_PU_SET));
	if (!strcmp(name, "duration") || !strcmp(name, "warmup"))
		return (b->flags & BENCH_UNTIMED) != 0;
	return 0;
}

const struct opt_spec *bench_harness_opts(const struct bench *b, struct opt_spec *out, int max)
{
	int n = 0;
	for (const struct opt_spec *s = harness_opts; s->name; s++) {
		if (bench_refuses(b, s->name))
			continue;
		if (n + 1 >= max)
			abort(); /* HARNESS_OPTS_MAX is too small: a programming error */
		if (!(b->flags & BENCH_PLACED) && !strcmp(s->name, "placement"))
			out[n++] = pu_set_placement;
		else if (!(b->flags & BENCH_PLACED) && !strcmp(s->name, "mem-node"))
			out[n++] = own_mem_node;
		else
			out[n++] = *s;
	}
	memset(&out[n], 0, sizeof(out[n]));
	return out;
}
