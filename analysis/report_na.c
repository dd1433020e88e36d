/* What the report says about the inputs beside the charts: the machines, the rows not used
 * (valid=no, by reason) and every value not measured, grouped by its whole reason. */
#include "analysis/report_int.h"
#include "lib/util.h"
#include "schema/meta.h"
#include "schema/version.h"
#include <stdlib.h>
#include <string.h>

#define NA_COLS_SHOWN 12 /* columns named per reason; more are counted */
#define ENTRIES_MAX 64   /* reasons in one na_reason cell */
#define OLD_CUT 1023     /* older c2cbench cut na_reason at this many bytes */
static const char cut_reason[] =
	"reason lost: this row's na_reason was cut at 1,023 bytes when written "
	"(older c2cbench); the rest of it is not in the CSV";

/* The reason (m, what) in list, added when new. */
static long reason_at(struct reason **list, long *n, int m, const char *what, size_t len)
{
	for (long i = 0; i < *n; i++)
		if ((*list)[i].m == m && strlen((*list)[i].what) == len &&
		    !strncmp((*list)[i].what, what, len))
			return i;
	*list = realloc(*list, (size_t)(*n + 1) * sizeof(**list));
	if (!*list)
		die(1, "out of memory");
	char *w = xcalloc(len + 1, 1);
	memcpy(w, what, len);
	(*list)[*n] = (struct reason){ .m = m, .what = w, .cols = xstrdup("") };
	return (*n)++;
}

/* Note col among the columns a reason covers (once; the first NA_COLS_SHOWN by name). */
static void reason_col(struct reason *r, const char *col)
{
	size_t l = strlen(col), n = 0;
	for (const char *s = r->cols; *s; n++) {
		const char *e = strchr(s, ',');
		if ((size_t)((e ? e : s + strlen(s)) - s) == l && !strncmp(s, col, l))
			return;
		s = e ? e + 1 : s + strlen(s);
	}
	size_t have = strlen(r->cols);
	r->cols = realloc(r->cols, have + l + 2);
	if (!r->cols)
		die(1, "out of memory");
	sprintf(r->cols + have, "%s%s", have ? "," : "", col);
}

/* Split na_reason into whole reasons: "; " separates them only outside () and [] (a reason may
 * hold "; " in parentheses). Return the count; each entry is start and length. */
static int split_reasons(const char *s, const char **start, size_t *len)
{
	int n = 0, depth = 0;
	const char *b = s;
	for (const char *c = s; s && *c && n < ENTRIES_MAX; c++) {
		depth += (*c == '(' || *c == '[') - (*c == ')' || *c == ']');
		if (depth < 0)
			depth = 0;
		if ((c[0] == ';' && c[1] == ' ' && !depth) || !c[1]) {
			size_t l = (size_t)(c - b) + (c[1] ? 0 : 1);
			if (l) {
				start[n] = b;
				len[n++] = l;
			}
			b = c + (c[1] ? 2 : 1);
			if (c[1])
				c++;
		}
	}
	return n;
}

/* Is w (n bytes) one of col's _-separated words ("cycles" in "writer_cycles_per_kop")? */
static int word_in(const char *col, const char *w, size_t n)
{
	size_t cl = strlen(col);
	for (size_t i = 0; n && i + n <= cl; i++)
		if (!strncmp(col + i, w, n) && (i == 0 || col[i - 1] == '_') &&
		    (col[i + n] == 0 || col[i + n] == '_'))
			return 1;
	return 0;
}

/* Does a reason's subject ("drains", "counters [cycles,hitm_per_kop]") name column col? A
 * bracketed list names events: a column covers it when the event is one of its _-words. */
static int covers(const char *e, size_t len, const char *col)
{
	const char *colon = memchr(e, ':', len);
	size_t sl = colon ? (size_t)(colon - e) : len, cl = strlen(col);
	if (sl == cl && !strncmp(e, col, cl))
		return 1;
	const char *lb = memchr(e, '[', sl),
		   *rb = lb ? memchr(lb, ']', sl - (size_t)(lb - e)) : NULL;
	for (const char *s = lb && rb ? lb + 1 : NULL; s && s < rb;) {
		const char *c = memchr(s, ',', (size_t)(rb - s));
		if (word_in(col, s, (size_t)((c ? c : rb) - s)))
			return 1;
		s = c ? c + 1 : rb;
	}
	return 0;
}

void rpt_na_row(struct rep *p, int m, const struct table *t, long r)
{
	const char *nr = table_get(t, r, "na_reason"), *start[ENTRIES_MAX];
	size_t len[ENTRIES_MAX];
	long idx[ENTRIES_MAX], none = -1;
	int n = split_reasons(nr && strcmp(nr, "NA") ? nr : NULL, start, len);
	if (n && strlen(nr) == OLD_CUT) { /* the last reason is a cut piece: one reason says so */
		start[n - 1] = cut_reason;
		len[n - 1] = sizeof(cut_reason) - 1;
	}
	for (int i = 0; i < n; i++) {
		idx[i] = reason_at(&p->na, &p->nna, m, start[i], len[i]);
		p->na[idx[i]].rows++;
	}
	for (int c = 0; c < t->ncols; c++) {
		if (strcmp(t->cell[r][c], "NA"))
			continue;
		int i = 0;
		while (i < n && !covers(start[i], len[i], t->cols[c]))
			i++;
		if (i == n && n && start[n - 1] == cut_reason)
			i = n - 1; /* its reason was in the part that was cut */
		if (i < n) {
			reason_col(&p->na[idx[i]], t->cols[c]);
			continue;
		}
		if (none < 0) {
			none = reason_at(&p->na, &p->nna, m, "no reason recorded", 18);
			p->na[none].rows++;
		}
		reason_col(&p->na[none], t->cols[c]);
	}
}

/* Is the rule w (l bytes) in the "; "-separated list? */
static int rule_listed(const char *list, const char *w, size_t l)
{
	for (const char *s = list; *s;) {
		const char *e = strstr(s, "; ");
		size_t sl = e ? (size_t)(e - s) : strlen(s);
		if (sl == l && !strncmp(s, w, l))
			return 1;
		s = e ? e + 2 : s + sl;
	}
	return 0;
}

/* The rules an invalid_reason breaks, "window; probe": each whole reason's words before its ':'
 * ("window: worker1 0.222 s for 0.100 s requested (+122%)" breaks window), each once. Rows are
 * counted by these, not by their whole text, whose measured values differ from row to row. */
static size_t rules_of(const char *why, char *out, size_t cap)
{
	const char *start[ENTRIES_MAX];
	size_t len[ENTRIES_MAX], n = 0;
	int k = split_reasons(why, start, len);
	out[0] = 0;
	for (int i = 0; i < k; i++) {
		const char *c = memchr(start[i], ':', len[i]);
		size_t l = c ? (size_t)(c - start[i]) : len[i];
		/* two threads broke one rule: it is named once */
		if (rule_listed(out, start[i], l))
			continue;
		n += (size_t)snprintf(out + n, n < cap ? cap - n : 0, "%s%.*s", n ? "; " : "",
				      (int)l, start[i]);
	}
	return n < cap ? n : cap - 1;
}

void rpt_unused_row(struct rep *p, int m, const struct table *t, long r)
{
	const char *why = table_get(t, r, "invalid_reason");
	char rules[512];
	if (!why || !*why || !strcmp(why, "NA"))
		why = "no reason recorded";
	size_t n = rules_of(why, rules, sizeof(rules));
	long i = reason_at(&p->unused, &p->nunused, m, rules, n); /* it may move the list */
	if (!p->unused[i].rows++) { /* the first row's whole reason is the group's example */
		free(p->unused[i].cols);
		p->unused[i].cols = xstrdup(why);
	}
}

void rpt_reasons_free(struct rep *p)
{
	for (long i = 0; i < p->nna; i++)
		free(p->na[i].what), free(p->na[i].cols);
	for (long i = 0; i < p->nunused; i++)
		free(p->unused[i].what), free(p->unused[i].cols);
	free(p->na);
	free(p->unused);
}

/* The first NA_COLS_SHOWN of a comma list, then how many more. */
static void shown_cols(const char *list, char *out, size_t cap)
{
	size_t n = 0, len = 0;
	const char *s = list;
	for (; *s && n < NA_COLS_SHOWN; n++) {
		const char *e = strchr(s, ',');
		size_t l = e ? (size_t)(e - s) : strlen(s);
		len += (size_t)snprintf(out + len, len < cap ? cap - len : 0, "%s%.*s",
					n ? ", " : "", (int)l, s);
		s = e ? e + 1 : s + l;
	}
	long more = 0;
	for (; *s; s++)
		more += *s == ',' || !s[1];
	if (more)
		snprintf(out + len, len < cap ? cap - len : 0, " and %ld more", more);
	if (!*list)
		snprintf(out, cap, "none (NA nowhere in these rows)");
}

/* Machine first, then the most frequent reason. */
static int by_machine_rows(const void *x, const void *y)
{
	const struct reason *a = x, *b = y;
	return a->m != b->m ? a->m - b->m : (b->rows > a->rows) - (b->rows < a->rows);
}

void rpt_na(struct rep *p)
{
	static const char *const hdr[] = {"machine", "reason (whole, as recorded in na_reason)",
					  "rows", "columns NA for it"};
	char rows[32], cols[2048];
	doc_h(&p->doc, 2, "Values not measured, and why");
	if (!p->nna) {
		doc_p(&p->doc, "Every value in these inputs was measured (no NA).");
		return;
	}
	qsort(p->na, (size_t)p->nna, sizeof(*p->na), by_machine_rows);
	doc_p(&p->doc, "Each reason once per machine, with the number of rows that give it and the "
		       "NA columns it explains.");
	doc_table(&p->doc, 4, hdr);
	for (long i = 0; i < p->nna; i++) {
		const struct reason *r = &p->na[i];
		snprintf(rows, sizeof(rows), "%ld", r->rows);
		shown_cols(r->cols, cols, sizeof(cols));
		const char *row[] = { p->mach[r->m].label, r->what, rows, cols };
		doc_row(&p->doc, row);
	}
	doc_table_end(&p->doc);
}

void rpt_unused(struct rep *p)
{
	static const char *const hdr[] = { "machine", "rules broken", "rows",
					   "for example (one row's invalid_reason)" };
	char rows[32];
	if (!p->nunused)
		return;
	doc_h(&p->doc, 2, "Rows not used (valid = no)");
	doc_p(&p->doc,
	      "Counted per machine by the validity rules each row broke (docs/validity.md), with "
	      "one such row's whole reason; every row's own is in its CSV's invalid_reason.");
	sort_n(p->unused, (size_t)p->nunused, sizeof(*p->unused), by_machine_rows);
	doc_table(&p->doc, 4, hdr);
	for (long i = 0; i < p->nunused; i++) {
		snprintf(rows, sizeof(rows), "%ld", p->unused[i].rows);
		const char *row[] = { p->mach[p->unused[i].m].label, p->unused[i].what, rows,
				      p->unused[i].cols };
		doc_row(&p->doc, row);
	}
	doc_table_end(&p->doc);
}

const char *const rpt_ctx_cols[RPT_CTX] = {"cpu_model", "packages",   "cores",
					   "pus",       "numa_nodes", "line_size",
					   "kernel",    "compiler",   "c2cbench_rev"};

/* A fingerprint field of the machine, else its row column (ctx index ci, -1: none), else NA. */
static const char *mfield(const struct rep *p, int m, const char *key, int ci)
{
	const struct grp_side *sd = &p->g.side[m];
	const char *v = sd->nmach ? grp_fp_field(&p->g.mach[sd->mach[0]].fp, key) : NULL;
	return v ? v : ci >= 0 ? p->mach[m].ctx[ci] : "NA";
}

void rpt_machines(struct rep *p, char **inputs, int ninputs)
{
	char in[4096] = "";
	size_t len = 0;
	for (int i = 0; i < ninputs; i++)
		len += (size_t)snprintf(in + len, len < sizeof(in) ? sizeof(in) - len : 0, "%s%s",
					i ? ", " : "", inputs[i]);
	doc_h(&p->doc, 1, "c2cbench report");
	doc_p(&p->doc, "Made by c2cbench %s (schema_version %d) from: %s.", C2C_VERSION,
	      SCHEMA_VERSION, in);
	doc_p(&p->doc, "Charts are drawn by gnuplot from plots.gp and the numbers in data/ (rerun "
		       "gnuplot plots.gp here to redraw them). Only rows with valid = yes are "
		       "used; each table says how many of the rows were valid.");
	if (p->unfinished)
		doc_p(&p->doc,
		      "Warning: %d input(s) are marked interrupted or unfinished in their .meta or "
		      "metadata.txt, or hold fewer rows than it records: configurations are "
		      "missing (the warnings of this command name them).",
		      p->unfinished);
}

/* Two tables, to fit a page: what the machine is, then its topology and software. */
void rpt_machines_table(struct rep *p)
{
	static const char *const hdr1[] = { "machine",	  "host",
					    "CPU model",  "CPU (vendor family/model/stepping)",
					    "hypervisor", "fingerprint",
					    "valid rows" };
	static const char *const hdr2[] = { "machine",	   "packages/cores/PUs",
					    "L3s",	   "NUMA nodes",
					    "kernel",	   "compiler",
					    "c2cbench_rev" };
	char valid[64], cpu[200], topo[64];
	doc_h(&p->doc, 2, "Machines");
	doc_p(&p->doc,
	      "Each machine is one fingerprint (results/README.md): two under one label are shown "
	      "as LABEL#ID, the first digits of each fingerprint.");
	doc_table(&p->doc, (int)ARRAY_SIZE(hdr1), hdr1);
	for (int m = 0; m < p->nm; m++) {
		const struct grp_side *sd = &p->g.side[m];
		const char *fp = sd->nmach && p->g.mach[sd->mach[0]].fp.id[0]
		    ? p->g.mach[sd->mach[0]].fp.id
		    : "NA";
		snprintf(cpu, sizeof(cpu), "%.60s %.20s/%.20s/%.20s",
			 mfield(p, m, "cpu_vendor", -1), mfield(p, m, "cpu_family", -1),
			 mfield(p, m, "cpu_model_number", -1), mfield(p, m, "cpu_stepping", -1));
		snprintf(valid, sizeof(valid), "%ld of %ld", p->mach[m].valid, p->mach[m].rows);
		const char *row[] = { p->mach[m].label, p->mach[m].host, p->mach[m].ctx[0], cpu,
				      mfield(p, m, "hypervisor", -1), fp, valid };
		doc_row(&p->doc, row);
	}
	doc_table_end(&p->doc);
	doc_table(&p->doc, (int)ARRAY_SIZE(hdr2), hdr2);
	for (int m = 0; m < p->nm; m++) {
		snprintf(topo, sizeof(topo), "%.12s/%.12s/%.12s", mfield(p, m, "packages", 1),
			 mfield(p, m, "cores", 2), mfield(p, m, "pus", 3));
		const char *row[] = { p->mach[m].label, topo, mfield(p, m, "l3_count", -1),
				      mfield(p, m, "numa_nodes", 4), mfield(p, m, "kernel", 6),
				      p->mach[m].ctx[7], p->mach[m].ctx[8] };
		doc_row(&p->doc, row);
	}
	doc_table_end(&p->doc);
}
