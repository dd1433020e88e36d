/* compare's outputs: a table for people, CSV and JSON for programs (one row per configuration and
 * metric, the configuration split into its columns, each side's label, host and CPU model). */
#include "analysis/compare.h"
#include "harness/bench.h"
#include "harness/compare_stats.h"
#include "harness/csv.h"
#include "harness/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ONLY_SHOWN 20 /* configurations listed by name under "only in A/B" in the table */

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
static const char *line_machine(const struct cmp *c, const struct grp_cell *cell, char *const side[3], int what)
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
	else
		snprintf(buf, n, "NA");
}

/* ---- the table ---- */

struct text {
	FILE *f;
	int w, last;
	char note[2048]; /* the last configuration's resolved settings, printed under its lines */
};

/* Under a configuration's lines: what each side resolved its settings to, and the difference. */
static void text_note(struct text *t)
{
	if (t->note[0])
		fprintf(t->f, "  %s\n", t->note);
	t->note[0] = 0;
}

static int text_line(void *u, const struct cmp *c, const struct cmp_line *l)
{
	struct text *t = u;
	if (!l->a || !l->b)
		return 0;
	const struct grp_bench *b = &c->g.bench[c->g.group[l->group].bench];
	char lab[512] = "", na[40], nb[40], ma[32], mb[32], r[32], ci[64], p[32];
	if (l->group != t->last) { /* the configuration on its first line only */
		char ra[400], rb[400], w[900];
		text_note(t);
		groups_label(&c->g, l->group, lab, sizeof(lab));
		int differ = cmp_resolved(c, l, ra, rb, sizeof(ra), w, sizeof(w));
		if (differ && ra[0])
			snprintf(t->note, sizeof(t->note), "resolved: A %s; B %s. %s", ra, rb, w);
		else if (differ)
			snprintf(t->note, sizeof(t->note), "%s", w);
		else if (ra[0])
			snprintf(t->note, sizeof(t->note), "resolved: %s on both", ra);
	}
	t->last = l->group;
	snprintf(na, sizeof(na), "%zu of %ld", l->s.na, l->a->rows);
	snprintf(nb, sizeof(nb), "%zu of %ld", l->s.nb, l->b->rows);
	num(ma, sizeof(ma), l->s.na > 0, "%.4g", l->s.ma);
	num(mb, sizeof(mb), l->s.nb > 0, "%.4g", l->s.mb);
	num(r, sizeof(r), l->s.has_ratio, "%.3f", l->s.ratio);
	if (l->s.has_ci)
		snprintf(ci, sizeof(ci), "[%.3f, %.3f]%s", l->s.lo, l->s.hi, l->s.small ? " (n<5)" : "");
	else
		snprintf(ci, sizeof(ci), "NA (%s)", l->s.na < 2 || l->s.nb < 2 ? "n<2" : "median A is 0");
	num(p, sizeof(p), l->s.has_p, "%.3g", l->s.p);
	fprintf(t->f, "%-*s  %-22s %-10s %10s  %-10s %10s  %7s  %-22s %7s  %s\n", t->w, lab, b->metric[l->metric], na, ma, nb, mb, r, ci, p, l->verdict);
	return 0;
}

static void print_side(FILE *f, const struct cmp *c, int s)
{
	const struct grp_side *sd = &c->g.side[s];
	fprintf(f, "%s: %s: %ld row(s), %ld valid; machine(s):", s ? "B" : "A", sd->name, sd->rows, sd->valid);
	for (int i = 0; i < sd->nmach; i++) {
		const struct grp_machine *m = &c->g.mach[sd->mach[i]];
		fprintf(f, "%s %s (host %s, %s)", i ? "," : "", m->label, m->host, m->cpu_model);
	}
	fprintf(f, "%s\n", sd->interrupted ? "; WARNING: marked interrupted or unfinished (see the warning above)" : "");
}

/* Has side s a configuration of bench b with value v in key column k? */
static int side_has_value(const struct cmp *c, int b, int k, const char *v, int s)
{
	for (int i = 0; i < c->g.ngroup; i++)
		if (c->g.group[i].bench == b && groups_cell(&c->g, i, s) && c->g.group[i].val[k] &&
		    !strcmp(c->g.group[i].val[k], v))
			return 1;
	return 0;
}

/* For a bench with match_by (pingpong: class): the values side s has and the other side has not. */
static void only_classes(FILE *f, const struct cmp *c, int b, int s)
{
	const struct grp_bench *bn = &c->g.bench[b];
	int k = -1, n = 0;
	char list[1024];
	size_t len = 0;
	list[0] = 0;
	for (int i = 0; bn->b && bn->b->match_by && i < bn->nkey; i++)
		if (!strcmp(bn->key_col[i], bn->b->match_by))
			k = i;
	for (int i = 0; k >= 0 && i < c->g.ngroup; i++) {
		const char *v = c->g.group[i].val[k];
		if (c->g.group[i].bench != b || !v || !groups_cell(&c->g, i, s) ||
		    side_has_value(c, b, k, v, !s))
			continue;
		int dup = 0;
		for (int j = 0; j < i && !dup; j++)
			dup = c->g.group[j].bench == b && c->g.group[j].val[k] &&
			    !strcmp(c->g.group[j].val[k], v) && groups_cell(&c->g, j, s);
		if (!dup && len < sizeof(list))
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
						n++ ? ", " : "", v);
	}
	if (n)
		fprintf(f, "  %s %s only in %s: %s\n", bn->name, bn->b->match_by, s ? "B" : "A",
			list);
}

static void print_only(FILE *f, const struct cmp *c)
{
	char lab[512];
	for (int s = 0; s < 2; s++) {
		if (!c->only[s])
			continue;
		fprintf(f, "\nonly in %s (%d configuration(s), not compared):\n", s ? "B" : "A", c->only[s]);
		int shown = 0;
		for (int i = 0; i < c->g.ngroup && shown < ONLY_SHOWN; i++) {
			int gi = c->g.order[i];
			if (groups_cell(&c->g, gi, s) && !groups_cell(&c->g, gi, !s) &&
			    c->match[gi] < 0) {
				groups_label(&c->g, gi, lab, sizeof(lab));
				fprintf(f, "  %s\n", lab);
				shown++;
			}
		}
		if (c->only[s] > shown)
			fprintf(f, "  ... and %d more (--csv or --json lists every one)\n", c->only[s] - shown);
		for (int b = 0; b < c->g.nbench; b++)
			only_classes(f, c, b, s);
	}
}

int cmp_print_text(FILE *f, const struct cmp *cc)
{
	struct cmp *c = (struct cmp *)cc; /* the walk fills the geometric means */
	struct text t = { .f = f, .w = 13, .last = -1 };
	char lab[512];
	print_side(f, c, 0);
	print_side(f, c, 1);
	fprintf(f, "ratio = median B / median A over valid repetitions (n = values of n valid rows); 95%% CI: bootstrap of the ratio of medians\n"
		   "(exact up to %d values a side, else %d resamples); p: two-sided Mann-Whitney U; a change is called when p < 0.05,\n"
		   "the CI excludes 1 and each side has at least %d repetitions\n\n", BOOT_EXACT_MAX, BOOT_RESAMPLES, CMP_MIN_REPS);
	for (int i = 0; i < c->g.ngroup; i++) {
		groups_label(&c->g, i, lab, sizeof(lab));
		if ((int)strlen(lab) > t.w)
			t.w = (int)strlen(lab);
	}
	fprintf(f, "%-*s  %-22s %-10s %10s  %-10s %10s  %7s  %-22s %7s  %s\n", t.w, "configuration", "metric", "n A", "median A", "n B", "median B", "ratio", "95% CI", "p", "verdict");
	cmp_walk(c, text_line, &t);
	text_note(&t);
	print_only(f, c);
	if (c->ngeo)
		fprintf(f, "\ngeometric mean of B/A over the joined configurations:\n");
	for (int k = 0; k < c->ngeo; k++)
		fprintf(f, "  %s %s: %.3f over %d configuration(s): %s\n", c->g.bench[c->geo[k].bench].name,
			c->g.bench[c->geo[k].bench].metric[c->geo[k].metric], c->geo[k].ratio, c->geo[k].n, c->geo[k].verdict);
	cmp_print_within(f, c);
	if (c->small)
		fprintf(f, "\nwarning: %d line(s) have fewer than %d valid repetitions on a side: the U test cannot reach significance below that; no verdict is given for them\n",
			c->small, CMP_MIN_REPS);
	fflush(f);
	return ferror(f) ? -1 : 0;
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
	if (strpbrk(s, ",\"\r\n")) {
		char buf[8192];
		csv_field(s, buf, sizeof(buf));
		fputs(buf, f);
	} else
		fputs(s, f);
	fputc(last ? '\n' : ',', f);
}

struct csvout {
	FILE *f;
	struct keycols k;
	char *side[2][3];
};

/* The per-line numbers, as text, shared by CSV and JSON (NA where there is none). */
static void fields(const struct cmp_line *l, char f[14][64])
{
	snprintf(f[0], 64, "%ld", l->a ? l->a->valid : 0);
	snprintf(f[1], 64, "%ld", l->a ? l->a->rows : 0);
	snprintf(f[2], 64, "%zu", l->s.na);
	num(f[3], 64, l->s.na > 0, "%.6g", l->s.ma);
	snprintf(f[4], 64, "%ld", l->b ? l->b->valid : 0);
	snprintf(f[5], 64, "%ld", l->b ? l->b->rows : 0);
	snprintf(f[6], 64, "%zu", l->s.nb);
	num(f[7], 64, l->s.nb > 0, "%.6g", l->s.mb);
	num(f[8], 64, l->s.has_ratio, "%.6g", l->s.ratio);
	num(f[9], 64, l->s.has_ci, "%.6g", l->s.lo);
	num(f[10], 64, l->s.has_ci, "%.6g", l->s.hi);
	num(f[11], 64, l->s.has_p, "%.6g", l->s.u);
	num(f[12], 64, l->s.has_p, "%.6g", l->s.p);
	snprintf(f[13], 64, "%s", l->s.has_p ? (l->s.exact ? "exact" : "normal") : "NA");
}

static const char *const num_names[14] = { "valid_a", "rows_a", "n_a", "median_a", "valid_b", "rows_b", "n_b", "median_b",
	"ratio", "ci_low", "ci_high", "u", "p_value", "p_method" };
static const char *const side_names[2][3] = { { "label_a", "host_a", "cpu_model_a" }, { "label_b", "host_b", "cpu_model_b" } };

static int csv_line(void *u, const struct cmp *c, const struct cmp_line *l)
{
	struct csvout *o = u;
	const struct grp_group *g = &c->g.group[l->group];
	const struct grp_bench *b = &c->g.bench[g->bench];
	char f[14][64];
	put(o->f, b->name, 0);
	for (int j = 0; j < o->k.n; j++) {
		const char *v = "";
		for (int i = 0; i < b->nkey; i++)
			if (!strcmp(b->key_col[i], o->k.col[j]))
				v = g->val[i] ? g->val[i] : "(absent)";
		put(o->f, v, 0);
	}
	put(o->f, b->metric[l->metric], 0);
	for (int s = 0; s < 2; s++)
		for (int w = 0; w < 3; w++)
			put(o->f, line_machine(c, s ? l->b : l->a, o->side[s], w), 0);
	fields(l, f);
	for (int i = 0; i < 14; i++)
		put(o->f, f[i], 0);
	put(o->f, l->s.significant ? "yes" : "no", 0);
	put(o->f, l->verdict, 0);
	put(o->f, !l->a ? "B" : !l->b ? "A" : "", 0);
	char ra[400], rb[400], w[900];
	cmp_resolved(c, l, ra, rb, sizeof(ra), w, sizeof(w));
	put(o->f, ra, 0);
	put(o->f, rb, 0);
	put(o->f, w, 1);
	return ferror(o->f) ? -1 : 0;
}

int cmp_print_csv(FILE *f, const struct cmp *cc)
{
	struct cmp *c = (struct cmp *)cc;
	struct csvout *o = xcalloc(1, sizeof(*o));
	o->f = f;
	key_union(c, &o->k);
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
	fputs("significant,verdict,only_in,resolved_a,resolved_b,resolved_note\n", f);
	cmp_walk(c, csv_line, o);
	free(o->k.col);
	for (int s = 0; s < 2; s++)
		for (int w = 0; w < 3; w++)
			free(o->side[s][w]);
	free(o);
	fflush(f);
	return ferror(f) ? -1 : 0;
}

/* ---- JSON ---- */

/* A JSON string: quotes, backslashes and control bytes escaped; bytes that are not UTF-8 become U+FFFD. */
static void jstr(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	fputc('"', f);
	while (*p) {
		int len = *p < 0x80 ? 1 : (*p & 0xe0) == 0xc0 ? 2 : (*p & 0xf0) == 0xe0 ? 3 : (*p & 0xf8) == 0xf0 ? 4 : 0;
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
	fields(l, f);
	for (int i = 0; i < 13; i++)
		jnum(o->f, num_names[i], f[i]);
	fputs(",\"p_method\":", o->f);
	jstr(o->f, f[13]);
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
	fputc('}', o->f);
	return ferror(o->f) ? -1 : 0;
}

static void json_side(FILE *f, const struct cmp *c, int s)
{
	const struct grp_side *sd = &c->g.side[s];
	fprintf(f, "\"%s\":{\"input\":", s ? "b" : "a");
	jstr(f, sd->name);
	fprintf(f, ",\"rows\":%ld,\"valid\":%ld,\"interrupted\":%s,\"machines\":[", sd->rows, sd->valid, sd->interrupted ? "true" : "false");
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
	cmp_walk(c, json_line, o);
	fprintf(f, "\n ],\"joined\":%d,\"only_in_a\":%d,\"only_in_b\":%d,\"few_repetitions\":%d,\"geomean\":[", c->joined, c->only[0], c->only[1], c->small);
	for (int k = 0; k < c->ngeo; k++) {
		fputs(k ? ",{\"bench\":" : "{\"bench\":", f);
		jstr(f, c->g.bench[c->geo[k].bench].name);
		fputs(",\"metric\":", f);
		jstr(f, c->g.bench[c->geo[k].bench].metric[c->geo[k].metric]);
		fprintf(f, ",\"configurations\":%d,\"ratio\":%.6g,\"verdict\":", c->geo[k].n, c->geo[k].ratio);
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
