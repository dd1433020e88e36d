/* The bench registry: benches/ files register themselves at start-up; no harness edit per bench. */
#include "harness/bench.h"
#include "harness/bench_columns.h"
#include "harness/placement.h"
#include "lib/registry.h"
#include "lib/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *bench_name(const void *b)
{
	return ((const struct bench *)b)->name;
}

static struct reg benches = { .name = bench_name };

/* A bench without .summary: its declared metrics that have a better side, in their order. */
static const struct bench *summary_default(const struct bench *b)
{
	if (b->summary || !b->columns)
		return b;
	struct bench *cp = xcalloc(1, sizeof(*cp));
	const char **sum = xcalloc(SUMMARY_MAX + 1, sizeof(*sum));
	*cp = *b;
	for (int i = 0, k = 0; b->columns[i].name && k < SUMMARY_MAX; i++)
		if (b->columns[i].kind == COL_METRIC && b->columns[i].better != COL_NOSIDE)
			sum[k++] = b->columns[i].name;
	cp->summary = sum;
	return cp;
}

void bench_register(const struct bench *b)
{
	char err[ERRLEN];
	b = summary_default(b);
	if (col_checking() && bench_columns_check(b, err)) {
		fprintf(stderr, "c2cbench: internal error: %s\n", err);
		abort();
	}
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

void bench_variant(struct bench_ctx *c, const char *name, long param)
{
	if (c->nvar >= CONFIGS_MAX)
		abort(); /* benches check their limits in prepare: this is a programming error */
	if (c->nvar == c->var_cap) {
		c->var_cap = c->var_cap ? 2 * c->var_cap : 16;
		c->var = realloc(c->var, (size_t)c->var_cap * sizeof(*c->var));
		if (!c->var)
			out_of_memory(0);
	}
	snprintf(c->var[c->nvar].name, sizeof(c->var[0].name), "%s", name);
	c->var[c->nvar++].param = param;
}

void bench_variants_reserve(struct bench_ctx *c, int n)
{
	if (n <= c->var_cap || n > CONFIGS_MAX)
		return;
	c->var = realloc(c->var, (size_t)n * sizeof(*c->var));
	if (!c->var)
		out_of_memory(0);
	c->var_cap = n;
}

int bench_plan(struct bench_ctx *c, const struct role_req *roles, int nroles, char *err)
{
	if (plan_make(c->topo, opt_str(c->o, "placement"), roles, nroles, &c->plan, err))
		return -1;
	return plan_mem_node(c->topo, &c->plan, opt_str(c->o, "mem-node"), err);
}

/* A role's name in this bench's plan ("writer"), or "role2" when the plan names none. */
static const char *role_name(const struct bench_ctx *c, int role, char *buf, size_t n)
{
	if (c->plan.roles && role >= 0 && role < c->plan.nroles && c->plan.roles[role].name)
		return c->plan.roles[role].name;
	snprintf(buf, n, "role%d", role);
	return buf;
}

void bench_evidence_role(struct bench_ctx *c, const struct thr *t, const char *role)
{
	const char *corun = c->b->validity.corun;
	if (c->ev_on)
		evidence_thread(&c->ev, t, role, corun && list_has(corun, role));
}

void bench_evidence_copy(struct bench_ctx *c, const struct ev_thread *x)
{
	struct ev_thread y = *x;
	y.corun = c->b->validity.corun && list_has(c->b->validity.corun, y.role);
	if (c->ev_on)
		evidence_add(&c->ev, &y);
}

void bench_evidence(struct bench_ctx *c, const struct thr *t, int n)
{
	char buf[16];
	for (int i = 0; i < n; i++)
		bench_evidence_role(c, &t[i], role_name(c, t[i].role, buf, sizeof(buf)));
}

void bench_work_achieved(struct bench_ctx *c, const struct thr *t, int n, unsigned mask,
			 const struct work_setting *w, struct row *r)
{
	double sum = 0;
	int k = 0;
	for (int i = 0; i < n && w->requested > 0; i++)
		if (t[i].role >= 0 && t[i].role < 32 && (mask & 1u << t[i].role)) {
			double v = t[i].work_ns_achieved / w->scale;
			sum += v;
			k++;
			evidence_setting_max(&c->ev, w->name, w->requested, v, w->unit);
		}
	if (k)
		row_set(r, w->col, "%.2f", sum / k);
	else
		row_na(r, w->col, w->na_why);
}

/* Slot of the plan for role r and thread index idx (-1 if none). */
static int slot_cpu(const struct plan *p, int r, int idx)
{
	for (int i = 0; i < p->n; i++)
		if (p->slot[i].role == r && p->slot[i].idx == idx)
			return p->slot[i].os;
	return -1;
}

/* Each thread of the first probe role against a thread of the second (i mod their count). */
int bench_probe_pairs(struct bench_ctx *c, const struct variant *v, int *a, int *b, int max)
{
	if (c->b->validity.probe_pairs)
		return c->b->validity.probe_pairs(c, v, a, b, max);
	char *names[2];
	const char *probe = c->b->validity.probe;
	int n = probe ? list_split(probe, names, 2) : 0, role[2] = {-1, -1},
	    count[2] = {0, 0}, k = 0;
	for (int i = 0; i < n; i++) {
		for (int r = 0; r < c->plan.nroles && c->plan.roles; r++)
			if (c->plan.roles[r].name && !strcmp(c->plan.roles[r].name, names[i]))
				role[i] = r;
		free(names[i]);
	}
	if (n != 2 || role[0] < 0 || role[1] < 0)
		return 0;
	for (int i = 0; i < c->plan.n; i++)
		for (int j = 0; j < 2; j++)
			count[j] += c->plan.slot[i].role == role[j];
	for (int i = 0; i < count[0] && k < max; i++) {
		int x = slot_cpu(&c->plan, role[0], i),
		    y = count[1] ? slot_cpu(&c->plan, role[1], i % count[1]) : -1, dup = 0;
		for (int j = 0; j < k; j++)
			dup |= a[j] == x && b[j] == y;
		if (x >= 0 && y >= 0 && x != y && !dup) {
			a[k] = x;
			b[k++] = y;
		}
	}
	return k;
}

/* b's form of harness option s, or NULL (why says why) when it does not take it. */
static const struct opt_spec *bench_form(const struct bench *b, const struct opt_spec *s,
					 const char **why)
{
	const char *w = "it places its own threads";
	const struct opt_spec *f = s;
	if (b->harness_opt)
		f = b->harness_opt(s, &w);
	else if (!(b->flags & BENCH_PLACED) &&
		 (!strcmp(s->name, "placement") || !strcmp(s->name, "mem-node")))
		f = NULL;
	if (!f && why)
		*why = w;
	return f;
}

int bench_refuses(const struct bench *b, const char *name, const char **why)
{
	for (const struct opt_spec *s = harness_opts; s->name; s++)
		if (!strcmp(s->name, name))
			return !bench_form(b, s, why);
	return 0;
}

const struct opt_spec *bench_harness_opts(const struct bench *b, struct opt_spec *out, int max)
{
	int n = 0;
	for (const struct opt_spec *s = harness_opts; s->name; s++) {
		const struct opt_spec *f = bench_form(b, s, NULL);
		if (!f)
			continue;
		if (n + 1 >= max)
			abort(); /* HARNESS_OPTS_MAX is too small: a programming error */
		out[n] = *f;
		if (f == s && !strcmp(s->name, "placement")) { /* the table's, this bench's auto */
			static char help[1200];
			placement_help(help, sizeof(help), b->auto_placement.name,
				       b->auto_placement.why);
			out[n].help = help;
		}
		n++;
	}
	memset(&out[n], 0, sizeof(out[n]));
	return out;
}
