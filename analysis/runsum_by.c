/* The run summary's line labels when a bench groups by columns (summary_by): a column named with
 * a trailing '?' ("mode,class,home?") is part of the lines' labels only where its value varies
 * between them. Labels join the values by '/'; the columns' values hold none. */
#include "analysis/runsum_int.h"
#include "lib/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BY_MAX 8

/* Part i of a '/'-joined label: its start and length in *len; NULL past the last part. */
static const char *part(const char *label, int i, size_t *len)
{
	for (; i > 0 && label; i--) {
		label = strchr(label, '/');
		label = label ? label + 1 : NULL;
	}
	if (label)
		*len = strcspn(label, "/");
	return label;
}

void summary_by_name(const char *by, char *out, size_t n)
{
	size_t k = 0;
	out[0] = 0;
	for (const char *p = by; p && *p && k < n;) {
		size_t l = strcspn(p, ",");
		size_t w = l && p[l - 1] == '?' ? l - 1 : l;
		k += (size_t)snprintf(out + k, n - k, "%s%.*s", k ? "," : "", (int)w, p);
		p += l + (p[l] == ',');
	}
}

void summary_by_shown(const char *by, const struct sum_lines *g, struct sum_lines *out,
		      char *col, size_t ncol)
{
	int opt[BY_MAX] = { 0 }, keep[BY_MAX], n = 0;
	const char *name[BY_MAX];
	size_t nlen[BY_MAX];
	for (const char *p = by; p && *p && n < BY_MAX; n++) {
		size_t l = strcspn(p, ",");
		opt[n] = l && p[l - 1] == '?';
		name[n] = p;
		nlen[n] = l - (size_t)opt[n];
		p += l + (p[l] == ',');
	}
	for (int i = 0; i < n; i++) { /* an optional part stays where two lines differ there */
		size_t l0 = 0, l;
		const char *v0 = g->n ? part(g->label[0], i, &l0) : NULL;
		keep[i] = !opt[i];
		for (int j = 1; j < g->n && !keep[i]; j++) {
			const char *v = part(g->label[j], i, &l);
			keep[i] = !v != !v0 || (v && (l != l0 || strncmp(v, v0, l)));
		}
	}
	size_t k = 0;
	col[0] = 0;
	for (int i = 0; i < n && k < ncol; i++)
		if (keep[i])
			k += (size_t)snprintf(col + k, ncol - k, "%s%.*s", k ? "," : "",
					      (int)nlen[i], name[i]);
	*out = *g;
	out->label = xcalloc((size_t)g->n + 1, sizeof(char *));
	for (int j = 0; j < g->n; j++) {
		char buf[160];
		size_t b = 0, l;
		buf[0] = 0;
		for (int i = 0; i < n && b < sizeof(buf); i++) {
			const char *v = part(g->label[j], i, &l);
			if (keep[i] && v)
				b += (size_t)snprintf(buf + b, sizeof(buf) - b, "%s%.*s",
						      b ? "/" : "", (int)l, v);
		}
		out->label[j] = xstrdup(buf);
	}
}

void summary_by_free(struct sum_lines *shown)
{
	for (int j = 0; j < shown->n; j++)
		free(shown->label[j]);
	free(shown->label);
	shown->label = NULL;
}
