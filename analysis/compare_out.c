/* compare's outputs for programs: CSV and JSON (one row per configuration and
 * metric, the configuration split into its columns, each side's label, host and CPU model). */
#include "analysis/compare.h"
#include "schema/desc.h"
#include "stats/compare_stats.h"
#include "lib/csvfield.h"
#include "lib/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A side's machines in one field (0 label, 1 host, 2 CPU model): the distinct values joined by
 * " + ", grown to fit (a fleet side of many machines is never cut short). */
static char *side_field(const struct cmp *c, int s, int what)
{
	const struct grp_side *sd = &c->g.side[s];
	size_t len = 0;
	char *out = xcalloc(1, 1);
	for (int i = 0; i < sd->nmach; i++) {
		const struct grp_machine *m = &c->g.mach[sd->mach[i]];
		const char *v = what == 0 ? m->label : what == 1 ? m->host : m->cpu_model;
		int dup = 0;
		for (int j = 0; j < i && !dup; j++) { /* once per printout, not per line */
			const struct grp_machine *o = &c->g.mach[sd->mach[j]];
			dup = !strcmp(v, what == 0 ? o->label : what == 1 ? o->host : o->cpu_model);
		}
		if (dup)
			continue;
		out = realloc(out, len + strlen(v) + 4);
		if (!out)
			out_of_memory(0);
		len += (size_t)sprintf(out + len, "%s%s", len ? " + " : "", v);
	}
	return out;
}

/* The machine field of a line's side: its cell's own machine, or the side's when the cell mixes
 * machines or the side has no row of this configuration. */
static const char *line_machine(const struct cmp *c, const struct grp_cell *cell,
				char *const side[3], int what)
{
	if (!cell || cell->mixed || cell->mach < 0)
		return side[what];
	const struct grp_machine *m = &c->g.mach[cell->mach];
	return what == 0 ? m->label : what == 1 ? m->host : m->cpu_model;
}

static void num(char *buf, size_t n, int ok, const char *fmt, double v)
{
	if (ok)
		snprintf(buf, n, fmt, v);
	else if (n) { /* "NA", cut short as snprintf would */
		size_t c = n < 3 ? n - 1 : 2;
		memcpy(buf, "NA", c);
		buf[c] = 0;
	}
}

/* A "%.6g" number kept with its value: lines in a row often repeat one (every p of 5 against 5
 * repetitions is the same), and printf's exact digits are most of a line's cost. */
struct g6 {
	unsigned long long bits;
	int set;
	char s[32]; /* "%.6g" is at most 13 bytes */
};

/* num(buf, n, ok, "%.6g", v), from c when c holds v's bits. */
static void g6(struct g6 *c, char *buf, size_t n, int ok, double v)
{
	unsigned long long bits;
	if (!ok || n < sizeof(c->s)) {
		num(buf, n, ok, "%.6g", v);
		return;
	}
	memcpy(&bits, &v, sizeof(bits));
	if (!c->set || c->bits != bits) {
		snprintf(c->s, sizeof(c->s), "%.6g", v);
		c->bits = bits;
		c->set = 1;
	}
	memcpy(buf, c->s, strlen(c->s) + 1);
}

/* ---- CSV ---- */

struct keycols {
	int n;
	const char **col; /* grown: never a column dropped */
};

/* Every key column of every bench, in first-seen order: the CSV's configuration columns. */
static void key_union(const struct cmp *c, struct keycols *k)
{
	k->n = 0;
	k->col = NULL;
	for (int b = 0; b < c->g.nbench; b++)
		for (int i = 0; i < c->g.bench[b].nkey; i++) {
			int seen = 0;
			for (int j = 0; j < k->n; j++)
				seen |= !strcmp(k->col[j], c->g.bench[b].key_col[i]);
			if (seen)
				continue;
			k->col = realloc(k->col, (size_t)(k->n + 1) * sizeof(char *));
			if (!k->col)
				out_of_memory(0);
			k->col[k->n++] = c->g.bench[b].key_col[i];
		}
}

/* One CSV field, quoted only when it must be (RFC 4180). */
static void put(FILE *f, const char *s, int last)
{
	size_t n = strcspn(s, ",\"\r\n"); /* unlocked: a million lines, 49 fields each */
	if (s[n]) {
		char buf[8192];
		size_t len = strlen(s) + 2;
		for (const char *q = strchr(s, '"'); q; q = strchr(q + 1, '"'))
			len++;
		if (len < sizeof(buf)) { /* what csv_field writes, a run at a time */
			putc_unlocked('"', f);
			for (;;) {
				size_t r = strcspn(s, "\"");
				fwrite_unlocked(s, 1, r, f);
				if (!s[r])
					break;
				fwrite_unlocked("\"\"", 1, 2, f);
				s += r + 1;
			}
			putc_unlocked('"', f);
		} else { /* cut short at the buffer, as before */
			csv_field(s, buf, sizeof(buf));
			fwrite_unlocked(buf, 1, strlen(buf), f);
		}
	} else
		fwrite_unlocked(s, 1, n, f);
	putc_unlocked(last ? '\n' : ',', f);
}

struct csvout {
	FILE *f;
	struct keycols k;
	char *side[2][3];
	struct g6 g6[8]; /* per number column of fields(), then p_adjusted */
	int **kix; /* per bench, per configuration column: its key's index, -1 where it has none */
};

/* Each bench's key index of each configuration column, found once, not per line (the last key of
 * that name, as the search per line found it). */
static void key_index(const struct cmp *c, struct csvout *o)
{
	o->kix = xcalloc((size_t)c->g.nbench + 1, sizeof(int *));
	for (int b = 0; b < c->g.nbench; b++) {
		const struct grp_bench *bb = &c->g.bench[b];
		o->kix[b] = xcalloc((size_t)o->k.n + 1, sizeof(int));
		for (int j = 0; j < o->k.n; j++) {
			o->kix[b][j] = -1;
			for (int i = 0; i < bb->nkey; i++)
				if (!strcmp(bb->key_col[i], o->k.col[j]))
					o->kix[b][j] = i;
		}
	}
}

/* A count as "%ld" or "%zu" would print it, into at least 22 bytes (a snprintf each was a tenth
 * of the line's cost). */
static void count(char *buf, int neg, unsigned long long v)
{
	char t[24];
	int k = 0;
	do
		t[k++] = (char)('0' + v % 10);
	while (v /= 10);
	if (neg)
		*buf++ = '-';
	while (k)
		*buf++ = t[--k];
	*buf = 0;
}

static void lcount(char *buf, long v)
{
	count(buf, v < 0, v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v);
}

/* The per-line numbers, as text, shared by CSV and JSON (NA where there is none). */
static void fields(const struct cmp_line *l, char f[14][64], struct g6 c[7])
{
	lcount(f[0], l->a ? l->a->valid : 0);
	lcount(f[1], l->a ? l->a->rows : 0);
	count(f[2], 0, l->s.na);
	g6(&c[0], f[3], 64, l->s.na > 0, l->s.ma);
	lcount(f[4], l->b ? l->b->valid : 0);
	lcount(f[5], l->b ? l->b->rows : 0);
	count(f[6], 0, l->s.nb);
	g6(&c[1], f[7], 64, l->s.nb > 0, l->s.mb);
	g6(&c[2], f[8], 64, l->s.has_ratio, l->s.ratio);
	g6(&c[3], f[9], 64, l->s.has_ci, l->s.lo);
	g6(&c[4], f[10], 64, l->s.has_ci, l->s.hi);
	g6(&c[5], f[11], 64, l->s.has_p, l->s.u);
	g6(&c[6], f[12], 64, l->s.has_p, l->s.p);
	strcpy(f[13], l->s.has_p ? (l->s.exact ? "exact" : "normal") : "NA");
}

static const char *const num_names[14] = {"valid_a", "rows_a", "n_a",      "median_a", "valid_b",
					  "rows_b",  "n_b",    "median_b", "ratio",    "ci_low",
					  "ci_high", "u",      "p_value",  "p_method"};
static const char *const side_names[2][3] = {{"label_a", "host_a", "cpu_model_a"},
					     {"label_b", "host_b", "cpu_model_b"}};

static int csv_line(void *u, const struct cmp *c, const struct cmp_line *l)
{
	struct csvout *o = u;
	const struct grp_group *g = &c->g.group[l->group];
	const struct grp_bench *b = &c->g.bench[g->bench];
	char f[14][64];
	put(o->f, b->name, 0);
	for (int j = 0; j < o->k.n; j++) {
		int i = o->kix[g->bench][j];
		put(o->f, i < 0 ? "" : g->val[i] ? g->val[i] : "(absent)", 0);
	}
	put(o->f, b->metric[l->metric], 0);
	for (int s = 0; s < 2; s++)
		for (int w = 0; w < 3; w++)
			put(o->f, line_machine(c, s ? l->b : l->a, o->side[s], w), 0);
	fields(l, f, o->g6);
	for (int i = 0; i < 14; i++)
		put(o->f, f[i], 0);
	char pa[64], nt[24];
	g6(&o->g6[7], pa, sizeof(pa), ts_is_test(&l->s), l->s.p_adj);
	lcount(nt, l->s.m); /* the line's family: its bench's tests */
	put(o->f, pa, 0);
	put(o->f, l->s.method ? l->s.method : c->adjust, 0);
	put(o->f, nt, 0);
	put(o->f, l->s.significant ? "yes" : "no", 0);
	put(o->f, l->verdict, 0);
	put(o->f, !l->a ? "B" : !l->b ? "A" : "", 0);
	char ra[400], rb[400], w[900];
	cmp_resolved(c, l, ra, rb, sizeof(ra), w, sizeof(w));
	put(o->f, ra, 0);
	put(o->f, rb, 0);
	put(o->f, w, 0);
	char va[240], vb[240], pra[40], pb[40], cw[1200];
	cmp_ctx_side(c, l, 0, va, sizeof(va), pra, sizeof(pra));
	cmp_ctx_side(c, l, 1, vb, sizeof(vb), pb, sizeof(pb));
	cmp_ctx_words(c, l, cw, sizeof(cw));
	put(o->f, va, 0);
	put(o->f, vb, 0);
	put(o->f, pra, 0);
	put(o->f, pb, 0);
	put(o->f, cw, 0);
	char sw[2200];
	cmp_split_words(c, l, sw, sizeof(sw));
	put(o->f, sw, 1);
	return ferror(o->f) ? -1 : 0;
}

int cmp_print_csv(FILE *f, const struct cmp *cc)
{
	struct cmp *c = (struct cmp *)cc;
	struct csvout *o = xcalloc(1, sizeof(*o));
	o->f = f;
	key_union(c, &o->k);
	key_index(c, o);
	for (int s = 0; s < 2; s++)
		for (int w = 0; w < 3; w++)
			o->side[s][w] = side_field(c, s, w);
	put(f, "bench", 0);
	for (int j = 0; j < o->k.n; j++)
		put(f, o->k.col[j], 0);
	put(f, "metric", 0);
	for (int s = 0; s < 2; s++)
		for (int w = 0; w < 3; w++)
			put(f, side_names[s][w], 0);
	for (int i = 0; i < 14; i++)
		put(f, num_names[i], 0);
	cmp_tests(c);
	cmp_splits(c);
	fputs("p_adjusted,p_adjust,tests,significant,verdict,only_in,resolved_a,resolved_b,"
	      "resolved_note,validity_a,"
	      "validity_b,probe_range_ns_a,probe_range_ns_b,context_note,class_split\n",
	      f);
	cmp_walk(c, csv_line, o);
	free(o->k.col);
	for (int b = 0; b < c->g.nbench; b++)
		free(o->kix[b]);
	free(o->kix);
	for (int s = 0; s < 2; s++)
		for (int w = 0; w < 3; w++)
			free(o->side[s][w]);
	free(o);
	fflush(f);
	return ferror(f) ? -1 : 0;
}

/* ---- JSON ---- */

/* A JSON string: quotes, backslashes and control bytes escaped; bytes that are not UTF-8 become
 * U+FFFD. */
static void jstr(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	fputc('"', f);
	while (*p) {
		int len = *p < 0x80             ? 1
			  : (*p & 0xe0) == 0xc0 ? 2
			  : (*p & 0xf0) == 0xe0 ? 3
			  : (*p & 0xf8) == 0xf0 ? 4
						: 0;
		int ok = len > 0 && !(len == 2 && *p < 0xc2);
		for (int i = 1; ok && i < len; i++)
			ok = (p[i] & 0xc0) == 0x80;
		if (!ok) {
			fputs("\\ufffd", f);
			p++;
		} else if (len > 1) {
			fwrite(p, 1, (size_t)len, f);
			p += len;
		} else {
			if (*p == '"' || *p == '\\')
				fprintf(f, "\\%c", *p);
			else if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
			p++;
		}
	}
	fputc('"', f);
}

/* A number field as JSON: null for NA. */
static void jnum(FILE *f, const char *name, const char *v)
{
	fprintf(f, ",\"%s\":%s", name, strcmp(v, "NA") ? v : "null");
}

struct jout {
	FILE *f;
	int first;
	char *side[2][3];
	struct g6 g6[8]; /* as csvout's */
};

static int json_line(void *u, const struct cmp *c, const struct cmp_line *l)
{
	struct jout *o = u;
	const struct grp_group *g = &c->g.group[l->group];
	const struct grp_bench *b = &c->g.bench[g->bench];
	char f[14][64];
	fputs(o->first ? "\n  {\"bench\":" : ",\n  {\"bench\":", o->f);
	o->first = 0;
	jstr(o->f, b->name);
	fputs(",\"config\":{", o->f);
	for (int i = 0; i < b->nkey; i++) {
		fputs(i ? "," : "", o->f);
		jstr(o->f, b->key_col[i]);
		fputc(':', o->f);
		if (g->val[i])
			jstr(o->f, g->val[i]);
		else
			fputs("null", o->f);
	}
	fputs("},\"metric\":", o->f);
	jstr(o->f, b->metric[l->metric]);
	for (int s = 0; s < 2; s++)
		for (int w = 0; w < 3; w++) {
			fprintf(o->f, ",\"%s\":", side_names[s][w]);
			jstr(o->f, line_machine(c, s ? l->b : l->a, o->side[s], w));
		}
	fields(l, f, o->g6);
	for (int i = 0; i < 13; i++)
		jnum(o->f, num_names[i], f[i]);
	fputs(",\"p_method\":", o->f);
	jstr(o->f, f[13]);
	char padj[64];
	g6(&o->g6[7], padj, sizeof(padj), ts_is_test(&l->s), l->s.p_adj);
	jnum(o->f, "p_adjusted", padj);
	fprintf(o->f, ",\"significant\":%s,\"verdict\":", l->s.significant ? "true" : "false");
	jstr(o->f, l->verdict);
	fputs(",\"only_in\":", o->f);
	jstr(o->f, !l->a ? "B" : !l->b ? "A" : "");
	char ra[400], rb[400], w[900];
	cmp_resolved(c, l, ra, rb, sizeof(ra), w, sizeof(w));
	fputs(",\"resolved_a\":", o->f);
	jstr(o->f, ra);
	fputs(",\"resolved_b\":", o->f);
	jstr(o->f, rb);
	fputs(",\"resolved_note\":", o->f);
	jstr(o->f, w);
	char va[240], vb[240], pa[40], pb[40], cw[1200];
	cmp_ctx_side(c, l, 0, va, sizeof(va), pa, sizeof(pa));
	cmp_ctx_side(c, l, 1, vb, sizeof(vb), pb, sizeof(pb));
	cmp_ctx_words(c, l, cw, sizeof(cw));
	char sw[2200];
	cmp_split_words(c, l, sw, sizeof(sw));
	const char *const ck[] = { "validity_a", "validity_b", "probe_range_ns_a",
				   "probe_range_ns_b", "context_note", "class_split" };
	const char *const cv[] = { va, vb, pa, pb, cw, sw };
	for (int i = 0; i < 6; i++) {
		fprintf(o->f, ",\"%s\":", ck[i]);
		jstr(o->f, cv[i]);
	}
	fputc('}', o->f);
	return ferror(o->f) ? -1 : 0;
}

static void json_side(FILE *f, const struct cmp *c, int s)
{
	const struct grp_side *sd = &c->g.side[s];
	fprintf(f, "\"%s\":{\"input\":", s ? "b" : "a");
	jstr(f, sd->name);
	fprintf(f, ",\"rows\":%ld,\"valid\":%ld,\"interrupted\":%s,\"machines\":[", sd->rows,
		sd->valid, sd->interrupted ? "true" : "false");
	for (int i = 0; i < sd->nmach; i++) {
		const struct grp_machine *m = &c->g.mach[sd->mach[i]];
		fputs(i ? ",{\"label\":" : "{\"label\":", f);
		jstr(f, m->label);
		fputs(",\"host\":", f);
		jstr(f, m->host);
		fputs(",\"cpu_model\":", f);
		jstr(f, m->cpu_model);
		fputs(",\"fingerprint\":", f);
		if (m->fp.id[0])
			jstr(f, m->fp.id);
		else
			fputs("null", f);
		fputc('}', f);
	}
	fputs("]}", f);
}

int cmp_print_json(FILE *f, const struct cmp *cc)
{
	struct cmp *c = (struct cmp *)cc;
	struct jout *o = xcalloc(1, sizeof(*o));
	o->f = f;
	o->first = 1;
	for (int s = 0; s < 2; s++)
		for (int w = 0; w < 3; w++)
			o->side[s][w] = side_field(c, s, w);
	fputc('{', f);
	json_side(f, c, 0);
	fputc(',', f);
	json_side(f, c, 1);
	fputs(",\"lines\":[", f);
	cmp_splits(c);
	cmp_walk(c, json_line, o);
	fprintf(f, "\n ],\"tests\":%d,\"p_adjust\":\"%s\",", c->ntest, c->adjust);
	fprintf(
	    f,
	    "\"joined\":%d,\"only_in_a\":%d,\"only_in_b\":%d,\"few_repetitions\":%d,\"geomean\":[",
	    c->joined, c->only[0], c->only[1], c->small);
	for (int k = 0; k < c->ngeo; k++) {
		fputs(k ? ",{\"bench\":" : "{\"bench\":", f);
		jstr(f, c->g.bench[c->geo[k].bench].name);
		fputs(",\"metric\":", f);
		jstr(f, c->g.bench[c->geo[k].bench].metric[c->geo[k].metric]);
		fprintf(f, ",\"configurations\":%d,\"significant\":%d,\"ratio\":%.6g,\"verdict\":",
			c->geo[k].n, c->geo[k].significant, c->geo[k].ratio);
		jstr(f, c->geo[k].verdict);
		fputc('}', f);
	}
	fputs("]}\n", f);
	for (int s = 0; s < 2; s++)
		for (int w = 0; w < 3; w++)
			free(o->side[s][w]);
	free(o);
	fflush(f);
	return ferror(f) ? -1 : 0;
}
