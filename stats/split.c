#include "stats/split.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pt {
	double v;
	long attr;
};

static int by_value(const void *x, const void *y)
{
	double a = ((const struct pt *)x)->v, b = ((const struct pt *)y)->v;
	return (a > b) - (a < b);
}

static double median_of(const struct pt *p, int n)
{
	return n % 2 ? p[n / 2].v : (p[n / 2 - 1].v + p[n / 2].v) / 2;
}

static void group_of(const struct pt *p, int n, struct split_group *g)
{
	g->n = n;
	g->median = median_of(p, n);
	g->lo = p[0].v;
	g->hi = p[n - 1].v;
	g->attr = p[0].attr;
	for (int i = 1; i < n; i++)
		if (p[i].attr != g->attr)
			g->attr = SPLIT_NO_ATTR;
}

int split_values(const double *v, const long *attr, int n, struct split *s)
{
	memset(s, 0, sizeof(*s));
	struct pt *p = malloc(((size_t)n + 1) * sizeof(*p));
	int m = 0;
	if (!p) /* no memory to split: one group, as if no gap */
		return 0;
	for (int i = 0; i < n; i++)
		if (!isnan(v[i]))
			p[m].v = v[i], p[m++].attr = attr ? attr[i] : 0;
	if (!m) {
		free(p);
		return 0;
	}
	qsort(p, (size_t)m, sizeof(*p), by_value);
	int min = (int)ceil(SPLIT_MIN_SHARE * m);
	min = min < SPLIT_MIN_N ? SPLIT_MIN_N : min;
	int start = 0;
	for (int i = 1; i < m && s->ngroups < SPLIT_GROUPS_MAX - 1; i++) {
		/* a gap that leaves enough values below it (since the last cut) and above it */
		int gap = p[i - 1].v > 0 ? p[i].v > SPLIT_GAP * p[i - 1].v : p[i].v > 0;
		if (gap && i - start >= min && m - i >= min) {
			group_of(p + start, i - start, &s->g[s->ngroups++]);
			start = i;
		}
	}
	group_of(p + start, m - start, &s->g[s->ngroups++]);
	s->by_attr = attr && s->ngroups > 1;
	for (int a = 0; a < s->ngroups && s->by_attr; a++) {
		s->by_attr = s->g[a].attr != SPLIT_NO_ATTR;
		for (int b = 0; b < a && s->by_attr; b++)
			s->by_attr = s->g[a].attr != s->g[b].attr;
	}
	free(p);
	return s->ngroups;
}

/* n with thousands separated by commas: "3,840". */
static void count_text(int n, char *out, size_t len)
{
	char raw[16];
	int k = snprintf(raw, sizeof(raw), "%d", n), o = 0;
	for (int i = 0; i < k && (size_t)o + 2 < len; i++) {
		if (i && (k - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = raw[i];
	}
	out[o] = 0;
}

void split_text(const struct split *s, const char *attr_name, const char *unit, char *out,
		size_t len)
{
	size_t k = 0;
	out[0] = 0;
	for (int i = 0; i < s->ngroups && k < len; i++) {
		const struct split_group *g = &s->g[i];
		char cnt[24], name[64];
		count_text(g->n, cnt, sizeof(cnt));
		if (s->by_attr)
			snprintf(name, sizeof(name), "%s %ld", attr_name, g->attr);
		else
			snprintf(name, sizeof(name), "%.4g..%.4g %s", g->lo, g->hi, unit);
		k += (size_t)snprintf(out + k, len - k, "%s%s: %.4g %s (%s%s)", i ? ", " : "", name,
				      g->median, unit, cnt, i ? "" : " pairs");
	}
	for (int i = 1; i < s->ngroups && k < len; i++)
		k += (size_t)snprintf(out + k, len - k, "%s %.4g and %.4g %s",
				      i > 1 ? ", nor between" : "; no value between",
				      s->g[i - 1].hi, s->g[i].lo, unit);
}

void split_brief(const struct split *s, const char *attr_name, char *out, size_t len)
{
	size_t k = 0;
	out[0] = 0;
	for (int i = 0; i < s->ngroups && k < len; i++) {
		const struct split_group *g = &s->g[i];
		if (s->by_attr)
			k += (size_t)snprintf(out + k, len - k, "%s%s %ld %.4g", i ? ", " : "",
					      attr_name, g->attr, g->median);
		else
			k += (size_t)snprintf(out + k, len - k, "%s%.4g..%.4g: %.4g", i ? ", " : "",
					      g->lo, g->hi, g->median);
	}
}

/* Union-find root with path halving. */
static int root_of(int *up, int i)
{
	while (up[i] != i)
		i = up[i] = up[up[i]];
	return i;
}

void split_clusters(const int *a, const int *b, const unsigned char *join, long n, int top,
		    int *root)
{
	for (int i = 0; i < top; i++)
		root[i] = i;
	for (long k = 0; k < n; k++) {
		if (!join[k] || a[k] < 0 || b[k] < 0 || a[k] >= top || b[k] >= top)
			continue;
		int x = root_of(root, a[k]), y = root_of(root, b[k]);
		if (x != y)
			root[x > y ? x : y] = x < y ? x : y; /* the smallest PU names the cluster */
	}
	for (int i = 0; i < top; i++)
		root[i] = root_of(root, i);
}

int split_class(const int *a, const int *b, const unsigned char *same, const unsigned char *in,
		const double *v, long n, struct split *s)
{
	int top = 0;
	for (long k = 0; k < n; k++) {
		top = a[k] >= top ? a[k] + 1 : top;
		top = b[k] >= top ? b[k] + 1 : top;
	}
	int *pkg = calloc((size_t)top + 1, sizeof(int));
	int *ord = calloc((size_t)top + 1, sizeof(int));
	char *seen = calloc((size_t)top + 1, 1);
	double *val = malloc(((size_t)n + 1) * sizeof(double));
	long *attr = malloc(((size_t)n + 1) * sizeof(long));
	int m = 0, nord = 0, g = 0;
	if (pkg && ord && seen && val && attr) { /* no memory: one group, as if no gap */
		split_clusters(a, b, same, n, top, pkg);
		for (long k = 0; k < n; k++)
			if (a[k] >= 0 && b[k] >= 0)
				seen[a[k]] = seen[b[k]] = 1;
		for (int i = 0; i < top; i++) /* packages numbered in the order of their first PU */
			ord[i] = seen[i] && pkg[i] == i ? nord++ : -1;
		for (long k = 0; k < n; k++) {
			if (!in[k] || a[k] < 0 || b[k] < 0)
				continue;
			val[m] = v[k];
			attr[m++] = pkg[a[k]] == pkg[b[k]] ? ord[pkg[a[k]]] : -1;
		}
		g = split_values(val, attr, m, s);
	} else
		memset(s, 0, sizeof(*s));
	free(pkg);
	free(ord);
	free(seen);
	free(val);
	free(attr);
	return g;
}
