/* stats/split.c: classes that are two populations. The rule on made-up values, then its threshold
 * on the five published matrices of tests/data/c2c-latency/: only the dual EPYC 7R13's
 * same-package class splits, by package, near 107.6 and 200.5 ns. */
#include "stats/split.h"
#include "benches/pingpong/pairs.h"
#include "harness/bench.h"
#include "tests/runsum_shim.h"
#include "harness/pairclass.h"
#include "import/c2cmat.h"
#include "import/topospec.h"
#include "lib/util.h" /* before cmocka, which defines a fail() macro */
#include "tests/testutil.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void one_population_is_one_group(void **s)
{
	(void)s;
	struct split sp;
	const double v[] = {10, 11, 12, 13, 14.5, 14.9};
	assert_int_equal(split_values(v, NULL, 6, &sp), 1);
	assert_int_equal(sp.g[0].n, 6);
	assert_true(fabs(sp.g[0].median - 12.5) < 1e-9);
	assert_int_equal(split_values(v, NULL, 0, &sp), 0);
	const double two[] = {10, 100}; /* two values: a group needs SPLIT_MIN_N */
	assert_int_equal(split_values(two, NULL, 2, &sp), 1);
}

static void a_gap_splits_and_names_the_attribute(void **s)
{
	(void)s;
	struct split sp;
	char text[512];
	const double v[] = {200, 100, 101, 102, 201, 202, NAN};
	const long pkg[] = {1, 0, 0, 0, 1, 1, 0};
	assert_int_equal(split_values(v, pkg, 7, &sp), 2);
	assert_int_equal(sp.by_attr, 1);
	assert_int_equal(sp.g[0].n, 3);
	assert_int_equal(sp.g[0].attr, 0);
	assert_true(fabs(sp.g[1].median - 201) < 1e-9);
	split_text(&sp, "package", "ns", text, sizeof(text));
	assert_string_equal(text, "package 0: 101 ns (3 pairs), package 1: 201 ns (3); no value "
				  "between 102 and 200 ns");
	/* an attribute shared across the groups separates nothing: the groups by range */
	const long mixed[] = {1, 0, 1, 0, 1, 1, 0};
	split_values(v, mixed, 7, &sp);
	assert_int_equal(sp.by_attr, 0);
	split_text(&sp, "package", "ns", text, sizeof(text));
	assert_non_null(strstr(text, "100..102 ns: 101 ns (3 pairs)"));
	/* just at the factor: no gap; just above: a gap */
	const double edge[] = {10, 10, 15, 15};
	assert_int_equal(split_values(edge, NULL, 4, &sp), 1);
	const double over[] = {10, 10, 15.01, 15.01};
	assert_int_equal(split_values(over, NULL, 4, &sp), 2);
}

/* One slow value is an outlier, not a group: under SPLIT_MIN_SHARE of the values. */
static void an_outlier_is_no_group(void **s)
{
	(void)s;
	struct split sp;
	double v[32];
	for (int i = 0; i < 31; i++)
		v[i] = 7.3 + 0.01 * i;
	v[31] = 13.1;
	assert_int_equal(split_values(v, NULL, 32, &sp), 1);
}

#define DATA "tests/data/c2c-latency/"

/* The widest gap of sorted values with at least min of them on each side (the rule's own). */
static double widest_gap(double *v, int n)
{
	int min = (int)ceil(SPLIT_MIN_SHARE * n);
	min = min < SPLIT_MIN_N ? SPLIT_MIN_N : min;
	double best = 1;
	for (int i = min; i <= n - min; i++)
		if (i > 0 && i < n && v[i] / v[i - 1] > best)
			best = v[i] / v[i - 1];
	return best;
}

static int cmp_d(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

static void the_threshold_on_the_published_matrices(void **s)
{
	(void)s;
	static const char *const files[][2] = {
	    {"dual-xeon-gold-6242", "linux:2x16x2"}, {"dual-xeon-platinum-8275cl", "linux:2x24x2"},
	    {"dual-epyc-7r13", "linux:2x48x2/8"},    {"epyc-7773x", "linux:1x64x2/8"},
	    {"aws-graviton3", "linux:1x64x1"}};
	double others = 1; /* the widest gap of every class that must not split */
	for (size_t f = 0; f < ARRAY_SIZE(files); f++) {
		struct c2cmat m;
		struct topo t;
		char err[ERRLEN] = "", path[256];
		snprintf(path, sizeof(path), DATA "%s.csv", files[f][0]);
		assert_int_equal(c2cmat_read(path, &m, err), 0);
		assert_int_equal(topospec_load(&t, files[f][1], err), 0);
		for (int c = 0; c < PC_COUNT; c++) {
			double *v = xcalloc((size_t)m.n * (size_t)m.n, sizeof(double));
			long *pkg = xcalloc((size_t)m.n * (size_t)m.n, sizeof(long));
			int n = 0;
			for (int i = 0; i < m.n; i++)
				for (int j = 0; j < i; j++) {
					double x;
					if (!c2cmat_pair(&m, i, j, &x) ||
					    (int)pair_classify(&t, i, j) != c)
						continue;
					int pa = topo_pu(&t, i)->pkg, pb = topo_pu(&t, j)->pkg;
					pkg[n] = pa == pb ? pa : -1;
					v[n++] = x;
				}
			struct split sp;
			int g = split_values(v, pkg, n, &sp);
			int want = !strcmp(files[f][0], "dual-epyc-7r13") && c == PC_SAME_PACKAGE;
			qsort(v, (size_t)n, sizeof(double), cmp_d);
			double w = n ? widest_gap(v, n) : 1;
			if (!want && w > others)
				others = w;
			if (!want && g > 1)
				fail_msg("%s %s splits (widest gap %.3f)", files[f][0],
					 pair_class_name((enum pair_class)c), w);
			if (want) {
				char text[512];
				assert_int_equal(g, 2);
				assert_true(sp.by_attr);
				assert_true(w > 1.6 && w > SPLIT_GAP);
				assert_int_equal(sp.g[0].attr, 0);
				assert_int_equal(sp.g[1].attr, 1);
				assert_int_equal(sp.g[0].n, 3840);
				assert_int_equal(sp.g[1].n, 3840);
				assert_true(fabs(sp.g[0].median - 107.6) < 0.1);
				assert_true(fabs(sp.g[1].median - 200.5) < 0.1);
				split_text(&sp, "package", "ns", text, sizeof(text));
				assert_string_equal(text,
						    "package 0: 107.6 ns (3,840 pairs), package 1: "
						    "200.5 ns (3,840); no value between 115.9 and "
						    "185.6 ns");
			}
			free(v);
			free(pkg);
		}
		topo_free(&t);
		c2cmat_free(&m);
	}
	/* the margin the threshold sits in: every other class's widest gap is 1.07 at most */
	print_message("widest gap of the classes that do not split: %.3f\n", others);
	assert_true(others < 1.1 && others < SPLIT_GAP);
}

/* The run summary (analysis/runsum_split.c) marks a class whose pairs split, gives each part by
 * package with its median and count, and leaves a one-population class alone: pingpong's rows of
 * a made-up two-package machine, fed as the driver feeds them. */
static void run_summary_marks_a_split_class(void **s)
{
	(void)s;
	struct topo t;
	char err[ERRLEN] = "", *text = NULL;
	size_t len = 0;
	int *set;
	struct pu_pair *p;
	const struct bench *bp = bench_find("pingpong");
	assert_non_null(bp);
	assert_int_equal(topo_load(&t, "synthetic:pack:2 l3:2 core:4 pu:1", err), 0);
	int n = pairs_pu_set(&t, "auto", &set, err);
	int np = pairs_select(&t, set, n, "all", 1, &p, err);
	assert_int_equal(np, 16 * 15 / 2);
	struct opt_spec htab[HARNESS_OPTS_MAX];
	const struct opt_spec *tables[] = {bench_harness_opts(bp, htab, HARNESS_OPTS_MAX),
					   bp->opts, NULL};
	struct opts o = {0};
	char *argv[] = {"run", NULL};
	assert_int_equal(opts_parse(&o, tables, 1, argv, err), 0);
	struct bench_ctx c = {.b = bp, .o = &o, .reps = 3, .attempts = 1};
	bench_variants_reserve(&c, np);
	for (int i = 0; i < np; i++) {
		char name[48];
		snprintf(name, sizeof(name), "%d-%d/cas", p[i].a, p[i].b);
		bench_variant(&c, name, i);
	}
	struct summary *sum = summary_new(&c);
	for (int rep = 0; rep < c.reps; rep++)
		for (int v = 0; v < c.nvar; v++) {
			const struct pu_pair *q = &p[c.var[v].param];
			const struct pu *a = topo_pu(&t, q->a), *b = topo_pu(&t, q->b);
			double ns = q->cls == PC_SAME_LLC ? 20 : a->pkg != b->pkg ? 190
				    : a->pkg == 0		       ? 107
								       : 200;
			struct row r = {0};
			row_set(&r, "mode", "cas");
			row_set(&r, "class", "%s", pair_class_name(q->cls));
			row_set(&r, "min_ns", "%.2f", ns + (v % 5) * 0.5 + rep * 0.1);
			row_set(&r, "median_ns", "%.2f", ns + 1 + (v % 5) * 0.5);
			row_set(&r, "pkg_a", "%d", a->pkg);
			row_set(&r, "pkg_b", "%d", b->pkg);
			summary_add(sum, &r, v, rep, 1, 1, 1);
			row_clear(&r);
		}
	FILE *f = open_memstream(&text, &len);
	summary_print(sum, f);
	fclose(f);
	summary_free(sum);
	print_message("%.2000s\n", strstr(text, "~ its") ? strstr(text, "~ its") : text);
	assert_non_null(strstr(text, "cas/same-package ~"));
	assert_non_null(strstr(text, "cas/same-package min_ns: package 0: 108.1 ns (16 pairs), "
				     "package 1: 201.1 ns (16)"));
	assert_null(strstr(text, "cas/same-llc ~"));
	assert_null(strstr(text, "cas/cross-package ~"));
	free(text);
	free(p);
	free(set);
	opts_free(&o);
	free(c.var);
	topo_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(one_population_is_one_group),
	    cmocka_unit_test(a_gap_splits_and_names_the_attribute),
	    cmocka_unit_test(an_outlier_is_no_group),
	    cmocka_unit_test(the_threshold_on_the_published_matrices),
	    cmocka_unit_test(run_summary_marks_a_split_class),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
