/* What each side of a compare line resolved its settings to ("auto", "0: the kernel's formula"),
 * and where the two differ, the difference in words: the join is on what was asked, so a change
 * that comes with another placement or another lazy_max says so. */
#include "analysis/compare.h"
#include "schema/desc.h"
#include "lib/parse.h"
#include <stdio.h>
#include <string.h>

/* What threads placed by each policy share, as words after "A's threads" (harness/placement.c). */
static const char *placement_words(const char *v, char *buf, size_t n)
{
	static const char *const w[][2] = {
		{ "smt", "share a core (SMT siblings)" },
		{ "same-llc", "share an L3" },
		{ "cross-llc", "cross an L3" },
		{ "same-socket", "stay in one package" },
		{ "cross-socket", "cross packages" },
		{ "spread", "are spread over the cores" },
		{ "compact", "are packed onto the fewest cores" },
	};
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		if (!strcmp(v, w[i][0]))
			return w[i][1];
	if (!strncmp(v, "cpus:", 5)) {
		snprintf(buf, n, "are on CPUs %.60s", v + 5);
		return buf;
	}
	snprintf(buf, n, "are placed '%.60s'", v);
	return buf;
}

/* s put at out+k as snprintf(out + k, n - k, "%s", s) would (cut short, ended; nothing written
 * once k reaches n): the position after it uncut. Chained, it is one snprintf of the parts
 * (a snprintf a part cost a tenth of compare --csv). */
static size_t app(char *out, size_t n, size_t k, const char *s)
{
	size_t l = strlen(s);
	if (k < n) {
		size_t c = l < n - k - 1 ? l : n - k - 1;
		memcpy(out + k, s, c);
		out[k + c] = 0;
	}
	return k + l;
}

static const char *res_of(const struct grp_cell *c, int r)
{
	return c && c->res && c->res[r] ? c->res[r] : "(absent)";
}

/* A value that says the run could not tell (NA; mem_node_actual -1) or the file lacks the column:
 * shown, never called a difference. */
static int unknown(const char *v)
{
	return !strcmp(v, "(absent)") || !strcmp(v, "NA") || !strcmp(v, "-1") || !v[0];
}

/* The first resolved entry before r of r's setting (mem_node_requested resolves to mem_node and
 * mem_node_actual), -1 when r is the first. */
static int first_of_setting(const struct grp_bench *b, int r)
{
	for (int e = 0; e < r; e++)
		if (b->res_key[e] == b->res_key[r])
			return e;
	return -1;
}

/* One resolved setting's difference, appended at out+k; the setting is named as its option
 * ("placement", not "placement_requested"), with the resolved column after the first that the
 * setting has ("mem_node reader (mem_node_actual)"). */
static size_t differ_words(const struct grp_bench *b, const char *req, int r, const char *x,
			   const char *y, char *out, size_t n)
{
	const char *unit = b->res_unit[r] ? b->res_unit[r] : "";
	double dx, dy;
	char wa[96], wb[96], name[160];
	size_t k = 0, l = strlen(b->key_col[b->res_key[r]]);
	if (l > 10 && !strcmp(b->key_col[b->res_key[r]] + l - 10, "_requested"))
		l -= 10;
	if (first_of_setting(b, r) >= 0)
		snprintf(name, sizeof(name), "%.*s %.40s (%.40s)", (int)l,
			 b->key_col[b->res_key[r]], req, b->res_col[r]);
	else
		snprintf(name, sizeof(name), "%.*s %.40s", (int)l, b->key_col[b->res_key[r]], req);
	if (!strncmp(b->res_col[r], "placement", 9))
		k = (size_t)snprintf(
		    out, n,
		    "%s became A %s, B %s: B's threads %s, A's %s; the change includes that",
		    name, x, y, placement_words(y, wb, sizeof(wb)),
		    placement_words(x, wa, sizeof(wa)));
	else if (!parse_double(x, &dx) && !parse_double(y, &dy) && dx > 0)
		k = (size_t)snprintf(
		    out, n, "%s became A %s%s%s, B %s%s%s (B %.2fx A): the change includes that",
		    name, x, *unit ? " " : "", unit, y, *unit ? " " : "", unit, dy / dx);
	else
		k = (size_t)snprintf(out, n, "%s became A %s, B %s: the change includes that",
				     name, x, y);
	return k < n ? k : n;
}

/* Imported rows (a published matrix: one statistic per pair, its source's) joined with rows another
 * source, or c2cbench, measured: the line says that the two sides hold different statistics. */
static size_t source_words(const struct cmp_line *l, char *out, size_t n, size_t kw, int *differ)
{
	const char *sa = l->a ? l->a->source : NULL, *sb = l->b ? l->b->source : NULL;
	char side[2][200];
	if (!l->a || !l->b || !n || (!sa && !sb) || (sa && sb && !strcmp(sa, sb)))
		return 0;
	for (int s = 0; s < 2; s++)
		if (s ? sb : sa)
			snprintf(side[s], sizeof(side[s]), "imported (%.160s)", s ? sb : sa);
		else
			snprintf(side[s], sizeof(side[s]),
				 "measured by c2cbench (each metric its own statistic over the "
				 "samples: a minimum, a median)");
	*differ = 1;
	size_t k = (size_t)snprintf(out, n,
				    "%snot the same statistic: A's values are %s, B's %s; a mean "
				    "is at least the minimum and often above the median of the "
				    "same samples",
				    kw ? "; " : "", side[0], side[1]);
	return k < n ? k : n;
}

int cmp_resolved(const struct cmp *c, const struct cmp_line *l, char *ra, char *rb, size_t rn,
		 char *words, size_t n)
{
	const struct grp_group *g = &c->g.group[l->group];
	const struct grp_bench *b = &c->g.bench[g->bench];
	size_t ka = 0, kb = 0, kw = 0;
	int differ = 0;
	ra[0] = rb[0] = words[0] = 0;
	for (int r = 0; r < b->nres; r++) {
		const char *x = res_of(l->a, r), *y = res_of(l->b, r), *req = g->val[b->res_key[r]];
		int mixed = (l->a && l->a->res_mixed[r]) || (l->b && l->b->res_mixed[r]);
		if (ka < rn) { /* "%s%s=%s%s" */
			const char *pt[] = { ka ? " " : "", b->res_col[r], "=", x,
					     l->a && l->a->res_mixed[r] ? " (and others)" : "" };
			for (size_t i = 0; i < sizeof(pt) / sizeof(pt[0]); i++)
				ka = app(ra, rn, ka, pt[i]);
		}
		if (kb < rn) {
			const char *pt[] = { kb ? " " : "", b->res_col[r], "=", y,
					     l->b && l->b->res_mixed[r] ? " (and others)" : "" };
			for (size_t i = 0; i < sizeof(pt) / sizeof(pt[0]); i++)
				kb = app(rb, rn, kb, pt[i]);
		}
		if (!l->a || !l->b || (!strcmp(x, y) && !mixed) || unknown(x) || unknown(y) ||
		    kw >= n)
			continue;
		differ = 1;
		int e = first_of_setting(b, r); /* the same setting's words, said already */
		if (e >= 0 && !strcmp(res_of(l->a, e), x) && !strcmp(res_of(l->b, e), y) && !mixed)
			continue;
		if (kw)
			kw += (size_t)snprintf(words + kw, n - kw, "; ");
		if (kw < n)
			kw += differ_words(b, req ? req : "(absent)", r, x, y, words + kw, n - kw);
		if (mixed && kw < n)
			kw +=
			    (size_t)snprintf(words + kw, n - kw,
					     " (a side's rows resolved it to more than one value)");
	}
	char imp[2][300] = { "", "" }; /* the settings an imported side's source lacks */
	for (int k = 1; k < b->nkey && kw < n; k++) { /* what a side's rows did not record */
		const char *wa = l->a && l->a->why ? l->a->why[k] : NULL;
		const char *wb = l->b && l->b->why ? l->b->why[k] : NULL;
		for (int s = 0; s < 2; s++) { /* an imported side's: said once, after */
			const struct grp_cell *cl = s ? l->b : l->a;
			const char **w = s ? &wb : &wa;
			size_t m = strlen(imp[s]);
			if (!cl || !cl->source || !*w || strcmp(*w, GRP_WHY_IMPORTED))
				continue;
			snprintf(imp[s] + m, sizeof(imp[s]) - m, "%s%s", m ? ", " : "",
				 b->key_col[k]);
			*w = NULL;
		}
		if (wa && wb && !strcmp(wa, wb)) { /* "%sA's and B's %s %s" */
			const char *pt[] = { kw ? "; " : "", "A's and B's ", b->key_col[k], " ",
					     wa };
			for (size_t i = 0; i < sizeof(pt) / sizeof(pt[0]); i++)
				kw = app(words, n, kw, pt[i]);
		} else
			for (int s = 0; s < 2 && kw < n; s++)
				if (s ? wb : wa) { /* "%s%s's %s %s" */
					const char *pt[] = { kw ? "; " : "", s ? "B's " : "A's ",
							     b->key_col[k], " ", s ? wb : wa };
					for (size_t i = 0; i < sizeof(pt) / sizeof(pt[0]); i++)
						kw = app(words, n, kw, pt[i]);
				}
		differ |= wa || wb;
	}
	for (int s = 0; s < 2 && kw < n; s++)
		if (imp[s][0]) {
			kw += (size_t)snprintf(
			    words + kw, n - kw,
			    "%s%s's %s not in the imported matrix: joined without %s",
			    kw ? "; " : "", s ? "B" : "A", imp[s],
			    strchr(imp[s], ',') ? "them" : "it");
			differ = 1;
		}
	kw += source_words(l, words + kw, n - kw, kw, &differ);
	if (l->baseline && kw < n) { /* the baseline across classes: each side's class */
		const struct grp_group *h = &c->g.group[l->group_b];
		const char *ca = "", *cb = "";
		for (int i = 0; i < b->nkey; i++)
			if (!strcmp(b->key_col[i], b->b->match_by)) {
				ca = g->val[i] ? g->val[i] : "(absent)";
				cb = h->val[i] ? h->val[i] : "(absent)";
			}
		kw += (size_t)snprintf(words + kw, n - kw,
				       "%s%s: A %s, B %s (each machine's %s pair %s, joined across "
				       "%ses)",
				       kw ? "; " : "", l->baseline, ca, cb,
				       strchr(l->baseline, ' ') ? "only" : l->baseline,
				       b->b->match_by, b->b->match_by);
		return 1;
	}
	if (l->group_b != l->group && kw < n) { /* joined by match_by: the loose columns differ */
		const struct grp_group *h = &c->g.group[l->group_b];
		const char *mv = "";
		for (int i = 0; i < b->nkey; i++)
			if (!strcmp(b->key_col[i], b->b->match_by) && g->val[i])
				mv = g->val[i];
		kw += (size_t)snprintf(words + kw, n - kw, "%smatched by %s %.40s: A",
				       kw ? "; " : "", b->b->match_by, mv);
		for (int i = 0; i < b->nkey && kw < n; i++)
			if (g->val[i] && h->val[i] && strcmp(g->val[i], h->val[i]))
				kw += (size_t)snprintf(words + kw, n - kw, " %s=%.40s",
						       b->key_col[i], g->val[i]);
		if (kw < n)
			kw += (size_t)snprintf(words + kw, n - kw, ", B");
		for (int i = 0; i < b->nkey && kw < n; i++)
			if (g->val[i] && h->val[i] && strcmp(g->val[i], h->val[i]))
				kw += (size_t)snprintf(words + kw, n - kw, " %s=%.40s",
						       b->key_col[i], h->val[i]);
		differ = 1;
	}
	return differ;
}
