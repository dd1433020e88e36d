/* The report's probe classes: per machine and configuration, the placement probe's latency of
 * each valid row (its first probed pair), and a line wherever they cluster apart
 * (schema/probeclass.h), since that configuration's medians pool the placements. */
#include "analysis/report_int.h"
#include "lib/parse.h"
#include "schema/probeclass.h"
#include "lib/util.h"
#include <stdlib.h>
#include <string.h>

/* The first number of a space-separated probe list, -1 for NA or none. */
static double first_of(const struct table *t, const char *col)
{
	int c = table_col(t, col);
	char v[64];
	double d;
	if (c < 0)
		return -1;
	snprintf(v, sizeof(v), "%.*s", (int)strcspn(t->cell[0][c], " "), t->cell[0][c]);
	return parse_double(v, &d) || d <= 0 ? -1 : d;
}

void rpt_probe_row(struct rep *p, int m, const struct grp_row *r)
{
	if (!r->valid || r->group < 0)
		return;
	double l = /* kept when -1 too: the n-th latency is the n-th valid row's (rpt_probe_lat) */
	    probe_latency(first_of(r->one, "probe_before_ns"), first_of(r->one, "probe_after_ns"));
	if (r->group >= p->nprobe) {
		int n = r->group + 64;
		p->probe = realloc(p->probe, (size_t)n * sizeof(*p->probe));
		if (!p->probe)
			out_of_memory(0);
		memset(p->probe + p->nprobe, 0, (size_t)(n - p->nprobe) * sizeof(*p->probe));
		p->nprobe = n;
	}
	struct rprobe *q = &p->probe[r->group];
	int i = 0;
	while (i < q->nm && q->m[i].m != m)
		i++;
	if (i == q->nm) {
		q->m = realloc(q->m, (size_t)(q->nm + 1) * sizeof(*q->m));
		if (!q->m)
			out_of_memory(0);
		q->m[q->nm++] = (struct rprobe_m){ .m = m };
		int c = table_col(r->one, "probe_pairs");
		snprintf(q->m[i].pair, sizeof(q->m[i].pair), "%.*s",
			 c < 0 ? 2 : (int)strcspn(r->one->cell[0][c], " "),
			 c < 0 ? "NA" : r->one->cell[0][c]);
	}
	vec_push(&q->m[i].lat, l);
}

double rpt_probe_lat(const struct rep *p, int g, int m, long row)
{
	if (g < 0 || g >= p->nprobe)
		return -1;
	for (int i = 0; i < p->probe[g].nm; i++)
		if (p->probe[g].m[i].m == m)
			return row >= 0 && (size_t)row < p->probe[g].m[i].lat.n
				   ? p->probe[g].m[i].lat.v[row]
				   : -1;
	return -1;
}

void rpt_classes(const struct sample *s, struct rclasses *c)
{
	int n = (int)s->rowlat.n, *cls = xcalloc((size_t)n + 1, sizeof(int));
	memset(c, 0, sizeof(*c));
	c->n = probe_classes(s->rowlat.v, n, cls);
	c->lo = xcalloc((size_t)c->n + 1, sizeof(double));
	c->hi = xcalloc((size_t)c->n + 1, sizeof(double));
	c->count = xcalloc((size_t)c->n + 1, sizeof(long));
	for (int i = 0; i < n; i++) {
		int k = cls[i];
		double l = s->rowlat.v[i];
		if (k < 0) {
			c->unmeasured++;
			continue;
		}
		c->lo[k] = c->count[k] && c->lo[k] < l ? c->lo[k] : l;
		c->hi[k] = c->count[k] && c->hi[k] > l ? c->hi[k] : l;
		c->count[k]++;
	}
	free(cls);
}

void rpt_classes_free(struct rclasses *c)
{
	free(c->lo), free(c->hi), free(c->count);
	memset(c, 0, sizeof(*c));
}

int rpt_class_parts(const struct sample *s, int k, const struct rclasses *c, struct vec *part,
		    char (*label)[64])
{
	const struct vec *v = &s->val[k], *lat = &s->lat[k];
	int split = c->n >= 2;
	for (int i = 0; i <= c->n; i++)
		part[i] = (struct vec){ 0 };
	for (size_t j = 0; j < v->n; j++) {
		int to = 0;
		double l = lat->n > j ? lat->v[j] : -1;
		if (split) { /* the class whose range holds the value's row's latency, else none */
			to = c->n;
			for (int i = 0; i < c->n && to == c->n; i++)
				if (l > 0 && l >= c->lo[i] && l <= c->hi[i])
					to = i;
		}
		vec_push(&part[to], v->v[j]);
	}
	if (!split) {
		label[0][0] = 0;
		return 1;
	}
	for (int i = 0; i <= c->n; i++)
		if (i < c->n)
			snprintf(label[i], sizeof(label[i]), "%.0f-%.0f ns (%zu)", c->lo[i],
				 c->hi[i], part[i].n);
		else
			snprintf(label[i], sizeof(label[i]), "probe not measured (%zu)", part[i].n);
	return c->n + (part[c->n].n > 0);
}

void rpt_probe_summary(struct rep *p)
{
	int any = 0;
	for (int g = 0; g < p->nprobe; g++)
		for (int i = 0; i < p->probe[g].nm; i++) {
			const struct rprobe_m *q = &p->probe[g].m[i];
			int *cls = xcalloc(q->lat.n + 1, sizeof(int));
			int ncls = probe_classes(q->lat.v, (int)q->lat.n, cls);
			if (ncls > 1) {
				char lab[512], t[400];
				if (!any++)
					doc_p(&p->doc,
					      "Placement probe classes (docs/validity.md): where a "
					      "configuration's valid repetitions ran on placements "
					      "whose probe latencies cluster more than %gx apart, "
					      "the summary's lines below pool them; each bench's "
					      "tables and ratios give each class its own line.",
					      PROBE_CLASS_GAP);
				groups_label(&p->g, g, lab, sizeof(lab));
				probe_classes_text(q->lat.v, cls, (int)q->lat.n, ncls, t,
						   sizeof(t));
				doc_p(&p->doc, "%s, %s: %d probe classes on CPUs %s: %s.",
				      p->mach[q->m].label, lab, ncls, q->pair, t);
			}
			free(cls);
		}
}

void rpt_probe_free(struct rep *p)
{
	for (int g = 0; g < p->nprobe; g++) {
		for (int i = 0; i < p->probe[g].nm; i++)
			free(p->probe[g].m[i].lat.v);
		free(p->probe[g].m);
	}
	free(p->probe);
}
