/* report: real results in, Markdown, HTML and PNGs over 1 KB out, gnuplot without a warning;
 * two made-up machines with a known 2x difference; pingpong's class table and heat maps on one
 * colour scale, PUs ordered by package, core and SMT sibling; the HTML page loads in chromium. */
#include "lib/util.h" /* before cmocka, whose fail() macro would rename util.h's fail() */
#include "harness/bench.h"
#include "schema/meta.h"
#include "lib/csvread.h"
#include "tests/report_util.h"

/* These runs feed the report, they do not test the validity rules: on a loaded machine every
 * repetition may fail them, and the report (valid rows only) would have nothing to draw. */
#include "tests/testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char layouts_csv[512], sweep_csv[512];

/* Run report; the test fails with its message when it does not exit 0. */
static char *report_ok(const char *out, const char *in1, const char *in2)
{
	char *md = report_md_of(out, in1, in2);
	md_tables_well_formed(md);
	report_no_gnuplot_warning(out);
	return md;
}

static void report_on_real_results(void **state)
{
	(void)state;
	char out[600], p[700];
	snprintf(out, sizeof(out), "%s/report", test_dir);
	char *md = report_ok(out, layouts_csv, sweep_csv);
	/* the charts where every configuration measured (under load one may not have) */
	int all = every_config_measured(layouts_csv, "layout") &&
		  every_config_measured(sweep_csv, "offset");
	if (all)
		assert_true(report_pngs_ok(out) >= 2);
	assert_non_null(strstr(md, "| shared |"));
	assert_non_null(strstr(md, "| aligned |"));
	assert_true(strstr(md, "| shared |") < strstr(md, "| aligned |")); /* the baseline first */
	struct table t; /* n valid of N, as the CSV has them */
	int n = 0, of = 0;
	char want[48];
	csv_load(&t, layouts_csv);
	for (long i = 0; i < t.nrows; i++)
		if (!strcmp(csv_cell(&t, i, "layout"), "shared")) {
			of++;
			n += row_measured(&t, i);
		}
	table_free(&t);
	snprintf(want, sizeof(want), " | %d of %d |", n, of);
	if (!strstr(md, want))
		fail_msg("no '%s' in the report", want);
	assert_non_null(strstr(md, "drains: no drainer (--drain-us 0)")); /* a whole reason */
	assert_non_null(strstr(md, "Thread scaling: not in these inputs"));
	assert_non_null(
	    strstr(md, "### pending-bit, Layouts\n")); /* nothing differs: a plain title */
	free(md);
	if (!all)
		return;
	snprintf(p, sizeof(p), "%s/plots.gp", out);
	char *gp = slurp(p);
	assert_non_null(strstr(gp, "'64 B: next cache line'")); /* the sweep's lines are labelled */
	assert_non_null(strstr(gp, "'128 B: adjacent-line pair'"));
	assert_non_null(strstr(gp, "set ylabel 'ns per operation'"));
	free(gp);
	assert_true(html_images_load(out) >= 2);
}

/* Two machines, the second 2x slower for the writer: the ratio table says so, with its interval. */
static void report_two_machines_ratio(void **state)
{
	(void)state;
	char csv[600], out[600];
	snprintf(csv, sizeof(csv), "%s/two.csv", test_dir);
	snprintf(out, sizeof(out), "%s/two", test_dir);
	FILE *f = pb_csv(csv);
	for (int rep = 0; rep < 8; rep++)
		for (int m = 0; m < 2; m++) {
			double noise = 1 + 0.01 * (rep % 3);
			pb_row(f, m ? "xeon" : "epyc", m ? "host-b" : "host-a", m ? "Xeon" : "EPYC",
			       "shared", "rmw", rep, (m ? 20 : 10) * noise, 3 * noise, 1);
			pb_row(f, m ? "xeon" : "epyc", m ? "host-b" : "host-a", m ? "Xeon" : "EPYC",
			       "aligned", "rmw", rep, 5 * noise, 3 * noise, 1);
		}
	pb_row(f, "xeon", "host-b", "Xeon", "shared", "rmw", 8, 1000, 1000,
	       0); /* not valid: not used */
	fclose(f);
	char *md = report_ok(out, csv, NULL);
	assert_non_null(strstr(
	    md,
	    "| shared | writer | epyc | 10.1 | xeon | 20.2 | 2.00 | \\[1.9")); /* ratio and CI */
	assert_non_null(
	    strstr(md, "| slower by 2.00x \\[")); /* compare's words (stats/twosample.h) */
	assert_non_null(strstr(md, "| shared | reader | epyc | 3.03 | xeon | 3.03 | 1.00 |"));
	assert_non_null(strstr(md, "8 of 9")); /* the invalid row counted, not pooled */
	assert_non_null(
	    strstr(md, "Line-transfer baseline: none in these inputs")); /* no pingpong: said so */
	assert_non_null(strstr(md, "min\\_duration: 0.1 s &lt; 0.9 s")); /* and why */
	assert_non_null(strstr(md, "drains: no drainer (--drain-us 0; the default)"));
	assert_true(report_pngs_ok(out) >= 1);
	free(md);
	char p[700];
	snprintf(p, sizeof(p), "%s/plots.gp", out);
	char *gp = slurp(p);
	assert_non_null(
	    strstr(gp, "title 'epyc: writer'")); /* both machines in one chart, readable names */
	assert_non_null(strstr(gp, "title 'xeon: writer'"));
	free(gp);
}

/* A made-up 4-PU pingpong on two machines: SMT siblings (0,2) and (1,3) in one package. */
static void report_pingpong_matrix(void **state)
{
	(void)state;
	char csv[600], out[600], p[700];
	snprintf(csv, sizeof(csv), "%s/pp.csv", test_dir);
	snprintf(out, sizeof(out), "%s/pp", test_dir);
	FILE *f = fopen(csv, "w");
	fprintf(f, "schema_version,bench,config,rep,cpu_a,cpu_b,class,mode,samples,round_trips,"
		   "preheat_ms,min_ns,median_ns,host,cpu_model,label\n");
	for (int m = 0; m < 2; m++)
		for (int a = 0; a < 4; a++)
			for (int b = a + 1; b < 4; b++)
				for (int rep = 0; rep < 3; rep++) {
					int smt = (a % 2) == (b % 2);
					double v = (smt ? 10 : 40) * (m ? 2 : 1) + rep;
					fprintf(f,
						"%d,pingpong,%d-%d-cas,%d,%d,%d,%s,cas,20,10,1,%g,%"
						"g,h%d,CPU,m%d\n",
						SCHEMA_VERSION, a, b, rep, a, b,
						smt ? "smt" : "same-llc", v, v + 1, m, m);
				}
	fclose(f);
	char *md = report_ok(out, csv, NULL);
	assert_int_equal(report_pngs_ok(out), 2); /* a heat map per machine, no per-pair charts */
	assert_non_null(strstr(
	    md, "| m0 | smt | 2 | 11 (11..11) |")); /* median over pairs of each pair's median */
	assert_non_null(strstr(md, "| m1 | same-llc | 4 | 81 (81..81) |"));
	free(md);
	snprintf(p, sizeof(p), "%s/plots.gp", out);
	char *gp = slurp(p);
	assert_non_null(strstr(
	    gp, "set xtics ('0' 0, '2' 1, '1' 2, '3' 3)")); /* by core, SMT siblings together */
	const char *c1 = strstr(gp, "set cbrange ["),
		   *c2 = c1 ? strstr(c1 + 1, "set cbrange [") : NULL;
	assert_non_null(c2);
	assert_memory_equal(c1, c2, strcspn(c1, "\n")); /* one colour scale for both machines */
	assert_non_null(strstr(gp, "with labels")); /* small matrix: values printed */
	free(gp);
}

/* Two made-up machines, each with pending-bit layouts and a 4-PU pingpong, the second exactly 2x
 * slower per pair: pingpong's ratio table per class says 2.00x, and the layouts section shows each
 * machine's per-class line-transfer baseline beside it. */
static void report_pingpong_ratio_and_baseline(void **state)
{
	(void)state;
	char pb[600], pp[600], out[600];
	snprintf(pb, sizeof(pb), "%s/ppr-pb.csv", test_dir);
	snprintf(pp, sizeof(pp), "%s/ppr-pp.csv", test_dir);
	snprintf(out, sizeof(out), "%s/ppr", test_dir);
	FILE *f = pb_csv(pb);
	for (int rep = 0; rep < 6; rep++)
		for (int m = 0; m < 2; m++)
			pb_row(f, m ? "xeon" : "epyc", m ? "host-b" : "host-a", m ? "Xeon" : "EPYC",
			       "shared", "rmw", rep, 30 + rep, 3, 1);
	pb_row(f, "arm", "host-c", "Neoverse", "shared", "rmw", 0, 30, 3,
	       1); /* a machine without pingpong rows */
	fclose(f);
	f = fopen(pp, "w");
	assert_non_null(f);
	fprintf(f, "schema_version,bench,config,rep,cpu_a,cpu_b,class,mode,samples,round_trips,"
		   "preheat_ms,min_ns,median_ns,host,cpu_model,label\n");
	for (int m = 0; m < 2; m++)
		for (int a = 0; a < 4; a++)
			for (int b = a + 1; b < 4; b++)
				for (int rep = 0; rep < 6; rep++) {
					int smt = (a % 2) == (b % 2);
					double v = (smt ? 10 : 40) * (m ? 2 : 1) * (1 + 0.01 * rep);
					fprintf(f,
						"%d,pingpong,%d-%d-cas,%d,%d,%d,%s,cas,20,10,1,%g,%"
						"g,host-%s,%s,%s\n",
						SCHEMA_VERSION, a, b, rep, a, b,
						smt ? "smt" : "same-llc", v, v * 1.5, m ? "b" : "a",
						m ? "Xeon" : "EPYC", m ? "xeon" : "epyc");
				}
	fclose(f);
	char *md = report_ok(out, pb, pp);
	/* the ratio table of pingpong, per class: the known 2x, its interval, the verdict */
	const char *r =
	    strstr(md, "| smt | minimum one-way latency | epyc | 10.25 | xeon | 20.5 | 2.00 | \\[");
	if (!r)
		fail_msg("no smt ratio row in:\n%s", md);
	/* min_ns is descriptive (pingpong's verdict is median_ns): an interval, no test */
	assert_non_null(
		strstr(r, "| descriptive: not a verdict metric of its bench, not tested |"));
	/* the two tests of the table (median_ns, two classes) adjusted together (Holm) */
	assert_non_null(
		strstr(md, "This table holds 2 tests of verdict metrics: each verdict uses"));
	r = strstr(md, "| smt | median one-way latency | epyc | 15.38 | xeon | 30.75 | 2.00 |");
	assert_non_null(r);
	assert_non_null(strstr(r, "| 3.49e-05 (Holm 3.49e-05) | slower by 2.00x"));
	assert_non_null(
	    strstr(md, "| same-llc | median one-way latency | epyc | 61.5 | xeon | 123 | 2.00 |"));
	/* the baseline beside the layouts: under pending-bit, before its Layouts charts */
	const char *sec = strstr(md, "## pending-bit"),
		   *base = strstr(md, "Line-transfer baseline of each machine (pingpong");
	const char *lay = sec ? strstr(sec, "### pending-bit, Layouts") : NULL;
	assert_non_null(sec);
	assert_non_null(base);
	assert_non_null(lay);
	assert_true(base > sec && base < lay);
	assert_non_null(strstr(
	    base, "| machine | mode | metric | smt | same-llc | same-package | cross-package |"));
	assert_non_null(
	    strstr(base, "| epyc | cas | minimum one-way latency (ns) | 10.25 (10.25..10.25) | 41 "
			 "(41..41) | NA (no pair of this class) | NA (no pair of this class) |"));
	assert_non_null(strstr(
	    base,
	    "| xeon | cas | minimum one-way latency (ns) | 20.5 (20.5..20.5) | 82 (82..82) |"));
	assert_non_null(strstr(
	    base,
	    "| arm | NA | no rows of this configuration from this machine | NA | NA | NA | NA |"));
	free(md);
}

/* A real pingpong run on this machine reports without per-pair charts. */
static void report_pingpong_real(void **state)
{
	(void)state;
	struct cmd_result r;
	char csv[600], out[600];
	snprintf(csv, sizeof(csv), "%s/pp-real.csv", test_dir);
	snprintf(out, sizeof(out), "%s/pp-real", test_dir);
	run_c2c(&r, "run", "pingpong", "--max-attempts", "1", LENIENT, "--reps", "1", "--samples",
		"20", "--round-trips", "10", "--preheat-ms", "1", "--quiet", "--out", csv, NULL);
	if (!RAN(r.status)) /* 4: pairs judged invalid (an emulated guest) are still rows */
		fail_msg("pingpong failed: %s", r.err);
	char *md = report_ok(out, csv, NULL);
	assert_non_null(strstr(md, "pingpong, Core-to-core latency"));
	assert_int_equal(report_pngs_ok(out), 2); /* one heat map per mode */
	free(md);
}

/* Values spanning three decades get a log axis; a narrow range a linear one from 0. */
static void report_log_axis(void **state)
{
	(void)state;
	char csv[600], out[600], p[700];
	snprintf(csv, sizeof(csv), "%s/decades.csv", test_dir);
	snprintf(out, sizeof(out), "%s/decades", test_dir);
	FILE *f = pb_csv(csv);
	for (int rep = 0; rep < 3; rep++) {
		pb_row(f, "m", "h", "CPU", "shared", "rmw", rep, 1000 + rep, 3, 1);
		pb_row(f, "m", "h", "CPU", "aligned", "rmw", rep, 1 + 0.1 * rep, 3, 1);
		pb_row(f, "m", "h", "CPU", "shared", "test-then-set", rep, 10 + rep, 11, 1);
	}
	fclose(f);
	free(report_ok(out, csv, NULL));
	assert_int_equal(report_pngs_ok(out), 2);
	snprintf(p, sizeof(p), "%s/plots.gp", out);
	char *gp = slurp(p);
	const char *second = strstr(gp, "set output 'b1-v2-g2-1.png'");
	assert_non_null(second);
	const char *log = strstr(gp, "set logscale y");
	assert_true(log && log < second);            /* rmw: 1 to 1000 ns */
	assert_null(strstr(second, "set logscale y")); /* test-then-set: 3 to 12 ns */
	assert_non_null(strstr(second, "set yrange [0:"));
	free(gp);
}

/* An input whose .meta says the run was interrupted is reported, with a warning, never silently. */
static void report_interrupted_input(void **state)
{
	(void)state;
	struct cmd_result r;
	char csv[600], meta[600], out[600], p[700];
	snprintf(csv, sizeof(csv), "%s/cut.csv", test_dir);
	snprintf(meta, sizeof(meta), "%s/cut.meta", test_dir);
	snprintf(out, sizeof(out), "%s/cut", test_dir);
	FILE *f = pb_csv(csv);
	pb_row(f, "m", "h", "CPU", "shared", "rmw", 0, 10, 3, 1);
	fclose(f);
	f = fopen(meta, "w");
	fprintf(f, "[run]\nstatus = interrupted\n");
	fclose(f);
	run_c2c(&r, "report", csv, "-o", out, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "is marked interrupted"));
	snprintf(p, sizeof(p), "%s/report.md", out);
	char *md = slurp(p);
	assert_non_null(strstr(md, "Warning: 1 input(s) are marked interrupted or unfinished"));
	free(md);
}

/* Two machines (hosts) under one label are refused, naming both; nothing is written. */
static void report_label_refused(void **state)
{
	(void)state;
	struct cmd_result r;
	char csv[600], out[600];
	snprintf(csv, sizeof(csv), "%s/label.csv", test_dir);
	snprintf(out, sizeof(out), "%s/label", test_dir);
	FILE *f = pb_csv(csv);
	pb_row(f, "lab", "host-a", "EPYC", "shared", "rmw", 0, 10, 3, 1);
	pb_row(f, "lab", "host-b", "EPYC", "shared", "rmw", 0, 10, 3, 1);
	fclose(f);
	run_c2c(&r, "report", csv, "-o", out, NULL);
	assert_int_equal(r.status, 2);
	assert_int_equal(count_lines(r.err), 1);
	assert_non_null(strstr(r.err, "label 'lab' names two machines"));
	assert_non_null(strstr(r.err, "host-a"));
	assert_non_null(strstr(r.err, "host-b"));
	assert_false(file_exists(out));
}

/* Two made-up machines both labelled vm (tests/data/comparable): two machines in the report, each
 * named by its fingerprint, with the fingerprint's fields in the Machines table. */
static void report_two_fingerprints_one_label(void **state)
{
	(void)state;
	char out[600];
	snprintf(out, sizeof(out), "%s/fp", test_dir);
	char *md = report_ok(out, "tests/data/comparable/a", "tests/data/comparable/b");
	const char *m = strstr(md, "## Machines");
	assert_non_null(m);
	assert_non_null(
		strstr(m, "| vm\\#a9b347 | vm | AMD EPYC | AuthenticAMD 25/1/1 | kvm | a9b347"));
	assert_non_null(strstr(m, "| vm\\#a9b347 | 1/2/2 | 1 | 1 | 6.1.0 |"));
	assert_non_null(
		strstr(m, "| vm\\#8a0d49 | vm | AMD EPYC | AuthenticAMD 26/2/0 | bhyve | 8a0d49"));
	assert_non_null(strstr(m, "| vm\\#8a0d49 | 1/32/32 | 4 | 1 | 6.1.0 |"));
	assert_null(strstr(m, "| vm | vm |")); /* never the two pooled under vm */
	/* joined on placement auto, each machine's resolved placement beside its numbers */
	assert_non_null(strstr(md, "placement\\_requested=auto"));
	assert_non_null(
	    strstr(md,
		   "| vm\\#a9b347 | shared | 12 (10..14) | 7 (5..9) | NA | placement=same-socket "
		   "atomics=lock mem\\_node=0 mem\\_node\\_actual=0 | 5 of 5 |"));
	assert_non_null(
	    strstr(md,
		   "| vm\\#8a0d49 | shared | 24 (20..28) | 14 (10..18) | NA | placement=cross-llc "
		   "atomics=lock mem\\_node=0 mem\\_node\\_actual=0 | 5 of 5 |"));
	assert_non_null(
	    strstr(md, "| placement=spread lazy\\_max\\_effective=49152 mem\\_node=0 "
		       "mem\\_node\\_actual=0 |"));
	free(md);
}

/* tests/data/requested: --mem-node reader (node 0 on one, 1 on two) and shepherd's default
 * --cpus (2 and 8) join on the settings as given; each machine's node and count beside its
 * numbers. */
static void report_requested_node_and_cpus(void **state)
{
	(void)state;
	char out[600];
	snprintf(out, sizeof(out), "%s/requested", test_dir);
	char *md = report_ok(out, "tests/data/requested/one", "tests/data/requested/two");
	assert_non_null(strstr(md, "mem\\_node\\_requested=reader"));
	assert_non_null(strstr(md, "cpus\\_requested=all"));
	assert_non_null(strstr(md, "mem\\_node=0 mem\\_node\\_actual=0 |"));
	assert_non_null(strstr(md, "mem\\_node=1 mem\\_node\\_actual=1 |"));
	assert_non_null(strstr(md, "| cpus=2 |"));
	assert_non_null(strstr(md, "| cpus=8 |"));
	assert_null(strstr(md, "only in"));
	free(md);
}

/* tests/data/described: a bench this build does not have, drawn as its FILE.bench declares: its
 * view's title, metric legend and unit, its variants in the declared order (large, small,
 * medium: neither the files' nor the alphabet's). */
static void report_described_bench(void **state)
{
	(void)state;
	char out[600];
	snprintf(out, sizeof(out), "%s/described", test_dir);
	char *md = report_ok(out, "tests/data/described/a.csv", "tests/data/described/b.csv");
	const char *v = strstr(md, "### sketch, Throughput by size");
	assert_non_null(v);
	const char *l = strstr(v, "| box-a | large | 50 (45..55) | 5 of 5 |"),
		   *s = strstr(v, "| box-a | small | 100 (90..110) | 5 of 5 |"),
		   *m = strstr(v, "| box-a | medium | 80 (72..88) | 5 of 5 |");
	assert_true(l && s && m && l < s && s < m);
	assert_non_null(
		strstr(md, "| sketch large | ops\\_per\\_s | 50 | 100 | 2.00 \\[1.73, 2.32\\] |"));
	assert_null(strstr(md, "wait\\_ns")); /* declared, but neither summary nor view */
	free(md);
}

/* The section between "## NAME" and the next "## ", as a new string. */
static char *section(const char *md, const char *name)
{
	const char *s = strstr(md, name);
	assert_non_null(s);
	const char *e = strstr(s + strlen(name), "\n## ");
	size_t n = e ? (size_t)(e - s) : strlen(s);
	char *out = xcalloc(n + 1, 1);
	memcpy(out, s, n);
	return out;
}

/* tests/data/comparable (B exactly 2x A): the report opens with the summary, which gives each
 * bench's verdict per machine pair with its interval, names each machine's resolved placement
 * and the pingpong classes only one machine has;
 * in chromium the summary is the first section, every chart has data, no table is too wide. */
static void report_summary_first(void **state)
{
	(void)state;
	char out[600];
	snprintf(out, sizeof(out), "%s/summary", test_dir);
	char *md = report_ok(out, "tests/data/comparable/a", "tests/data/comparable/b");
	const char *h2 = strstr(md, "\n## ");
	assert_non_null(h2);
	assert_memory_equal(h2, "\n## Summary\n", 12); /* before Machines and every detail */
	char *sum = section(md, "## Summary");
	/* a line per bench, before anything else: compare's lines, family and words */
	const char *det = strstr(sum, "### Details");
	assert_non_null(det);
	const char *lead =
		strstr(sum, "pending-bit, A = vm\\#a9b347, B = vm\\#8a0d49: 2 of 2 test(s) "
			    "changed, B slower in 2; the largest: writer\\_ns\\_per\\_op of "
			    "pending-bit shared, B slower by 2.00x \\[1.57, 2.55\\].");
	if (!lead || lead > det)
		fail_msg("no pending-bit line before the details:\n%s", sum);
	assert_true(
		strstr(sum, "vmalloc, A = vm\\#a9b347, B = vm\\#8a0d49: 1 of 1 test(s) changed") <
		det);
	assert_true(
		strstr(sum, "pingpong, A = vm\\#a9b347, B = vm\\#8a0d49: 1 of 1 test(s) changed") <
		det);
	assert_non_null(
		strstr(det, "pending-bit, A = vm\\#a9b347 (placement same-socket), B = vm\\#8a0d49 "
			    "(placement cross-llc):"));
	assert_non_null(strstr(det, "| pending-bit shared | writer\\_ns\\_per\\_op | 12 | 24 | "
				    "2.00 \\[1.57, 2.55\\] | 0.00794 (Holm 0.0159) | "
				    "slower by 2.00x \\[1.57, 2.55\\] |"));
	assert_non_null(strstr(
		sum,
		"vmalloc, A = vm\\#a9b347 (placement spread), B = vm\\#8a0d49 (placement spread)"));
	assert_non_null(strstr(sum, "| Core-to-core latency: mode load-store, class same-llc | "
				    "median one-way latency (ns) | 62 | 124 |"));
	/* pingpong joins by class; the class only B has is named, not dropped in silence */
	assert_non_null(strstr(sum, "Classes measured on one machine only, not compared: "
				    "cross-package (vm\\#8a0d49 only)."));
	free(sum);
	free(md);
	assert_true(report_charts_have_data(out) >= 2);
	assert_true(html_images_load(out) >= 2);
}

/* Two machines with the same values, 3 repetitions each: no verdict word without a called
 * change, inconclusive with the reason (3 a side cannot reach p < 0.05); whiskers are the CI of the
 * median, not min..max (one repetition of 8 at 100x does not stretch them). */
/* What a set is comes first: a set that measured nothing (every row invalid) and one judged with
 * relaxed validity (tests/data/verdict-context/relaxed) are named at the top of the Summary, before
 * any verdict, as headless chromium renders it. */
static void report_names_what_a_set_is(void **state)
{
	(void)state;
	char dir[600], csv[700], out[600], dom[700];
	snprintf(dir, sizeof(dir), "%s/nothing", test_dir);
	snprintf(out, sizeof(out), "%s/sets", test_dir);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(csv, sizeof(csv), "%s/01-pending-bit.csv", dir);
	char *text = slurp("tests/data/verdict-context/strict/01-pending-bit.csv");
	assert_non_null(text);
	FILE *f = fopen(csv, "w");
	assert_non_null(f);
	for (char *line = strtok(text, "\n"), *first = line; line; line = strtok(NULL, "\n")) {
		if (line == first) {
			fprintf(f, "%s,invalid_reason\n", line);
			continue;
		}
		char *v = strstr(line, ",yes,"), *m = strstr(line, "m-strict,m-strict");
		assert_true(v && m);
		fprintf(f, "%.*s,no,%.*sm-nothing,m-nothing%s,oncpu: made up\n", (int)(v - line),
			line, (int)(m - v - 5), v + 5, m + strlen("m-strict,m-strict"));
	}
	fclose(f);
	free(text);
	char *md = report_ok(out, "tests/data/verdict-context/relaxed", dir);
	char *sum = section(md, "## Summary");
	const char *nothing = strstr(sum, "m-nothing measured nothing: none of its 5 row(s) is "
					  "valid"),
		   *relaxed = strstr(sum, "m-relaxed was judged with relaxed validity "
					  "(--valid-oncpu 0)"),
		   *lead = strstr(sum, "A line per bench and pair of machines");
	if (!nothing || !relaxed || !lead || nothing > lead || relaxed > lead)
		fail_msg("the sets are not named first:\n%s", sum);
	free(sum);
	free(md);
	html_images_load(out); /* the Summary is the first section; its DOM kept in dom.txt */
	snprintf(dom, sizeof(dom), "%s/dom.txt", out);
	char *d = slurp(dom);
	assert_non_null(d);
	const char *h = strstr(d, ">Summary</h2>"), *n = strstr(d, "m-nothing measured nothing"),
		   *r = strstr(d, "was judged with relaxed validity");
	if (!h || !n || !r || n < h || r < h)
		fail_msg("chromium does not show the sets at the top of the Summary");
	free(d);
}

static void report_summary_no_change(void **state)
{
	(void)state;
	char csv[600], out[600], p[700];
	snprintf(csv, sizeof(csv), "%s/same.csv", test_dir);
	snprintf(out, sizeof(out), "%s/same", test_dir);
	FILE *f = pb_csv(csv);
	for (int rep = 0; rep < 3; rep++)
		for (int m = 0; m < 2; m++)
			pb_row(f, m ? "b" : "a", m ? "host-b" : "host-a", "CPU", "shared", "rmw",
			       rep, 10 + rep, 3 + 0.1 * rep, 1);
	for (int rep = 0; rep < 8; rep++) /* machine a only: an outlier among 8 */
		pb_row(f, "a", "host-a", "CPU", "aligned", "rmw", rep, rep == 7 ? 1000 : 10, 3, 1);
	fclose(f);
	char *md = report_ok(out, csv, NULL);
	char *sum = section(md, "## Summary");
	if (!strstr(sum,
		    "pending-bit, A = a, B = b: inconclusive, 2 of 2 test(s) undecided: 3 "
		    "repetitions a side cannot reach p &lt; 0.05 over this family's 2 tests; 5 a "
		    "side can."))
		fail_msg("summary: %s", sum);
	assert_non_null(strstr(sum, "| inconclusive: 3 repetitions a side cannot reach p &lt; "
				    "0.05 over this family's 2 tests; 5 a side can |"));
	assert_null(strstr(sum, "slower"));
	assert_null(strstr(sum, "faster"));
	free(sum);
	assert_non_null(strstr(md, "whiskers: its 95% bootstrap confidence interval"));
	assert_non_null(
		strstr(md, "| a | aligned | 10 (10..1000) |")); /* the table keeps min..max */
	free(md);
	snprintf(p, sizeof(p), "%s/data/b1-v2-g1-1.dat", out);
	char *dat = slurp(p);
	assert_non_null(dat);
	assert_non_null(strstr(dat, "# per series: median, 95% CI low, 95% CI high"));
	if (!strstr(dat,
		    "\n1 10 10 10 ")) /* aligned, machine a's writer: CI 10..10, not 10..1000 */
		fail_msg("data: %s", dat);
	free(dat);
	assert_true(html_images_load(out) >= 1);
}

/* A metric that is 0 in every row and one NA in every row get a line each, never an empty chart;
 * values in the hundreds of milliseconds read ms on the axis and in the table. */
static void report_empty_charts_and_units(void **state)
{
	(void)state;
	char csv[600], out[600], p[700];
	snprintf(csv, sizeof(csv), "%s/zero.csv", test_dir);
	snprintf(out, sizeof(out), "%s/zero", test_dir);
	FILE *f = pb_csv(csv);
	for (int rep = 0; rep < 3; rep++) {
		pb_row(f, "m", "h", "CPU", "shared", "rmw", rep, 0, 0, 1);
		pb_row(f, "m", "h", "CPU", "shared", "test-then-set", rep, 3.5e8 + 1e6 * rep, 3.4e8,
		       1);
	}
	fclose(f);
	char *md = report_ok(out, csv, NULL);
	assert_non_null(
		strstr(md, "writer, reader: no chart: every value is 0 (nothing to draw)."));
	assert_int_equal(report_pngs_ok(out), 1); /* test-then-set's only */
	assert_int_equal(report_charts_have_data(out), 1);
	assert_non_null(strstr(md, "| m | shared | 351 ms (350 ms..352 ms) |"));
	assert_null(strstr(md, "e+0"));
	free(md);
	snprintf(p, sizeof(p), "%s/plots.gp", out);
	char *gp = slurp(p);
	assert_non_null(strstr(gp, "set ylabel 'ms per operation'"));
	assert_null(strstr(gp, "set ylabel 'ns per operation'"));
	free(gp);
	assert_int_equal(html_images_load(out), 1);
}

/* A reason cut at 1,023 bytes by an older c2cbench is one row that says so, never its piece. */
static void report_cut_reason(void **state)
{
	(void)state;
	char csv[600], out[600], reason[1100] = "";
	snprintf(csv, sizeof(csv), "%s/cutreason.csv", test_dir);
	snprintf(out, sizeof(out), "%s/cutreason", test_dir);
	size_t n = 0;
	for (int i = 0; n < 1023; i++)
		n += (size_t)snprintf(reason + n, sizeof(reason) - n, "%scol%d: not measured here",
				      i ? "; " : "", i);
	reason[1023] = 0; /* as row.h's 1,024 bytes held it */
	FILE *f = fopen(csv, "w");
	assert_non_null(f);
	fprintf(f, "schema_version,bench,layout,rep,policy,placement,writer_ns_per_op,reader_ns_"
		   "per_op,hitm_per,thread_window_ns,host,label,valid,na_reason\n");
	for (int rep = 0; rep < 2; rep++) /* each its own window: a repeated row is a copy */
		fprintf(f, "%d,pending-bit,shared,%d,rmw,same-socket,10,3,NA,%d,h,m,yes,\"%s\"\n",
			SCHEMA_VERSION, rep, 1000000000 + rep, reason);
	fclose(f);
	char *md = report_ok(out, csv, NULL);
	char *na = section(md, "## Values not measured");
	assert_non_null(strstr(
		na,
		"| m | reason lost: this row's na\\_reason was cut at 1,023 bytes when written"));
	assert_non_null(strstr(na, "| 2 | hitm\\_per |")); /* its column is under that reason */
	assert_null(strstr(na, "no reason recorded"));
	const char *last = strrchr(reason, ';') + 2; /* the piece: never a reason row */
	char piece[64];
	snprintf(piece, sizeof(piece), "| m | %.20s", last);
	assert_null(strstr(na, piece));
	free(na);
	free(md);
}

static void report_bad_input(void **state)
{
	(void)state;
	struct cmd_result r;
	char out[600];
	snprintf(out, sizeof(out), "%s/bad", test_dir);
	run_c2c(&r, "report", "/nonexistent.csv", "-o", out, NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "/nonexistent.csv': No such file or directory; accepted: "));
	run_c2c(&r, "report", layouts_csv, NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "report needs -o DIR"));
	assert_false(file_exists(out));
}

/* Made-up rows with two probe clusters: machine b's shared layout ran 4 repetitions on a 30 ns
 * placement at a's speed and 4 on a 300 ns one at half of it. The detail tables give each class
 * its own row and ratio line (never the pooled median, 15), and adjust their p values together. */
static void report_details_by_probe_class(void **state)
{
	(void)state;
	char csv[600], out[600];
	snprintf(csv, sizeof(csv), "%s/classes.csv", test_dir);
	snprintf(out, sizeof(out), "%s/classes", test_dir);
	FILE *f = fopen(csv, "w");
	assert_non_null(f);
	fprintf(f, "schema_version,bench,layout,rep,offset,policy,placement,writers,readers,"
		   "mem_node,work_ns,drain_us,duration_requested_s,warmup_requested_s,"
		   "writer_ns_per_op,reader_ns_per_op,probe_pairs,probe_before_ns,"
		   "probe_after_ns,host,cpu_model,label,valid,na_reason\n");
	for (int rep = 0; rep < 8; rep++)
		for (int m = 0; m < 2; m++) {
			int far = m && rep >= 4; /* b's last four: the 300 ns placement */
			double probe = m ? (far ? 300 : 30) + rep % 2 : 60 + rep % 2;
			fprintf(f,
				"%d,pending-bit,shared,%d,32,rmw,same-socket,1,1,0,0,0,1,0.2,%.2f,"
				"NA,0-1,%g,%g,host-%s,CPU,%s,yes,reader_ns_per_op: not measured "
				"here\n",
				SCHEMA_VERSION, rep, (far ? 20 : 10) + 0.1 * rep, probe, probe,
				m ? "b" : "a", m ? "b" : "a");
		}
	fclose(f);
	char *md = report_ok(out, csv, NULL);
	char *det = strstr(md, "### pending-bit, Layouts");
	if (!det)
		fail_msg("no Layouts section in:\n%.3000s", md);
	const char *want[] = {
		"| machine | layout | probe class | writer (ns per operation) |",
		"| a | shared | 60-61 ns | 10.35 (10..10.7) |",
		"| b | shared | 30-31 ns | 10.15 (10..10.3) |",
		"| b | shared | 300-301 ns | 20.55 (20.4..20.7) |",
		"This table holds 2 tests of verdict metrics: each verdict uses its p adjusted "
		"over them (Holm;",
		"| shared; b 30-31 ns (4) | writer | a | 10.35 | b | 10.15 | 0.98 |",
		"| shared; b 300-301 ns (4) | writer | a | 10.35 | b | 20.55 | 1.99 |",
		"(Holm 0.00808) | slower by 1.99x",
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (!strstr(det, want[i]))
			fail_msg("the details lack '%s' in:\n%.4000s", want[i], det);
	if (strstr(det, "| shared | writer |") || strstr(det, "| b | shared | 15"))
		fail_msg("the details pool b's two probe classes:\n%.4000s", det);
	free(md);
}

static int setup(void **state)
{
	(void)state;
	struct cmd_result r;
	test_dir_setup(NULL);
	snprintf(layouts_csv, sizeof(layouts_csv), "%s/layouts.csv", test_dir);
	snprintf(sweep_csv, sizeof(sweep_csv), "%s/sweep.csv", test_dir);
	run_c2c(&r, "run", "pending-bit", "--duration", "0.05", "--warmup", "0.01",
		"--max-attempts", "1", LENIENT, "--reps", "2", "--quiet", "--layout",
		"shared,aligned", "--out", layouts_csv, NULL);
	/* 4: a layout measured nothing (a loaded host): reported all the same */
	if (!RAN(r.status)) {
		fprintf(stderr, "setup: layouts run: status %d: %s\n", r.status, r.err);
		return -1;
	}
	run_c2c(&r, "run", "pending-bit", "--duration", "0.03", "--warmup", "0.01",
		"--max-attempts", "1", LENIENT, "--reps", "2", "--quiet", "--offset-sweep",
		"8:136:64", "--out", sweep_csv, NULL);
	if (!RAN(r.status))
		fprintf(stderr, "setup: sweep run: status %d: %s\n", r.status, r.err);
	return RAN(r.status) ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(report_on_real_results),
		cmocka_unit_test(report_two_machines_ratio),
		cmocka_unit_test(report_names_what_a_set_is),
		cmocka_unit_test(report_details_by_probe_class),
		cmocka_unit_test(report_pingpong_matrix),
		cmocka_unit_test(report_pingpong_real),
		cmocka_unit_test(report_pingpong_ratio_and_baseline),
		cmocka_unit_test(report_log_axis),
		cmocka_unit_test(report_interrupted_input),
		cmocka_unit_test(report_label_refused),
		cmocka_unit_test(report_bad_input),
		cmocka_unit_test(report_two_fingerprints_one_label),
		cmocka_unit_test(report_requested_node_and_cpus),
		cmocka_unit_test(report_described_bench),
		cmocka_unit_test(report_summary_first),
		cmocka_unit_test(report_summary_no_change),
		cmocka_unit_test(report_empty_charts_and_units),
		cmocka_unit_test(report_cut_reason),
	};
	return cmocka_run_group_tests(tests, setup, test_dir_teardown);
}
