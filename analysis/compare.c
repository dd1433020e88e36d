/* The compare engine: join two result sets on configuration and say, per metric, what changed. */
#include "analysis/compare.h"
#include "analysis/preset_diff.h"
#include "schema/desc.h"
#include "stats/compare_stats.h"
#include "stats/stats.h"
#include "lib/util.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cmp_stat(const struct grp_vals *a, const struct grp_vals *b, struct ts_stat *s)
{
	ts_compute(a ? a->v : NULL, a ? a->n : 0, b ? b->v : NULL, b ? b->n : 0, s);
}

/* Gather log B/A per bench and metric over the joined configurations with a ratio. */
static void geo_add(struct cmp *c, const struct cmp_line *l)
{
	if (!l->a || !l->b || !l->s.has_ratio || l->s.ratio <= 0)
		return;
	int bench = c->g.group[l->group].bench, k = 0;
	while (k < c->ngeo && !(c->geo[k].bench == bench && c->geo[k].metric == l->metric))
		k++; /* a few benches times a few metrics */
	if (k == c->ngeo) {
		c->geo = realloc(c->geo, (size_t)(c->ngeo + 1) * sizeof(*c->geo));
		if (!c->geo)
			out_of_memory(0);
		c->geo[c->ngeo++] = (struct cmp_geo){ .bench = bench, .metric = l->metric };
	}
	struct cmp_geo *g = &c->geo[k];
	g->ratio += log(l->s.ratio);
	g->n++;
	g->significant += l->s.significant;
	g->descriptive = l->s.descriptive;
	g->disputed = l->s.disputed;
	if (!l->s.descriptive && !l->s.significant) {
		int in = !strncmp(l->verdict, "no change", 9);
		g->within += in;
		g->undecided += !in;
		if (!in && !g->why[0]) /* "inconclusive: REASON" */
			snprintf(g->why, sizeof(g->why), "%s",
				 strncmp(l->verdict, "inconclusive: ", 14) ? l->verdict
									   : l->verdict + 14);
	}
}

/* The geometric means and their words, after the walk: no faster or slower without a configuration
 * that changed significantly behind it. */
static void geo_finish(struct cmp *c)
{
	for (int k = 0; k < c->ngeo; k++) {
		struct cmp_geo *g = &c->geo[k];
		const struct grp_bench *b = &c->g.bench[g->bench];
		int time = ts_is_time(b->metric[g->metric], b->unit[g->metric]);
		g->ratio = exp(g->ratio / g->n);
		char of[160];
		snprintf(of, sizeof(of), " (%d of %d configuration(s) changed%s)", g->significant,
			 g->n, g->undecided ? "; the others inconclusive or unchanged" : "");
		if (g->disputed)
			snprintf(g->verdict, sizeof(g->verdict), "%s",
				 ts_disputed_why(g->disputed));
		else if (g->descriptive)
			snprintf(g->verdict, sizeof(g->verdict),
				 "descriptive: not a verdict metric, not tested");
		else if (!g->significant && g->within == g->n)
			snprintf(g->verdict, sizeof(g->verdict),
				 "no change beyond +-%g%% in any of the %d configuration(s)",
				 100 * TS_MARGIN, g->n);
		else if (!g->significant) /* no direction without a change called behind it */
			snprintf(g->verdict, sizeof(g->verdict),
				 "inconclusive: %d of %d configuration(s) undecided (%s)%s",
				 g->undecided, g->n, g->why,
				 g->within ? "; the others no change beyond the margin" : "");
		else if (g->ratio > 1 / 1.005 && g->ratio < 1.005)
			snprintf(g->verdict, sizeof(g->verdict),
				 "the same on average (within 0.5%%)");
		else if (g->ratio >= 1)
			snprintf(g->verdict, sizeof(g->verdict), "B %s by %.2fx on average%s",
				 ts_word(1, b->direction[g->metric], time), g->ratio, of);
		else
			snprintf(g->verdict, sizeof(g->verdict), "B %s by %.2fx on average%s",
				 ts_word(0, b->direction[g->metric], time), 1 / g->ratio, of);
	}
}

/* One line per metric of the group's bench that some input has; the geometric means gather. A
 * group matched by match_by takes B's cell from its match; the match itself gives no lines.
 * fn NULL: the first pass, the U test alone, each line's raw p into c->padj. */
static int group_lines(struct cmp *c, int gi, const struct cmp_extra *x,
		       int (*fn)(void *, const struct cmp *, const struct cmp_line *), void *u)
{
	const struct grp_bench *bn = &c->g.bench[c->g.group[gi].bench];
	int gb = x ? x->gb : c->match && c->match[gi] >= 0 ? c->match[gi] : gi;
	const struct grp_cell *a = groups_cell(&c->g, gi, c->side[0]),
			      *b = groups_cell(&c->g, gb, c->side[1]);
	if (!a && gb != gi)
		return 0; /* B's half of a match: its lines are A's */
	for (int m = 0; m < bn->nmet; m++) {
		if (!bn->met_seen[m])
			continue;
		struct cmp_line l = { .group = gi, .group_b = gb, .metric = m, .a = a, .b = b,
				      .baseline = x ? x->what : NULL };
		const struct grp_vals *va = a ? &a->met[m] : NULL, *vb = b ? &b->met[m] : NULL;
		if (!fn) {
			ts_test(va ? va->v : NULL, va ? va->n : 0, vb ? vb->v : NULL,
				vb ? vb->n : 0, &l.s);
			l.s.descriptive = !bn->in_verdict[m];
			l.s.disputed = bn->disputed[m];
			c->padj = realloc(c->padj, (size_t)(c->nline + 1) * sizeof(double));
			if (!c->padj)
				out_of_memory(0);
			/* -2: a test once it has enough repetitions (its family's m_plan) */
			c->padj[c->nline++] = ts_is_test(&l.s)    ? l.s.p :
					      ts_is_planned(&l.s) ? -2 :
								    -1;
			continue;
		}
		cmp_stat(va, vb, &l.s);
		l.s.descriptive = !bn->in_verdict[m]; /* one variant on both sides: no prediction */
		l.s.disputed = bn->disputed[m];
		int bench = c->g.group[gi].bench;
		l.s.m = c->fam_m[bench];
		l.s.m_plan = c->fam_plan[bench];
		l.s.method = c->fam_method[bench];
		if (ts_is_test(&l.s))
			ts_decide(&l.s, c->padj[c->nline] >= 0 ? c->padj[c->nline] : l.s.p);
		else
			l.s.significant = 0;
		ts_verdict(&l.s, bn->direction[m], ts_is_time(bn->metric[m], bn->unit[m]), "B",
			   l.verdict, sizeof(l.verdict));
		if (l.s.na == 0 && va && va->nrec) /* A's schema had no such column */
			snprintf(l.verdict, sizeof(l.verdict), "NA: not recorded in A (schema %d)",
				 va->nrec);
		else if (l.s.nb == 0 && vb && vb->nrec)
			snprintf(l.verdict, sizeof(l.verdict), "NA: not recorded in B (schema %d)",
				 vb->nrec);
		c->small += l.s.small;
		if (l.a && l.b && !l.s.descriptive && !l.s.significant && l.s.has_ratio) {
			c->within += !strncmp(l.verdict, "no change", 9);
			c->undecided += !strncmp(l.verdict, "inconclusive", 12);
		}
		c->nline++;
		geo_add(c, &l);
		int rc = fn(u, c, &l);
		if (rc)
			return rc;
	}
	return 0;
}

int cmp_tests(struct cmp *c)
{
	if (c->padj)
		return c->ntest;
	c->nline = 0;
	int *bench_of = NULL; /* per line: its bench, the family it belongs to */
	for (int i = 0; i < c->g.ngroup + c->nextra; i++) {
		int before = c->nline,
		    gi = i < c->g.ngroup ? c->g.order[i] : c->extra[i - c->g.ngroup].ga;
		group_lines(c, gi, i < c->g.ngroup ? NULL : &c->extra[i - c->g.ngroup], NULL, NULL);
		bench_of = realloc(bench_of, ((size_t)c->nline + 1) * sizeof(int));
		if (!bench_of)
			out_of_memory(0);
		for (int k = before; k < c->nline; k++)
			bench_of[k] = c->g.group[gi].bench;
	}
	double *p = xcalloc((size_t)c->nline + 1, sizeof(double)), *adj;
	int *at = xcalloc((size_t)c->nline + 1, sizeof(int));
	adj = xcalloc((size_t)c->nline + 1, sizeof(double));
	c->fam_m = xcalloc((size_t)c->g.nbench + 1, sizeof(int));
	c->fam_plan = xcalloc((size_t)c->g.nbench + 1, sizeof(int));
	c->fam_method = xcalloc((size_t)c->g.nbench + 1, sizeof(char *));
	c->ntest = 0;
	c->adjust = "Holm";
	for (int b = 0, most = 0; b < c->g.nbench; b++) { /* a family per bench */
		int n = 0;
		for (int k = 0; k < c->nline; k++)
			if (bench_of[k] == b && c->padj[k] != -1)
				c->fam_plan[b]++;
		for (int k = 0; k < c->nline; k++)
			if (bench_of[k] == b && c->padj[k] >= 0) {
				at[n] = k;
				p[n++] = c->padj[k];
			}
		c->fam_m[b] = n;
		c->fam_method[b] = ts_adjust(p, n, adj);
		for (int t = 0; t < n; t++)
			c->padj[at[t]] = adj[t];
		c->ntest += n;
		if (n > most) {
			most = n;
			c->adjust = c->fam_method[b];
		}
	}
	if (!c->padj) /* no line at all */
		c->padj = xcalloc(1, sizeof(double));
	free(bench_of);
	free(p);
	free(at);
	free(adj);
	return c->ntest;
}

/* What a side holds, per bench ("pending-bit (6 configurations)"), for the no-join message. */
static void holds(const struct cmp *c, int side, char *out, size_t n)
{
	size_t k = 0;
	out[0] = 0;
	for (int b = 0; b < c->g.nbench; b++) {
		int cnt = 0;
		for (int i = 0; i < c->g.ngroup; i++)
			cnt += c->g.group[i].bench == b && groups_cell(&c->g, i, c->side[side]);
		if (cnt && k < n)
			k += (size_t)snprintf(out + k, n - k, "%s%s (%d configuration%s)",
					      k ? ", " : "", c->g.bench[b].name, cnt,
					      cnt == 1 ? "" : "s");
	}
	if (!k)
		snprintf(out, n, "no rows");
}

int cmp_differs(const struct cmp *c, int b, char *out, size_t n)
{
	int ga = -1, gb = -1;
	out[0] = 0;
	for (int i = 0; i < c->g.ngroup; i++) {
		int gi = c->g.order[i];
		if (c->g.group[gi].bench != b)
			continue;
		if (ga < 0 && groups_cell(&c->g, gi, c->side[0]))
			ga = gi;
		if (gb < 0 && groups_cell(&c->g, gi, c->side[1]))
			gb = gi;
	}
	if (ga < 0 || gb < 0)
		return 0;
	const struct grp_bench *bn = &c->g.bench[b];
	size_t k = 0;
	for (int i = 0; i < bn->nkey && k < n; i++) {
		const struct grp_group *x = &c->g.group[ga], *y = &c->g.group[gb];
		const char *vx = x->val[i], *vy = y->val[i];
		char ex[80] = "", ey[80] = "";
		if (!vx || !vy ? vx == vy : !strcmp(vx, vy))
			continue;
		if (x->nrec[i]) /* what stood in for it */
			snprintf(ex, sizeof(ex), ": %.40s", x->eff[i] ? x->eff[i] : "none");
		if (y->nrec[i])
			snprintf(ey, sizeof(ey), ": %.40s", y->eff[i] ? y->eff[i] : "none");
		k += (size_t)snprintf(out + k, n - k, "%s%s (A %.40s%s, B %.40s%s)", k ? " " : "",
				      bn->key_col[i], vx ? vx : "absent", ex, vy ? vy : "absent",
				      ey);
	}
	return 1;
}

/* For a bench on both sides: the key columns where its first configurations differ. */
static void differs(const struct cmp *c, char *out, size_t n)
{
	char d[600];
	out[0] = 0;
	for (int b = 0; b < c->g.nbench; b++)
		if (cmp_differs(c, b, d, sizeof(d))) {
			snprintf(out, n, "; %.64s: A's and B's configurations differ in %.480s",
				 c->g.bench[b].name, d);
			return;
		}
}

static int loose(const struct grp_bench *b, int k)
{
	if (k == 0)
		return 1; /* the variant */
	for (int i = 0; b->b->match_loose && b->b->match_loose[i]; i++)
		if (!strcmp(b->b->match_loose[i], b->key_col[k]))
			return 1;
	return 0;
}

/* Do groups x and y differ only in loose columns, with match_by equal? */
static int matches(const struct cmp *c, int x, int y)
{
	const struct grp_group *gx = &c->g.group[x], *gy = &c->g.group[y];
	const struct grp_bench *b = &c->g.bench[gx->bench];
	if (gx->bench != gy->bench)
		return 0;
	for (int k = 0; k < b->nkey; k++) {
		const char *p = gx->val[k], *q = gy->val[k];
		int same = !p || !q ? p == q : !strcmp(p, q);
		if (!same && (!strcmp(b->key_col[k], b->b->match_by) || !loose(b, k)))
			return 0;
	}
	return 1;
}

/* The columns matches() holds equal: match_by and every column that is not loose. */
static int held(const struct grp_bench *b, int k)
{
	return !strcmp(b->key_col[k], b->b->match_by) || !loose(b, k);
}

/* Configurations on one side only, of a bench with match_by: joined with the one configuration of
 * the other side that differs only in loose columns, when each has exactly one such partner. The
 * configurations that match each other share a bucket, so a bucket joins when it holds one of
 * each side: linear in the groups, not square (two full 192-PU matrices: 18,000 a side). */
static void match_loose(struct cmp *c)
{
	int ng = c->g.ngroup, n = 0;
	c->match = xcalloc((size_t)ng + 1, sizeof(int));
	for (int i = 0; i < ng; i++)
		c->match[i] = -1;
	struct grp_bucketed *bk = xcalloc((size_t)ng + 1, sizeof(*bk));
	unsigned char **use = xcalloc((size_t)c->g.nbench + 1, sizeof(*use)); /* held, per bench */
	for (int bi = 0; bi < c->g.nbench; bi++) {
		const struct grp_bench *b = &c->g.bench[bi];
		use[bi] = xcalloc((size_t)b->nkey + 1, 1);
		for (int k = 0; b->b && b->b->match_by && k < b->nkey; k++)
			use[bi][k] = (unsigned char)held(b, k);
	}
	for (int x = 0; x < ng; x++) {
		const struct grp_bench *b = &c->g.bench[c->g.group[x].bench];
		if (b->b && b->b->match_by &&
		    !groups_cell(&c->g, x, c->side[0]) != !groups_cell(&c->g, x, c->side[1]))
			bk[n++] = (struct grp_bucketed){ grp_bucket(&c->g, x,
								    use[c->g.group[x].bench]),
							 x };
	}
	for (int bi = 0; bi < c->g.nbench; bi++)
		free(use[bi]);
	free(use);
	sort_n(bk, (size_t)n, sizeof(*bk), grp_by_bucket);
	for (int lo = 0, hi; lo < n; lo = hi) {
		int x = -1, y = -1, nx = 0, ny = 0;
		for (hi = lo; hi < n && bk[hi].h == bk[lo].h; hi++) {
			int j = bk[hi].group;
			if (groups_cell(&c->g, j, c->side[0]))
				x = j, nx++;
			else
				y = j, ny++;
		}
		if (nx != 1 || ny != 1 || !matches(c, x, y))
			continue; /* none, or more than one: which is unknown */
		c->match[x] = y;
		c->match[y] = x;
		c->matched++;
		c->joined++;
		c->only[0]--;
		c->only[1]--;
	}
	free(bk);
}

/* Count the configurations joined and on one side only, then join by match_by. */
static void cmp_join(struct cmp *c)
{
	for (int i = 0; i < c->g.ngroup; i++) {
		int gi = c->g.order[i];
		const struct grp_cell *ca = groups_cell(&c->g, gi, c->side[0]),
				      *cb = groups_cell(&c->g, gi, c->side[1]);
		if (ca && cb)
			c->joined++;
		else if (ca || cb)
			c->only[ca ? 0 : 1]++;
	}
	match_loose(c);
	cmp_baseline_pairs(c);
}

void cmp_pair(struct cmp *c, const struct groups *g, int a, int b)
{
	memset(c, 0, sizeof(*c));
	c->g = *g; /* borrowed: cmp_pair_free leaves it */
	c->side[0] = a;
	c->side[1] = b;
	cmp_join(c);
}

static void free_own(struct cmp *c)
{
	cmp_splits_free(c);
	cmp_ctx_free(c->ctx);
	free(c->match);
	free(c->extra);
	free(c->geo);
	free(c->padj);
	free(c->fam_m);
	free(c->fam_plan);
	free(c->fam_method);
}

void cmp_pair_free(struct cmp *c)
{
	free_own(c);
	memset(c, 0, sizeof(*c));
}

int cmp_run(struct cmp *c, const char *a, const char *b, const char *metrics, char *err)
{
	memset(c, 0, sizeof(*c));
	c->side[1] = 1;
	if (groups_init(&c->g, metrics, err))
		return -1;
	c->g.row = cmp_ctx_hook; /* each row's probe columns and its file's [validity] */
	c->g.row_arg = c;
	if (groups_add(&c->g, a, 0, err) || groups_add(&c->g, b, 1, err) ||
	    groups_finish(&c->g, err))
		return -1;
	for (int s = 0; s < 2; s++)
		if (c->g.side[s].rows == 0)
			return err_set(err, "%s has no result rows; nothing to compare", s ? b : a);
	cmp_join(c);
	preset_diff(&c->g, a, b, "A", "B", c->presets, sizeof(c->presets));
	if (!c->joined && !c->nextra) {
		char ha[300], hb[300], d[600];
		holds(c, 0, ha, sizeof(ha));
		holds(c, 1, hb, sizeof(hb));
		differs(c, d, sizeof(d));
		return err_set(
		    err,
		    "no configuration in common (accepted: the same bench, variant, "
		    "configuration columns, duration and warm-up; a side written by an older "
		    "schema may need a rerun)%s; A (%s) holds %s, B (%s) holds %s",
		    d, a, ha, b, hb);
	}
	return 0;
}

int cmp_walk(struct cmp *c, int (*fn)(void *u, const struct cmp *c, const struct cmp_line *l),
	     void *u)
{
	int rc = 0;
	free(c->geo);
	c->geo = NULL;
	cmp_tests(c);
	c->ngeo = c->nline = c->small = c->within = c->undecided = 0;
	for (int i = 0; i < c->g.ngroup && !rc; i++)
		rc = group_lines(c, c->g.order[i], NULL, fn, u);
	for (int i = 0; i < c->nextra && !rc; i++) /* the baseline across classes, last */
		rc = group_lines(c, c->extra[i].ga, &c->extra[i], fn, u);
	geo_finish(c);
	return rc;
}

void cmp_free(struct cmp *c)
{
	groups_free(&c->g);
	free_own(c);
	memset(c, 0, sizeof(*c));
}
