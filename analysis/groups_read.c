/* The grouping engine's reader: result CSVs streamed row by row into groups and cells. */
#include "lib/csvread.h"
#include "lib/csvstream.h"
#include "analysis/groups_int.h"
#include "analysis/groups_decl.h"
#include "analysis/groups_schema.h"
#include "lib/infile.h"
#include "lib/parse.h"
#include "schema/desc.h"
#include "schema/meta.h"
#include "schema/label.h"
#include "lib/util.h"
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Per file and bench: where the bench's key and metric columns are in this header (-1: absent). */
struct fbench {
	int bench;
	int *key_ix, *met_ix;
	int *res_ix;      /* per resolved setting: its resolved column here (-1: absent) */
	/* per key column this file did not record (key_ix -1): its schema version (nrec, else 0),
	 * what its run's command line asked (asked), else the column of its effective value
	 * (eff_ix) or a constant one (eff_const), and those in words (eff_what) */
	int *nrec, *eff_ix;
	char **asked;
	const char **eff_const, **eff_what;
	char **nrec_text; /* "not recorded (schema N)" */
	int note_ix;      /* the description's summary_note_if column here (-1: absent or none) */
	int schema;       /* the file's schema version */
};

struct file {
	struct csvs s;
	int ncols;
	char **hdr;
	int c_valid, c_label, c_host, c_cpu, c_fp;
	int c_src_tool, c_src_stat; /* an imported set's source_tool, source_statistic (-1: none) */
	struct grp_fp fp; /* the machine fingerprint of its .meta (or its fingerprint column) */
	int fp_read;
	struct fbench *fb;
	int nfb;
	char label[LABEL_MAX + 1];
	char *host, *cpu;  /* of the machine last seen (most files hold one) */
	int side;          /* its side */
	int mach;          /* its index in groups.mach */
	int sides[8], nsides; /* sides this file gave rows to (for the interrupted mark) */
	char **rowp;       /* for groups.row: the current row's fields */
	const char *relabel; /* its label by --label DIR=NAME, or NULL */
	struct grp_decl decl; /* its X.columns, when the run wrote one */
	struct bench_desc desc; /* its X.bench, when the run wrote one (until a bench takes it) */
};

/* Columns of the run context and bookkeeping: never metrics, even when numeric. */
static const char *const not_metric[] = { "schema_version",
					  "bench",
					  "rep",
					  "label",
					  "host",
					  "cpu_model",
					  "packages",
					  "cores",
					  "pus",
					  "numa_nodes",
					  "line_size",
					  "kernel",
					  "compiler",
					  "c2cbench_rev",
					  "started",
					  "seed",
					  "na_reason",
					  "valid",
					  "invalid_reason",
					  "attempt",
					  "fingerprint",
					  "cpu_vendor",
					  "microcode",
					  "hypervisor",
					  "governor",
					  "boost",
					  "smt",
					  "numa_balancing",
					  NULL };

static int col_of(const struct file *f, const char *name)
{
	for (int c = 0; c < f->ncols; c++)
		if (!strcmp(f->hdr[c], name))
			return c;
	return -1;
}

/* The header: named, unique columns, and c2cbench's first four (schema_version, bench, VARIANT,
 * rep). */
static int read_header(struct file *f, char *err)
{
	int rc = csvs_next(&f->s, err);
	if (rc < 0)
		return -1;
	if (rc == 0)
		return err_set(
		    err,
		    "%s: empty file; accepted: a c2cbench result CSV (a header line, then rows)",
		    f->s.path);
	f->ncols = f->s.nf;
	f->hdr = xcalloc((size_t)f->ncols, sizeof(char *));
	for (int c = 0; c < f->ncols; c++) {
		f->hdr[c] = xstrdup(csvs_field(&f->s, c));
		if (!f->hdr[c][0])
			return err_set(err, "%s:%ld: column %d of the header has no name",
				       f->s.path, f->s.line, c + 1);
		for (int d = 0; d < c; d++)
			if (!strcmp(f->hdr[c], f->hdr[d]))
				return err_set(err,
					       "%s:%ld: column '%s' appears twice in the header",
					       f->s.path, f->s.line, f->hdr[c]);
	}
	static const char *const front[] = { "schema_version", "bench", NULL, "rep" };
	if (f->ncols < 4)
		return err_set(err,
			       "%s: not a c2cbench result CSV (it has %d column(s); the first are "
			       "schema_version,bench,VARIANT,rep)",
			       f->s.path, f->ncols);
	for (int i = 0; i < 4; i++)
		if (front[i] && strcmp(f->hdr[i], front[i]))
			return err_set(
			    err, "%s: not a c2cbench result CSV (column %d is '%s', expected '%s')",
			    f->s.path, i + 1, f->hdr[i], front[i]);
	f->c_valid = col_of(f, "valid");
	f->c_label = col_of(f, "label");
	f->c_host = col_of(f, "host");
	f->c_cpu = col_of(f, "cpu_model");
	f->c_fp = col_of(f, "fingerprint");
	f->c_src_tool = col_of(f, "source_tool");
	f->c_src_stat = col_of(f, "source_statistic");
	return 0;
}

static int listed(const char *const *list, const char *s)
{
	for (int i = 0; list[i]; i++)
		if (!strcmp(list[i], s))
			return 1;
	return 0;
}

/* Note the header's numeric columns (in this first row) as available metrics of the bench. */
static void note_available(struct groups *g, struct file *f, const struct fbench *fb)
{
	struct grp_bench *b = &g->bench[fb->bench];
	for (int c = 4; c < f->ncols; c++) {
		const char *v = csvs_field(&f->s, c);
		double d;
		int key = 0;
		for (int k = 0; k < b->nkey; k++)
			key |= fb->key_ix[k] == c;
		for (int r = 0; r < b->nres;
		     r++) /* what a setting resolved to is not a measurement */
			key |= !strcmp(b->res_col[r], f->hdr[c]);
		if (key || listed(not_metric, f->hdr[c]) ||
		    (strcmp(v, "NA") && parse_double(v, &d)))
			continue;
		size_t l = strlen(b->avail), n = strlen(f->hdr[c]);
		char *p = b->avail;
		int dup = 0;
		for (char *q = strstr(p, f->hdr[c]); q && !dup; q = strstr(q + 1, f->hdr[c]))
			dup = (q == p || q[-1] == ',') && (q[n] == ',' || !q[n]);
		if (dup)
			continue;
		b->avail = realloc(b->avail, l + n + 2);
		if (!b->avail)
			out_of_memory(0);
		snprintf(b->avail + l, n + 2, "%s%s", l ? "," : "", f->hdr[c]);
	}
}

/* Where a key column this file did not record comes from: its run's command line, else its
 * effective value (groups_schema.h: the column of that file's schema, else the resolved column of
 * the bench's description), else a constant of that schema; else nothing stands in. */
static void unrecorded(struct file *f, struct fbench *fb, const struct grp_bench *b, int k, int v)
{
	const struct grp_schema_change *ch;
	char buf[256], txt[64];
	fb->nrec[k] = v;
	snprintf(txt, sizeof(txt), "not recorded (schema %d)", v);
	fb->nrec_text[k] = xstrdup(txt);
	if (grp_schema_asked(f->s.path, b->name, b->key_col[k], buf, sizeof(buf))) {
		fb->asked[k] = xstrdup(buf);
		return;
	}
	grp_schema_col(v, b->name, b->key_col[k], &ch);
	const char *eff = ch ? ch->eff_old : NULL;
	for (int r = 0; !eff && r < b->nres; r++)
		if (b->res_key[r] == k) { /* the first resolved column of the setting */
			const struct grp_schema_change *rc;
			eff = grp_schema_col(v, b->name, b->res_col[r], &rc);
		}
	fb->eff_ix[k] = eff ? col_of(f, eff) : -1;
	fb->eff_const[k] = fb->eff_ix[k] < 0 && ch ? ch->eff_const : NULL;
	fb->eff_what[k] = ch && ch->what ? ch->what : "the value it resolved to";
}

/* This file's column map for the bench of the current row (a file holds one bench or a few), as
 * today's columns: schema version v's names read as today's (groups_schema.h). */
static struct fbench *file_bench(struct groups *g, struct file *f, const char *name, int v)
{
	for (int i = 0; i < f->nfb; i++)
		if (!strcmp(g->bench[f->fb[i].bench].name, name))
			return &f->fb[i];
	f->fb = realloc(f->fb, (size_t)(f->nfb + 1) * sizeof(*f->fb));
	if (!f->fb)
		out_of_memory(0);
	struct fbench *fb = &f->fb[f->nfb++];
	if (f->desc.name && !strcmp(f->desc.name, name)) /* its keys under today's names */
		grp_schema_desc(v, name, &f->desc);
	fb->bench =
	    grp_bench_of(g, name, f->hdr[2], (const char *const *)f->hdr, f->ncols, &f->decl,
			 &f->desc);
	struct grp_bench *b = &g->bench[fb->bench];
	const struct grp_schema_change *ch;
	fb->key_ix = xcalloc((size_t)b->nkey, sizeof(int));
	fb->met_ix = xcalloc((size_t)b->nmet + 1, sizeof(int));
	fb->nrec = xcalloc((size_t)b->nkey, sizeof(int));
	fb->schema = v;
	fb->eff_ix = xcalloc((size_t)b->nkey, sizeof(int));
	fb->asked = xcalloc((size_t)b->nkey, sizeof(char *));
	fb->eff_const = xcalloc((size_t)b->nkey, sizeof(char *));
	fb->eff_what = xcalloc((size_t)b->nkey, sizeof(char *));
	fb->nrec_text = xcalloc((size_t)b->nkey, sizeof(char *));
	fb->res_ix = xcalloc((size_t)b->nres + 1, sizeof(int));
	for (int r = 0; r < b->nres; r++) {
		const char *c = grp_schema_col(v, name, b->res_col[r], &ch);
		fb->res_ix[r] = c ? col_of(f, c) : -1;
	}
	fb->key_ix[0] = 2; /* the variant column is always the third */
	for (int k = 1; k < b->nkey; k++) {
		const char *c = grp_schema_col(v, name, b->key_col[k], &ch);
		if ((fb->key_ix[k] = c ? col_of(f, c) : -1) < 0)
			unrecorded(f, fb, b, k, v);
	}
	fb->note_ix = b->b && b->b->summary_note_if ? col_of(f, b->b->summary_note_if) : -1;
	for (int m = 0; m < b->nmet; m++) {
		const char *c = grp_schema_col(v, name, b->metric[m], &ch);
		if ((fb->met_ix[m] = c ? col_of(f, c) : -1) >= 0)
			b->met_seen[m] = 1;
	}
	note_available(g, f, fb);
	return fb;
}

/* An imported row's source ("core-to-core-latency: mean of round trip / 2"), or NULL for a row
 * measured by c2cbench (no source columns, or NA there). */
static const char *imported_stat(struct file *f)
{
	static __thread char buf[160];
	const char *st = f->c_src_stat >= 0 ? csvs_field(&f->s, f->c_src_stat) : NULL;
	const char *tool = f->c_src_tool >= 0 ? csvs_field(&f->s, f->c_src_tool) : "NA";
	if (!st || !st[0] || !strcmp(st, "NA"))
		return NULL;
	snprintf(buf, sizeof(buf), "%.60s: %.80s", strcmp(tool, "NA") ? tool : "imported", st);
	return buf;
}

/* At most max bytes of s put at out+k as snprintf(out + k, n - k, "%.*s", max, s) would (nothing
 * written once k reaches n): the position after them uncut. */
static size_t cat(char *out, size_t n, size_t k, const char *s, size_t max)
{
	size_t l = strlen(s); /* s ends: a field, or words made here */
	if (l > max)
		l = max;
	if (k < n) {
		size_t c = l < n - k - 1 ? l : n - k - 1;
		memcpy(out + k, s, c);
		out[k + c] = 0;
	}
	return k + l;
}

/* s into lab[n], cut short as snprintf(lab, n, "%s", s) would: a row's label, a million times. */
static void copy_label(char *lab, size_t n, const char *s)
{
	size_t l = strnlen(s, n - 1);
	memcpy(lab, s, l);
	lab[l] = 0;
}

/* The side of the current row: its label names the machine (checked against host and CPU). */
static int row_side(struct groups *g, struct file *f, int side, char *err)
{
	const char *host = f->c_host >= 0 ? csvs_field(&f->s, f->c_host) : "(unknown)";
	const char *cpu = f->c_cpu >= 0 ? csvs_field(&f->s, f->c_cpu) : "(unknown)";
	char lab[LABEL_MAX + 1];
	if (f->relabel) { /* named at compare time */
		copy_label(lab, sizeof(lab), f->relabel);
	} else if (f->c_label >= 0) {
		const char *l = csvs_field(&f->s, f->c_label);
		if (label_check("label", l, err))
			return err_set(
			    err,
			    "%s:%ld: label '%.80s' is not accepted; accepted: 1 to %d letters, "
			    "digits, '.', '_' or '-', starting with a letter or digit",
			    f->s.path, f->s.line, l, LABEL_MAX);
		copy_label(lab, sizeof(lab), l);
	} else { /* an older CSV: the host name stands in, with the CPU model when another machine
		    has it */
		label_from_host(host, lab, sizeof(lab));
		if (grp_label_taken(g, lab, host, cpu)) {
			char both[400];
			snprintf(both, sizeof(both), "%s-%s", host, cpu);
			label_from_host(both, lab, sizeof(lab));
		}
	}
	if (!f->fp_read) {
		grp_fp_read(f->s.path, f->c_fp >= 0 ? csvs_field(&f->s, f->c_fp) : NULL, &f->fp);
		f->fp_read = 1;
	}
	if (f->host && !strcmp(lab, f->label) && !strcmp(host, f->host) && !strcmp(cpu, f->cpu))
		return f->side;
	int s =
	    grp_machine_of(g, lab, host, cpu, &f->fp, f->s.path, f->s.line, side, &f->mach, err);
	if (s < 0)
		return -1;
	snprintf(f->label, sizeof(f->label), "%s", lab);
	free(f->host);
	free(f->cpu);
	f->host = xstrdup(host);
	f->cpu = xstrdup(cpu);
	f->side = s;
	int known = 0;
	for (int i = 0; i < f->nsides; i++)
		known |= f->sides[i] == s;
	if (!known && f->nsides < (int)ARRAY_SIZE(f->sides))
		f->sides[f->nsides++] = s;
	return s;
}

/* Values of the row's metrics, checked, and kept in the cell when the row is valid (c not NULL):
 * NA (and an empty cell) are not values. A row marked valid = no is checked too: a malformed
 * value is an error wherever it is. */
static int row_values(struct file *f, const struct fbench *fb, const struct grp_bench *b,
		      struct grp_cell *c, char *err)
{
	for (int m = 0; m < b->nmet; m++) {
		if (fb->met_ix[m] < 0) { /* its schema had no such column: say so, not "no value" */
			if (c && (!c->met[m].nrec || fb->schema < c->met[m].nrec))
				c->met[m].nrec = fb->schema;
			continue;
		}
		const char *v = csvs_field(&f->s, fb->met_ix[m]);
		double d;
		if (!v[0] && c) /* a valid row measured it: NA says why not, empty says nothing */
			return err_set(
				err,
				"%s:%ld: %s is empty in a row marked valid; accepted: a number, or "
				"NA with its reason in na_reason",
				f->s.path, f->s.line, b->metric[m]);
		if (!v[0] || !strcmp(v, "NA"))
			continue;
		if (parse_double(v, &d) || !isfinite(d))
			return err_set(
			    err,
			    "%s:%ld: %s = '%.60s' is not accepted; accepted: a decimal number such "
			    "as 12.5 or 1e-3 (no hex, spaces, inf or nan), or NA",
			    f->s.path, f->s.line, b->metric[m], v);
		/* every metric is a rate, a time, a count or a share of one: a ratio of medians is
		 * taken on values of one sign, and a subnormal number is no measurement */
		if (d < 0 || fpclassify(d) == FP_SUBNORMAL)
			return err_set(err,
				       "%s:%ld: %s = '%.60s' is not accepted: %s; accepted: 0 or a "
				       "positive number from %g, or NA",
				       f->s.path, f->s.line, b->metric[m], v,
				       d < 0 ? "a rate, time or count is never negative"
					     : "subnormal, no measurement",
				       DBL_MIN);
		if (!c)
			continue;
		struct grp_vals *x = &c->met[m];
		if (x->n == x->cap) {
			x->cap = x->cap ? 2 * x->cap : 4;
			x->v = realloc(x->v, x->cap * sizeof(double));
			x->row = realloc(x->row, x->cap * sizeof(long));
			if (!x->v || !x->row)
				out_of_memory(0);
		}
		x->row[x->n] = c->valid - 1; /* counted before its values are kept */
		x->v[x->n++] = d == 0 ? 0 : d; /* -0 is 0: no ratio of -0.000 */
	}
	return 0;
}

/* Hand the caller's hook the row as a one-row table (no copy: the fields point into the reader). */
static int row_hook(struct groups *g, struct file *f, const struct grp_cell *c, int valid,
		    int bench, char *err)
{
	long line = f->s.line;
	if (!f->rowp)
		f->rowp = xcalloc((size_t)f->ncols, sizeof(char *));
	for (int i = 0; i < f->ncols; i++)
		f->rowp[i] = (char *)csvs_field(&f->s, i);
	struct table one = {.path = f->s.path,
			    .ncols = f->ncols,
			    .cols = f->hdr,
			    .nrows = 1,
			    .cell = &f->rowp,
			    .line = &line};
	struct grp_row r = { .one = &one, .group = c->group, .side = c->side, .valid = valid,
			     .bench = bench };
	return g->row(g->row_arg, &r, err);
}

/* The row's valid column: 1 yes (or no such column), 0 no, -1 with why. */
static int row_valid(const struct file *f, char *err)
{
	if (f->c_valid < 0)
		return 1;
	const char *vv = csvs_field(&f->s, f->c_valid);
	if (strcmp(vv, "yes") && strcmp(vv, "no"))
		return err_set(err, "%s:%ld: valid '%.20s' is not accepted; accepted: yes or no",
			       f->s.path, f->s.line, vv);
	return !strcmp(vv, "yes");
}

/* rows_only: a row checked and handed to the hook, filed in no configuration (the run summary keeps
 * what it needs itself: a 768-PU matrix has 589,056 configurations). */
static int rows_only(struct groups *g, struct file *f, int bench, int s, char *err)
{
	int valid = row_valid(f, err);
	if (valid < 0)
		return -1;
	g->side[s].rows++;
	g->side[s].valid += valid;
	g->rows++;
	struct grp_cell one = { .group = -1, .side = s };
	return g->row ? row_hook(g, f, &one, valid, bench, err) : 0;
}

/* One data row: checked, filed under its group and side, its values kept when it is valid. */
static int read_row(struct groups *g, struct file *f, int side, char *err)
{
	long v;
	if (f->s.nf != f->ncols)
		return err_set(err, "%s:%ld: row has %d field(s) but the header has %d", f->s.path,
			       f->s.line, f->s.nf, f->ncols);
	uint64_t h = grp_once_hash(g, side, (const char *const *)f->hdr, &f->s);
	if (grp_once_row(g, h, f->s.path, f->s.line, err))
		return -1;
	if (parse_long(csvs_field(&f->s, 0), &v) || v < 1)
		return err_set(
		    err,
		    "%s:%ld: schema_version '%.20s' is not accepted; accepted: a whole number >= 1",
		    f->s.path, f->s.line, csvs_field(&f->s, 0));
	if (v > SCHEMA_VERSION)
		return err_set(
		    err,
		    "%s:%ld: schema_version %ld; this c2cbench reads schema_version %d and older",
		    f->s.path, f->s.line, v, SCHEMA_VERSION);
	const char *bench = csvs_field(&f->s, 1);
	if (!bench[0])
		return err_set(err, "%s:%ld: empty bench name", f->s.path, f->s.line);
	int s = row_side(g, f, side, err);
	if (s < 0)
		return -1;
	/* its first row: the bench its description is of */
	if (!f->nfb && f->desc.name && f->desc.name[0] && strcmp(f->desc.name, bench))
		return err_set(
			err,
			"%s:%ld: bench '%.64s', but its X.bench describes '%.64s'; accepted: the "
			"description its run wrote beside it, or none",
			f->s.path, f->s.line, bench, f->desc.name);
	const struct fbench *fb = file_bench(g, f, bench, (int)v);
	const struct grp_bench *b = &g->bench[fb->bench];
	const char *val[CSVR_MAX_COLS], *eff[CSVR_MAX_COLS];
	char effbuf[64][48];
	int nrec[CSVR_MAX_COLS], any = 0;
	const char *src = imported_stat(f);
	for (int k = 0; k < b->nkey && k < CSVR_MAX_COLS; k++) {
		nrec[k] = 0;
		eff[k] = NULL;
		val[k] = fb->key_ix[k] >= 0 ? csvs_field(&f->s, fb->key_ix[k]) : NULL;
		if (val[k] && k < 64) /* an older spelling of the value, as today's */
			val[k] = grp_schema_value(b->name, b->key_col[k], val[k], effbuf[k],
						  sizeof(effbuf[k]));
		if (src && k && val[k] && !strcmp(val[k], "NA")) { /* a setting its source lacks */
			any = nrec[k] = GRP_NREC_IMPORTED;
			val[k] = "not recorded (imported)";
			continue;
		}
		if (fb->key_ix[k] >= 0 || !fb->nrec[k])
			continue;
		if (fb->asked[k]) { /* asked on its command line: recorded there */
			val[k] = fb->asked[k];
			continue;
		}
		any = nrec[k] = fb->nrec[k];
		val[k] = fb->nrec_text[k];
		eff[k] = fb->eff_ix[k] >= 0 ? csvs_field(&f->s, fb->eff_ix[k]) : fb->eff_const[k];
		double d; /* a measured stand-in (the duration) to two digits, so its rows pool */
		if (eff[k] && fb->eff_ix[k] >= 0 && k < 64 &&
		    !strcmp(b->key_col[k], harness_config[0]) && !parse_double(eff[k], &d)) {
			snprintf(effbuf[k], sizeof(effbuf[k]), "%.2g", d);
			eff[k] = effbuf[k];
		}
	}
	if (g->rows_only)
		return rows_only(g, f, fb->bench, s, err);
	struct grp_cell *c =
	    grp_cell_of(g, grp_group_of(g, fb->bench, val, any ? nrec : NULL, eff), s);
	if (src && !c->source)
		c->source = xstrdup(src);
	for (int k = 0; k < b->nkey && k < CSVR_MAX_COLS; k++) {
		char why[400];
		if (!c->why[k] && nrec[k] == GRP_NREC_IMPORTED)
			c->why[k] = xstrdup(GRP_WHY_IMPORTED);
		if (c->why[k] || !fb->nrec[k] || fb->key_ix[k] >= 0)
			continue;
		if (fb->asked[k])
			snprintf(why, sizeof(why), "not in its rows (schema %d): %.60s, from its "
				 "run's command line", fb->nrec[k], fb->asked[k]);
		else if (eff[k]) { /* "not recorded (schema %d): joined on %s, %.60s", a cell's */
			const char *pt[] = { fb->nrec_text[k], ": joined on ", fb->eff_what[k],
					     ", " };
			size_t w = 0;
			for (size_t i = 0; i < sizeof(pt) / sizeof(pt[0]); i++)
				w = cat(why, sizeof(why), w, pt[i], SIZE_MAX);
			cat(why, sizeof(why), w, eff[k], 60);
		}
		else
			snprintf(why, sizeof(why), "not recorded (schema %d): joined without it",
				 fb->nrec[k]);
		c->why[k] = xstrdup(why);
	}
	int valid = row_valid(f, err);
	if (valid < 0)
		return -1;
	for (int r = 0; r < b->nres; r++) {
		const char *rv = fb->res_ix[r] >= 0 ? csvs_field(&f->s, fb->res_ix[r]) : "(absent)";
		if (!c->res[r])
			c->res[r] = xstrdup(rv);
		else if (strcmp(c->res[r], rv))
			c->res_mixed[r] = 1;
	}
	if (c->mach < 0)
		c->mach = f->mach;
	c->mixed |= c->mach != f->mach;
	c->rows++;
	g->side[s].rows++;
	g->rows++;
	if (valid && b->b && b->b->summary_note_if) {
		if (fb->note_ix < 0)
			c->note_absent = 1;
		else if (!c->note_val || !strcmp(c->note_val, "yes")) {
			free(c->note_val);
			c->note_val = xstrdup(csvs_field(&f->s, fb->note_ix));
		}
	}
	if (valid) {
		c->valid++;
		g->side[s].valid++;
		if (row_values(f, fb, b, c, err))
			return -1;
	} else if (row_values(f, fb, b, NULL, err))
		return -1;
	return g->row ? row_hook(g, f, c, valid, g->group[c->group].bench, err) : 0;
}

/* A declaration is of its CSV: each column of the header declared, and no other (the harness
 * writes one row per header column). -1 with the first that is not. */
static int decl_matches_header(const struct file *f, char *err)
{
	for (int c = 0; c < f->ncols; c++)
		if (grp_decl_find(&f->decl, f->hdr[c]) < 0)
			return err_set(err,
				       "%s: column '%.64s' is not in its declaration (X.columns); "
				       "accepted: the declaration its run wrote, a row per column",
				       f->s.path, f->hdr[c]);
	for (long i = 0; i < f->decl.t.nrows; i++)
		if (col_of(f, grp_decl_name(&f->decl, i)) < 0)
			return err_set(
				err,
				"%s:%ld: declares '%.64s', which the CSV %s has not; accepted: the "
				"declaration its run wrote, a row per column",
				f->decl.t.path, f->decl.t.line[i], grp_decl_name(&f->decl, i),
				f->s.path);
	return 0;
}

/* What a file's .meta says of its run: [run] status and rows (-1: not recorded, as in older
 * sets), whether the file ended whole (its last line ended) and had a [run] section. A key
 * given twice in [context] or [run], or rows that no run writes, is refused: -1 with why. */
struct meta_run {
	char status[64];
	long rows;
	int run_section, whole;
};

static int meta_read(const char *meta, FILE *m, struct meta_run *r, char *err)
{
	char *line = NULL, sect[32] = "", seen[4][16] = { "" };
	size_t cap = 0;
	ssize_t n;
	int rc = 0;
	static const char *const once[] = { "label", "fingerprint", "status", "rows" };
	memset(r, 0, sizeof(*r));
	r->rows = -1;
	r->whole = 1;
	while (!rc && (n = getline(&line, &cap, m)) > 0) { /* whole lines, however long */
		r->whole = line[n - 1] == '\n';
		line[strcspn(line, "\r\n")] = 0;
		if (line[0] == '[') {
			snprintf(sect, sizeof(sect), "%s", line);
			r->run_section |= !strcmp(line, "[run]");
			continue;
		}
		int ctx = !strcmp(sect, "[context]"), run = !strcmp(sect, "[run]");
		for (int k = 0; k < 4 && (ctx || run); k++) {
			size_t kl = strlen(once[k]);
			if (strncmp(line, once[k], kl) || strncmp(line + kl, " = ", 3) ||
			    (k < 2) != ctx)
				continue;
			if (seen[k][0])
				rc = err_set(err,
					     "%s: '%s' is given twice in %s; accepted: each key "
					     "once, as a run writes it",
					     meta, once[k], sect);
			snprintf(seen[k], sizeof(seen[k]), "yes");
			const char *v = line + kl + 3;
			if (!rc && k == 2)
				snprintf(r->status, sizeof(r->status), "%s", v);
			if (!rc && k == 3 && parse_long_in(v, 0, 1000000000000L, &r->rows))
				rc = err_set(
					err,
					"%s: rows = %.40s is not accepted; accepted: the count of "
					"rows a run wrote, a whole number from 0",
					meta, v);
		}
	}
	free(line);
	return rc;
}

/* Check the file's .meta against its nrows rows; warn (never silently, return 1) when it says
 * the run did not end complete, when the CSV holds fewer rows than it records (rows lost), or
 * when it ends cut (no [run] section, a last line unended). -1 with why: a .meta no run writes. */
static int check_meta(const char *csv, long nrows, char *err)
{
	char meta[4200];
	struct meta_run r;
	context_meta_path(csv, meta, sizeof(meta));
	FILE *m = fopen_regular(meta);
	if (!m)
		return 0;
	int rc = meta_read(meta, m, &r, err);
	fclose(m);
	if (rc)
		return -1;
	if (!r.run_section || !r.whole) {
		fprintf(grp_warn_to(),
			"c2cbench: warning: %s: %s; how the run of %s ended is not known, rows may "
			"be missing\n",
			meta, r.whole ? "no [run] section (cut short?)" : "its last line is cut",
			csv);
		return 1;
	}
	if (r.status[0] && strcmp(r.status, "complete")) {
		fprintf(grp_warn_to(),
			"c2cbench: warning: %s is marked %s in %s: %s\n", csv, r.status,
			meta,
			!strcmp(r.status, "running") ?
				"the run never finished (killed?); its last configurations are "
				"missing" :
				"the run did not finish; its last configurations are missing");
		return 1;
	}
	if (r.rows >= 0 && nrows >= 0 && nrows != r.rows) {
		fprintf(grp_warn_to(),
			"c2cbench: warning: %s holds %ld row(s) where %s records %ld: %s\n", csv,
			nrows, meta, r.rows,
			nrows < r.rows ? "rows were lost; the configurations they held are missing"
				       : "rows were added after the run ended");
		return 1;
	}
	return 0;
}

static int warn_meta(const char *csv)
{
	char err[ERRLEN];
	int rc = check_meta(csv, -1, err);
	if (rc < 0)
		fprintf(grp_warn_to(), "c2cbench: warning: %s\n", err);
	return rc != 0;
}

static void file_free(const struct groups *g, struct file *f)
{
	for (int c = 0; f->hdr && c < f->ncols; c++)
		free(f->hdr[c]);
	for (int i = 0; i < f->nfb; i++) {
		free(f->fb[i].key_ix);
		free(f->fb[i].met_ix);
		free(f->fb[i].res_ix);
		for (int k = 0; k < g->bench[f->fb[i].bench].nkey; k++) {
			free(f->fb[i].asked[k]);
			free(f->fb[i].nrec_text[k]);
		}
		free(f->fb[i].nrec);
		free(f->fb[i].eff_ix);
		free(f->fb[i].asked);
		free(f->fb[i].eff_const);
		free(f->fb[i].eff_what);
		free(f->fb[i].nrec_text);
	}
	free(f->hdr);
	free(f->rowp);
	free(f->fb);
	free(f->host);
	free(f->cpu);
	grp_fp_free(&f->fp);
	grp_decl_free(&f->decl);
	bench_desc_free(&f->desc);
	csvs_close(&f->s);
}

/* The file's X.bench (none: an older schema; the fallback may describe its bench). A key or
 * section this version does not know is skipped, with a warning. */
static int read_desc(struct groups *g, struct file *f, const char *meta, char *err)
{
	char path[4200], warn[ERRLEN];
	bench_desc_path(meta, path, sizeof(path));
	int rc = bench_desc_read(&f->desc, path, err, warn, sizeof(warn));
	if (rc > 0 && warn[0]) {
		g->warnings++;
		fprintf(grp_warn_to(), "c2cbench: warning: %s\n", warn);
	}
	return rc < 0 ? -1 : 0;
}

/* The file's X.bench names only columns of its CSV (a view of a column it has not would draw
 * nothing, silently), and keys on none its X.columns makes a metric or evidence. */
static int desc_matches_header(const struct file *f, const char *meta, char *err)
{
	char path[4200];
	bench_desc_path(meta, path, sizeof(path));
	return grp_desc_check(&f->desc, &f->decl, path, f->s.path, (const char *const *)f->hdr,
			      f->ncols, err);
}

/* One CSV file. A side table (side_table column) holds no result rows: skipped in a directory,
 * refused by name. */
int grp_add_file(struct groups *g, const char *path, int side, int in_dir, int *marked,
		 char *err)
{
	struct file f = { 0 };
	char meta[4200];
	struct stat st;
	context_meta_path(path, meta, sizeof(meta));
	/* a FIFO would hang its reader, /dev/zero never end */
	int sr = stat(meta, &st), e = errno;
	if (!sr && !S_ISREG(st.st_mode))
		return err_set(err,
			       "%s: %s, not a regular file; accepted: the .meta a run wrote beside "
			       "its CSV, or none",
			       meta, file_kind(st.st_mode));
	if (sr && !lstat(meta, &st)) /* a link that loops or leads nowhere: never "none" */
		return err_set(err,
			       "%s: %s; accepted: the .meta a run wrote beside its CSV, or none",
			       meta, e == ENOENT ? "a link that leads nowhere" : strerror(e));
	if (grp_once_file(g, path, side, err))
		return -1;
	f.relabel = grp_relabel_of(path);
	int rc = csvs_open(&f.s, path, err);
	if (!rc)
		rc = read_header(&f, err);
	if (!rc && col_of(&f, "side_table") < 0)
		rc = grp_decl_read(&f.decl, path, err);
	if (!rc && f.decl.present)
		rc = decl_matches_header(&f, err);
	if (!rc && col_of(&f, "side_table") < 0)
		rc = read_desc(g, &f, meta, err);
	if (!rc && f.desc.name)
		rc = desc_matches_header(&f, meta, err);
	if (!rc && col_of(&f, "side_table") >= 0) {
		file_free(g, &f);
		return in_dir
			   ? 0
			   : err_set(err,
				     "%s: a side table (side_table column, e.g. a gap histogram), "
				     "not a result CSV; accepted: the main CSV of a run",
				     path);
	}
	if (!rc && side >= 0)
		grp_side_of(g, side, path);
	long nrows = 0;
	for (int got; !rc && (got = csvs_next(&f.s, err)) != 0; nrows++)
		rc = got < 0 ? -1 : read_row(g, &f, side, err);
	int said = rc ? 0 : check_meta(path, nrows, err);
	if (said < 0)
		rc = -1;
	else if (said) {
		g->warnings++;
		*marked = 1;
	}
	for (int i = 0; !rc && i < f.nsides; i++) {
		g->side[f.sides[i]].files++;
		g->side[f.sides[i]].interrupted |= *marked;
	}
	file_free(g, &f);
	return rc;
}

int groups_warn_file(const char *csv)
{
	return warn_meta(csv);
}
