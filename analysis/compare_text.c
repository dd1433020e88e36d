/* compare's table for people, within CMP_WIDTH (100) columns: each configuration on a line of its
 * own with its valid counts, one line per metric under it, then what each side resolved and the
 * context of the verdict (relaxed validity, a probe that moved). The full rows are in --csv and
 * --json. */
#include "analysis/compare.h"
#include "schema/desc.h"
#include "stats/compare_stats.h"
#include "lib/util.h"
#include "lib/wrap.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ONLY_SHOWN 20 /* configurations listed by name under "only in A/B" in the table */
#define METRIC_W 24   /* a longer metric name gets a line of its own */

/* A block of text that starts on this line only when all of it fits there. */
static void wrap_whole(FILE *f, int col, int indent, const char *text)
{
	if (col + text_cols(text, strlen(text)) > CMP_WIDTH) {
		fprintf(f, "\n%*s", indent, "");
		col = indent;
	}
	cmp_wrap(f, col, indent, text);
}

/* A string built with open_memstream, wrapped, freed. */
static void wrap_buf(FILE *f, int indent, char *buf)
{
	int lead = (int)strspn(buf, " ");
	fprintf(f, "%*s", lead, "");
	cmp_wrap(f, lead, indent, buf + lead);
	free(buf);
}

static void num(char *buf, size_t n, int ok, const char *fmt, double v)
{
	if (ok)
		snprintf(buf, n, fmt, v);
	else
		snprintf(buf, n, "NA");
}

/* "[1.000, 1.941]", with enough digits that an interval off 1 does not print as touching it. */
static void ci_text(const struct ts_stat *s, char *out, size_t n)
{
	int prec = 3;
	char t[32];
	if (!s->has_ci) {
		snprintf(out, n, "NA");
		return;
	}
	for (; prec < 6; prec++) {
		snprintf(t, sizeof(t), "%.*f", prec, s->lo > 1 ? s->lo : s->hi);
		if ((s->lo > 1 && strtod(t, NULL) > 1) || (s->hi < 1 && strtod(t, NULL) < 1) ||
		    (s->lo <= 1 && s->hi >= 1))
			break;
	}
	snprintf(out, n, "[%.*f, %.*f]", prec, s->lo, prec, s->hi);
}

struct text {
	FILE *f;
	int wm, last, bench; /* the metric column's width: per bench, with its header */
	char note[2048]; /* the last configuration's resolved settings and context */
};

/* Under a configuration's lines: what each side resolved its settings to, the difference, and
 * the context of its verdicts. */
static void text_note(struct text *t)
{
	char *p = t->note;
	while (*p) { /* one paragraph per \n-separated note */
		size_t n = strcspn(p, "\n");
		char one[2048];
		snprintf(one, sizeof(one), "%.*s", (int)n, p);
		fputs("  ", t->f);
		cmp_wrap(t->f, 2, 4, one);
		p += n + (p[n] == '\n');
	}
	t->note[0] = 0;
}

static void config_line(struct text *t, const struct cmp *c, const struct cmp_line *l)
{
	char lab[512], ra[400], rb[400], w[900], cw[1200], head[700];
	size_t k = 0;
	text_note(t);
	groups_label(&c->g, l->group, lab, sizeof(lab));
	snprintf(head, sizeof(head), "%s: A %ld of %ld rows valid, B %ld of %ld", lab, l->a->valid,
		 l->a->rows, l->b->valid, l->b->rows);
	cmp_wrap(t->f, 0, 4, head);
	int differ = cmp_resolved(c, l, ra, rb, sizeof(ra), w, sizeof(w));
	if (differ && ra[0])
		k = (size_t)snprintf(t->note, sizeof(t->note), "resolved: A %s; B %s. %s", ra, rb,
				     w);
	else if (differ)
		k = (size_t)snprintf(t->note, sizeof(t->note), "%s", w);
	else if (ra[0])
		k = (size_t)snprintf(t->note, sizeof(t->note), "resolved: %s on both", ra);
	if (cmp_ctx_words(c, l, cw, sizeof(cw)) && k < sizeof(t->note))
		k += (size_t)snprintf(t->note + k, sizeof(t->note) - k, "%swarning: %s",
				      k ? "\n" : "", cw);
	/* a baseline line across classes stands for each side's class: where one splits, say so */
	if (l->baseline && cmp_split_words(c, l, cw, sizeof(cw)) && k < sizeof(t->note))
		snprintf(t->note + k, sizeof(t->note) - k, "%s%s: %s", k ? "\n" : "",
			 c->g.bench[c->g.group[l->group].bench].metric[l->metric], cw);
}

static int text_line(void *u, const struct cmp *c, const struct cmp_line *l)
{
	struct text *t = u;
	if (!l->a || !l->b)
		return 0;
	const struct grp_bench *b = &c->g.bench[c->g.group[l->group].bench];
	char n[48], ma[32], mb[32], r[32], ci[64], p[32], pa[32], verdict[160];
	if (c->g.group[l->group].bench != t->bench) { /* a bench's columns, sized to its metrics */
		text_note(t);
		t->bench = c->g.group[l->group].bench;
		t->wm = 6;
		for (int m = 0; m < b->nmet; m++) {
			int w = (int)strlen(b->metric[m]);
			if (b->met_seen[m] && w > t->wm && w <= METRIC_W)
				t->wm = w;
		}
		char padj[16];
		snprintf(padj, sizeof(padj), "p %s", c->adjust);
		fprintf(t->f, "%s  %-*s %5s %8s %8s %6s %-14s %7s %7s  %s\n",
			t->last >= 0 ? "\n" : "", t->wm, "metric", "n A/B", "median A", "median B",
			"ratio", "95% CI", "p", padj, "verdict");
	}
	if (l->group != t->last)
		config_line(t, c, l);
	t->last = l->group;
	const char *metric = b->metric[l->metric];
	if ((int)strlen(metric) > t->wm) { /* a long name on a line of its own */
		fputs("  ", t->f);
		cmp_wrap(t->f, 2, 4, metric);
		metric = "";
	}
	snprintf(n, sizeof(n), "%zu/%zu", l->s.na, l->s.nb);
	num(ma, sizeof(ma), l->s.na > 0, "%.4g", l->s.ma);
	num(mb, sizeof(mb), l->s.nb > 0, "%.4g", l->s.mb);
	num(r, sizeof(r), l->s.has_ratio, "%.3f", l->s.ratio);
	ci_text(&l->s, ci, sizeof(ci));
	num(p, sizeof(p), l->s.has_p, "%.3g", l->s.p);
	num(pa, sizeof(pa), ts_is_test(&l->s), "%.3g", l->s.p_adj);
	snprintf(verdict, sizeof(verdict), "%s", l->verdict);
	if (l->s.significant) /* the interval is in its column */
		verdict[strcspn(verdict, "[")] = 0;
	int col = fprintf(t->f, "  %-*s %5s %8s %8s %6s %-14s %7s %7s  ", t->wm, metric, n, ma,
			  mb, r, ci, p, pa);
	wrap_whole(t->f, col, 4, verdict);
	return 0;
}

static void print_side(FILE *f, const struct cmp *c, int s)
{
	const struct grp_side *sd = &c->g.side[s];
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		out_of_memory(0);
	fprintf(m, "%s: %s: %ld row(s), %ld valid; machine(s):", s ? "B" : "A", sd->name, sd->rows,
		sd->valid);
	for (int i = 0; i < sd->nmach; i++) {
		const struct grp_machine *mc = &c->g.mach[sd->mach[i]];
		fprintf(m, "%s %s (host %s, %s)", i ? "," : "", mc->label, mc->host, mc->cpu_model);
	}
	if (sd->interrupted)
		fprintf(m, "; WARNING: unfinished, interrupted or short of rows (see the warning "
			   "above)");
	fclose(m);
	wrap_buf(f, 4, buf);
	char by[200], line[400];
	if (sd->rows && !sd->valid) {
		snprintf(line, sizeof(line),
			 "%s measured nothing: none of its %ld row(s) is valid (their "
			 "invalid_reason says why); it has no verdict below",
			 s ? "B" : "A", sd->rows);
		cmp_wrap(f, 0, 4, line);
	}
	if (cmp_side_relaxed(c, s, by, sizeof(by))) {
		snprintf(line, sizeof(line),
			 "%s was judged with relaxed validity (%s): rows the strict rules refuse "
			 "count as valid there",
			 s ? "B" : "A", by);
		cmp_wrap(f, 0, 4, line);
	}
}

/* Has side s a configuration of bench b with value v in key column k? */
/* A value of the match_by column: where each side first has it (group index, -1: never). */
struct class_seen {
	const char *v;
	int first[2];
};

static int by_first_seen(const void *x, const void *y, void *side)
{
	const struct class_seen *a = x, *b = y;
	int s = *(const int *)side;
	return (a->first[s] > b->first[s]) - (a->first[s] < b->first[s]);
}

/* For a bench with match_by (pingpong: class): the values side s has and the other side has not,
 * in the order side s first has them. A bench has few such values: each group looks its value up
 * among those seen (linear in the groups). */
static void only_classes(FILE *f, const struct cmp *c, int b, int s)
{
	const struct grp_bench *bn = &c->g.bench[b];
	int k = -1, n = 0, nv = 0, cap = 0;
	struct class_seen *seen = NULL;
	char list[1024];
	size_t len = 0;
	list[0] = 0;
	for (int i = 0; bn->b && bn->b->match_by && i < bn->nkey; i++)
		if (!strcmp(bn->key_col[i], bn->b->match_by))
			k = i;
	for (int i = 0; k >= 0 && i < c->g.ngroup; i++) {
		const char *v = c->g.group[i].val[k];
		if (c->g.group[i].bench != b || !v)
			continue;
		int at = 0;
		while (at < nv && strcmp(seen[at].v, v))
			at++;
		if (at == nv) {
			if (nv == cap) {
				cap = cap ? 2 * cap : 8;
				seen = realloc(seen, (size_t)cap * sizeof(*seen));
				if (!seen)
					out_of_memory(0);
			}
			seen[nv++] = (struct class_seen){ v, { -1, -1 } };
		}
		for (int t = 0; t < 2; t++)
			if (seen[at].first[t] < 0 && groups_cell(&c->g, i, t))
				seen[at].first[t] = i;
	}
	if (nv)
		qsort_r(seen, (size_t)nv, sizeof(*seen), by_first_seen, &s);
	for (int i = 0; i < nv; i++)
		if (seen[i].first[s] >= 0 && seen[i].first[!s] < 0 && len < sizeof(list))
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
						n++ ? ", " : "", seen[i].v);
	free(seen);
	if (n) {
		char line[1300];
		snprintf(line, sizeof(line), "%s %s only in %s: %s", bn->name, bn->b->match_by,
			 s ? "B" : "A", list);
		fputs("  ", f);
		cmp_wrap(f, 2, 4, line);
	}
}

static void print_only(FILE *f, const struct cmp *c)
{
	char lab[512];
	for (int s = 0; s < 2; s++) {
		if (!c->only[s])
			continue;
		fprintf(f, "\nonly in %s (%d configuration(s), not compared):\n", s ? "B" : "A",
			c->only[s]);
		int shown = 0;
		for (int i = 0; i < c->g.ngroup && shown < ONLY_SHOWN; i++) {
			int gi = c->g.order[i];
			if (groups_cell(&c->g, gi, s) && !groups_cell(&c->g, gi, !s) &&
			    c->match[gi] < 0) {
				groups_label(&c->g, gi, lab, sizeof(lab));
				fputs("  ", f);
				cmp_wrap(f, 2, 4, lab);
				shown++;
			}
		}
		if (c->only[s] > shown)
			fprintf(f, "  ... and %d more (--csv or --json lists every one)\n",
				c->only[s] - shown);
		for (int b = 0; b < c->g.nbench; b++)
			only_classes(f, c, b, s);
	}
}

int cmp_print_text(FILE *f, const struct cmp *cc)
{
	struct cmp *c = (struct cmp *)cc; /* the walk fills the geometric means */
	struct text t = { .f = f, .wm = 6, .last = -1, .bench = -1 };
	char para[2000];
	print_side(f, c, 0);
	print_side(f, c, 1);
	for (const char *p = c->presets; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] != 0)) {
		snprintf(para, sizeof(para), "%.*s", (int)strcspn(p, "\n"), p);
		cmp_wrap(f, 0, 4, para); /* a preset's entry that A and B ran differently */
	}
	cmp_tests(c);
	char fams[400];
	size_t fk = 0;
	fams[0] = 0;
	for (int b = 0; b < c->g.nbench && fk < sizeof(fams); b++)
		fk += (size_t)snprintf(fams + fk, sizeof(fams) - fk, "%s%s %d", fk ? ", " : "",
				       c->g.bench[b].name, c->fam_m[b]);
	snprintf(para, sizeof(para),
		 "ratio = median B / median A over valid repetitions; n A/B: values of valid "
		 "rows; 95%% CI: bootstrap of the ratio of medians (exact up to %d values a side, "
		 "else %d resamples); p: two-sided Mann-Whitney U; p %s: adjusted over its "
		 "bench's family, the lines of the bench's verdict metrics (%s test(s); Holm up to "
		 "%d tests, Benjamini-Hochberg above; NA: no test, a descriptive metric or too few "
		 "values); a change is called when the adjusted p < 0.05 and the CI excludes 1; "
		 "\"no change beyond +-%g%%\" when the CI lies within it; otherwise inconclusive, "
		 "with the reason (docs/validity.md, \"The verdict\"); --csv and --json hold every "
		 "column",
		 BOOT_EXACT_MAX, BOOT_RESAMPLES, c->adjust, fams, TS_HOLM_MAX, 100 * TS_MARGIN);
	cmp_wrap(f, 0, 0, para);
	fputc('\n', f);
	fprintf(f, "configuration: valid rows of all rows on each side\n");
	cmp_splits(c);
	cmp_walk(c, text_line, &t);
	text_note(&t);
	cmp_print_classes(f, c);
	cmp_print_splits(f, c);
	print_only(f, c);
	if (c->ngeo)
		fprintf(f, "\ngeometric mean of B/A over the joined configurations (a summary, not "
			   "a test):\n");
	for (int k = 0; k < c->ngeo; k++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);
		if (!m)
			out_of_memory(0);
		fprintf(m, "  %s %s: %.3f over %d configuration(s): %s",
			c->g.bench[c->geo[k].bench].name,
			c->g.bench[c->geo[k].bench].metric[c->geo[k].metric], c->geo[k].ratio,
			c->geo[k].n, c->geo[k].verdict);
		fclose(m);
		wrap_buf(f, 4, buf);
	}
	cmp_print_within(f, c);
	if (c->small) {
		snprintf(para, sizeof(para),
			 "warning: %d line(s) have too few valid repetitions on a side for the U "
			 "test to reach p < 0.05 (%d a side when both have as many); no verdict is "
			 "given for them",
			 c->small, ts_min_reps());
		fputc('\n', f);
		cmp_wrap(f, 0, 0, para);
	}
	fflush(f);
	return ferror(f) ? -1 : 0;
}
