/* compare: the CSV reader, the statistics (known U, exact p, bootstrap), the joined table,
 * refusals. */
#include "stats/compare_stats.h"
#include "lib/csvread.h"
#include "analysis/groups_int.h"
#include "lib/util.h" /* before cmocka, whose fail() macro would rename util.h's fail() */
#include "tests/testutil.h"
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>


static void reader_rfc4180(void **state)
{
	(void)state;
	struct table t;
	char err[ERRLEN];
	const char *text = "a,b,c\r\n1,\"x, \"\"y\"\"\",\"two\nlines\"\r\n\n,,\n";
	assert_int_equal(table_parse(&t, "t.csv", text, strlen(text), err), 0);
	assert_int_equal(t.ncols, 3);
	assert_int_equal(t.nrows, 2);
	assert_string_equal(t.cell[0][1], "x, \"y\"");
	assert_string_equal(t.cell[0][2], "two\nlines");
	assert_string_equal(t.cell[1][0], "");
	assert_int_equal(t.line[1], 5); /* the quoted newline counts */
	assert_string_equal(table_get(&t, 0, "c"), "two\nlines");
	assert_null(table_get(&t, 0, "nope"));
	table_free(&t);
}

static void reader_refuses(const char *text, size_t len, const char *what)
{
	struct table t;
	char err[ERRLEN];
	assert_int_equal(table_parse(&t, "h.csv", text, len, err), -1);
	if (!strstr(err, what))
		fail_msg("expected '%s' in: %s", what, err);
}

static void reader_hostile_input(void **state)
{
	(void)state;
	reader_refuses("a,b\n1,\"open\n", 12, "h.csv:2: a quoted field is not closed");
	reader_refuses("a,b\n1,2\n3\n", 10, "h.csv:3: row has 1 field(s) but the header has 2");
	reader_refuses("a,b\n1,x\"y\n", 10, "h.csv:2: a quote inside an unquoted field");
	reader_refuses("a,b\n1,\"x\"y\n", 11, "h.csv:2: text after a closing quote");
	reader_refuses("a,b\n1,x\0y\n", 10, "h.csv:2: NUL byte");
	reader_refuses("a,a\n1,2\n", 8, "column 'a' appears twice");
	reader_refuses("", 0, "h.csv: empty file");
	reader_refuses("a,b\n1,x\ry\n", 10, "carriage return");
}

/* U over all C(10,5) splits of 1..10, by brute force: the exact distribution, independently. */
static double brute_p(double u_obs)
{
	int le = 0, ge = 0, total = 0;
	for (int mask = 0; mask < 1024; mask++) {
		if (__builtin_popcount(mask) != 5)
			continue;
		double u = 0;
		for (int i = 0; i < 10; i++)
			for (int j = 0; j < 10; j++)
				if ((mask >> i & 1) && !(mask >> j & 1) && i > j)
					u++;
		total++;
		le += u <= u_obs;
		ge += u >= u_obs;
	}
	double p = 2.0 * (le < ge ? le : ge) / total;
	return p > 1 ? 1 : p;
}

static void mann_whitney_known(void **state)
{
	(void)state;
	double a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 }, u, p;
	int exact;
	mann_whitney(a, 5, b, 5, &u, &p, &exact);
	assert_true(exact);
	assert_true(u == 0);
	assert_true(fabs(p - 2.0 / 252) < 1e-12);
	double c[] = { 1, 3, 5, 7, 9 }, d[] = { 2, 4, 6, 8, 10 };
	mann_whitney(c, 5, d, 5, &u, &p, &exact);
	assert_true(u == 10);
	assert_true(fabs(p - brute_p(10)) < 1e-12);
	mann_whitney(d, 5, c, 5, &u, &p, &exact);
	assert_true(u == 15); /* U(a) + U(b) = na * nb */
	double e[] = { 1, 2 }, f[] = { 2, 3 };
	mann_whitney(e, 2, f, 2, &u, &p, &exact);
	assert_true(u == 0.5); /* a tie counts one half */
	assert_false(exact);
	assert_true(p > 0.05 && p <= 1);
}

static void bootstrap_interval(void **state)
{
	(void)state;
	double a[] = { 10, 10, 10 }, b[] = { 20, 20, 20, 20 }, lo, hi;
	assert_int_equal(boot_ratio_ci(a, 3, b, 4, &lo, &hi), 0);
	assert_true(lo == 2 && hi == 2);
	double c[] = { 9, 10, 11, 10, 12 }, d[] = { 18, 21, 20, 19, 22 };
	assert_int_equal(boot_ratio_ci(c, 5, d, 5, &lo, &hi), 0);
	assert_true(lo <= 2 && 2 <= hi && lo > 1.4 && hi < 2.6);
	double lo2, hi2;
	assert_int_equal(boot_ratio_ci(c, 5, d, 5, &lo2, &hi2), 0);
	assert_true(lo == lo2 && hi == hi2); /* fixed seed: reproducible */
	assert_int_equal(boot_ratio_ci(c, 1, d, 5, &lo, &hi), -1);
	assert_true(fabs(lo - 18.0 / 11) < 1e-9 &&
		    fabs(hi - 20.0 / 9) < 1e-9); /* the exact law's 2.5% and 97.5% points */
}

/* Every resample of x (n^n of them, n <= 4) and its median, weighted equally: the bootstrap by
 * brute force. */
static int all_medians(const double *x, int n, double *out)
{
	int total = 1, m = 0;
	for (int i = 0; i < n; i++)
		total *= n;
	for (int code = 0; code < total; code++) {
		double v[4];
		for (int i = 0, c = code; i < n; i++, c /= n)
			v[i] = x[c % n];
		for (int i = 1; i < n; i++) /* insertion sort */
			for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
				double t = v[j];
				v[j] = v[j - 1];
				v[j - 1] = t;
			}
		out[m++] = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	}
	return m;
}

static int cmp_d(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

static void bootstrap_exact_is_brute_force(void **state)
{
	(void)state;
	const double a3[] = {3, 5, 4}, b4[] = {9, 7, 12, 8}, a4[] = {2, 2, 3, 7}, b3[] = {1, 6, 4};
	const double *as[] = { a3, a4 }, *bs[] = { b4, b3 };
	int na[] = { 3, 4 }, nb[] = { 4, 3 };
	for (int t = 0; t < 2; t++) {
		double *ma = malloc(256 * sizeof(double)), *mb = malloc(256 * sizeof(double));
		int ka = all_medians(as[t], na[t], ma), kb = all_medians(bs[t], nb[t], mb), n = 0;
		double *r = malloc((size_t)ka * (size_t)kb * sizeof(double)), lo, hi;
		for (int i = 0; i < ka; i++)
			for (int j = 0; j < kb; j++)
				r[n++] = mb[j] / ma[i];
		qsort(r, (size_t)n, sizeof(double), cmp_d);
		/* the percentile points as the resampling version takes them, over all n equally
		 * likely pairs */
		double want_lo = r[(int)(0.025 * n)], want_hi = r[(int)ceil(0.975 * n) - 1];
		assert_int_equal(
		    boot_ratio_ci(as[t], (size_t)na[t], bs[t], (size_t)nb[t], &lo, &hi), 0);
		if (fabs(lo - want_lo) > 1e-9 || fabs(hi - want_hi) > 1e-9)
			fail_msg("case %d: exact [%g, %g], brute force [%g, %g]", t, lo, hi,
				 want_lo, want_hi);
		free(ma);
		free(mb);
		free(r);
	}
}

#define HDR                                                                                        \
	"schema_version,bench,layout,rep,offset,policy,atomics,placement,writers,readers,mem_"     \
	"node,work_ns,drain_us,duration_requested_s,warmup_requested_s,writer_ns_per_op,reader_"   \
	"ns_per_op,label,host,cpu_model,valid,na_reason\n"

/* A pending-bit CSV: n repetitions of layout shared (and of aligned when w2), given writer values.
 */
static const char *write_csv(const char *name, const char *label, const char *host, const char *cpu,
			     const char *dur, const double *w, int n, const double *w2)
{
	static char path[4][512];
	static int k;
	k = (k + 1) % 4;
	snprintf(path[k], sizeof(path[k]), "%s/%s", test_dir, name);
	FILE *f = fopen(path[k], "w");
	assert_non_null(f);
	fputs(HDR, f);
	for (int i = 0; i < n; i++) {
		fprintf(f,
			"2,pending-bit,shared,%d,32,rmw,lock,same-socket,1,1,0,0,0,%s,0.2,%g,NA,%s,"
			"%s,%s,yes,reader_ns_per_op: not measured here\n",
			i, dur, w[i], label, host, cpu);
		if (w2)
			fprintf(f,
				"2,pending-bit,aligned,%d,64,rmw,lock,same-socket,1,1,0,0,0,%s,0.2,"
				"%g,NA,%s,%s,%s,yes,\n",
				i, dur, w2[i], label, host, cpu);
	}
	fprintf(f,
		"2,pending-bit,shared,%d,32,rmw,lock,same-socket,1,1,0,0,0,%s,0.2,1000,NA,%s,%s,%s,"
		"no,\n",
		n, dur, label, host, cpu); /* invalid */
	fclose(f);
	return path[k];
}

/* A metric's line in the block of the configuration whose line starts with head: the first
 * indented line after it holding needle (NULL: none). */
static const char *block_line(const char *out, const char *head, const char *needle)
{
	static char line[4096];
	const char *p = out;
	while (p && strncmp(p, head, strlen(head)))
		p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL;
	for (p = p && strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL; p && *p == ' ';
	     p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		int k = snprintf(line, sizeof(line), "%.*s", (int)strcspn(p, "\n"), p);
		for (const char *q = strchr(p, '\n'); q && !strncmp(q + 1, "    ", 4) &&
		     k < (int)sizeof(line); q = strchr(q + 1, '\n')) /* its continuation lines */
			k += snprintf(line + k, sizeof(line) - (size_t)k, " %.*s",
				      (int)strcspn(q + 1 + strspn(q + 1, " "), "\n"),
				      q + 1 + strspn(q + 1, " "));
		if (strstr(line, needle))
			return line;
	}
	return NULL;
}

/* The text with its wrapped lines joined again ("\n" and the continuation indent: one space). */
static const char *unwrapped(const char *out)
{
	static char buf[1 << 18];
	size_t k = 0;
	for (const char *p = out; *p && k + 1 < sizeof(buf); p++) {
		if (p[0] == '\n' && !strncmp(p + 1, "    ", 4)) {
			buf[k++] = ' ';
			p += strspn(p + 1, " ");
			continue;
		}
		buf[k++] = *p;
	}
	buf[k] = 0;
	return buf;
}

/* Every line of text at most 100 columns (UTF-8 characters), or fail naming the first longer. */
static void fits_100(const char *out, const char *what)
{
	int line = 1;
	for (const char *p = out; *p; line++) {
		size_t n = strcspn(p, "\n");
		int cols = 0;
		for (size_t i = 0; i < n; i++)
			cols += ((unsigned char)p[i] & 0xc0) != 0x80;
		if (cols > 100)
			fail_msg("%s: line %d is %d columns: %.*s", what, line, cols, (int)n, p);
		p += n + (p[n] == '\n');
	}
}

static const double base[] = {10, 11, 9, 10.5, 9.5}, half[] = {5, 5.5, 4.5, 5.25, 4.75},
		    same[] = {10.2, 9.8, 10.1, 9.9, 10};

static void verdicts_in_words(void **state)
{
	(void)state;
	struct cmd_result r;
	char a[512], b[512];
	snprintf(a, sizeof(a), "%s",
		 write_csv("a.csv", "xeon-a", "h1", "Intel Xeon", "1", base, 5, base));
	snprintf(b, sizeof(b), "%s",
		 write_csv("b.csv", "epyc-b", "h2", "AMD EPYC", "1", half, 5, same));
	run_c2c(&r, "compare", a, b, NULL);
	if (r.status)
		fail_msg("%s", r.err);
	/* the baseline variant first, then aligned: the bench's declared order, not the alphabet */
	const char *sh = strstr(r.out, "pending-bit shared"),
		   *al = strstr(r.out, "pending-bit aligned");
	assert_true(sh && al && sh < al);
	/* 5 valid values of 6 rows: the invalid row left out */
	assert_non_null(
	    strstr(r.out, "pending-bit shared offset=32: A 5 of 6 rows valid, B 5 of 6\n"));
	const char *l = block_line(r.out, "pending-bit shared", "writer_ns_per_op");
	assert_non_null(l);
	assert_non_null(strstr(l, " 5/5 "));
	assert_non_null(strstr(l, "0.500"));
	assert_non_null(strstr(l, "  B faster by 2.00x")); /* lower is better for ns: B is faster */
	l = block_line(r.out, "pending-bit aligned", "writer_ns_per_op");
	if (!strstr(l, "inconclusive: p 1 after Holm over 2 tests is not below 0.05"))
		fail_msg("aligned: %s", l);
	assert_non_null(strstr(r.out, "A: ") && strstr(r.out, "xeon-a (host h1, Intel Xeon)"));
	assert_non_null(strstr(r.out, "epyc-b (host h2, AMD EPYC)"));
	assert_non_null(strstr(unwrapped(r.out),
			       "pending-bit writer_ns_per_op: 0.707 over 2 configuration(s): B "
			       "faster by 1.41x on average (1 of 2 configuration(s) changed; the "
			       "others inconclusive or unchanged)"));
	assert_non_null(strstr(unwrapped(r.out), "NA: no valid value in A or B"));
	fits_100(r.out, "compare a b");
	/* B slower: the words turn round */
	run_c2c(&r, "compare", b, a, NULL);
	assert_non_null(strstr(block_line(r.out, "pending-bit shared", "writer_ns_per_op"),
			       "B slower by 2.00x"));
}

/* A vmalloc CSV: n repetitions of shared and of section, section's cycle_ns scaled by k
 * (cycle_cpu_ns: section's only); seed: each row's seed_setting (NULL: no such column). */
static const char *write_vm_seed(const char *name, int n, double k, const char *seed)
{
	static char path[2][512];
	static int i;
	i = !i;
	snprintf(path[i], sizeof(path[i]), "%s/%s", test_dir, name);
	FILE *f = fopen(path[i], "w");
	assert_non_null(f);
	fprintf(f, "schema_version,bench,layout,rep,threads,cycle_ns,cycle_cpu_ns,valid%s\n",
		seed ? ",seed_setting" : "");
	char sc[128] = "";
	if (seed)
		snprintf(sc, sizeof(sc), ",\"%s\"", seed);
	for (int r = 0; r < n; r++)
		fprintf(f,
			"7,vmalloc,shared,%d,2,%g,NA,yes%s\n7,vmalloc,section,%d,2,%g,%g,yes%s\n",
			r, 1000.0 + r, sc, r, k * (1000.0 + r), 900.0 + r, sc);
	fclose(f);
	return path[i];
}

static const char *write_vm(const char *name, int n, double k)
{
	return write_vm_seed(name, n, k, "yes");
}

/* The part of compare's output after "== SIDE: PATH" for that file, up to the blank line before
 * the next such line (or the end). */
static const char *side_block(const char *out, const char *side, const char *path, char *buf,
			      size_t n)
{
	char head[700];
	snprintf(head, sizeof(head), "\n== %s: %s\n", side, path);
	const char *p = strstr(out, head);
	if (!p)
		return NULL;
	p += strlen(head);
	const char *e = strstr(p, "\n== ");
	size_t len = e ? (size_t)(e - p) : strlen(p);
	snprintf(buf, n, "%.*s", (int)len, p);
	return buf;
}

/* The within-side part is each input file's own run summary, whole, as `c2cbench summary FILE`
 * prints it (the one analysis path): A's file, then B's, each under its path. */
static void within_each_side_is_each_files_summary(void **state)
{
	(void)state;
	static struct cmd_result r, sa, sb;
	static char blk[65536];
	char a[512], b[512];
	snprintf(a, sizeof(a), "%s", write_vm("wa.csv", 5, 0.9));
	snprintf(b, sizeof(b), "%s", write_vm("wb.csv", 6, 1.0));
	run_c2c(&r, "compare", a, b, NULL);
	if (r.status)
		fail_msg("%s", r.err);
	run_c2c(&sa, "summary", a, NULL);
	run_c2c(&sb, "summary", b, NULL);
	assert_int_equal(sa.status, 0);
	assert_int_equal(sb.status, 0);
	const char *w = strstr(r.out, "\nwithin each side, each input file's own run summary");
	assert_non_null(w);
	assert_non_null(side_block(w, "A", a, blk, sizeof(blk)));
	if (strcmp(blk, sa.out))
		fail_msg("A's part is not its summary:\n%s\n--- summary:\n%s", blk, sa.out);
	assert_non_null(side_block(w, "B", b, blk, sizeof(blk)));
	assert_int_equal(strncmp(blk, sb.out, strlen(sb.out)), 0); /* compare's notes may follow */
	assert_true(strstr(w, "== A: ") < strstr(w, "== B: "));
	/* what the summaries say: A's section 10% faster, called; B's the same as its baseline */
	assert_non_null(strstr(sa.out, "cycle_ns -10.00% ["));
	assert_non_null(strstr(unwrapped(sa.out), "faster by 1.11x [1.11, 1.11], as the seed"));
	assert_null(strstr(sb.out, "faster by"));
	fits_100(r.out, "within");
	/* one file on both sides (compared with itself): its summary once, named for both */
	run_c2c(&r, "compare", a, a, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(side_block(r.out, "A and B", a, blk, sizeof(blk)));
	assert_int_equal(strncmp(blk, sa.out, strlen(sa.out)), 0);
	assert_null(strstr(r.out, "\n== A: "));
	assert_null(strstr(r.out, "\n== B: "));
}

/* The seed's figures stand under a side's summary only beside rows whose seed_setting says yes;
 * otherwise the rows' why is printed instead; rows without the column (an older file) say they
 * cannot tell. */
static void seed_figures_only_beside_the_seeds_setting(void **state)
{
	(void)state;
	static struct cmd_result r;
	static char ba[65536], bb[65536];
	char a[512], b[512];
	const char *no = "no: workers 2 (seed 16); lazy_max 16384 (seed 49152)";
	const char *why = "the seed's figures are left out, the setting differs: workers 2 "
			  "(seed 16); lazy_max 16384 (seed 49152)";
	snprintf(a, sizeof(a), "%s", write_vm_seed("sa.csv", 5, 0.9, no));
	snprintf(b, sizeof(b), "%s", write_vm_seed("sb.csv", 5, 1.0, no));
	run_c2c(&r, "compare", a, b, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(side_block(r.out, "A", a, ba, sizeof(ba)));
	assert_non_null(side_block(r.out, "B", b, bb, sizeof(bb)));
	assert_null(strstr(r.out, "beside: seed 003"));
	assert_null(strstr(r.out, "-12.61%"));
	assert_non_null(strstr(unwrapped(ba), why));
	assert_non_null(strstr(unwrapped(bb), why));
	/* one side at the seed's setting: the note under it, the other side's why under that */
	snprintf(b, sizeof(b), "%s", write_vm_seed("sb.csv", 5, 1.0, "yes"));
	run_c2c(&r, "compare", a, b, NULL);
	assert_non_null(side_block(r.out, "A", a, ba, sizeof(ba)));
	assert_non_null(side_block(r.out, "B", b, bb, sizeof(bb)));
	assert_null(strstr(ba, "beside: seed 003"));
	assert_non_null(strstr(unwrapped(ba), why));
	assert_non_null(strstr(bb, "beside: seed 003"));
	assert_null(strstr(bb, "left out"));
	/* no seed_setting column: no figures, and why */
	snprintf(a, sizeof(a), "%s", write_vm_seed("sa.csv", 5, 0.9, NULL));
	snprintf(b, sizeof(b), "%s", write_vm_seed("sb.csv", 5, 1.0, NULL));
	run_c2c(&r, "compare", a, b, NULL);
	assert_null(strstr(r.out, "beside: seed 003"));
	assert_non_null(strstr(unwrapped(r.out), "the rows do not say whether they match its "
						  "setting (no seed_setting column)"));
}

static void small_n_gets_no_verdict(void **state)
{
	(void)state;
	struct cmd_result r;
	char a[512], b[512];
	const double a2[] = { 10, 10.1 }, b2[] = { 20, 20.2 };
	snprintf(a, sizeof(a), "%s", write_csv("a2.csv", "m1", "h1", "c", "1", a2, 2, NULL));
	snprintf(b, sizeof(b), "%s", write_csv("b2.csv", "m2", "h2", "c", "1", b2, 2, NULL));
	run_c2c(&r, "compare", a, b, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(unwrapped(r.out), "inconclusive: 2 repetitions a side cannot "
						 "reach p < 0.05; 4 a side can"));
	assert_null(strstr(r.out, "faster"));
	assert_null(strstr(r.out, "slower"));
	assert_non_null(strstr(unwrapped(r.out),
			       "too few valid repetitions on a side for the U test to reach "
			       "p < 0.05"));
	fits_100(r.out, "small n");
	run_c2c(&r, "compare", a, b, "--csv", NULL);
	/* machine output stays clean, the warning on stderr */
	assert_non_null(strstr(r.err, "too few valid repetitions"));
	assert_non_null(strstr(r.out, ",no,inconclusive: 2 repetitions a side cannot reach"));
}

static void errors_list_what_is_available(void **state)
{
	(void)state;
	struct cmd_result r;
	char a[512], b[512], p[512];
	snprintf(a, sizeof(a), "%s", write_csv("e1.csv", "m1", "h1", "c", "1", base, 5, NULL));
	snprintf(b, sizeof(b), "%s", write_csv("e2.csv", "m2", "h2", "c", "1.5", base, 5, NULL));
	run_c2c(&r, "compare", a, a, "--metric", "writer_ns_per_op,bogus", NULL);
	assert_int_equal(r.status, 2);
	assert_int_equal(count_lines(r.err), 1);
	assert_non_null(strstr(r.err, "--metric bogus: no input has this column; accepted: "
				      "pending-bit: writer_ns_per_op,reader_ns_per_op"));
	assert_int_equal(r.out[0], 0);
	/* an empty list, or an empty name in one: refused, never read as "the default metrics" */
	const char *empty[] = { "", ",", "writer_ns_per_op,", ",writer_ns_per_op" };
	for (size_t i = 0; i < sizeof(empty) / sizeof(empty[0]); i++) {
		run_c2c(&r, "compare", a, a, "--metric", empty[i], NULL);
		assert_int_equal(r.status, 2);
		assert_int_equal(count_lines(r.err), 1);
		assert_non_null(strstr(r.err, i ? "an empty name in the list" : "an empty list"));
		assert_int_equal(r.out[0], 0);
	}
	/* a duration difference: no configuration in common, and the message says where they differ
	 */
	run_c2c(&r, "compare", a, b, NULL);
	assert_int_equal(r.status, 2);
	assert_int_equal(count_lines(r.err), 1);
	assert_non_null(strstr(r.err, "no configuration in common"));
	assert_non_null(strstr(r.err, "holds pending-bit (1 configuration)"));
	assert_non_null(strstr(r.err, "differ in duration_requested_s (A 1, B 1.5)"));
	/* another bench altogether */
	snprintf(p, sizeof(p), "%s/pp.csv", test_dir);
	FILE *f = fopen(p, "w");
	fputs("schema_version,bench,config,rep,cpu_a,cpu_b,class,mode,samples,round_trips,preheat_"
	      "ms,one_way_ns,label,host,cpu_model\n"
	      "2,pingpong,0-1-cas,0,0,1,smt,cas,10,100,1,40,m1,h1,c\n",
	      f);
	fclose(f);
	run_c2c(&r, "compare", a, p, NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "holds pending-bit (1 configuration)"));
	assert_non_null(strstr(r.err, "holds pingpong (1 configuration)"));
	/* one label, two machines */
	snprintf(b, sizeof(b), "%s",
		 write_csv("e3.csv", "m1", "other-host", "c", "1", base, 5, NULL));
	run_c2c(&r, "compare", a, b, NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "label 'm1' names two machines"));
	run_c2c(&r, "compare", a, b, "--csv", "--json", NULL);
	assert_int_equal(r.status, 2);
	run_c2c(&r, "compare", a, NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "compare needs two inputs"));
}

/* Field c of CSV row r by column name. */
static const char *cell(const struct table *t, long r, const char *col)
{
	const char *v = table_get(t, r, col);
	if (!v)
		fail_msg("no column %s", col);
	return v;
}

static void csv_and_json_parse_back(void **state)
{
	(void)state;
	struct cmd_result r;
	char a[512], b[512], out[600], err[ERRLEN];
	snprintf(
	    a, sizeof(a), "%s",
	    write_csv("ja.csv", "xeon-a", "h1", "\"Intel(R) Xeon(R), 2 GHz\"", "1", base, 5, base));
	snprintf(b, sizeof(b), "%s",
		 write_csv("jb.csv", "epyc-b", "h2", "\"AMD \"\"EPYC\"\"\"", "1", half, 5, same));
	run_c2c(&r, "compare", a, b, "--csv", NULL);
	assert_int_equal(r.status, 0);
	struct table t;
	if (table_parse(&t, "out.csv", r.out, strlen(r.out), err))
		fail_msg("%s", err);
	assert_int_equal(t.nrows, 4); /* 2 configurations x 2 metrics */
	assert_string_equal(cell(&t, 0, "bench"), "pending-bit");
	assert_string_equal(cell(&t, 0, "layout"), "shared");
	assert_string_equal(cell(&t, 0, "offset"), "32");
	assert_string_equal(cell(&t, 0, "duration_requested_s"), "1");
	assert_string_equal(cell(&t, 0, "metric"), "writer_ns_per_op");
	assert_string_equal(cell(&t, 0, "label_a"), "xeon-a");
	assert_string_equal(cell(&t, 0, "cpu_model_a"), "Intel(R) Xeon(R), 2 GHz");
	assert_string_equal(cell(&t, 0, "label_b"), "epyc-b");
	assert_string_equal(cell(&t, 0, "host_b"), "h2");
	assert_string_equal(cell(&t, 0, "cpu_model_b"), "AMD \"EPYC\"");
	assert_string_equal(cell(&t, 0, "median_a"), "10");
	assert_string_equal(cell(&t, 0, "median_b"), "5");
	assert_string_equal(cell(&t, 0, "ratio"), "0.5");
	assert_string_equal(cell(&t, 0, "n_a"), "5");
	assert_string_equal(cell(&t, 0, "rows_a"), "6");
	assert_string_equal(cell(&t, 0, "p_value"), "0.00793651"); /* exact: 2 / C(10, 5) */
	assert_string_equal(cell(&t, 0, "significant"), "yes");
	assert_string_equal(cell(&t, 2, "layout"), "aligned");
	assert_string_equal(cell(&t, 1, "median_a"), "NA");
	table_free(&t);
	/* JSON: parsed by jq, a real JSON parser */
	run_c2c(&r, "compare", a, b, "--json", NULL);
	assert_int_equal(r.status, 0);
	snprintf(out, sizeof(out), "%s/out.json", test_dir);
	FILE *f = fopen(out, "w");
	fputs(r.out, f);
	fclose(f);
	char cmd[1400], got[512] = "";
	snprintf(cmd, sizeof(cmd),
		 "jq -r '[.lines[0].config.layout, .lines[0].config.duration_requested_s, "
		 ".lines[0].metric, .lines[0].label_a, "
		 ".lines[0].cpu_model_b, (.lines[0].ratio|tostring), "
		 "(.lines[1].median_a|tostring), .lines[0].verdict, (.lines|length|tostring), "
		 ".b.machines[0].label, (.geomean[0].configurations|tostring)] | join(\"|\")' %s",
		 out);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	assert_non_null(fgets(got, sizeof(got), p));
	assert_int_equal(pclose(p), 0);
	got[strcspn(got, "\n")] = 0;
	assert_string_equal(
	    got,
	    "shared|1|writer_ns_per_op|xeon-a|AMD \"EPYC\"|0.5|null|B faster by 2.00x [1.73, "
	    "2.32]|4|epyc-b|2"); /* the interval checked against 400,000 Monte Carlo resamples */
}

/* A side of several machines (a fleet directory): each line names the machines its cell holds. */
static void sides_of_several_machines(void **state)
{
	(void)state;
	struct cmd_result r;
	char dir[512], err[ERRLEN], b[512];
	snprintf(dir, sizeof(dir), "%s/fleet", test_dir);
	assert_int_equal(mkdir(dir, 0755), 0);
	write_csv("fleet/m1.csv", "m1", "h1", "Xeon", "1", base, 5, NULL);         /* shared only */
	write_csv("fleet/m3.csv", "m3", "h3", "Xeon", "1", base, 5, base); /* shared and aligned */
	snprintf(b, sizeof(b), "%s", write_csv("m2.csv", "m2", "h2", "EPYC", "1", half, 5, half));
	run_c2c(&r, "compare", dir, b, "--csv", NULL);
	if (r.status)
		fail_msg("%s", r.err);
	struct table t;
	if (table_parse(&t, "out.csv", r.out, strlen(r.out), err))
		fail_msg("%s", err);
	assert_string_equal(cell(&t, 0, "layout"), "shared");
	assert_string_equal(cell(&t, 0, "label_a"),
			    "m1 + m3"); /* both machines' rows in this cell */
	assert_string_equal(cell(&t, 0, "cpu_model_a"), "Xeon");  /* one CPU model, said once */
	assert_string_equal(cell(&t, 0, "n_a"), "10");
	assert_string_equal(cell(&t, 2, "layout"), "aligned");
	assert_string_equal(cell(&t, 2, "label_a"), "m3");      /* only m3 ran aligned */
	assert_string_equal(cell(&t, 2, "host_a"), "h3");
	assert_string_equal(cell(&t, 2, "label_b"), "m2");
	table_free(&t);
}

static void interrupted_and_full_device(void **state)
{
	(void)state;
	struct cmd_result r;
	char a[512], meta[600];
	snprintf(a, sizeof(a), "%s", write_csv("cut.csv", "m1", "h1", "c", "1", base, 5, NULL));
	snprintf(meta, sizeof(meta), "%s/cut.meta", test_dir);
	FILE *f = fopen(meta, "w");
	fputs("[context]\nhost = h1\n\n[run]\nstatus = interrupted\nrows = 6\n", f);
	fclose(f);
	run_c2c(&r, "compare", a, a, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "c2cbench: warning: "));
	assert_non_null(strstr(r.err, "cut.csv is marked interrupted in "));
	assert_non_null(
		strstr(unwrapped(r.out), "WARNING: unfinished, interrupted or short of rows"));
	/* a full device: exit 1 and one line, not a silent half table */
	const char *bin = getenv("C2C_BIN") ? getenv("C2C_BIN") : "./c2cbench";
	char cmd[1400];
	snprintf(cmd, sizeof(cmd), "%s compare %s %s --csv >/dev/full 2>%s/full.err", bin, a, a,
		 test_dir);
	int st = system(cmd);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 1);
	snprintf(cmd, sizeof(cmd), "%s/full.err", test_dir);
	char *e = slurp(cmd);
	assert_non_null(
	    strstr(e, "c2cbench: error: cannot write the output: No space left on device"));
	free(e);
}

/* One machine's reference folder (results/reference/README.md: one machine per folder). */
#define ZEN5 "results/reference/epyc-zen5-bhyve-2vcpu"

static void reference_results_compare(void **state)
{
	(void)state;
	struct cmd_result r;
	run_c2c(&r, "compare", ZEN5 "/vm-20261130T000155-quick", ZEN5 "/vm-20261130T000155-quick",
		NULL);
	if (r.status)
		fail_msg("%s", r.err);
	assert_non_null(strstr(unwrapped(r.out),
			       "30 row(s), 30 valid; machine(s): vm (host vm, AMD EPYC)"));
	/* identical sides: no configuration changed, so the average says no change either, or why
	 * it cannot tell; never a change */
	if (!strstr(unwrapped(r.out), "configuration(s): no change beyond +-5% in any of the") &&
	    !strstr(unwrapped(r.out), "configuration(s): inconclusive: "))
		fail_msg("no closing verdict:\n%s", r.out);
	assert_null(strstr(r.out, "on average"));
	fits_100(r.out, "reference quick set");
	/* the quick preset's 1.5 s runs and the seeds preset's 1 s runs (schema 1: the duration as
	 * its preset's command line gave it) are never pooled or joined; what the seeds run did not
	 * give (--warmup) is named as not recorded, never as a request */
	run_c2c(&r, "compare", ZEN5 "/vm-20261130T000155-quick", ZEN5 "/vm-20261130T000246-seeds",
		NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err,
			       "differ in duration_requested_s (A 1.5, B 1) warmup_requested_s (A "
			       "0.2, B not recorded (schema 1): none)"));
	/* a directory of result directories (a fleet): each subdirectory with a metadata.txt */
	run_c2c(&r, "compare", ZEN5, ZEN5 "/vm-20261130T000155-quick", NULL);
	assert_int_equal(r.status, 0);
	/* the machine's quick and seeds runs of 30 Nov */
	assert_non_null(strstr(unwrapped(r.out), "A: " ZEN5 ": 59 row(s), 59 valid"));
}

/* results/reference/ holds one machine per folder: compare of a folder against itself finds one
 * fingerprint under its label, and each folder has a README describing that machine. */
static void reference_one_machine_per_folder(void **state)
{
	(void)state;
	DIR *d = opendir("results/reference");
	assert_non_null(d);
	int folders = 0;
	for (struct dirent *e; (e = readdir(d));) {
		char dir[512], readme[600];
		struct stat st;
		snprintf(dir, sizeof(dir), "results/reference/%s", e->d_name);
		if (e->d_name[0] == '.' || stat(dir, &st) || !S_ISDIR(st.st_mode))
			continue;
		folders++;
		snprintf(readme, sizeof(readme), "%s/README.md", dir);
		if (access(readme, R_OK))
			fail_msg("%s has no README.md describing its machine", dir);
		struct cmd_result r;
		run_c2c(&r, "compare", dir, dir, NULL);
		if (strstr(r.err, "names two machines"))
			fail_msg("%s holds more than one machine: %s", dir, r.err);
	}
	closedir(d);
	assert_true(folders >= 2);
}

/* The row of a compare --csv table with this bench and metric, or fail. */
static long row_of(const struct table *t, const char *bench, const char *metric)
{
	for (long r = 0; r < t->nrows; r++)
		if (!strcmp(cell(t, r, "bench"), bench) && !strcmp(cell(t, r, "metric"), metric))
			return r;
	fail_msg("no %s %s line", bench, metric);
	return -1;
}

#define SETS "tests/data/comparable" /* made-up result sets: see tests/data/README.md */

/* Two machines, both labelled vm, ran the same settings: A with 2 CPUs and one L3, B with 32 and
 * four. placement auto (same-socket on A, cross-llc on B) and lazy_max 0 (16384 and 49152 pages)
 * join on what was asked, and the lines say what each resolved to. */
static void resolved_settings_join_and_say_so(void **state)
{
	(void)state;
	struct cmd_result r;
	struct table t;
	char err[ERRLEN];
	run_c2c(&r, "compare", SETS "/a", SETS "/b", "--csv", NULL);
	if (r.status)
		fail_msg("%s", r.err);
	if (table_parse(&t, "out.csv", r.out, strlen(r.out), err))
		fail_msg("%s", err);
	long pb = row_of(&t, "pending-bit", "writer_ns_per_op");
	assert_string_equal(cell(&t, pb, "placement_requested"), "auto");
	assert_string_equal(cell(&t, pb, "resolved_a"),
			    "placement=same-socket atomics=lock mem_node=0 mem_node_actual=0");
	assert_string_equal(cell(&t, pb, "resolved_b"),
			    "placement=cross-llc atomics=lock mem_node=0 mem_node_actual=0");
	assert_non_null(
	    strstr(cell(&t, pb, "resolved_note"),
		   "placement auto became A same-socket, B cross-llc: B's threads cross an L3"));
	assert_non_null(strstr(cell(&t, pb, "resolved_note"), "the change includes that"));
	assert_string_equal(cell(&t, pb, "ratio"), "2");
	long vm = row_of(&t, "vmalloc", "cycle_ns");
	assert_string_equal(cell(&t, vm, "lazy_max"), "0");
	assert_string_equal(
		cell(&t, vm, "resolved_a"),
		"placement=spread lazy_max_effective=16384 mem_node=0 mem_node_actual=0");
	assert_string_equal(
		cell(&t, vm, "resolved_b"),
		"placement=spread lazy_max_effective=49152 mem_node=0 mem_node_actual=0");
	assert_non_null(strstr(cell(&t, vm, "resolved_note"),
			       "lazy_max 0 became A 16384 pages, B 49152 pages (B 3.00x A)"));
	assert_null(strstr(cell(&t, vm, "resolved_note"),
			   "placement")); /* spread on both: not a difference */
	/* pingpong: the same-llc pair is 0-1 on A and 0-8 on B; joined by class, named as such */
	long pp = row_of(&t, "pingpong", "min_ns");
	assert_string_equal(cell(&t, pp, "class"), "same-llc");
	assert_string_equal(cell(&t, pp, "only_in"), "");
	assert_non_null(strstr(cell(&t, pp, "resolved_note"),
			       "matched by class same-llc: A config=0-1/load-store cpu_b=1, B "
			       "config=0-8/load-store cpu_b=8"));
	table_free(&t);
	/* the table says the same in words, and lists the class only B has */
	run_c2c(&r, "compare", SETS "/a", SETS "/b", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(
		unwrapped(r.out),
		"  resolved: A placement=same-socket atomics=lock mem_node=0 mem_node_actual=0; B "
		"placement=cross-llc atomics=lock mem_node=0 mem_node_actual=0. placement auto "
		"became"));
	fits_100(r.out, "comparable a b");
	assert_non_null(strstr(r.out, "  pingpong class only in B: cross-package\n"));
	/* the same machine on both sides: nothing resolved differently, nothing to say */
	run_c2c(&r, "compare", SETS "/a", SETS "/a", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(unwrapped(r.out),
			       "  resolved: A placement=same-socket atomics=lock mem_node=0 "
			       "mem_node_actual=0; B placement=same-socket atomics=lock mem_node=0 "
			       "mem_node_actual=0. A's and B's mem_node_requested not recorded "
			       "(schema 8): joined on the node used, 0\n"));
	assert_null(strstr(r.out, "became"));
	assert_null(strstr(r.out, "matched by"));
}

/* The shipped quick run against a copy of it edited as another machine's (cpu_family 26, placement
 * auto resolved to cross-llc): before schema 8 this found no configuration in common. */
static void reference_quick_joins_another_placement(void **state)
{
	(void)state;
	struct cmd_result r;
	char cmd[4000], dir[600];
	const char *ref = "results/reference/epyc-zen3-kvm-2vcpu/vm-20261201T154250-quick";
	snprintf(dir, sizeof(dir), "%s/other-quick", test_dir);
	snprintf(cmd, sizeof(cmd),
		 "cp -r %s %s && sed -i 's/,same-socket,auto,/,cross-llc,auto,/' %s/*.csv && "
		 "sed -i 's/^cpu_family = 25$/cpu_family = 26/' %s/*.meta && grep -q "
		 "',cross-llc,auto,' %s/01-rmw.csv",
		 ref, dir, dir, dir, dir);
	assert_int_equal(system(cmd), 0);
	run_c2c(&r, "compare", ref, dir, NULL);
	if (r.status)
		fail_msg("%s", r.err);
	assert_non_null(strstr(r.err, "names two machines (cpu_family 25 vs 26)"));
	assert_non_null(strstr(unwrapped(r.out), "placement auto became A same-socket, B "
						 "cross-llc: B's threads cross an L3"));
	fits_100(r.out, "reference quick set and its edited copy");
	assert_null(strstr(r.out, "only in A")); /* every configuration joined */
	assert_null(strstr(r.out, "only in B"));
}

/* A file without the requested column (an older schema) joins on what it resolved to, and the
 * line says so. */
static void older_files_join_on_the_resolved_value(void **state)
{
	(void)state;
	struct cmd_result r;
	char cmd[2400], old[600], now[600];
	snprintf(old, sizeof(old), "%s/old-schema.csv", test_dir);
	snprintf(now, sizeof(now), "%s/now.csv", test_dir);
	snprintf(
	    cmd, sizeof(cmd),
	    "cut -d, --complement -f12 %s/a/01-pending-bit.csv > %s && "
	    "head -1 %s | grep -vq placement_requested && "
	    "sed 's/,same-socket,auto,/,same-socket,same-socket,/' %s/a/01-pending-bit.csv > %s",
	    SETS, old, old, SETS, now);
	assert_int_equal(system(cmd), 0);
	run_c2c(&r, "compare", old, now, NULL);
	if (r.status)
		fail_msg("%s", r.err);
	assert_non_null(strstr(r.out, "pending-bit shared"));
	assert_null(strstr(r.out, "only in"));
	assert_non_null(
		strstr(unwrapped(r.out),
		       "A's placement_requested not recorded (schema 8): joined on the placement "
		       "used, same-socket"));
}

#define REQ "tests/data/requested" /* made-up schema 10 sets: see tests/data/README.md */

/* The same preset on a one-node VM and a two-socket machine: --mem-node reader is node 0 on one
 * and node 1 on the other, shepherd's default --cpus is 2 and 8. Both join on the settings as
 * given (mem_node_requested reader, cpus_requested all) and each side's node and CPU count are
 * shown beside the numbers; before schema 10 they joined on mem_node and cpus and met nowhere. */
static void requested_node_and_cpus_join_across_machines(void **state)
{
	(void)state;
	struct cmd_result r;
	struct table t;
	char err[ERRLEN], cmd[4000], moved[600];
	run_c2c(&r, "compare", REQ "/one", REQ "/two", "--csv", NULL);
	if (r.status)
		fail_msg("%s", r.err);
	if (table_parse(&t, "out.csv", r.out, strlen(r.out), err))
		fail_msg("%s", err);
	long pb = row_of(&t, "pending-bit", "writer_ns_per_op");
	assert_string_equal(cell(&t, pb, "only_in"), "");
	assert_string_equal(cell(&t, pb, "mem_node_requested"), "reader");
	assert_string_equal(cell(&t, pb, "resolved_a"),
			    "placement=cross-socket atomics=lock mem_node=0 mem_node_actual=0");
	assert_string_equal(cell(&t, pb, "resolved_b"),
			    "placement=cross-socket atomics=lock mem_node=1 mem_node_actual=1");
	/* mem_node and mem_node_actual moved alike: said once */
	assert_string_equal(cell(&t, pb, "resolved_note"),
			    "mem_node reader became A 0, B 1: the change includes that");
	assert_string_equal(cell(&t, pb, "ratio"), "2");
	long sh = row_of(&t, "shepherd", "runs_per_interval");
	assert_string_equal(cell(&t, sh, "only_in"), "");
	assert_string_equal(cell(&t, sh, "cpus_requested"), "all");
	assert_string_equal(cell(&t, sh, "resolved_a"), "cpus=2");
	assert_string_equal(cell(&t, sh, "resolved_b"), "cpus=8");
	assert_string_equal(cell(&t, sh, "resolved_note"),
			    "cpus all became A 2, B 8 (B 4.00x A): the change includes that");
	table_free(&t);
	run_c2c(&r, "compare", REQ "/one", REQ "/two", NULL);
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.out, "only in"));
	assert_non_null(strstr(unwrapped(r.out),
			       "mem_node=0 mem_node_actual=0; B placement=cross-socket "
			       "atomics=lock mem_node=1 mem_node_actual=1. mem_node reader became "
			       "A 0, B 1"));
	assert_non_null(strstr(unwrapped(r.out),
			       "resolved: A cpus=2; B cpus=8. cpus all became A 2, B 8 (B 4.00x "
			       "A)"));
	fits_100(r.out, "requested one two");
	/* the node planned the same, the page found elsewhere: named by its column */
	snprintf(moved, sizeof(moved), "%s/moved", test_dir);
	snprintf(cmd, sizeof(cmd),
		 "rm -rf %s && cp -r %s/one %s && sed -i 's/,reader,0,0,/,reader,0,1,/' "
		 "%s/01-pending-bit.csv && grep -q ',reader,0,1,' %s/01-pending-bit.csv",
		 moved, REQ, moved, moved, moved);
	assert_int_equal(system(cmd), 0);
	run_c2c(&r, "compare", REQ "/one", moved, "--csv", NULL);
	if (r.status)
		fail_msg("%s", r.err);
	if (table_parse(&t, "out.csv", r.out, strlen(r.out), err))
		fail_msg("%s", err);
	pb = row_of(&t, "pending-bit", "writer_ns_per_op");
	assert_string_equal(
		cell(&t, pb, "resolved_note"),
		"mem_node reader (mem_node_actual) became A 0, B 1: the change includes that");
	table_free(&t);
}

/* A shepherd file without cpus_requested (before schema 10) joins on cpus, as it did, and shows
 * it resolved; two such files of different counts stay apart, as they did (the refusal names the
 * key, cpus_requested, with the values the files hold in its place). */
static void older_shepherd_files_join_on_cpus(void **state)
{
	(void)state;
	struct cmd_result r;
	char cmd[4000], a[600], a2[600], b[600];
	snprintf(a, sizeof(a), "%s/old-sh-a.csv", test_dir);
	snprintf(a2, sizeof(a2), "%s/old-sh-a2.csv", test_dir);
	snprintf(b, sizeof(b), "%s/old-sh-b.csv", test_dir);
	snprintf(cmd, sizeof(cmd),
		 "cut -d, --complement -f7 %s/one/02-shepherd.csv | sed 's/^10,/9,/' > %s && "
		 "head -1 %s | grep -vq cpus_requested && cp %s %s && "
		 "cut -d, --complement -f7 %s/two/02-shepherd.csv > %s",
		 REQ, a, a, a, a2, REQ, b);
	assert_int_equal(system(cmd), 0);
	run_c2c(&r, "compare", a, a2, NULL);
	if (r.status)
		fail_msg("%s", r.err);
	assert_non_null(strstr(r.out, "shepherd pending"));
	assert_null(strstr(r.out, "only in"));
	assert_non_null(strstr(unwrapped(r.out),
			       "resolved: A cpus=2; B cpus=2. A's and B's cpus_requested not "
			       "recorded (schema 9): joined on the CPUs modelled, 2"));
	run_c2c(&r, "compare", a, b, NULL);
	assert_int_not_equal(r.status, 0);
	assert_non_null(strstr(r.err, "differ in cpus_requested (A not recorded (schema 9): 2, B "
				      "not recorded (schema 10): 8)"));
}

/* Both sets are labelled vm: their fingerprints differ, so they are two machines, named apart,
 * with a note that names the differing fields; the same fingerprint twice stays one machine. */
static void two_fingerprints_under_one_label_split(void **state)
{
	(void)state;
	struct cmd_result r;
	struct table t;
	char err[ERRLEN], dir[600], path[700];
	run_c2c(&r, "compare", SETS "/a", SETS "/b", "--csv", NULL);
	if (r.status)
		fail_msg("%s", r.err);
	assert_non_null(strstr(r.err,
			       "c2cbench: note: label 'vm' names two machines (cpu_family 25 vs "
			       "26, cpu_model_number 1 vs 2"));
	assert_non_null(strstr(r.err, "hypervisor kvm vs bhyve"));
	assert_non_null(strstr(r.err, "--label"));
	if (table_parse(&t, "out.csv", r.out, strlen(r.out), err))
		fail_msg("%s", err);
	const char *la = cell(&t, 0, "label_a"), *lb = cell(&t, 0, "label_b");
	assert_true(!strncmp(la, "vm#", 3) && strlen(la) == 9);
	assert_true(!strncmp(lb, "vm#", 3) && strlen(lb) == 9);
	assert_string_not_equal(la, lb);
	table_free(&t);
	run_c2c(&r, "compare", SETS "/a", SETS "/b", "--json", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out,
			       "\"label\":\"vm#a9b347\",\"host\":\"vm\",\"cpu_model\":\"AMD "
			       "EPYC\",\"fingerprint\":\"a9b3474b8e55\""));
	run_c2c(&r, "compare", SETS "/a", SETS "/a", "--csv", NULL);
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.err, "names two machines"));
	assert_non_null(strstr(r.out, ",vm,vm,AMD EPYC,vm,vm,AMD EPYC,"));
	/* a .meta of an older schema (no fingerprint id, no DMI): the fields it has still tell
	 * apart */
	snprintf(dir, sizeof(dir), "%s/old", test_dir);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(path, sizeof(path), "cp %s/a/01-pending-bit.csv %s/x.csv", SETS, dir);
	assert_int_equal(system(path), 0);
	snprintf(path, sizeof(path), "%s/x.meta", dir);
	FILE *f = fopen(path, "w");
	fputs("[context]\nlabel = vm\ncpu_vendor = AuthenticAMD\ncpu_family = 23\n\n[run]\nstatus "
	      "= complete\n",
	      f);
	fclose(f);
	run_c2c(&r, "compare", SETS "/a", dir, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "names two machines (cpu_family 25 vs 23)"));
	/* an id missing from the .meta is computed from its fields, as the run does (and make.py)
	 */
	snprintf(path, sizeof(path), "grep -v '^fingerprint' %s/a/01-pending-bit.meta > %s/y.meta",
		 SETS, dir);
	assert_int_equal(system(path), 0);
	struct grp_fp fp;
	snprintf(path, sizeof(path), "%s/y.csv", dir);
	grp_fp_read(path, NULL, &fp);
	assert_string_equal(fp.id, "a9b3474b8e55");
	assert_string_equal(grp_fp_field(&fp, "hypervisor"), "kvm");
	grp_fp_free(&fp);
	snprintf(path, sizeof(path), "%s/y.meta", dir);
	assert_int_equal(unlink(path), 0);
	snprintf(path, sizeof(path), "%s/x.meta", dir);
	/* the column alone (a CSV without its .meta) is compared as an id */
	assert_int_equal(unlink(path), 0);
	run_c2c(&r, "compare", SETS "/a", dir, NULL);
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.err, "names two machines")); /* the same id as A's rows */
	snprintf(path, sizeof(path), "sed -i 's/a9b3474b8e55/0123456789ab/' %s/x.csv", dir);
	assert_int_equal(system(path), 0);
	run_c2c(&r, "compare", SETS "/a", dir, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(
	    strstr(r.err, "names two machines (fingerprint a9b3474b8e55 vs 0123456789ab)"));
}

#define VC "tests/data/verdict-context" /* made-up result sets: see tests/data/README.md */

/* B was judged with --valid-oncpu 0 (its .meta's [validity]), A by the defaults: the line says so,
 * in the table, the CSV and the JSON; the same rules on both sides say nothing. */
static void relaxed_against_strict_is_flagged(void **state)
{
	(void)state;
	struct cmd_result r;
	struct table t;
	char err[ERRLEN];
	run_c2c(&r, "compare", VC "/strict", VC "/relaxed", NULL);
	if (r.status)
		fail_msg("%s", r.err);
	assert_non_null(strstr(unwrapped(r.out), "warning: A strict, B judged with relaxed "
						 "validity (--valid-oncpu 0)"));
	fits_100(r.out, "strict relaxed");
	run_c2c(&r, "compare", VC "/relaxed", VC "/strict", "--csv", NULL);
	assert_int_equal(r.status, 0);
	if (table_parse(&t, "out.csv", r.out, strlen(r.out), err))
		fail_msg("%s", err);
	long w = row_of(&t, "pending-bit", "writer_ns_per_op");
	assert_string_equal(cell(&t, w, "validity_a"), "relaxed: --valid-oncpu 0");
	assert_string_equal(cell(&t, w, "validity_b"), "strict");
	assert_non_null(strstr(cell(&t, w, "context_note"),
			       "A judged with relaxed validity (--valid-oncpu 0), B strict"));
	table_free(&t);
	/* a .meta without [validity] (older result sets) is unknown, never taken for strict */
	run_c2c(&r, "compare", VC "/relaxed", VC "/unknown", "--json", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\"validity_b\":\"unknown\""));
	assert_non_null(strstr(r.out, "B's .meta does not say how it was judged"));
	/* both strict, or both unknown: nothing to say */
	run_c2c(&r, "compare", VC "/strict", VC "/unknown", NULL);
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.out, "relaxed"));
	assert_null(strstr(r.out, "judged"));
}

/* B's probe was 30 ns in some repetitions and 300 in others (each steady within itself, so valid):
 * named, with the range, as the hypervisor moving vCPUs; A's steady 60-66 ns is not. */
static void a_probe_that_moved_is_named(void **state)
{
	(void)state;
	struct cmd_result r;
	run_c2c(&r, "compare", VC "/strict", VC "/relaxed", NULL);
	if (r.status)
		fail_msg("%s", r.err);
	const char *u = unwrapped(r.out);
	assert_non_null(strstr(u, "B's placement probe ranged 30-300 ns over its repetitions "
				  "(CPUs 0-1, more than its --valid-probe 2): the hypervisor "
				  "moved vCPUs"));
	assert_null(strstr(u, "A's placement probe"));
	/* its valid repetitions at 30 and 300 ns: two classes, named with their counts */
	assert_non_null(strstr(u, "B's valid repetitions fall in 2 probe classes on CPUs 0-1 "
				  "(latencies more than 1.5x apart): 30-31 ns (3 repetition(s)), "
				  "298-299 ns (2); its median pools them"));
	assert_null(strstr(u, "A's valid repetitions fall in")); /* A: 60-66 ns, one class */
	run_c2c(&r, "compare", VC "/strict", VC "/relaxed", "--csv", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, ",60-66,30-300,"));
	/* the same machine twice: steady on both sides, no word of a probe */
	run_c2c(&r, "compare", VC "/strict", VC "/strict", NULL);
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.out, "placement probe"));
}

/* The exact two-sided U test reaches p < 0.05 from 4 values a side (2 / C(8, 4) = 0.029), not
 * from 3 (2 / C(6, 3) = 0.1): with 3 no verdict and no faster or slower anywhere, with 4 a
 * verdict. */
static void small_n_gives_no_direction(void **state)
{
	(void)state;
	struct cmd_result r;
	run_c2c(&r, "compare", VC "/small3", VC "/small3b", NULL);
	if (r.status)
		fail_msg("%s", r.err);
	const char *u = unwrapped(r.out);
	/* two verdict metrics, one family of 2 tests: 5 a side can, not the 4 of a test alone */
	assert_non_null(strstr(u, "inconclusive: 3 repetitions a side cannot reach p < 0.05 over "
				  "this family's 2 tests; 5 a side can"));
	assert_null(strstr(u, "faster"));
	assert_null(strstr(u, "slower"));
	/* the closing line too: inconclusive, with the reason, never "no significant change" */
	assert_non_null(strstr(u, "1 configuration(s): inconclusive: 1 of 1 configuration(s) "
				  "undecided (3 repetitions a side cannot reach p < 0.05 over this "
				  "family's 2 tests; 5 a side can)"));
	fits_100(r.out, "small3");
	/* one test in the table: p 0.0286 is its own adjusted p, and a verdict */
	run_c2c(&r, "compare", VC "/small4", VC "/small4b", "--metric", "writer_ns_per_op", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(block_line(r.out, "pending-bit shared", "writer_ns_per_op"),
			       "0.0286  0.0286  B slower by 2.00x"));
	assert_null(strstr(r.out, "too few repetitions"));
	/* two such tests: Holm doubles the smaller p (2 x 0.0286 = 0.0571), no verdict */
	run_c2c(&r, "compare", VC "/small4", VC "/small4b", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(unwrapped(r.out), "(pending-bit 2 test(s); Holm up to 20 tests"));
	const char *l = block_line(r.out, "pending-bit shared", "writer_ns_per_op");
	assert_non_null(strstr(l, "0.0286  0.0571  "));
	if (!strstr(unwrapped(l), "inconclusive: 4 repetitions a side cannot reach p < 0.05 over "
				  "this family's 2 tests; 5 a side can"))
		fail_msg("small4: %s", l);
	assert_null(strstr(r.out, "slower"));
}

/* A bench this build does not have compares from its result sets' own declarations (X.columns):
 * its configuration column is a key, its metric's direction and words come from the file. A
 * declaration that is not one is refused by name. */
static void a_declared_bench_compares_from_its_files(void **state)
{
	(void)state;
	struct cmd_result r;
	run_c2c(&r, "compare", "tests/data/declared/a.csv", "tests/data/declared/b.csv", NULL);
	if (r.status)
		fail_msg("%s", r.err);
	assert_non_null(strstr(r.out, "future large: A 5 of 5 rows valid, B 5 of 5"));
	assert_non_null(strstr(r.out, "future small: A 5 of 5 rows valid, B 5 of 5"));
	const char *l = block_line(r.out, "future small", "ops_per_s");
	assert_non_null(l);
	assert_non_null(strstr(l, "B better by 2.00x")); /* declared higher: B is better */
	char a[512], b[512], cmd[1200];
	snprintf(a, sizeof(a), "%s/decl-a.csv", test_dir);
	snprintf(b, sizeof(b), "%s/decl-b.csv", test_dir);
	snprintf(cmd, sizeof(cmd),
		 "cp tests/data/declared/a.csv %s && cp tests/data/declared/b.csv %s && "
		 "sed 's/,higher,/,lower,/' tests/data/declared/a.columns > %s/decl-a.columns",
		 a, b, test_dir);
	assert_int_equal(system(cmd), 0);
	/* A says lower is better; B, undeclared, is read as A */
	run_c2c(&r, "compare", a, b, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(block_line(r.out, "future small", "ops_per_s"), "B worse by 2.00x"));
	snprintf(cmd, sizeof(cmd), "rm %s/decl-a.columns", test_dir);
	assert_int_equal(system(cmd), 0);
	run_c2c(&r, "compare", a, b, NULL); /* no declaration, no *_ns_per_op: said, not empty */
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "bench 'future' has no metric to compare"));
	assert_non_null(strstr(r.err, "(its numeric columns: ops_per_s)"));
	/* warned once, not again by each side's summary, which says it has none */
	const char *w1 = strstr(r.err, "has no metric to compare");
	assert_null(strstr(w1 + 1, "has no metric to compare"));
	assert_non_null(strstr(r.out, "future: no summary: the bench names no summary metric"));
	snprintf(cmd, sizeof(cmd), "printf 'name,kind\nx,metric\n' > %s/decl-a.columns", test_dir);
	assert_int_equal(system(cmd), 0);
	run_c2c(&r, "compare", a, b, NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "decl-a.columns: not a column declaration (no 'column'"));
}

/* A bench this build does not have, whose result sets carry FILE.bench (tests/data/described):
 * compared in its declared variant order, baseline first, on its summary metric alone, with its
 * note. A FILE.bench that is not one stops compare in one line naming it and the line; a key
 * this version does not know is skipped with a warning. */
static void a_described_bench_compares_in_its_order(void **state)
{
	(void)state;
	struct cmd_result r;
	run_c2c(&r, "compare", "tests/data/described/a.csv", "tests/data/described/b.csv", NULL);
	if (r.status)
		fail_msg("%s", r.err);
	const char *l = strstr(r.out, "sketch large: A 5 of 5 rows valid"),
		   *s = strstr(r.out, "sketch small: A 5 of 5 rows valid"),
		   *m = strstr(r.out, "sketch medium: A 5 of 5 rows valid");
	assert_true(l && s && m && l < s && s < m);
	assert_non_null(
		strstr(block_line(r.out, "sketch small", "ops_per_s"), "B better by 2.00x"));
	const char *w = strstr(r.out, "\n== A: tests/data/described/a.csv\n");
	assert_non_null(w); /* its run summary, in the declared order, against the baseline */
	assert_non_null(strstr(w, "change against 'large'"));
	assert_non_null(strstr(w, "\nsmall   ops_per_s +100.00% ["));
	assert_non_null(strstr(r.out, "made-up figures: B twice A"));
	assert_null(strstr(r.out, "wait_ns"));
	char a[512], b[512], cmd[1600];
	snprintf(a, sizeof(a), "%s/desc-a.csv", test_dir);
	snprintf(b, sizeof(b), "%s/desc-b.csv", test_dir);
	snprintf(cmd, sizeof(cmd),
		 "cd tests/data/described && for s in a b; do for x in csv columns bench; do "
		 "cp $s.$x %s/desc-$s.$x || exit 1; done; done && "
		 "sed -i 's/^kind = bars$/kind = pie/' %s/desc-a.bench",
		 test_dir, test_dir);
	assert_int_equal(system(cmd), 0);
	run_c2c(&r, "compare", a, b, NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(
		strstr(r.err, "desc-a.bench:13: kind 'pie' is not accepted; accepted: bars"));
	assert_int_equal(count_lines(r.err), 1);
	snprintf(cmd, sizeof(cmd),
		 "sed -i 's/^kind = pie$/kind = bars\\ncolour = red/' %s/desc-a.bench", test_dir);
	assert_int_equal(system(cmd), 0);
	run_c2c(&r, "compare", a, b, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "desc-a.bench:14: key 'colour' unknown to this version"));
	assert_non_null(strstr(r.out, "\nsmall   ops_per_s +100.00% ["));
	snprintf(cmd, sizeof(cmd), "rm %s/desc-a.bench && mkfifo %s/desc-a.bench", test_dir,
		 test_dir);
	assert_int_equal(system(cmd), 0);
	run_c2c(&r, "compare", a, b, NULL); /* a FIFO would hang its reader: refused */
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "desc-a.bench: not a regular file"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reader_rfc4180),
		cmocka_unit_test(reader_hostile_input),
		cmocka_unit_test(mann_whitney_known),
		cmocka_unit_test(bootstrap_interval),
		cmocka_unit_test(bootstrap_exact_is_brute_force),
		cmocka_unit_test(verdicts_in_words),
		cmocka_unit_test(small_n_gets_no_verdict),
		cmocka_unit_test(errors_list_what_is_available),
		cmocka_unit_test(csv_and_json_parse_back),
		cmocka_unit_test(sides_of_several_machines),
		cmocka_unit_test(interrupted_and_full_device),
		cmocka_unit_test(within_each_side_is_each_files_summary),
		cmocka_unit_test(seed_figures_only_beside_the_seeds_setting),
		cmocka_unit_test(reference_results_compare),
		cmocka_unit_test(reference_one_machine_per_folder),
		cmocka_unit_test(resolved_settings_join_and_say_so),
		cmocka_unit_test(reference_quick_joins_another_placement),
		cmocka_unit_test(older_files_join_on_the_resolved_value),
		cmocka_unit_test(requested_node_and_cpus_join_across_machines),
		cmocka_unit_test(older_shepherd_files_join_on_cpus),
		cmocka_unit_test(two_fingerprints_under_one_label_split),
		cmocka_unit_test(relaxed_against_strict_is_flagged),
		cmocka_unit_test(a_probe_that_moved_is_named),
		cmocka_unit_test(small_n_gives_no_direction),
		cmocka_unit_test(a_declared_bench_compares_from_its_files),
		cmocka_unit_test(a_described_bench_compares_in_its_order),
	};
	return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}
