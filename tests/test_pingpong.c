/* pingpong through the real binary: the CSV matrix, the per-class summary, planning on a
 * synthetic two-package topology, and bad pairs or CPU lists refused with one line and exit 2. */
#include "lib/util.h" /* before cmocka, which defines a fail() macro */
#include "tests/testutil.h"
#include "lib/csvread.h"
#include "analysis/runsum_int.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define FAST "--samples", "20", "--round-trips", "5", "--preheat-ms", "1"
#define SYN "synthetic:pack:2 l3:2 core:4 pu:2"

/* The pair of real runs: the first two CPUs this process may use (CPUs 0 and 1 need not be, under
 * taskset or a container's cpuset); the calling test skips where there are fewer. */
static int cpu_a = -1, cpu_b = -1;
static const char *pair_cpus(void)
{
	static char list[48];
	if (two_usable_cpus(&cpu_a, &cpu_b)) {
		print_message("skipped: a pair needs two CPUs this process may use\n");
		skip();
	}
	snprintf(list, sizeof(list), "cpus:%d,%d", cpu_a, cpu_b);
	return list;
}

/* 1 when the sysfs CPU list in file path (e.g. "0-3,8") names cpu; -1 when it cannot be read. */
static int sysfs_list_has(const char *path, int cpu)
{
	char *text = slurp(path);
	if (!text)
		return -1;
	int hit = 0;
	for (char *p = text; *p && !hit;) {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;
		if (end == p)
			break;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		hit = cpu >= lo && cpu <= hi;
		p = *end == ',' ? end + 1 : end;
	}
	free(text);
	return hit;
}

/* The class of pair (a, b) as this machine's sysfs says (not c2cbench's topology code), written
 * into want as "c1" or "c1|c2" where sysfs lists no caches (hwloc may find them elsewhere, e.g.
 * from CPUID, so same-llc and same-package cannot be told apart from sysfs alone). */
static void sysfs_class(int a, int b, char *want, size_t n)
{
	char path[160];
	const char *cpu = "/sys/devices/system/cpu/cpu";
	snprintf(path, sizeof(path), "%s%d/topology/thread_siblings_list", cpu, a);
	if (sysfs_list_has(path, b) == 1) {
		snprintf(want, n, "smt");
		return;
	}
	if (sysfs_cpu_package(a) != sysfs_cpu_package(b)) {
		snprintf(want, n, "cross-package");
		return;
	}
	int caches = 0, shared = 0;
	for (int i = 0; i < 16; i++) { /* any data or unified cache a shares with b: same-llc */
		snprintf(path, sizeof(path), "%s%d/cache/index%d/type", cpu, a, i);
		char *type = slurp(path);
		int code = type && !strncmp(type, "Instruction", 11);
		free(type);
		if (code)
			continue;
		snprintf(path, sizeof(path), "%s%d/cache/index%d/shared_cpu_list", cpu, a, i);
		int h = sysfs_list_has(path, b);
		caches += h >= 0;
		shared |= h == 1;
	}
	snprintf(want, n, "%s",
		 !caches ? "same-llc|same-package" : shared ? "same-llc" : "same-package");
}

static void test_csv_rows(void **state)
{
	const char *pl = pair_cpus();
	struct cmd_result *r = calloc(1, sizeof(*r));
	char *dir = temp_dir(), csv[256], want_a[16], want_b[16];
	(void)state;
	snprintf(csv, sizeof(csv), "%s/pp.csv", dir);
	snprintf(want_a, sizeof(want_a), "%d", cpu_a);
	snprintf(want_b, sizeof(want_b), "%d", cpu_b);
	run_c2c(r, "run", "pingpong", "--placement", pl, FAST, "--max-attempts", "1", "--reps", "2",
		LENIENT, "--out", csv, NULL);
	/* 4: a configuration got no valid repetition (a loaded host): its rows are still written,
	 * each invalid one with its reason, and they are what is checked */
	if (!RAN(r->status))
		fail_msg("exit %d: %s", r->status, r->err);
	struct table t;
	csv_load(&t, csv);
	assert_int_equal(t.nrows, 1 * 2 * 2); /* 1 pair x 2 modes x 2 reps */
	int modes[2] = { 0 }, measured = 0;
	for (long row = 0; row < t.nrows; row++) {
		const char *a = csv_cell(&t, row, "cpu_a"), *b = csv_cell(&t, row, "cpu_b");
		const char *c = csv_cell(&t, row, "class"), *m = csv_cell(&t, row, "mode");
		const char *lo = csv_cell(&t, row, "min_ns"), *med = csv_cell(&t, row, "median_ns");
		const char *e = csv_cell(&t, row, "expected_transfers_per_handoff");
		assert_string_equal(a, want_a);
		assert_string_equal(b, want_b);
		char want[48], any[52], one[40];
		sysfs_class(cpu_a, cpu_b, want, sizeof(want));
		snprintf(any, sizeof(any), "|%s|", want);
		snprintf(one, sizeof(one), "|%.36s|", c);
		if (!strstr(any, one))
			fail_msg("pair %s-%s: class %s, but sysfs says %s", a, b, c, want);
		int ok = row_measured(&t, row); /* an invalid row gives its reason */
		measured += ok;
		if (ok || strcmp(lo, "NA")) /* an invalid attempt keeps what it timed, or NA */
			assert_true(atof(lo) > 0 && atof(lo) <= atof(med));
		modes[!strcmp(m, "cas")]++;
		assert_string_equal(e, !strcmp(m, "cas") ? "NA" : "1");
	}
	assert_int_equal(modes[0], 2);
	assert_int_equal(modes[1], 2);
	assert_non_null(strstr(r->out, "load-store/"));
	assert_non_null(strstr(r->out, "cas/"));
	if (r->status == 0)
		assert_true(measured >= 2); /* each mode a valid repetition */
	if (measured) { /* the flagged configurations are counted over the valid rows */
		assert_non_null(strstr(r->out, "config with CV above 5%"));
	} else { /* no valid value: the summary says so, and the end lines name both */
		char both[96];
		snprintf(both, sizeof(both), "config %d-%d/load-store, config %d-%d/cas", cpu_a,
			 cpu_b, cpu_a, cpu_b);
		print_message("every attempt invalid (exit 4): no CV line to check\n");
		assert_non_null(strstr(r->out, "NA (no valid value)"));
		check_measured_nothing(r->err, csv, both);
	}
	table_free(&t);
	rm_rf(dir);
	free(dir);
	free(r);
}

/* --cv-warn 0 flags every configuration whose repetitions differ at all. */
static void test_cv_warn_flags(void **state)
{
	const char *pl = pair_cpus();
	struct cmd_result *r = calloc(1, sizeof(*r));
	char *dir = temp_dir(), csv[256], worst[64];
	(void)state;
	snprintf(csv, sizeof(csv), "%s/pp.csv", dir);
	/* a CV needs two valid repetitions: up to 10 attempts each. With 3, on a host loaded by a
	 * guest beside the suite, the flag was missing once (that summary was not kept: it is
	 * printed now when the flag is missing) */
	run_c2c(r, "run", "pingpong", "--placement", pl, FAST, "--max-attempts", "10", LENIENT,
		"--reps", "3", "--mode", "cas", "--cv-warn", "0", "--out", csv, NULL);
	if (!RAN(r->status))
		fail_msg("exit %d: %s", r->status, r->err);
	if (r->status == 4) { /* 30 attempts invalid (a loaded host): no CV, nothing to flag */
		char one[48];
		snprintf(one, sizeof(one), "config %d-%d/cas", cpu_a, cpu_b);
		check_measured_nothing(r->err, csv, one);
		assert_null(strstr(r->out, "%)!"));
		print_message("every attempt invalid (exit 4): the CV flag is not checked\n");
		rm_rf(dir);
		free(dir);
		free(r);
		return;
	}
	if (!strstr(r->out, "%)!"))
		print_message("no CV flag in the summary:\n%s", r->out);
	assert_non_null(strstr(r->out, "%)!"));
	snprintf(worst, sizeof(worst), "config with CV above 0%%: 1 of 1 (worst: %d-%d/cas", cpu_a,
		 cpu_b);
	assert_non_null(strstr(r->out, worst));
	rm_rf(dir);
	free(dir);
	free(r);
}

static void test_dry_run_synthetic(void **state)
{
	struct cmd_result *r = calloc(1, sizeof(*r));
	(void)state;
	run_c2c(r, "run", "pingpong", "--topology", SYN, "--dry-run", "--pairs", "classes", NULL);
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "0      1      smt"));
	assert_non_null(strstr(r->out, "0      2      same-llc"));
	assert_non_null(strstr(r->out, "0      8      same-package"));
	assert_non_null(strstr(r->out, "0      16     cross-package"));
	assert_non_null(strstr(r->out, "8 variant(s)")); /* 4 pairs x 2 modes */
	assert_non_null(strstr(r->err, "4 pair(s) of 32 PU(s)"));
	run_c2c(r, "run", "pingpong", "--topology", SYN, "--dry-run", "--placement", "cpus:0,1,16",
		NULL);
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "0      1      smt"));
	assert_non_null(strstr(r->out, "0      16     cross-package"));
	assert_non_null(strstr(r->out, "1      16     cross-package"));
	assert_non_null(strstr(r->err, "3 pair(s) of 3 PU(s)"));
	run_c2c(r, "run", "pingpong", "--topology", SYN, "--dry-run", "--pairs", "vs:5", "--mode",
		"cas", NULL);
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "31 variant(s)"));
	free(r);
}


/* The CSV of one run as the values of one column per data row, joined by spaces. */
static void column(const char *csv, const char *name, char *out, size_t n)
{
	struct table t;
	csv_load_text(&t, "pingpong.csv", csv);
	out[0] = 0;
	for (long row = 0; row < t.nrows; row++)
		snprintf(out + strlen(out), n - strlen(out), "%s%s", out[0] ? " " : "",
			 csv_cell(&t, row, name));
	table_free(&t);
}

/* On two PUs --concurrent auto has one pair, so it measures what --concurrent 1 measures: the
 * same rows, one pair at once, one round; only auto carries the alone/concurrent sample. */
static void test_concurrent_auto_equals_one(void **state)
{
	const char *pl = pair_cpus();
	struct cmd_result *r = calloc(1, sizeof(*r));
	char csv1[256], csva[256], mat[256], v[256];
	(void)state;
	snprintf(csv1, sizeof(csv1), "%s/one.csv", test_dir);
	snprintf(csva, sizeof(csva), "%s/auto.csv", test_dir);
	snprintf(mat, sizeof(mat), "%s/matrix.csv", test_dir);
	run_c2c(r, "run", "pingpong", "--placement", pl, FAST, "--max-attempts", "1", "--reps", "2",
		"--concurrent", "1", LENIENT, "--out", csv1, NULL);
	/* 4 (a loaded host): every attempt of a configuration invalid. What is compared does not
	 * depend on validity: the rows' columns, the accuracy check's and the matrix's min_ns (the
	 * median over every repetition's row, invalid ones too, as an exit-4 run shows) */
	if (!RAN(r->status))
		fail_msg("exit %d: %s", r->status, r->err);
	run_c2c(r, "run", "pingpong", "--placement", pl, FAST, "--max-attempts", "1", "--reps", "2",
		"--concurrent", "auto", "--lines", "2", LENIENT,
		"--matrix", mat, "--out", csva, NULL);
	if (!RAN(r->status))
		fail_msg("exit %d: %s", r->status, r->err);
	assert_non_null(strstr(r->err, "accuracy check, load-store, up to 1 pair(s) at once"));
	char *one = slurp(csv1), *au = slurp(csva), *m = slurp(mat);
	assert_non_null(one);
	assert_non_null(au);
	assert_int_equal(count_lines(one), count_lines(au));
	const char *same[] = { "cpu_a",	 "cpu_b",	 "class", "concurrent", "round",
			       "rounds", "mem_node_requested", "pkg_a", "core_b",	NULL };
	for (int i = 0; same[i]; i++) {
		char w[256];
		column(one, same[i], v, sizeof(v));
		column(au, same[i], w, sizeof(w));
		assert_string_equal(v, w);
	}
	column(au, "concurrent", v, sizeof(v));
	assert_string_equal(v, "1 1 1 1");
	column(au, "concurrent_req", v, sizeof(v));
	assert_string_equal(v, "auto auto auto auto");
	column(au, "lines", v, sizeof(v));
	assert_string_equal(v, "2 2 2 2");
	column(one, "check_alone_median_ns", v, sizeof(v));
	assert_string_equal(v, "NA NA NA NA");
	column(au, "check_alone_median_ns", v, sizeof(v));
	assert_true(atof(v) > 0 && !strstr(v, "NA"));
	column(au, "check_class_ratio", v, sizeof(v));
	assert_true(atof(v) > 0 && !strstr(v, "NA"));
	column(au, "check_status", v, sizeof(v));
	assert_true(!strncmp(v, "ok", 2) || !strncmp(v, "outside", 7));
	column(au, "line_addr", v, sizeof(v));
	assert_true(!strncmp(v, "0x", 2));
	column(au, "mem_node_actual", v, sizeof(v));
	assert_true(v[0] >= '0' && v[0] <= '9');
	column(au, "mem_node", v, sizeof(v)); /* --home first: no node planned, NA */
	assert_string_equal(v, "NA NA NA NA");
	/* the matrix: 2 x 2 in the CSV's load-store figure, empty diagonal */
	assert_non_null(m);
	assert_int_equal(count_lines(m), 2);
	assert_true(m[0] == ',' && atof(m + 1) > 0);
	/* a view of the CSV (benches/pingpong/README.md): the cell is the median over repetitions
	 * of the first mode's min_ns, printed %.2f */
	struct table t;
	char err[ERRLEN];
	double ns[8];
	int n = 0;
	assert_int_equal(table_parse(&t, csva, au, strlen(au), err), 0);
	for (long i = 0; i < t.nrows; i++)
		if (!strcmp(table_get(&t, i, "mode"), "load-store") && n < 8)
			ns[n++] = atof(table_get(&t, i, "min_ns"));
	table_free(&t);
	assert_int_equal(n, 2); /* --reps 2, --max-attempts 1: one row each */
	if (fabs(atof(m + 1) - (ns[0] + ns[1]) / 2) > 0.011)
		fail_msg("matrix cell %.10s is not the median of min_ns %.2f and %.2f", m + 1,
			 ns[0], ns[1]);
	free(one);
	free(au);
	free(m);
	free(r);
}

/* --dry-run "pingpong: P pair(s) ..." line: the numbers after the given words. */
static long after(const char *s, const char *word)
{
	const char *p = strstr(s, word);
	if (!p)
		fail_msg("no '%s' in: %.300s", word, s);
	while (p > s && p[-1] == ' ')
		p--;
	while (p > s && p[-1] != ' ' && p[-1] != '(')
		p--;
	return atol(p);
}

static double cpu_s(const struct rusage *u)
{
	return (double)(u->ru_utime.tv_sec + u->ru_stime.tv_sec) +
		(double)(u->ru_utime.tv_usec + u->ru_stime.tv_usec) / 1e6;
}

/* The dry-run plan on synthetic machines of 8 to 512 PUs: pairs, rounds, pairs at once, the ETA
 * as h:mm:ss; --pairs all on 256 PUs with --concurrent auto plans under ten minutes. */
static void plan(const char *topo, const char *pairs, const char *conc, long want_pairs,
		 long want_rounds, long want_at_once)
{
	struct cmd_result *r = calloc(1, sizeof(*r));
	struct rusage u0, u1;
	getrusage(RUSAGE_CHILDREN, &u0);
	run_c2c(r, "run", "pingpong", "--topology", topo, "--dry-run", "--pairs", pairs,
		"--concurrent", conc, NULL);
	getrusage(RUSAGE_CHILDREN, &u1);
	double s = cpu_s(&u1) -
		cpu_s(&u0); /* the child's CPU time: not what the other tenants of this VM take */
	assert_int_equal(r->status, 0);
	text_unwrap(r->out); /* the plan line is wrapped at 100 columns */
	assert_int_equal(after(r->out, "pair(s) of"), want_pairs);
	if (want_rounds)
		assert_int_equal(after(r->out, "round(s);"), want_rounds);
	assert_int_equal(after(r->out, "pair(s) at once"), want_at_once);
	const char *eta = strstr(r->out, "ETA ");
	assert_non_null(eta);
	int h, m, sec;
	assert_int_equal(sscanf(eta, "ETA %d:%d:%d", &h, &m, &sec), 3);
	if (!strcmp(pairs, "all") && !strcmp(conc, "auto") && want_pairs == 32640)
		assert_true(h == 0 && m < 10);
	/* generous: a plan, not a benchmark (a TCG guest runs it 10-20x slower; qemu-user more) */
	double limit = getenv("C2C_UNDER_QEMU") ? 30.0 : 10.0;
	if (s >= limit)
		fail_msg("%s --pairs %s: the plan took %.2f s of CPU; it must print in under %.0f "
			 "s",
			 topo, pairs, s, limit);
	free(r);
}

static void test_dry_run_plans(void **state)
{
	(void)state;
	plan("synthetic:pack:1 core:8 pu:1", "auto", "auto", 28, 7, 4);
	plan("synthetic:pack:1 core:4 pu:2", "all", "1", 28, 28, 1);
	plan("synthetic:pack:2 core:32 pu:1", "auto", "auto", 2016, 63, 32);
	plan("synthetic:pack:2 core:32 pu:1", "all", "8", 2016, 63 * 4, 8);
	/* more than 64 PUs: auto is classes plus vs:0, every pair with PU 0, one pair per round */
	plan("synthetic:pack:2 numa:1 core:64 pu:2", "auto", "auto", 255, 255, 1);
	/* auto: pairs on distinct PUs (SMT siblings may each run one), the 255 circle rounds of 128
	 */
	plan("synthetic:pack:2 numa:1 core:64 pu:2", "all", "auto", 32640, 255, 128);
	plan("synthetic:pack:2 numa:2 core:64 pu:2", "auto", "auto", 511, 511, 1);
	plan("synthetic:pack:2 numa:2 core:64 pu:2", "classes", "auto", 3, 3,
	     1); /* all with PU 0 */
}

static void expect_bad(const char *a, const char *b)
{
	struct cmd_result *r = calloc(1, sizeof(*r));
	char *dir = temp_dir(), csv[256];
	snprintf(csv, sizeof(csv), "%s/pp.csv", dir);
	run_c2c(r, "run", "pingpong", a, b, "--out", csv, NULL);
	if (r->status != 2 || count_lines(r->err) != 1 || !strstr(r->err, "error"))
		fail_msg("%s %s: status %d, stderr: %s", a, b, r->status, r->err);
	assert_false(file_exists(csv));
	rm_rf(dir);
	free(dir);
	free(r);
}

static void test_bad_input(void **state)
{
	(void)state;
	expect_bad("--placement", "cpus:0,4096");
	expect_bad("--placement", "cpus:0");
	expect_bad("--placement", "cpus:zero");
	expect_bad("--placement", "cpus:0-");
	expect_bad("--placement", "spread");
	expect_bad("--pairs", "vs:4096");
	expect_bad("--pairs", "sample:0");
	expect_bad("--pairs", "sample:1000000");
	expect_bad("--pairs", "nearest");
	expect_bad("--mode", "store");
	expect_bad("--samples", "0");
	expect_bad("--duration", "1");
	expect_bad("--mem-node", "4096");
	/* --resume reads through lib/csvstream: a FIFO is refused on one line, never waited on */
	char fifo[300];
	snprintf(fifo, sizeof(fifo), "%s/resume-fifo.csv", test_dir);
	assert_int_equal(mkfifo(fifo, 0644), 0);
	expect_bad("--resume", fifo);
	unlink(fifo);
	expect_bad("--mem-node", "writer");
	expect_bad("--home", "4096"); /* a node is node:N */
	expect_bad("--home", "node:4096");
	expect_bad("--home", "node:x");
	expect_bad("--home", "a"); /* --mem-node's words are its own */
	expect_bad("--home", "remote");
	expect_bad("--concurrent", "0");
	expect_bad("--concurrent", "many");
	expect_bad("--lines", "0");
	expect_bad("--lines", "4097");
	expect_bad("--matrix", "/nonexistent/dir/m.csv");
	expect_bad("--matrix", "/etc/hostname"); /* exists: never overwritten */
	expect_bad("--check-tolerance", "1001");
	expect_bad("--check-tolerance", "-1");
	expect_bad("--cv-warn", "200");
	expect_bad("--cv-warn", "5%");
}

/* The home each row found is the node of its page as the pair's: writer, reader, both or other. */
static void home_is_relation(const struct table *t, long i)
{
	int mem = atoi(table_get(t, i, "mem_node_actual")), na = atoi(table_get(t, i, "node_a")),
	    nb = atoi(table_get(t, i, "node_b"));
	const char *home = table_get(t, i, "home");
	const char *want = mem == na && mem == nb ? "both"
			   : mem == na		  ? "writer"
			   : mem == nb		  ? "reader"
						  : "other";
	if (mem < 0 || na < 0 || nb < 0)
		want = "NA";
	if (strcmp(home, want))
		fail_msg("row %ld: home %s, mem_node_actual %d, node_a %d, node_b %d", i + 1, home,
			 mem, na, nb);
}

/* --home: the request in its words (--mem-node's older spelling read into them), the page on the
 * node asked, first touched by the side that owns it, and each row's home as found. Runs on the
 * host's two CPUs: whatever their nodes, each row is checked against its own node_a and node_b. */
static void test_home_axis(void **state)
{
	const char *pl = pair_cpus();
	(void)state;
	char node[32] = "";
	const char *asks[][3] = {{NULL, NULL, "first"},	     {"--home", "writer", "writer"},
				 {"--home", "reader", "reader"}, {"--mem-node", "b", "reader"},
				 {"--mem-node", "a", "first"},	     {"--home", node, node}};
	for (size_t h = 0; h < ARRAY_SIZE(asks); h++) {
		struct cmd_result *r = calloc(1, sizeof(*r));
		struct table t;
		char csv[300], err[ERRLEN];
		snprintf(csv, sizeof(csv), "%s/home%zu.csv", test_dir, h);
		const char *argv[] = {"run", "pingpong", "--placement", pl, FAST, "--reps", "1",
				      LENIENT, "--out", csv, asks[h][0], asks[h][1], NULL};
		run_c2cv(r, argv);
		if (!RAN(r->status))
			fail_msg("%s %s: status %d: %s", asks[h][0] ? asks[h][0] : "(default)",
				 asks[h][1] ? asks[h][1] : "", r->status, r->err);
		/* one node for the pair here: the summary names no home (it does not vary) */
		if (strstr(r->out, "mode,class"))
			assert_null(strstr(r->out, "mode,class,home"));
		free(r);
		assert_int_equal(table_read(&t, csv, err), 0);
		assert_true(t.nrows > 0);
		for (long i = 0; i < t.nrows; i++) {
			const char *want = asks[h][2];
			int mem = atoi(table_get(&t, i, "mem_node_actual"));
			assert_string_equal(table_get(&t, i, "mem_node_requested"), want);
			home_is_relation(&t, i);
			int reader = !strcmp(want, "reader");
			assert_string_equal(table_get(&t, i, "first_touch_cpu"),
					    table_get(&t, i, reader ? "cpu_b" : "cpu_a"));
			const char *bound = !strcmp(want, "writer") ? table_get(&t, i, "node_a")
					    : reader ? table_get(&t, i, "node_b")
					    : !strncmp(want, "node:", 5) ? want + 5
									 : NULL;
			if (bound && mem >= 0)
				assert_int_equal(mem, atoi(bound));
			/* the node planned: the one bound to, NA where first binds none */
			assert_string_equal(table_get(&t, i, "mem_node"), bound ? bound : "NA");
		}
		if (!h) /* node:N next, N the first pair's node */
			snprintf(node, sizeof(node), "node:%s", table_get(&t, 0, "node_a"));
		table_free(&t);
	}
	struct cmd_result *r = calloc(1, sizeof(*r)); /* both spellings at once: one line, exit 2 */
	run_c2c(r, "run", "pingpong", "--placement", pl, "--home", "first", "--mem-node", "a",
		"--dry-run", NULL);
	assert_int_equal(r->status, 2);
	assert_int_equal(count_lines(r->err), 1);
	assert_non_null(strstr(r->err, "give one"));
	free(r);
}

/* summary_by's optional column (pingpong's "mode,class,home?"): in the lines only where it varies.
 */
static void test_summary_home_where_it_varies(void **state)
{
	(void)state;
	char *one[] = {"load-store/smt/both", "cas/smt/both"},
	     *two[] = {"load-store/same-package/writer", "load-store/same-package/other",
		       "cas/smt/both"};
	struct sum_lines g = {one, NULL, 2, 2}, shown;
	char col[80];
	summary_by_shown("mode,class,home?", &g, &shown, col, sizeof(col));
	assert_string_equal(col, "mode,class");
	assert_string_equal(shown.label[0], "load-store/smt");
	assert_string_equal(shown.label[1], "cas/smt");
	summary_by_free(&shown);
	g = (struct sum_lines){two, NULL, 3, 3};
	summary_by_shown("mode,class,home?", &g, &shown, col, sizeof(col));
	assert_string_equal(col, "mode,class,home");
	assert_string_equal(shown.label[0], "load-store/same-package/writer");
	assert_string_equal(shown.label[1], "load-store/same-package/other");
	assert_string_equal(shown.label[2], "cas/smt/both");
	summary_by_free(&shown);
	summary_by_name("mode,class,home?", col, sizeof(col));
	assert_string_equal(col, "mode,class,home");
}

/* --matrix FILE that cannot be had at the end (here: a file of the user's appeared at FILE while
 * the run measured): exit 1 with one line, the user's file untouched, no temporary left beside it.
 */
static void test_matrix_late_failure(void **state)
{
	(void)state;
	const char *pl = pair_cpus();
	char csv[300], mat[300], out[300];
	snprintf(csv, sizeof(csv), "%s/late.csv", test_dir);
	snprintf(mat, sizeof(mat), "%s/late-matrix.csv", test_dir);
	snprintf(out, sizeof(out), "%s/late.err", test_dir);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		const char *bin = getenv("C2C_BIN") ? getenv("C2C_BIN") : "./c2cbench";
		if (!freopen(out, "w", stderr) || !freopen("/dev/null", "w", stdout))
			_exit(126);
		execl(bin, bin, "run", "pingpong", "--placement", pl, FAST, "--max-attempts", "1",
		      "--reps", "40", LENIENT, "--matrix", mat, "--out", csv, (char *)NULL);
		_exit(127);
	}
	assert_int_equal(wait_csv_rows(csv, 1, pid, 60), 0);
	FILE *f = fopen(mat, "wx");
	assert_non_null(f);
	fputs("the user's\n", f);
	fclose(f);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	char *err = slurp(out), *kept = slurp(mat);
	assert_true(WIFEXITED(st));
	if (WEXITSTATUS(st) != 1 || !strstr(err, "late-matrix.csv: already exists"))
		fail_msg("status %d, stderr: %s", WEXITSTATUS(st), err);
	assert_string_equal(kept, "the user's\n");
	char ls[2000] = "";
	char cmd[700];
	snprintf(cmd, sizeof(cmd), "ls -a '%s' | grep -c '^\\.late-matrix' || true", test_dir);
	sh_capture(ls, sizeof(ls), cmd);
	assert_int_equal(atoi(ls), 0);
	free(err);
	free(kept);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_csv_rows),
		cmocka_unit_test(test_cv_warn_flags),
		cmocka_unit_test(test_dry_run_synthetic),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_home_axis),
		cmocka_unit_test(test_summary_home_where_it_varies),
		cmocka_unit_test(test_concurrent_auto_equals_one),
		cmocka_unit_test(test_dry_run_plans),
		cmocka_unit_test(test_matrix_late_failure),
	};
	return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}
