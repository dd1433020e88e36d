/* The bench registry: benches/ files register themselves at start-up; no harness edit per bench. */
#include "harness/bench.h"
#include "harness/registry.h"

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
