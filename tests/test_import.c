/* c2cbench import core-to-core-latency: the five published matrices of tests/data/c2c-latency/
 * (real servers, measured with nviennot/core-to-core-latency) give the per-class pair counts and
 * medians of that folder's README; every --topology form; bad files refused whole; a pingpong
 * --matrix export imported back. */
#include "import/topospec.h"
#include "lib/csvread.h"
#include "lib/util.h" /* before cmocka, which defines a fail() macro */
#include "tests/report_util.h"
#include "tests/testutil.h"
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DATA "tests/data/c2c-latency/"
/* a real 2-vCPU VM's result set (results/reference/README.md) */
#define K1272 "results/reference/epyc-zen5-bhyve-2vcpu-k1272/vm-20261205T123458-quick"

/* The shared README's table: pairs and median per class, NAN/0 where the machine has none. */
struct expect {
	const char *file, *topo;
	int pairs[4];
	double median[4];
};
static const char *const classes[4] = {"smt", "same-llc", "same-package", "cross-package"};
static const struct expect fixtures[] = {
    {"dual-xeon-gold-6242", "linux:2x16x2", {32, 960, 0, 1024}, {7.4, 48.0, NAN, 141.4}},
    {"dual-xeon-platinum-8275cl", "linux:2x24x2", {48, 2208, 0, 2304}, {7.6, 46.6, NAN, 134.1}},
    {"dual-epyc-7r13", "linux:2x48x2/8", {96, 1344, 7680, 9216}, {9.8, 22.7, 150.7, 197.2}},
    {"epyc-7773x", "linux:1x64x2/8", {64, 896, 7168, 0}, {10.1, 26.1, 116.6, NAN}},
    {"aws-graviton3", "linux:1x64x1", {0, 2016, 0, 0}, {NAN, 46.4, NAN, NAN}},
};

static int cmp_d(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(double), cmp_d);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Import file with topo into a fresh folder under test_dir; the CSV's path (static), the run's
 * result in r. */
static const char *import(struct cmd_result *r, const char *file, const char *topo,
			  const char *out)
{
	static char csv[4096];
	run_c2c(r, "import", "core-to-core-latency", file, "--topology", topo, "--out", out, NULL);
	const char *at = strstr(r->out, "written to ");
	csv[0] = 0;
	if (!r->status && at)
		sscanf(at + strlen("written to "), "%4095s", csv);
	return csv;
}

static int col(const struct table *t, const char *name)
{
	for (int i = 0; i < t->ncols; i++)
		if (!strcmp(t->cols[i], name))
			return i;
	fail_msg("no column %s in %s", name, t->path);
	return -1;
}

/* Each class's valid pairs and their median (metric: min_ns or median_ns). */
static void class_medians(const struct table *t, const char *metric, int *pairs, double *med)
{
	int c_cls = col(t, "class"), c_v = col(t, metric), c_ok = col(t, "valid");
	double *v = xcalloc((size_t)t->nrows + 1, sizeof(double));
	for (int k = 0; k < 4; k++) {
		int n = 0;
		for (long i = 0; i < t->nrows; i++)
			if (!strcmp(t->cell[i][c_cls], classes[k]) &&
			    !strcmp(t->cell[i][c_ok], "yes"))
				v[n++] = atof(t->cell[i][c_v]);
		pairs[k] = n;
		med[k] = n ? median(v, n) : NAN;
	}
	free(v);
}

static char *subdir(const char *name)
{
	char *p = xcalloc(strlen(test_dir) + strlen(name) + 2, 1);
	sprintf(p, "%s/%s", test_dir, name);
	return p;
}

static void check_fixture(const struct expect *e, const char *topo, const char *tag)
{
	struct cmd_result r;
	struct table t;
	char file[512], err[ERRLEN];
	int pairs[4];
	double med[4];
	snprintf(file, sizeof(file), DATA "%s.csv", e->file);
	char *out = subdir(tag);
	const char *csv = import(&r, file, topo, out);
	if (r.status || !csv[0])
		fail_msg("import %s --topology %s: status %d: %s", file, topo, r.status, r.err);
	assert_int_equal(table_read(&t, csv, err), 0);
	for (int m = 0; m < 2; m++) {
		class_medians(&t, m ? "median_ns" : "min_ns", pairs, med);
		for (int k = 0; k < 4; k++) {
			if (pairs[k] != e->pairs[k])
				fail_msg("%s (%s) %s: %d pairs, README %d", e->file, topo,
					 classes[k], pairs[k], e->pairs[k]);
			if (pairs[k] && fabs(med[k] - e->median[k]) > 0.1)
				fail_msg("%s (%s) %s: median %.3f, README %.1f", e->file, topo,
					 classes[k], med[k], e->median[k]);
		}
	}
	/* every row says where it came from and what its value is */
	int c_tool = col(&t, "source_tool"), c_file = col(&t, "source_file"),
	    c_stat = col(&t, "source_statistic"), c_mode = col(&t, "mode"),
	    c_bench = col(&t, "bench");
	for (long i = 0; i < t.nrows; i++) {
		assert_string_equal(t.cell[i][c_tool], "core-to-core-latency");
		assert_string_equal(t.cell[i][c_stat], "mean of round trip / 2");
		assert_string_equal(t.cell[i][c_mode], "cas");
		assert_string_equal(t.cell[i][c_bench], "pingpong");
		assert_non_null(strstr(t.cell[i][c_file], e->file));
	}
	/* the whole result set: .meta (complete), .columns, .bench beside the CSV */
	char path[4200];
	size_t n = strlen(csv) - 4;
	const char *ext[] = {".meta", ".columns", ".bench"};
	for (int k = 0; k < 3; k++) {
		snprintf(path, sizeof(path), "%.*s%s", (int)n, csv, ext[k]);
		assert_true(file_exists(path));
	}
	snprintf(path, sizeof(path), "%.*s.meta", (int)n, csv);
	char *meta = slurp(path);
	assert_non_null(strstr(meta, "status = complete"));
	free(meta);
	table_free(&t);
	free(out);
}

static void five_fixtures_give_the_readme_table(void **s)
{
	(void)s;
	for (size_t i = 0; i < ARRAY_SIZE(fixtures); i++)
		check_fixture(&fixtures[i], fixtures[i].topo, fixtures[i].file);
}

/* linux:PxCxT[/L] numbers PUs as Linux does on x86: cpu = t*P*C + p*C + c. */
static void linux_shorthand_numbers_as_linux(void **s)
{
	(void)s;
	char err[ERRLEN] = "";
	char *d = topospec_linux("linux:2x2x2/1", err);
	assert_non_null(d);
	assert_string_equal(d, "pack:2 numa:1 l3:2 core:1 pu:2(indexes=0,4,1,5,2,6,3,7)");
	free(d);
	const char *bad[] = {"linux:2x2", "linux:0x2x2", "linux:2x3x2/2", "linux:2x2x2/",
			     "linux:2x2x2x2", "linux:99999x99999x2", "linux:ax2x2"};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		err[0] = 0;
		assert_null(topospec_linux(bad[i], err));
		assert_non_null(strstr(err, "accepted: linux:PxCxT[/L]"));
	}
}

/* The same machine named by an lstopo XML (xml:FILE and a bare path), a synthetic description
 * with its numbering (synthetic:DESC and a bare DESC) gives the same table. */
static void every_topology_form(void **s)
{
	(void)s;
	char err[ERRLEN] = "";
	const struct expect *gold = &fixtures[0], *grav = &fixtures[4];
	char *desc = topospec_linux(gold->topo, err);
	assert_non_null(desc);
	/* the XML as lstopo writes it, from hwloc itself */
	hwloc_topology_t h;
	char *xml = subdir("gold.xml"), spec[8192];
	assert_int_equal(hwloc_topology_init(&h), 0);
	assert_int_equal(hwloc_topology_set_synthetic(h, desc), 0);
	assert_int_equal(hwloc_topology_load(h), 0);
	assert_int_equal(hwloc_topology_export_xml(h, xml, 0), 0);
	hwloc_topology_destroy(h);
	snprintf(spec, sizeof(spec), "xml:%s", xml);
	check_fixture(gold, spec, "xml");
	check_fixture(gold, xml, "xml-path");
	snprintf(spec, sizeof(spec), "synthetic:%s", desc);
	check_fixture(gold, spec, "synthetic");
	check_fixture(grav, "pack:1 l3:1 core:64 pu:1", "bare-synthetic");
	free(desc);
	free(xml);
}

static int empty_or_missing(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;
	if (!d)
		return 1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return !n;
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* Bad files and TOPOs: one line, exit 2, nothing written. */
static void bad_input_writes_nothing(void **s)
{
	(void)s;
	static const struct {
		const char *text, *topo, *says;
	} cases[] = {
	    {",,\n1.5,,\n2,3\n", "linux:1x3x1", "ragged"},
	    {",,\n1,,\n", "linux:1x3x1", "not square"},
	    {",\n1,\n2,3\n", "linux:1x3x1", "not square"},
	    {"CPU: AMD EPYC 7R13 48-Core Processor\n    0   1\n", "linux:1x2x1", "is not a number"},
	    {",\n12.5±0.1,\n", "linux:1x2x1", "is not a number"},
	    {",\n12.5,\n", "linux:1x3x1", "has 3 PUs"},
	    {",\n12.5,\n", "linux:1x2", "accepted: linux:PxCxT[/L]"},
	    {",\n12.5,\n", "/no/such/topology.xml", "cannot read"},
	    {"", "linux:1x2x1", "is empty"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct cmd_result r;
		char name[64];
		snprintf(name, sizeof(name), "bad%zu.csv", i);
		char *file = subdir(name), *out = subdir("bad-out");
		write_text(file, cases[i].text);
		import(&r, file, cases[i].topo, out);
		if (r.status != 2 || !strstr(r.err, cases[i].says) || count_lines(r.err) != 1)
			fail_msg("case %zu: status %d, stderr: %s", i, r.status, r.err);
		assert_true(empty_or_missing(out));
		free(file);
		free(out);
	}
}

/* 0 ns, negative and NaN values are rows, invalid, with the reason. */
static void impossible_values_are_invalid_rows(void **s)
{
	(void)s;
	struct cmd_result r;
	struct table t;
	char err[ERRLEN];
	char *file = subdir("impossible.csv"), *out = subdir("impossible");
	write_text(file, ",,,\n0,,,\n-3,5,,\nNaN,4.5,6,\n");
	const char *csv = import(&r, file, "linux:1x4x1", out);
	if (r.status)
		fail_msg("%s", r.err);
	assert_int_equal(table_read(&t, csv, err), 0);
	assert_int_equal(t.nrows, 6);
	int c_a = col(&t, "cpu_a"), c_b = col(&t, "cpu_b"), c_ok = col(&t, "valid"),
	    c_why = col(&t, "invalid_reason"), c_min = col(&t, "min_ns"),
	    c_na = col(&t, "na_reason");
	int invalid = 0;
	for (long i = 0; i < t.nrows; i++) {
		int a = atoi(t.cell[i][c_a]), b = atoi(t.cell[i][c_b]);
		const char *why = t.cell[i][c_why];
		if (a == 0 && b == 1)
			assert_non_null(strstr(why, "0 ns"));
		else if (a == 0 && b == 2)
			assert_non_null(strstr(why, "negative"));
		else if (a == 0 && b == 3) {
			assert_non_null(strstr(why, "NaN"));
			assert_string_equal(t.cell[i][c_min], "NA");
			assert_non_null(strstr(t.cell[i][c_na], "min_ns: "));
		} else
			assert_string_equal(why, "");
		invalid += !strcmp(t.cell[i][c_ok], "no");
	}
	assert_int_equal(invalid, 3);
	table_free(&t);
	free(file);
	free(out);
}

/* pingpong --matrix, imported back on the topology pingpong saw, gives its classes and values:
 * the run sees a two-package synthetic topology (HWLOC_THISSYSTEM binds to real CPUs 0 and 1). */
static void matrix_export_imports_back(void **s)
{
	(void)s;
	SKIP_UNDER_QEMU("hwloc's synthetic topology binds real CPUs 0 and 1");
	if (!two_cpus() || strcmp(two_cpus(), "cpus:0,1")) {
		print_message("skipped: CPUs 0 and 1 are not both this process's\n");
		skip();
	}
	struct cmd_result r;
	struct table run, imp;
	char err[ERRLEN];
	const char *topo = "pack:2 l3:1 core:1 pu:1";
	char *mat = subdir("rt.mat"), *csv = subdir("rt.csv"), *out = subdir("rt");
	setenv("HWLOC_THISSYSTEM", "1", 1);
	setenv("HWLOC_SYNTHETIC", topo, 1);
	run_c2c(&r, "run", "pingpong", "--mode", "cas", "--samples", "30", "--reps", "3",
		"--quiet", LENIENT, "--out", csv, "--matrix", mat, NULL);
	unsetenv("HWLOC_SYNTHETIC");
	unsetenv("HWLOC_THISSYSTEM");
	if (!RAN(r.status))
		fail_msg("pingpong: status %d: %s", r.status, r.err);
	const char *icsv = import(&r, mat, topo, out);
	if (r.status)
		fail_msg("%s", r.err);
	assert_int_equal(table_read(&run, csv, err), 0);
	assert_int_equal(table_read(&imp, icsv, err), 0);
	int pr[4], pi[4];
	double mr[4], mi[4];
	/* the matrix holds the median over repetitions of min_ns, kept as a float and written to
	 * 0.01 ns, as the CSV's min_ns: two roundings apart at most */
	class_medians(&run, "min_ns", pr, mr);
	class_medians(&imp, "min_ns", pi, mi);
	assert_int_equal(imp.nrows, 1);
	for (int k = 0; k < 4; k++) {
		assert_int_equal(pr[k] > 0, pi[k] > 0);
		if (pr[k] && fabs(mr[k] - mi[k]) > 0.011)
			fail_msg("%s: run %.3f, imported %.3f", classes[k], mr[k], mi[k]);
	}
	assert_true(pi[3] == 1); /* cross-package: the run's class survived */
	table_free(&run);
	table_free(&imp);
	free(mat);
	free(csv);
	free(out);
}

/* compare joins an imported matrix with the run it was exported from (the same pair and class; the
 * settings the source lacks joined without) and says on the line that the two sides hold other
 * statistics: a mean of round trip / 2 against a minimum and a median; two runs never say so. */
static void compare_says_the_statistic(void **s)
{
	(void)s;
	SKIP_UNDER_QEMU("hwloc's synthetic topology binds real CPUs 0 and 1");
	if (!two_cpus() || strcmp(two_cpus(), "cpus:0,1")) {
		print_message("skipped: CPUs 0 and 1 are not both this process's\n");
		skip();
	}
	struct cmd_result r;
	const char *topo = "pack:2 l3:1 core:1 pu:1";
	char *mat = subdir("st.mat"), *csv = subdir("st.csv"), *out = subdir("st");
	setenv("HWLOC_THISSYSTEM", "1", 1);
	setenv("HWLOC_SYNTHETIC", topo, 1);
	run_c2c(&r, "run", "pingpong", "--mode", "cas", "--samples", "30", "--reps", "3",
		"--quiet", LENIENT, "--out", csv, "--matrix", mat, NULL);
	unsetenv("HWLOC_SYNTHETIC");
	unsetenv("HWLOC_THISSYSTEM");
	if (!RAN(r.status))
		fail_msg("pingpong: status %d: %s", r.status, r.err);
	import(&r, mat, topo, out);
	if (r.status)
		fail_msg("%s", r.err);
	run_c2c(&r, "compare", out, csv, "--csv", NULL);
	if (r.status)
		fail_msg("compare: status %d: %s", r.status, r.err);
	const char *says = "not the same statistic: A's values are imported (core-to-core-latency: "
			   "mean of round trip / 2), B's measured by c2cbench";
	assert_non_null(strstr(r.out, "0-1/cas"));
	assert_non_null(strstr(r.out, says));
	assert_non_null(strstr(r.out, "A's samples, round_trips, preheat_ms, mem_node_requested "
				      "not in the imported matrix: joined without them"));
	run_c2c(&r, "compare", out, csv, NULL); /* the table's line says it too */
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "not the same statistic"));
	run_c2c(&r, "compare", csv, csv, "--csv", NULL); /* two runs: the same statistic */
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "0-1/cas"));
	assert_null(strstr(r.out, "not the same statistic"));
	free(mat);
	free(csv);
	free(out);
}

/* The dual EPYC 7R13's same-package class is two populations (docs/report.md#classes-that-split):
 * the report says so in its Summary, in the class table instead of the class median (150.7 ns, a
 * value no pair has) and under the heat map, which chromium draws; the Graviton3's classes do not
 * split. */
static void report_states_the_split(void **s)
{
	(void)s;
	struct cmd_result r;
	char *out = subdir("split"), *dir = subdir("split-report");
	const char *csv = import(&r, DATA "dual-epyc-7r13.csv", "linux:2x48x2/8", out);
	if (r.status)
		fail_msg("%s", r.err);
	char *md = report_md_of(dir, csv, NULL);
	const char *split = "package 0: 107.6 ns (3,840 pairs), package 1: 200.5 ns (3,840); no "
			    "value between 115.9 and 185.6 ns";
	char *sum = strstr(md, "## Summary"), *mach = sum ? strstr(sum, "## Machines") : NULL;
	assert_non_null(mach);
	*mach = 0; /* the Summary alone */
	assert_non_null(strstr(sum, "Split class: dual-epyc-7r13, pingpong mode cas, class "
				    "same-package: "));
	assert_non_null(strstr(sum, split));
	*mach = '#';
	assert_non_null(strstr(md, "| dual-epyc-7r13 | same-package | 7680 | split: "));
	assert_null(strstr(md, "| 150.7 (")); /* the median in the gap, never alone */
	assert_non_null(strstr(md, "![dual-epyc-7r13; same-package split: "));
	char *html_path = subdir("split-report/report.html"), *html = slurp(html_path);
	assert_non_null(strstr(html, "<figcaption>dual-epyc-7r13; same-package split: package 0"));
	assert_true(report_charts_have_data(dir) >= 1);
	if (!getenv("C2C_UNDER_QEMU"))
		assert_true(html_images_load(dir) >= 1);
	free(html);
	free(html_path);
	free(md);
	/* one population per class: nothing said */
	const char *g = import(&r, DATA "aws-graviton3.csv", "linux:1x64x1", out);
	char *gdir = subdir("graviton-report");
	if (r.status)
		fail_msg("%s", r.err);
	md = report_md_of(gdir, g, NULL);
	assert_null(strstr(md, "Split class"));
	assert_null(strstr(md, "split:"));
	assert_non_null(strstr(md, "| aws-graviton3 | same-llc | 2016 | 46.4"));
	free(md);
	free(gdir);
	free(out);
	free(dir);
}

/* compare A B [--csv] into a file under test_dir (a full matrix's table is megabytes, more than
 * run_c2c keeps; stderr beside it), read back whole, the table's wrapped lines joined. */
static char *compare_whole(const char *a, const char *b, const char *flag, const char *name)
{
	const char *bin = getenv("C2C_BIN") ? getenv("C2C_BIN") : "./c2cbench";
	char *path = subdir(name), cmd[4096];
	snprintf(cmd, sizeof(cmd), "%s compare %s %s %s >%s 2>%s.err", bin, a, b, flag, path, path);
	int st = system(cmd);
	char *text = slurp(path);
	if (!text || !WIFEXITED(st) || WEXITSTATUS(st))
		fail_msg("%s: status %d: %.2000s", cmd, st, text ? text : "");
	if (!*flag) /* the table */
		text_unwrap(text);
	free(path);
	return text;
}

/* `c2cbench summary DIR`, unwrapped. */
static char *summary_whole(const char *dir, const char *name)
{
	const char *bin = getenv("C2C_BIN") ? getenv("C2C_BIN") : "./c2cbench";
	char *path = subdir(name), cmd[4096];
	snprintf(cmd, sizeof(cmd), "%s summary %s >%s 2>%s.err", bin, dir, path, path);
	int st = system(cmd);
	char *text = slurp(path);
	if (!text || !WIFEXITED(st) || WEXITSTATUS(st))
		fail_msg("%s: status %d: %.2000s", cmd, st, text ? text : "");
	text_unwrap(text);
	free(path);
	return text;
}

/* The text from after to before (NULL: the end), cut in place; the test fails without after. */
static char *between(char *text, const char *after, const char *before)
{
	char *a = strstr(text, after), *b;
	if (!a)
		fail_msg("no '%s' in compare's table", after);
	if (before && (b = strstr(a, before)))
		*b = 0;
	return a;
}

/* compare flags a class that splits on both of its tables and in --csv: the 7R13's same-package
 * class against the same matrix imported under another label (another machine), each group with
 * its median and pair count, the median in the gap (150.7 ns) nowhere; the dual Xeon Gold 6242's
 * classes, one group each, are not flagged (docs/compare.md#classes-that-split). */
static void compare_flags_the_split(void **s)
{
	(void)s;
	struct cmd_result r;
	struct table t;
	char *a = subdir("cmp-split-a"), *b = subdir("cmp-split-b"), *g = subdir("cmp-gold");
	import(&r, DATA "dual-epyc-7r13.csv", "linux:2x48x2/8", a);
	if (r.status)
		fail_msg("%s", r.err);
	run_c2c(&r, "import", "core-to-core-latency", DATA "dual-epyc-7r13.csv", "--topology",
		"linux:2x48x2/8", "--label", "other-7r13", "--out", b, NULL);
	if (r.status)
		fail_msg("%s", r.err);
	const char *pkgs = "package 0: 107.6 ns (3,840 pairs), package 1: 200.5 ns (3,840); no "
			   "value between 115.9 and 185.6 ns";
	char side_a[300], side_b[300];
	snprintf(side_a, sizeof(side_a), "A: %s", pkgs);
	snprintf(side_b, sizeof(side_b), "B: %s", pkgs);
	char *text = compare_whole(a, b, "", "cmp-split.txt");
	assert_non_null(strstr(text, "machine(s): other-7r13"));
	assert_null(strstr(text, "150.7")); /* the class median, a value no pair has */
	/* the table between the sides: a block after the configurations */
	char *tail = strstr(text, "\ngeometric mean of B/A");
	assert_non_null(tail);
	tail = strdup(tail);
	char *blk = between(text, "\nclasses that split: ", "\ngeometric mean of B/A");
	for (int m = 0; m < 2; m++) {
		char head[400];
		snprintf(head, sizeof(head), "pingpong class=same-package mode=cas %s: %s",
			 m ? "median_ns" : "min_ns", side_a);
		assert_non_null(strstr(blk, head));
	}
	assert_non_null(strstr(blk, side_b));
	assert_non_null(strstr(blk, "B/A by package: package 0 1.000, package 1 1.000"));
	for (int k = 0; k < 4; k++) { /* the other classes are one group each: not listed */
		char cls[64];
		snprintf(cls, sizeof(cls), "class=%s ", classes[k]);
		assert_true(k == 2 ? strstr(blk, cls) != NULL : strstr(blk, cls) == NULL);
	}
	/* within each side, each file's run summary: the same groups, A's and B's */
	for (int s = 0; s < 2; s++) {
		char *p = strstr(tail, s ? "\n== B: " : "\n== A: "), want[400];
		assert_non_null(p);
		char *e = strstr(p + 1, "\n== ");
		char *part = strndup(p, e ? (size_t)(e - p) : strlen(p));
		snprintf(want, sizeof(want), "cas/same-package min_ns: %s", pkgs);
		if (!strstr(part, want))
			fail_msg("side %c's summary lacks '%s':\n%.3000s", 'A' + s, want, part);
		assert_non_null(strstr(part, "cas/same-package ~ "));
		assert_null(strstr(part, "same-llc min_ns:"));
		free(part);
	}
	free(tail);
	free(text);
	/* --csv: class_split on the same-package lines, empty on the others */
	text = compare_whole(a, b, "--csv", "cmp-split.csv");
	csv_load_text(&t, "compare --csv", text);
	long flagged = 0;
	for (long i = 0; i < t.nrows; i++) {
		const char *cls = csv_cell(&t, i, "class"), *w = csv_cell(&t, i, "class_split");
		if (strcmp(cls, "same-package")) {
			assert_string_equal(w, "");
			continue;
		}
		assert_non_null(strstr(w, "class same-package splits. "));
		assert_non_null(strstr(w, side_a));
		assert_non_null(strstr(w, side_b));
		flagged++;
	}
	assert_int_equal(flagged, 2 * 7680); /* min_ns and median_ns of every same-package pair */
	table_free(&t);
	free(text);
	/* `c2cbench summary` of one side: the same groups, the side's alone */
	text = summary_whole(a, "sum-split.txt");
	assert_null(strstr(text, "150.7")); /* the line is marked, its parts given */
	assert_non_null(strstr(text, "cas/same-package ~"));
	char line[400];
	snprintf(line, sizeof(line), "cas/same-package min_ns: %s", pkgs);
	assert_non_null(strstr(text, line));
	assert_null(strstr(text, "cas/same-llc ~"));
	free(text);
	text = compare_whole(a, b, "--json", "cmp-split.json"); /* the same field in --json */
	assert_non_null(strstr(text, "\"class_split\":\"class same-package splits. A: package "));
	assert_non_null(strstr(text, "\"class_split\":\"\""));
	free(text);
	/* one group per class: no block, no table, no column filled */
	import(&r, DATA "dual-xeon-gold-6242.csv", "linux:2x16x2", g);
	if (r.status)
		fail_msg("%s", r.err);
	text = compare_whole(g, g, "", "cmp-gold.txt");
	assert_non_null(strstr(text, "class=cross-package"));
	assert_null(strstr(text, "classes that split"));
	assert_null(strstr(text, "split at an empty gap"));
	free(text);
	text = summary_whole(g, "sum-gold.txt");
	assert_null(strstr(text, "split at an empty gap"));
	free(text);
	text = compare_whole(g, g, "--csv", "cmp-gold.csv");
	csv_load_text(&t, "compare --csv", text);
	for (long i = 0; i < t.nrows; i++)
		assert_string_equal(csv_cell(&t, i, "class_split"), "");
	table_free(&t);
	free(text);
	free(a);
	free(b);
	free(g);
}

/* A baseline line across classes stands for each side's class, so it names a split one: the 7R13
 * without its cross-package pairs (its farthest class is then same-package) against the Graviton3
 * (one class, same-llc): the farthest line gives A's groups and B's one group; the nearest line
 * (smt, same-llc: neither splits) says nothing of it. */
static void compare_flags_a_split_baseline(void **s)
{
	(void)s;
	struct cmd_result r;
	char *a = subdir("base-split"), *np = subdir("base-split-np"), *g = subdir("base-grav");
	import(&r, DATA "dual-epyc-7r13.csv", "linux:2x48x2/8", a);
	if (r.status)
		fail_msg("%s", r.err);
	import(&r, DATA "aws-graviton3.csv", "linux:1x64x1", g);
	if (r.status)
		fail_msg("%s", r.err);
	char cmd[4096];
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p %s && for f in %s/*.csv; do b=$(basename $f .csv); "
		 "cp %s/$b.bench %s/$b.columns %s/ && awk -F, 'NR == 1 { for (i = 1; i <= NF; "
		 "i++) if ($i == \"class\") c = i } NR == 1 || $c != \"cross-package\"' $f "
		 ">%s/$b.csv || exit 1; done",
		 np, a, a, a, np, np);
	assert_int_equal(system(cmd), 0);
	char *text = compare_whole(np, g, "", "base-split.txt");
	char *far = strstr(text, "farthest: A same-package, B same-llc");
	assert_non_null(far);
	char *near = strstr(text, "nearest: A smt, B same-llc");
	assert_non_null(near);
	assert_non_null(strstr(far, "min_ns: classes split. A (same-package): package 0: "
				    "107.6 ns (3,840 pairs), package 1: 200.5 ns (3,840); no value "
				    "between 115.9 and 185.6 ns. B (same-llc): one group, 46.4 ns "
				    "over 2016 pair(s)."));
	char *split = strstr(near, "classes split");
	assert_true(split && split > far); /* not under the nearest line */
	/* the block between the sides: A splits, B has no same-package pair, no ratio by package */
	char *blk = between(text, "\nclasses that split: ", "\ngeometric mean of B/A");
	assert_non_null(strstr(blk, "pingpong class=same-package mode=cas min_ns: A: package 0: "
				    "107.6 ns (3,840 pairs), package 1: 200.5 ns (3,840); no value "
				    "between 115.9 and 185.6 ns. B: no value of this class."));
	assert_null(strstr(blk, "B/A by package"));
	free(text);
	free(a);
	free(np);
	free(g);
}

/* A full matrix against a run's class probes: the pairs do not join one by one, so each class
 * both sides have is pooled, each side's median over its pairs with their count and B/A. The
 * 7R13's same-llc class (1,344 pairs) against the k1272 reference set's one same-llc pair (a
 * 2-vCPU VM's `pingpong --pairs classes`); same-package splits, so it is left to its own block;
 * the 7R13 against itself joins pair by pair: no such block. */
static void compare_pools_a_class_of_other_pairs(void **s)
{
	(void)s;
	struct cmd_result r;
	char *a = subdir("pool-7r13"), *b = subdir("pool-vm"), cmd[4096];
	import(&r, DATA "dual-epyc-7r13.csv", "linux:2x48x2/8", a);
	if (r.status)
		fail_msg("%s", r.err);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s && cp %s/03-baseline.* %s/", b, K1272, b);
	assert_int_equal(system(cmd), 0);
	char *text = compare_whole(a, b, "", "pool.txt");
	char *blk = between(text, "\neach class whose pairs differ between the sides",
			    "\nclasses that split: ");
	assert_non_null(strstr(blk, "class=same-llc mode=cas "));
	assert_non_null(strstr(blk, "min_ns: A: one group, 22.69 ns over 1344 pair(s). B: one "
				    "group, 209.7 ns over 1 pair(s). B/A 9.242"));
	assert_non_null(strstr(blk, "median_ns: A: one group, 22.69 ns over 1344 pair(s). B: one "
				    "group, 235 ns over 1 pair(s). B/A 10.360"));
	assert_null(strstr(blk, "class=same-package")); /* it splits: the next block's */
	assert_null(strstr(blk, "class=smt"));          /* B has none */
	free(text);
	text = compare_whole(a, a, "", "pool-self.txt");
	assert_null(strstr(text, "each class whose pairs differ"));
	free(text);
	free(a);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(five_fixtures_give_the_readme_table),
	    cmocka_unit_test(linux_shorthand_numbers_as_linux),
	    cmocka_unit_test(every_topology_form),
	    cmocka_unit_test(bad_input_writes_nothing),
	    cmocka_unit_test(impossible_values_are_invalid_rows),
	    cmocka_unit_test(matrix_export_imports_back),
	    cmocka_unit_test(compare_says_the_statistic),
	    cmocka_unit_test(report_states_the_split),
	    cmocka_unit_test(compare_flags_the_split),
	    cmocka_unit_test(compare_flags_a_split_baseline),
	    cmocka_unit_test(compare_pools_a_class_of_other_pairs),
	};
	return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}
