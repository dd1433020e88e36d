/* The order samples are shown in and each view's range of them, a vector of values and its
 * statistics, and configuration keys as text a person reads. */
#include "analysis/report_int.h"
#include "lib/util.h"
#include "stats/sort_cache.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* A variant's place in the bench's declared order (baseline first); undeclared ones after. */
static int variant_rank(const struct rbench *rb, const char *v)
{
	const char *const *o = rb->b ? rb->b->variant_order : NULL;
	for (int i = 0; o && o[i]; i++)
		if (!strcmp(o[i], v))
			return i;
	return 1 << 20;
}

/* Samples of one chart group are contiguous; within it: facet, variant, x, machine, pair. */
static int cmp_sample(const void *x, const void *y, void *arg)
{
	const struct sample *a = x, *b = y;
	const struct rep *p = arg;
	int c;
	if (a->bench != b->bench)
		return a->bench - b->bench;
	if (a->view != b->view)
		return a->view - b->view;
	if ((c = strverscmp(a->gkey, b->gkey)))
		return c;
	if (a->facet && b->facet && (c = strverscmp(a->facet, b->facet)))
		return c;
	int ra = variant_rank(&p->bench[a->bench], a->variant),
	    rb = variant_rank(&p->bench[b->bench], b->variant);
	if (ra != rb)
		return ra - rb;
	if ((c = strverscmp(a->variant, b->variant)))
		return c;
	if (a->x != b->x)
		return a->x < b->x ? -1 : 1;
	if (a->m != b->m)
		return a->m - b->m;
	return a->a != b->a ? a->a - b->a : a->b - b->b;
}

void rpt_sort(struct rep *p)
{
	if (p->ns > 0) /* none: p->s may be NULL, which qsort_r may not be given */
		qsort_r(p->s, (size_t)p->ns, sizeof(*p->s), cmp_sample, p);
	free(p->hash); /* indices changed: the hash is not used after loading */
	p->hash = NULL;
	p->hcap = 0;
}

/* Call fn for each "col=val" pair of a key. */
static void each_pair(const char *gkey, void (*fn)(const char *pair, size_t n, void *arg),
		      void *arg)
{
	for (const char *s = gkey; s && *s;) {
		const char *e = strchr(s, '\x1f');
		size_t n = e ? (size_t)(e - s) : strlen(s);
		fn(s, n, arg);
		s = e ? e + 1 : NULL;
	}
}

struct textbuf {
	char *out;
	size_t cap, len;
	const char *only; /* "col\x1fcol\x1f": keep these columns only (NULL: all) */
};

/* Is the column of pair (up to '=') listed in only? */
static int listed(const char *only, const char *pair, size_t n)
{
	const char *eq = memchr(pair, '=', n);
	size_t cl = eq ? (size_t)(eq - pair) : n;
	for (const char *s = only; *s;) {
		const char *e = strchr(s, '\x1f');
		if (!e)
			break;
		if ((size_t)(e - s) == cl && !strncmp(s, pair, cl))
			return 1;
		s = e + 1;
	}
	return 0;
}

/* Append one pair, ", "-separated. */
static void add_text(const char *pair, size_t n, void *arg)
{
	struct textbuf *b = arg;
	if (b->only && !listed(b->only, pair, n))
		return;
	if (!b->only && n > 9 &&
	    !memcmp(pair + n - 9, "=(absent)", 9)) /* a column older results lack */
		return;
	if (b->len < b->cap)
		b->len += (size_t)snprintf(b->out + b->len, b->cap - b->len, "%s%.*s",
					   b->len ? ", " : "", (int)n, pair);
}

void rpt_gkey_text(const char *gkey, char *out, size_t cap)
{
	struct textbuf b = { out, cap, 0, NULL };
	out[0] = 0;
	each_pair(gkey, add_text, &b);
}

void rpt_gkey_only(const char *gkey, const char *varying, char *out, size_t cap)
{
	struct textbuf b = { out, cap, 0, varying };
	out[0] = 0;
	each_pair(gkey, add_text, &b);
}

/* The value of col in gkey (pointer into it, length in *n), or NULL. */
static const char *value_in(const char *gkey, const char *col, size_t cl, size_t *n)
{
	for (const char *s = gkey; s && *s;) {
		const char *e = strchr(s, '\x1f');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		if (len > cl && s[cl] == '=' && !strncmp(s, col, cl)) {
			*n = len - cl - 1;
			return s + cl + 1;
		}
		s = e ? e + 1 : NULL;
	}
	return NULL;
}

char *rpt_varying(const struct rep *p, long i0, long i1)
{
	char *out = xstrdup("");
	size_t len = 0;
	const char *first = p->s[i0].gkey;
	for (const char *s = first; *s;) {
		const char *e = strchr(s, '\x1f'), *eq = strchr(s, '=');
		size_t cl = (size_t)(eq - s), n0, n;
		const char *v0 = value_in(first, s, cl, &n0);
		int differs = 0;
		for (long i = i0 + 1; i < i1 && !differs; i++) {
			const char *v = value_in(p->s[i].gkey, s, cl, &n);
			differs = !v || n != n0 || strncmp(v, v0, n);
		}
		if (differs) {
			out = realloc(out, len + cl + 2);
			if (!out)
				die(1, "out of memory");
			memcpy(out + len, s, cl);
			len += cl;
			out[len++] = '\x1f';
			out[len] = 0;
		}
		if (!e)
			break;
		s = e + 1;
	}
	return out;
}

struct rstat rpt_stat(const struct vec *v)
{
	struct rstat r = { 0, 0, 0, v->n };
	if (!v->n)
		return r;
	double *c = xcalloc(v->n, sizeof(double));
	sort_cache_sorted(v->v, v->n, c); /* a machine's values, met in every view: sorted once */
	r.lo = c[0];
	r.hi = c[v->n - 1];
	r.med = v->n % 2 ? c[v->n / 2] : (c[v->n / 2 - 1] + c[v->n / 2]) / 2;
	free(c);
	return r;
}

void rpt_fmt(char *out, size_t cap, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(out, cap, fmt, ap);
	va_end(ap);
}

void vec_push(struct vec *v, double x)
{
	if (v->n == v->cap) {
		v->cap = v->cap ? v->cap * 2 : 8;
		v->v = realloc(v->v, v->cap * sizeof(double));
		if (!v->v)
			die(1, "out of memory");
	}
	v->v[v->n++] = x;
}

int rpt_view_range(const struct rep *p, int bi, int vi, long *i0, long *i1)
{
	long i = 0;
	while (i < p->ns && (p->s[i].bench < bi || (p->s[i].bench == bi && p->s[i].view < vi)))
		i++;
	*i0 = i;
	while (i < p->ns && p->s[i].bench == bi && p->s[i].view == vi)
		i++;
	*i1 = i;
	return *i1 > *i0;
}
