/* "Did you mean": the closest names a user could have meant, and raw names as column stems. */
#include "harness/counters/evtab.h"
#include "harness/counters/internal.h"
#include "harness/counters/pmu.h"
#include "harness/counters/sde.h"
#include "lib/suggest.h"
#include "lib/util.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A raw event name as a snake_case column stem. */
void ctr_snake(const char *in, char *out, size_t n)
{
	size_t k = 0;
	for (const char *p = in; *p && k + 1 < n; p++) {
		char c = (char)tolower((unsigned char)*p);
		if (!isalnum((unsigned char)c))
			c = '_';
		if (c == '_' && (k == 0 || out[k - 1] == '_'))
			continue;
		out[k++] = c;
	}
	while (k && out[k - 1] == '_')
		k--;
	out[k] = 0;
}

/* ---- "did you mean": the closest names a user could have meant ---- */

struct cands {
	int n, cap;
	char **s;
};

static void cand_add(const char *name, void *arg)
{
	struct cands *c = arg;
	for (int i = 0; i < c->n; i++)
		if (!strcmp(c->s[i], name))
			return;
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 256;
		c->s = realloc(c->s, sizeof(char *) * (size_t)c->cap);
		if (!c->s)
			out_of_memory(0);
	}
	c->s[c->n++] = xstrdup(name);
}

void ctr_closest(const char *bad, const struct evtab *tab, const char *pmu, char *out, size_t n)
{
	struct cands c = { 0 };
	int best[3] = { -1, -1, -1 }, bd[3] = { 1 << 30, 1 << 30, 1 << 30 };
	for (int i = 0; i < nmetric_defs; i++)
		cand_add(metric_defs[i].name, &c);
	for (int i = 0; i < tab->n;
	     i++) /* only the table rows of the PMU in use: never a POWER event on x86 */
		if (pmu && pmu[0] && !strcmp(tab->row[i].pmu, pmu))
			cand_add(tab->row[i].event, &c);
	char names[2048];
	snprintf(names, sizeof(names), "%s", sde_names());
	for (char *save = NULL, *s = strtok_r(names, ",", &save); s; s = strtok_r(NULL, ",", &save))
		cand_add(s, &c);
	pmu_each_event(cand_add, &c);
	for (int i = 0; i < c.n; i++) {
		int d = edit_distance(bad, c.s[i]);
		for (int k = 0; k < 3; k++)
			if (d < bd[k]) {
				for (int m = 2; m > k; m--) {
					bd[m] = bd[m - 1];
					best[m] = best[m - 1];
				}
				bd[k] = d;
				best[k] = i;
				break;
			}
	}
	size_t w = 0;
	out[0] = 0;
	for (int k = 0; k < 3 && best[k] >= 0; k++)
		w += (size_t)snprintf(out + w, w < n ? n - w : 0, "%s%s", k ? ", " : "",
				      c.s[best[k]]);
	for (int i = 0; i < c.n; i++)
		free(c.s[i]);
	free(c.s);
}
