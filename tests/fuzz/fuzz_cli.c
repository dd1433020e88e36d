/* libFuzzer target: the command-line parser and the placement parser on hostile argument vectors.
 * Input: NUL- or newline-separated arguments. Must never crash, hang, leak or read out of bounds.
 */
#include "harness/bench.h"
#include "harness/placement.h"
#include <stdlib.h>
#include <string.h>

static struct topo topo;

static const struct opt_spec fuzz_bench_opts[] = {
	{ "layout", OPT_CHOICES, "shared,aligned", "LIST", "", "shared,aligned,padded", NULL },
	{ "writers", OPT_COUNT, "1", "N", "", NULL, NULL },
	{ "policy", OPT_CHOICE, "rmw", "P", "", "rmw,test-then-set", NULL },
	{ "drain-us", OPT_UINT, "0", "US", "", NULL, NULL },
	{ 0 },
};

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char err[ERRLEN];
	if (!topo.h && topo_load(&topo, "synthetic:pack:2 numa:1 core:4 pu:2", err))
		abort();
	if (size > 4096)
		return 0;
	char *buf = malloc(size + 1), *argv[130];
	memcpy(buf, data, size);
	buf[size] = 0;
	int argc = 0;
	argv[argc++] = "c2cbench";
	for (char *p = buf; argc < 129 && p < buf + size;) {
		argv[argc++] = p;
		p += strcspn(p, "\n");
		if (p < buf + size)
			*p++ = 0;
	}
	argv[argc] = NULL;
	const struct opt_spec *tables[] = { harness_opts, fuzz_bench_opts, NULL };
	struct opts o;
	if (!opts_parse(&o, tables, argc, argv, err)) {
		struct role_req r[2] = {{"writer", (int)opt_long(&o, "writers")}, {"reader", 1}};
		struct plan *p = malloc(sizeof(*p));
		if (!plan_make(&topo, opt_str(&o, "placement"), r, 2, p, err))
			plan_mem_node(&topo, p, opt_str(&o, "mem-node"), err);
		free(p);
	}
	opts_free(&o);
	free(buf);
	return 0;
}
