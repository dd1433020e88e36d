/* The report Summary's lines: what each machine's set is, and a line per bench and pair of
 * machines from compare's own lines, families and words (analysis/compare.h, cmp_pair). */
#include "analysis/report_int.h"
#include "analysis/compare.h"
#include "lib/util.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Keep a line of compare's walk (each a bootstrap and a U test, computed once). */
static int keep_line(void *u, const struct cmp *c, const struct cmp_line *l)
{
	struct rpt_plines *pl = u;
	(void)c;
	if (pl->n == pl->cap) {
		pl->cap = pl->cap ? 2 * pl->cap : 64;
		pl->l = realloc(pl->l, (size_t)pl->cap * sizeof(*pl->l));
		if (!pl->l)
			die(1, "out of memory");
	}
	pl->l[pl->n++] = *l;
	return 0;
}

void rpt_pair_lines(struct cmp *c, struct rpt_plines *pl)
{
	cmp_walk(c, keep_line, pl);
}

/* What each machine's set is, before any verdict: one that measured nothing, was interrupted or
 * was judged with relaxed validity is named first. Returns how many were. */
int rpt_sets_first(struct rep *p)
{
	int said = 0;
	for (int m = 0; m < p->nm; m++) {
		const struct rmachine *mc = &p->mach[m];
		if (mc->rows && !mc->valid)
			said++, doc_p(&p->doc,
				      "%s measured nothing: none of its %ld row(s) is valid "
				      "(reasons in \"Rows not used\"); it has no verdict below.",
				      mc->label, mc->rows);
		if (p->g.side[m].interrupted)
			said++, doc_p(&p->doc,
				      "%s is interrupted: its run or preset did not finish, so it "
				      "holds fewer configurations or repetitions than asked.",
				      mc->label);
		if (mc->relaxed[0])
			said++, doc_p(&p->doc,
				      "%s was judged with relaxed validity (%s): rows the strict "
				      "rules refuse count as valid there.",
				      mc->label, mc->relaxed);
	}
	return said;
}

/* One bench and pair, from compare's lines (the same join, family and words). */
struct bline {
	int bench, lines, tests, changed, within, undecided;
	double best; /* |log ratio| of the largest change called */
	char largest[600], why[200];
	char words[4][16]; /* the verdicts' words for B ("slower", "better"), and their counts */
	int nword[4], nw;
};

/* Count a change's word: "B slower by ..." gives "slower". */
static void count_word(struct bline *b, const char *verdict)
{
	const char *v = strncmp(verdict, "B ", 2) ? verdict : verdict + 2;
	char w[16];
	rpt_fmt(w, sizeof(w), "%.*s", (int)strcspn(v, " "), v);
	for (int i = 0; i < b->nw; i++)
		if (!strcmp(b->words[i], w)) {
			b->nword[i]++;
			return;
		}
	if (b->nw < 4) {
		rpt_fmt(b->words[b->nw], sizeof(b->words[0]), "%s", w);
		b->nword[b->nw++] = 1;
	}
}

static int collect(struct bline *b, const struct cmp *c, const struct cmp_line *l)
{
	if (c->g.group[l->group].bench != b->bench || !l->a || !l->b)
		return 0;
	b->lines++;
	if (l->s.descriptive || !l->s.has_ratio)
		return 0;
	b->tests++;
	if (l->s.significant) {
		b->changed++;
		count_word(b, l->verdict);
		double mag = fabs(log(l->s.ratio));
		if (mag > b->best) {
			char lab[400];
			groups_label(&c->g, l->group, lab, sizeof(lab));
			b->best = mag;
			rpt_fmt(b->largest, sizeof(b->largest), "%s of %s, %s",
				c->g.bench[b->bench].metric[l->metric], lab, l->verdict);
		}
	} else if (!strncmp(l->verdict, "no change", 9))
		b->within++;
	else {
		b->undecided++;
		if (!b->why[0])
			rpt_fmt(b->why, sizeof(b->why), "%s",
				strncmp(l->verdict, "inconclusive: ", 14) ? l->verdict
									  : l->verdict + 14);
	}
	return 0;
}

/* The line of bench bi (the engine's index gi) for machines a and b. */
void rpt_bench_line(struct rep *p, struct cmp *c, int gi, int a, int b,
		    const struct rpt_plines *pl)
{
	const char *name = c->g.bench[gi].name, *la = p->mach[a].label, *lb = p->mach[b].label;
	struct bline bl = { .bench = gi };
	char d[600];
	for (int i = 0; i < pl->n; i++)
		collect(&bl, c, &pl->l[i]);
	if (!bl.lines) {
		if (cmp_differs(c, gi, d, sizeof(d)))
			doc_p(&p->doc,
			      "%s, A = %s, B = %s: not compared, no configuration in common; their "
			      "first configurations differ in %s.",
			      name, la, lb, d);
		else
			doc_p(&p->doc, "%s, A = %s, B = %s: not compared, measured on %s only.",
			      name, la, lb, c->only[0] ? la : lb);
		return;
	}
	if (!bl.tests)
		doc_p(&p->doc, "%s, A = %s, B = %s: %d line(s) joined, none of a verdict metric "
			       "with values on both: descriptive only.", name, la, lb, bl.lines);
	else if (bl.changed) {
		char how[160] = "";
		for (int i = 0; i < bl.nw; i++) {
			size_t k = strlen(how);
			rpt_fmt(how + k, sizeof(how) - k, "%s%s in %d", i ? ", " : "B ",
				bl.words[i], bl.nword[i]);
		}
		doc_p(&p->doc, "%s, A = %s, B = %s: %d of %d test(s) changed, %s; the largest: "
			       "%s.%s", name, la, lb, bl.changed, bl.tests, how, bl.largest,
		      bl.within + bl.undecided ? " The others are inconclusive or unchanged "
						 "(details below)." : "");
	}
	else if (bl.within == bl.tests)
		doc_p(&p->doc, "%s, A = %s, B = %s: no change beyond +-%g%% in any of its %d "
			       "test(s).", name, la, lb, 100 * TS_MARGIN, bl.tests);
	else
		doc_p(&p->doc, "%s, A = %s, B = %s: inconclusive, %d of %d test(s) undecided: %s.",
		      name, la, lb, bl.undecided, bl.tests, bl.why);
}
