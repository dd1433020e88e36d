/* The bench registry: benches/ files register themselves at start-up; no harness edit per bench. */
#include "bench.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BENCHES_MAX 32
static const struct bench *reg[BENCHES_MAX];
static int nreg;

void bench_register(const struct bench *b)
{
	if (nreg >= BENCHES_MAX)
		abort();
	int i = nreg++;
	while (i > 0 && strcmp(reg[i - 1]->name, b->name) > 0) { /* keep names sorted for stable listings */
		reg[i] = reg[i - 1];
		i--;
	}
	reg[i] = b;
}

const struct bench *bench_find(const char *name)
{
	for (int i = 0; i < nreg; i++)
		if (!strcmp(reg[i]->name, name))
			return reg[i];
	return NULL;
}

const struct bench *bench_at(int i)
{
	return i >= 0 && i < nreg ? reg[i] : NULL;
}

const char *bench_names(void)
{
	static char buf[512];
	size_t k = 0;
	buf[0] = 0;
	for (int i = 0; i < nreg && k < sizeof(buf); i++)
		k += (size_t)snprintf(buf + k, sizeof(buf) - k, "%s%s", i ? "," : "", reg[i]->name);
	return buf;
}
