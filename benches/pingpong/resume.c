#include "benches/pingpong/resume.h"
#include "lib/csvread.h"
#include "lib/csvstream.h"
#include "lib/infile.h"
#include "lib/util.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The CSV read a record at a time through the one reader (lib/csvstream.h), its header kept. */
struct rs_in {
	struct csvs s;
	char *head[CSVR_MAX_COLS]; /* the header's names, copied */
	int nhead;
};

/* The next record: 1, 0 at the end, -1 with the reader's message (file and line). */
static int next_row(struct rs_in *in, char *err)
{
	char why[ERRLEN];
	int rc = csvs_next(&in->s, why);
	if (rc < 0)
		err_set(err, "--resume %s; accepted: a pingpong run's CSV", why);
	return rc;
}

static int col(const struct rs_in *in, const char *name)
{
	for (int i = 0; i < in->nhead; i++)
		if (!strcmp(in->head[i], name))
			return i;
	return -1;
}

static const char *cell(const struct rs_in *in, int c)
{
	return c >= 0 && c < in->s.nf ? csvs_field(&in->s, c) : "";
}

static void rs_close(struct rs_in *in)
{
	if (in->s.f)
		csvs_close(&in->s);
	for (int i = 0; i < in->nhead; i++)
		free(in->head[i]);
	in->nhead = 0;
}

/* Open path (a regular file: a FIFO is not waited on) and read its header; the columns every
 * pingpong row has must be there. */
static int rs_open(struct rs_in *in, const char *path, char *err)
{
	static const char *const need[] = { "bench", "seed",    "cpu_a", "cpu_b",  "mode",
					    "rep",   "attempt", "valid", "min_ns", NULL };
	memset(in, 0, sizeof(*in));
	FILE *f = fopen_regular(path);
	if (!f)
		return err_set(err,
			       "--resume '%s': %s; accepted: a pingpong run's CSV",
			       path, errno == EINVAL ? "not a regular file" : strerror(errno));
	csvs_attach(&in->s, f, path);
	int rc = next_row(in, err);
	if (rc < 0)
		return -1;
	if (!rc)
		return err_set(err,
			       "--resume %s: the file is empty; accepted: a pingpong run's CSV",
			       path);
	for (int i = 0; i < in->s.nf; i++)
		in->head[in->nhead++] = xstrdup(csvs_field(&in->s, i));
	for (int i = 0; need[i]; i++)
		if (col(in, need[i]) < 0)
			return err_set(
				err,
				"--resume %s: no column %s; accepted: the CSV of a pingpong run",
				path, need[i]);
	return 0;
}

/* A setting's column, or in a CSV of schema 11 or older its older name: mem_node_requested was
 * mem_node_req (analysis/groups_schema.c reads it so too). */
static int same_col(const struct rs_in *in, const char *name)
{
	int c = col(in, name);
	return c < 0 && !strcmp(name, "mem_node_requested") ? col(in, "mem_node_req") : c;
}

/* The request as an older run wrote it (--mem-node a, b, N), in --home's words. */
static const char *home_word(const char *col, const char *v, char *buf, size_t n)
{
	if (strcmp(col, "mem_node_requested"))
		return v;
	if (!strcmp(v, "a") || !strcmp(v, "b"))
		return v[0] == 'a' ? "first" : "reader";
	if (v[0] >= '0' && v[0] <= '9' && strlen(v) < 12)
		snprintf(buf, n, "node:%s", v);
	return v[0] >= '0' && v[0] <= '9' && strlen(v) < 12 ? buf : v;
}

/* This row's bench and settings are this run's. */
static int same_row(const struct rs_in *in, const char *path, long line, const struct pp_same *same,
		    char *err)
{
	if (strcmp(cell(in, col(in, "bench")), "pingpong"))
		return err_set(
			err,
			"--resume %s: line %ld is a %s row; accepted: the CSV of a pingpong run",
			path, line, cell(in, col(in, "bench")));
	for (int i = 0; same[i].col; i++) {
		char buf[24];
		const char *v = home_word(same[i].col, cell(in, same_col(in, same[i].col)), buf,
					  sizeof(buf));
		if (strcmp(v, same[i].want))
			return err_set(err,
				       "--resume %s: line %ld has %s %s, this run %s; accepted: "
				       "the same settings as the run resumed",
				       path, line, same[i].col, v, same[i].want);
	}
	return 0;
}

int pp_resume_check(const char *path, const struct pp_same *same, uint64_t *seed, int seed_given,
		    char *err)
{
	struct rs_in in;
	int rc = rs_open(&in, path, err), got = rc ? -1 : next_row(&in, err);
	if (!got) { /* stopped before its first row: everything runs, with this seed */
		rs_close(&in);
		return 0;
	}
	rc = got < 0 ? -1 : same_row(&in, path, in.s.line, same, err);
	unsigned long long s = 0;
	if (!rc && sscanf(cell(&in, col(&in, "seed")), "%llu", &s) != 1)
		rc = err_set(
			err,
			"--resume %s: line %ld has seed '%s'; accepted: a CSV written by c2cbench",
			path, in.s.line, cell(&in, col(&in, "seed")));
	if (!rc && seed_given && s != *seed)
		rc = err_set(err,
			     "--resume %s: its seed is %llu, --seed %llu; accepted: the same seed "
			     "(or no --seed)",
			     path, s, (unsigned long long)*seed);
	if (!rc)
		*seed = s;
	rs_close(&in);
	return rc;
}

struct key {
	int a, b, k;
};

static int by_ab(const void *x, const void *y)
{
	const struct key *p = x, *q = y;
	return p->a != q->a ? (p->a > q->a) - (p->a < q->a) : (p->b > q->b) - (p->b < q->b);
}

long pp_resume_load(const char *path, const struct pp_same *same, const struct pu_pair *pair,
		    int npairs, int nmodes_all, int reps, int max_attempts,
		    const char *const *mode_names, int first_mode, uint8_t *done, float *val,
		    char *err)
{
	struct rs_in in;
	struct key *idx = xcalloc((size_t)npairs, sizeof(*idx));
	for (int k = 0; k < npairs; k++)
		idx[k] = (struct key){ pair[k].a, pair[k].b, k };
	qsort(idx, (size_t)npairs, sizeof(*idx), by_ab);
	long rows = 0, line;
	int rc = rs_open(&in, path, err), got = 0;
	int ca = col(&in, "cpu_a"), cb = col(&in, "cpu_b"), cm = col(&in, "mode"),
	    cr = col(&in, "rep"), ct = col(&in, "attempt"), cv = col(&in, "valid"),
	    cn = col(&in, "min_ns");
	while (!rc && (got = next_row(&in, err)) == 1) { /* blank lines are skipped by the reader */
		line = in.s.line;
		if (same_row(&in, path, line, same, err)) {
			rc = -1;
			break;
		}
		struct key want = { atoi(cell(&in, ca)), atoi(cell(&in, cb)), 0 },
			   *hit = bsearch(&want, idx, (size_t)npairs, sizeof(*idx), by_ab);
		int mode = -1, rep = atoi(cell(&in, cr)), attempt = atoi(cell(&in, ct));
		for (int m = 0; m < nmodes_all; m++)
			mode = !strcmp(cell(&in, cm), mode_names[m]) ? m : mode;
		if (!hit || mode < 0)
			rc = err_set(err,
				     "--resume %s: line %ld measures pair %s-%s %s, which this run "
				     "does not plan; accepted: a run of the same plan",
				     path, line, cell(&in, ca), cell(&in, cb), cell(&in, cm));
		else if (rep < 0 || rep >= reps)
			rc = err_set(err,
				     "--resume %s: line %ld is repetition %d; accepted: --reps "
				     "above it (now %d)",
				     path, line, rep, reps);
		if (rc || !(strcmp(cell(&in, cv), "yes") == 0 || attempt >= max_attempts))
			continue; /* an attempt that was to be tried again */
		long bit = ((long)hit->k * nmodes_all + mode) * reps + rep;
		done[bit / 8] |= (uint8_t)(1u << (bit % 8));
		double ns;
		if (val && mode == first_mode && !parse_double(cell(&in, cn), &ns))
			val[(size_t)hit->k * (size_t)reps + (size_t)rep] = (float)ns;
		rows++;
	}
	rs_close(&in);
	free(idx);
	return rc || got < 0 ? -1 : rows;
}
