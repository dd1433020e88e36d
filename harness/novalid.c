#include "harness/novalid.h"
#include "lib/util.h"
#include "lib/wrap.h"
#include "harness/validity.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NAMES_SHOWN 8 /* configurations named on the first line; the others are counted */

/* Per configuration with a broken rule: per rule how often it broke, the sum of each attempt's
 * furthest value and the value nearest to passing (the best attempt). */
struct cfg {
	int cnt[VR_N];
	double sum[VR_N], best[VR_N];
	char setting[32]; /* the setting furthest off in its worst attempt */
};

/* Every configuration's attempts and valid ones (12 bytes each: pingpong has a million); the
 * rules' details only for those that broke one, in det (slot[var] - 1; 0: none). */
struct novalid {
	int n;
	int *attempts, *valid, *slot;
	struct cfg *det;
	int ndet, cap;
};

/* Rules whose value passes upward (a fraction on a CPU or shared); the others pass downward. */
static int low_is_bad(int r)
{
	return r == VR_ONCPU || r == VR_OVERLAP;
}

struct novalid *novalid_new(int nvar)
{
	struct novalid *nv = xcalloc(1, sizeof(*nv));
	nv->n = nvar;
	nv->attempts = xcalloc((size_t)nvar + 1, sizeof(int));
	nv->valid = xcalloc((size_t)nvar + 1, sizeof(int));
	nv->slot = xcalloc((size_t)nvar + 1, sizeof(int));
	return nv;
}

void novalid_add(struct novalid *nv, int var, int valid, const struct vbroken *b)
{
	nv->attempts[var]++;
	nv->valid[var] += valid;
	int any = 0;
	for (int r = 0; r < VR_N && !valid && b; r++)
		any |= b->hit[r];
	if (!any)
		return;
	if (!nv->slot[var]) {
		if (nv->ndet == nv->cap) {
			nv->cap = nv->cap ? 2 * nv->cap : 16;
			nv->det = realloc(nv->det, (size_t)nv->cap * sizeof(*nv->det));
			if (!nv->det)
				out_of_memory(0);
		}
		memset(&nv->det[nv->ndet], 0, sizeof(*nv->det));
		nv->slot[var] = ++nv->ndet;
	}
	struct cfg *c = &nv->det[nv->slot[var] - 1];
	for (int r = 0; r < VR_N; r++) {
		if (!b->hit[r])
			continue;
		double x = b->worst[r];
		if (!c->cnt[r] || (low_is_bad(r) ? x > c->best[r] : x < c->best[r]))
			c->best[r] = x;
		if (r == VR_SETTING && !c->setting[0])
			snprintf(c->setting, sizeof(c->setting), "%s", b->setting);
		c->cnt[r]++;
		c->sum[r] += x;
	}
}

int novalid_count(const struct novalid *nv)
{
	int k = 0;
	for (int v = 0; v < nv->n; v++)
		k += nv->attempts[v] && !nv->valid[v];
	return k;
}

/* The reason in words: the mean of each attempt's furthest value, against the bound asked. */
static void words(char *b, size_t n, int r, double mean, const struct vrules *v,
		  const char *setting)
{
	switch (r) {
	case VR_OPS:
		snprintf(b, n,
			 "a role that must run completed no operation, or nothing was left to "
			 "measure: its threads did not get to run together");
		break;
	case VR_WINDOW:
		snprintf(b, n,
			 "the measured windows were %.0f%% off the requested --duration "
			 "(--valid-window allows %g%%): "
			 "threads were held up, the machine is busy",
			 100 * mean, 100 * v->window_tol);
		break;
	case VR_ONCPU:
		snprintf(b, n,
			 "threads were on a CPU %.0f%% of their windows (--valid-oncpu asks %g%%): "
			 "the machine is busy",
			 100 * mean, 100 * v->oncpu_min);
		break;
	case VR_OVERLAP:
		snprintf(b, n,
			 "the threads that must run together shared %.0f%% of their windows "
			 "(--valid-overlap asks %g%%): "
			 "they did not run at the same time, the machine is busy",
			 100 * mean, 100 * v->overlap_min);
		break;
	case VR_STEAL:
		snprintf(b, n,
			 "the hypervisor gave %.1f%% of a measuring CPU's time to others (steal; "
			 "--valid-steal allows %g%%): "
			 "the host is busy",
			 100 * mean, 100 * v->steal_max);
		break;
	case VR_MIGRATION:
		snprintf(b, n,
			 "threads ran on another CPU than the one they were bound to: something "
			 "moved them");
		break;
	case VR_PROBE:
		snprintf(b, n,
			 "the latency between the measured CPUs changed x%.2f within an attempt "
			 "(--valid-probe allows x%g): "
			 "the hypervisor moved a vCPU",
			 mean, v->probe_factor);
		break;
	default:
		snprintf(b, n,
			 "achieved settings (%s first) were %.0f%% off their requests "
			 "(--valid-setting allows %g%%): "
			 "the threads did not run at the pace asked (a busy machine, SMT siblings, "
			 "or a request this machine "
			 "cannot give)",
			 setting, 100 * mean, 100 * v->setting_tol);
	}
}

/* What to try for rule r: the machine first, then the bound that would pass the best attempt. */
static void try_text(char *b, size_t n, int r, double best, const struct bench_ctx *c)
{
	const struct vrules *v = c->rules;
	int dur = !bench_refuses(c->b, "duration", NULL);
	switch (r) {
	case VR_OPS:
		snprintf(b, n, "a quieter machine (no other jobs on these CPUs)%s",
			 dur ? "; a longer --duration" : "");
		break;
	case VR_WINDOW:
		if (ceil(100 * best) > 1000)
			snprintf(b, n,
				 "a quieter machine; even the best attempt's window is more than "
				 "--valid-window's most (1000) off");
		else
			snprintf(b, n,
				 "a quieter machine; --valid-window %.0f lets the best attempt "
				 "pass this rule (now %g)",
				 ceil(100 * best), 100 * v->window_tol);
		break;
	case VR_ONCPU:
		snprintf(b, n,
			 "a quieter machine (no other jobs on these CPUs); --valid-oncpu %.0f lets "
			 "the best attempt pass this rule (now %g)",
			 floor(100 * best), 100 * v->oncpu_min);
		break;
	case VR_OVERLAP:
		snprintf(b, n,
			 "a quieter machine; --valid-overlap %.0f lets the best attempt pass this "
			 "rule (now %g)",
			 floor(100 * best), 100 * v->overlap_min);
		break;
	case VR_STEAL:
		snprintf(b, n,
			 "a host with spare CPUs; --valid-steal %.0f lets the best attempt pass "
			 "this rule (now %g)",
			 fmin(100, ceil(100 * best)), 100 * v->steal_max);
		break;
	case VR_MIGRATION:
		snprintf(b, n,
			 "keep the run's CPUs out of reach of affinity changes (taskset, cgroup "
			 "cpusets); no option accepts a migration");
		break;
	case VR_PROBE:
		snprintf(b, n,
			 "pinned vCPUs (the hypervisor's CPU pinning); --valid-probe %.1f lets the "
			 "best attempt pass this rule (now %g)",
			 fmin(1000, ceil(10 * best) / 10), v->probe_factor);
		break;
	default:
		snprintf(b, n,
			 "a quieter machine%s; --valid-setting %.0f lets the best attempt pass "
			 "this rule (now %g)",
			 dur ? " or a longer --duration" : "", ceil(100 * best),
			 100 * v->setting_tol);
	}
}

static void print_lines(const struct novalid *nv, const struct bench_ctx *c, FILE *f,
			const char *csv);

/* The lines, each broken at spaces to 100 columns, its further lines indented by 4 (deeper than
 * any line's own: the preset's relay joins them back). */
void novalid_print(const struct novalid *nv, const struct bench_ctx *c, FILE *f, const char *csv)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	if (!m)
		out_of_memory(0);
	print_lines(nv, c, m, csv);
	fclose(m);
	for (char *l = text; l && *l;) {
		char *nl = strchr(l, '\n');
		if (nl)
			*nl = 0;
		text_lines(f, TEXT_WIDTH, NOVALID_MORE, l);
		l = nl ? nl + 1 : l + strlen(l);
	}
	free(text);
}

static void print_lines(const struct novalid *nv, const struct bench_ctx *c, FILE *f,
			const char *csv)
{
	int none = novalid_count(nv), tried = 0, att = 0, shown = 0, cnt[VR_N] = {0};
	const char *setting = "";
	double sum[VR_N] = {0}, best[VR_N] = {0};
	if (!none)
		return;
	for (int v = 0; v < nv->n; v++)
		tried += nv->attempts[v] > 0;
	fprintf(f, NOVALID_HEAD "%d of %d configuration(s) of %s got no valid repetition:", none,
		tried, c->b->name);
	for (int v = 0; v < nv->n; v++) {
		if (!nv->attempts[v] || nv->valid[v])
			continue;
		if (shown++ < NAMES_SHOWN)
			fprintf(f, "%s %s %s", shown > 1 ? "," : "", c->b->variant_col,
				c->var[v].name);
		att += nv->attempts[v];
		const struct cfg *g = nv->slot[v] ? &nv->det[nv->slot[v] - 1] : NULL;
		for (int r = 0; r < VR_N && g; r++) {
			if (!g->cnt[r])
				continue;
			if (!cnt[r] ||
			    (low_is_bad(r) ? g->best[r] > best[r] : g->best[r] < best[r]))
				best[r] = g->best[r];
			cnt[r] += g->cnt[r];
			sum[r] += g->sum[r];
			if (r == VR_SETTING && !setting[0])
				setting = g->setting;
		}
	}
	if (shown > NAMES_SHOWN)
		fprintf(f, " and %d more", shown - NAMES_SHOWN);
	int top = -1;
	for (int r = 0; r < VR_N; r++)
		if (cnt[r] && (top < 0 || cnt[r] > cnt[top]))
			top = r;
	char why[512], tr[512];
	fprintf(f, "\n");
	if (top < 0) {
		fprintf(f,
			"  why: no rule is recorded for its %d attempt(s); see invalid_reason in "
			"%s\n",
			att, csv);
	} else {
		words(why, sizeof(why), top, sum[top] / cnt[top], c->rules, setting);
		try_text(tr, sizeof(tr), top, best[top], c);
		fprintf(f, "  why: in %d of its %d attempt(s), %s (rule %s, docs/validity.md)\n",
			cnt[top], att, why, vrule_name[top]);
		int also = 0;
		for (int r = 0; r < VR_N; r++)
			if (cnt[r] && r != top)
				fprintf(f, "%s %s in %d",
					also++ ? "," : "  also broken:", vrule_name[r], cnt[r]);
		if (also)
			fprintf(f, " attempt(s)\n");
		fprintf(f, "  try: %s\n", tr);
	}
	fprintf(f, "  try: more attempts per repetition, --max-attempts %d (now %d)\n",
		c->attempts < 500000 ? 2 * c->attempts : 1000000, c->attempts);
	fprintf(f, "  exit status %d; every attempt is a row in %s, with its invalid_reason\n",
		EXIT_NOVALID, csv);
}

void novalid_free(struct novalid *nv)
{
	if (!nv)
		return;
	free(nv->attempts);
	free(nv->valid);
	free(nv->slot);
	free(nv->det);
	free(nv);
}
