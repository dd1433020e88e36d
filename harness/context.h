/* Run context: the facts users need to compare numbers taken on different machines and builds. */
#ifndef C2C_CONTEXT_H
#define C2C_CONTEXT_H
#include "row.h"
#include "topo.h"

struct context {
	char host[128], cpu_model[160], kernel[128], compiler[128], git_rev[64], started[32];
	int packages, cores, pus, nodes, line_size;
};

void context_collect(struct context *c, const struct topo *t);
/* Append the context columns (host, cpu_model, ... git_rev) to a row. */
void context_to_row(const struct context *c, struct row *r);
#endif
