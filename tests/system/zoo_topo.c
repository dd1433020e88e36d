#include "tests/system/zoo_topo.h"
#include "tests/testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int field(const char *line, const char *key)
{
	char pat[32];
	snprintf(pat, sizeof(pat), " %s=", key);
	const char *p = strstr(line, pat);
	if (!p && !strncmp(line, pat + 1, strlen(pat + 1)))
		p = line - 1;
	if (!p)
		return -1;
	p += strlen(pat);
	return *p == '-' ? -1 : atoi(p);
}

int zoo_topo_read(struct zoo_topo *t, const char *dir, char *err)
{
	char path[4096], line[512];
	snprintf(path, sizeof(path), "%s/topo.txt", dir);
	FILE *f = fopen(path, "r");
	memset(t, 0, sizeof(*t));
	if (!f) {
		snprintf(err, 512, "no %.400s: the guest did not start its checks", path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "cpu=", 4) && t->ncpus < ZOO_MAX_CPUS) {
			struct zoo_cpu *c = &t->cpu[t->ncpus++];
			*c = (struct zoo_cpu){field(line, "cpu"), field(line, "pkg"),
					      field(line, "core"), field(line, "llc"),
					      field(line, "node")};
		} else if (!strncmp(line, "node=", 5) && t->nnodes < ZOO_MAX_NODES) {
			t->node[t->nnodes] = field(line, "node");
			const char *m = strstr(line, "mem_kb=");
			t->node_mem_kb[t->nnodes++] = m ? atol(m + 7) : 0;
		}
	}
	fclose(f);
	if (!t->ncpus) {
		snprintf(err, 512, "%.400s lists no CPU", path);
		return -1;
	}
	return 0;
}

const struct zoo_cpu *zoo_cpu(const struct zoo_topo *t, int c)
{
	for (int i = 0; i < t->ncpus; i++)
		if (t->cpu[i].cpu == c)
			return &t->cpu[i];
	return NULL;
}

/* Distinct values of a field over the CPUs of package pkg (pkg < 0: every CPU). */
static int distinct(const struct zoo_topo *t, int pkg, int which)
{
	int seen[ZOO_MAX_CPUS], n = 0;
	for (int i = 0; i < t->ncpus; i++) {
		const struct zoo_cpu *c = &t->cpu[i];
		if (pkg >= 0 && c->pkg != pkg)
			continue;
		int v = which == 0 ? c->pkg : which == 1 ? c->core : c->llc, k = 0;
		if (v < 0)
			continue;
		while (k < n && seen[k] != v)
			k++;
		if (k == n)
			seen[n++] = v;
	}
	return n;
}

int zoo_packages(const struct zoo_topo *t)
{
	return distinct(t, -1, 0);
}

int zoo_cores(const struct zoo_topo *t, int pkg)
{
	return distinct(t, pkg, 1);
}

int zoo_llcs(const struct zoo_topo *t, int pkg)
{
	return distinct(t, pkg, 2);
}

int zoo_core_pus(const struct zoo_topo *t, int core)
{
	int n = 0;
	for (int i = 0; i < t->ncpus; i++)
		n += t->cpu[i].core == core;
	return n;
}

int zoo_first_cpu(const struct zoo_topo *t, int pkg)
{
	int best = -1;
	for (int i = 0; i < t->ncpus; i++)
		if (t->cpu[i].pkg == pkg && (best < 0 || t->cpu[i].cpu < best))
			best = t->cpu[i].cpu;
	return best;
}

char *zoo_file(const char *dir, const char *name)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return slurp(path);
}

int zoo_int(const char *dir, const char *name)
{
	char *s = zoo_file(dir, name);
	int v = s ? atoi(s) : -1;
	free(s);
	return v;
}

int zoo_lines(const char *s)
{
	int n = 0;
	for (; s && *s; s++)
		n += *s == '\n';
	return n;
}
