/* The counter columns of a row, the describe listing and the HITM summary. */
#include "harness/bench.h"
#include "harness/counters/counters.h"
#include "harness/counters/evtab.h"
#include "harness/counters/internal.h"
#include "stats/stats.h"
#include "lib/util.h"
#include "lib/wrap.h"
#include <stdlib.h>
#include <string.h>

/* ---- output ---- */

/* NA for a column, with reasons grouped so one cause is said once per row. */
struct na_group {
	int n;
	char reason[CTR_MAX * 2][192], cols[CTR_MAX * 2][512];
};

static void na_note(struct na_group *g, struct row *r, const char *key, const char *label,
		    const char *reason)
{
	int i;
	row_set(r, key, "NA");
	for (i = 0; i < g->n && strcmp(g->reason[i], reason); i++)
		;
	if (i == g->n) {
		if (g->n == CTR_MAX * 2)
			return;
		snprintf(g->reason[g->n], sizeof(g->reason[0]), "%s", reason);
		g->cols[g->n++][0] = 0;
	}
	size_t len = strlen(g->cols[i]);
	if (!strstr(g->cols[i], label))
		snprintf(g->cols[i] + len, sizeof(g->cols[0]) - len, "%s%s", len ? "," : "", label);
}

static double per_kop(const struct counters *k, const struct ctr_event *e, int role, int *ok)
{
	uint64_t ops = k->ops[e->pass][role];
	*ok = ops > 0;
	return *ok ? (double)k->val[role][e - k->ev] * 1000.0 / (double)ops : 0;
}

/* One SDE event per role: ROLE_sde_NAME (its threads' own tallies, read in each thread through
 * PAPI) and ROLE_sde_NAME_per_kop (per 1,000 of the role's operations), so tallies are attributed
 * to roles. */
static void sde_roles_to_row(const struct counters *k, struct na_group *g, struct row *r, int i,
			     const char *why)
{
	const struct ctr_event *e = &k->ev[i];
	char key[160], kop[192];
	for (int role = 0; role < k->nroles; role++) {
		uint64_t ops = k->ops[0][role];
		if (!k->roles[role].count)
			continue;
		snprintf(key, sizeof(key), "%s_%s", k->roles[role].name, e->label);
		snprintf(kop, sizeof(kop), "%s_per_kop", key);
		if (why) {
			na_note(g, r, key, e->label, why);
			na_note(g, r, kop, e->label, why);
			continue;
		}
		row_set(r, key, "%lld", k->sde_role[role][i]);
		if (ops)
			row_set(r, kop, "%.4f",
				(double)k->sde_role[role][i] * 1000.0 / (double)ops);
		else
			na_note(g, r, kop, kop, "no operations completed");
	}
}

/* HITM (or stand-in) per 1,000 operations of all measured threads, and which metrics fed it. */
static int hitm_figure(const struct counters *k, double *out, char *src, size_t n, const char **why)
{
	double sum = 0;
	int used = 0;
	size_t w = 0;
	src[0] = 0;
	*why = k->thread_err[0] ? k->thread_err : NULL;
	for (int i = 0; i < k->nev; i++) {
		const struct ctr_event *e = &k->ev[i];
		if (e->metric < 0 || !metric_defs[e->metric].hitm)
			continue;
		if (e->na[0]) {
			if (!*why && !strstr(e->na, "no such event"))
				*why = e->na;
			continue;
		}
		uint64_t ops = 0;
		long long v = 0;
		for (int r = 0; r < k->nroles; r++) {
			ops += k->ops[e->pass][r];
			v += k->val[r][i];
		}
		if (!ops)
			continue;
		sum += (double)v * 1000.0 / (double)ops;
		w += (size_t)snprintf(src + w, w < n ? n - w : 0, "%s%s", used++ ? "+" : "",
				      e->label);
	}
	if (used && strstr(src, "c2c_fill"))
		snprintf(src + strlen(src), n - strlen(src), " (AMD stand-in)");
	else if (used && strstr(src, "coh_"))
		snprintf(src + strlen(src), n - strlen(src), " (Arm stand-in)");
	*out = sum;
	if (!used && !*why)
		*why = "no HITM metric (or stand-in) counted";
	return used && !k->thread_err[0];
}

/* counters_multiplexed: yes when the probe beside a thread's PAPI set ran for less time than it was
 * enabled (the kernel time-shared the counters), no when every probe ran all the time, else NA. */
static void multiplex_to_row(const struct counters *k, struct na_group *g, struct row *r)
{
	char why[200];
	if (k->mux_probes) {
		row_set(r, "counters_multiplexed", "%s", k->mux_short ? "yes" : "no");
		row_set(r, "counters_running_pct", "%.2f", k->mux_min_pct);
		return;
	}
	if (!k->hw_usable)
		snprintf(why, sizeof(why), "no hardware counter ran: %.150s", k->status);
	else
		snprintf(why, sizeof(why), "the probe beside the PAPI set did not run: %.150s",
			 k->mux_err[0] ? k->mux_err : "no hardware event counted");
	na_note(g, r, "counters_multiplexed", "counters_multiplexed", why);
	na_note(g, r, "counters_running_pct", "counters_running_pct", why);
}

void counters_to_row(struct counters *k, struct row *r)
{
	struct na_group *g = xcalloc(1, sizeof(*g));
	char key[160], src[256];
	if (k->pmu[0])
		row_set(r, "counters_pmu", "%s", k->pmu);
	else
		na_note(g, r, "counters_pmu", "counters_pmu", k->pmu_how);
	if (k->pmu_detected[0])
		row_set(r, "counters_pmu_detected", "%s", k->pmu_detected);
	else
		row_set(r, "counters_pmu_detected", "none");
	if (k->pmu_table[0])
		row_set(r, "counters_pmu_table", "%s", k->pmu_table);
	else
		na_note(g, r, "counters_pmu_table", "counters_pmu_table", k->pmu_how);
	row_set(r, "counters_pmu_reason", "%s", k->pmu_how);
	for (int i = 0; i < k->nev; i++) {
		const struct ctr_event *e = &k->ev[i];
		const char *why = e->na[0] ? e->na : k->thread_err[0] ? k->thread_err : NULL;
		if (e->kind == CK_SDE) {
			if (why)
				na_note(g, r, e->label, e->label, why);
			else
				row_set(r, e->label, "%lld", k->sde_val[i]);
			sde_roles_to_row(k, g, r, i, why);
			continue;
		}
		for (int role = 0; role < k->nroles; role++) {
			int ok = 0;
			if (!k->roles[role].count)
				continue;
			snprintf(key, sizeof(key), "%s_%s_per_kop", k->roles[role].name, e->label);
			double v = why ? 0 : per_kop(k, e, role, &ok);
			if (why)
				na_note(g, r, key, e->label, why);
			else if (!ok)
				na_note(g, r, key, key, "no operations completed");
			else
				row_set(r, key, "%.4f", v);
		}
		snprintf(key, sizeof(key), "%s_event", e->label);
		if (e->native[0])
			row_set(r, key, "%s", e->native);
		else
			na_note(g, r, key, e->label, e->na);
	}
	double h;
	const char *why;
	if (hitm_figure(k, &h, src, sizeof(src), &why)) {
		row_set(r, "hitm_per_kop", "%.4f", h);
		row_set(r, "hitm_source", "%s", src);
	} else {
		na_note(g, r, "hitm_per_kop", "hitm_per_kop", why);
		na_note(g, r, "hitm_source", "hitm_source", why);
	}
	row_set(r, "counter_passes", "%d", k->npasses);
	multiplex_to_row(k, g, r);
	for (int role = 0; role < k->nroles;
	     role++) { /* every counted role's operations: what per_kop divides by */
		if (!k->roles[role].count)
			continue;
		snprintf(key, sizeof(key), "%s_counted_ops", k->roles[role].name);
		row_set(r, key, "%llu", (unsigned long long)k->ops[0][role]);
	}
	row_set(r, "counters_status", "%s", k->thread_err[0] ? k->thread_err : k->status);
	for (int i = 0; i < g->n; i++)
		row_na_reason(r, "counters [%s]: %s", g->cols[i], g->reason[i]);
	free(g);
}

/* How many requested events can be counted: with none, one line says why instead of one per event.
 */
static int counted(const struct counters *k)
{
	int n = 0;
	for (int i = 0; i < k->nev; i++)
		n += !k->ev[i].na[0];
	return n;
}

static void describe(const struct counters *k, FILE *f)
{
	if (k->nev && !counted(k)) {
		fprintf(f,
			"counters: none of the %d requested can be counted here: %s (PMU %s, %s; "
			"`c2cbench events` lists them)\n",
			k->nev, k->detail[0] ? k->detail : k->status, k->pmu[0] ? k->pmu : "none",
			k->pmu_how);
		for (int i = 0; i < k->nev; i++) { /* an event's own reason beside the global one */
			const struct ctr_event *e = &k->ev[i];
			if (strcmp(e->na, k->status) && strcmp(e->na, k->detail) &&
			    !strstr(e->na, "no such event"))
				fprintf(f, "  %-16s %-48s cannot count: %s\n", e->label,
					e->native[0] ? e->native : "-", e->na);
		}
		return;
	}
	fprintf(
	    f, "counters: PMU %s (%s); table rows: %s; %d pass(es) per configuration; status: %s\n",
	    k->pmu[0] ? k->pmu : "none", k->pmu_how, k->pmu_table[0] ? k->pmu_table : "none",
	    k->npasses, k->detail);
	for (int i = 0; i < k->nev; i++) {
		const struct ctr_event *e = &k->ev[i];
		if (e->na[0])
			fprintf(f, "  %-16s %-48s cannot count: %s\n", e->label,
				e->native[0] ? e->native : "-", e->na);
		else
			fprintf(f, "  %-16s %-48s counted (%s)%s%s\n", e->label, e->native,
				e->kind == CK_SDE ? "software-defined, whole run"
				: e->pass >= 0	  ? "hardware, per thread"
						  : "?",
				e->adv[0] ? "; " : "", e->adv);
	}
}

/* Each line fitted to TEXT_WIDTH columns, an event's continuing under its name's column. */
void counters_describe(const struct counters *k, FILE *f)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	if (!m)
		out_of_memory(0);
	describe(k, m);
	fclose(m);
	text_fit(f, TEXT_WIDTH, text);
	free(text);
}

