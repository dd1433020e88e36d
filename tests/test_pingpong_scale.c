/* pingpong at the size of today's largest servers: the full-matrix plans of 768 and 1,024 PUs
 * (time to plan, ETA, the accuracy check's share), the cap and its advice past 2,048 PUs, and a
 * run killed outright keeping its whole rows and the matrix of its finished repetitions. */
#include "lib/util.h" /* before cmocka, which defines a fail() macro */
#include "tests/testutil.h"
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The number just before word in s ("384 pair(s) at once" -> 384). */
static double before(const char *s, const char *word)
{
	const char *p = strstr(s, word);
	if (!p)
		fail_msg("no '%s' in: %.400s", word, s);
	while (p > s && p[-1] == ' ')
		p--;
	while (p > s && p[-1] != ' ' && p[-1] != '(')
		p--;
	return atof(p);
}

/* h:mm:ss after "ETA " in s, as seconds. */
static int eta_s(const char *s)
{
	const char *e = strstr(s, "ETA ");
	int h, m, sec;
	assert_non_null(e);
	assert_int_equal(sscanf(e, "ETA %d:%d:%d", &h, &m, &sec), 3);
	return h * 3600 + m * 60 + sec;
}

static double cpu_s(const struct rusage *u)
{
	return (double)(u->ru_utime.tv_sec + u->ru_stime.tv_sec) +
	       (double)(u->ru_utime.tv_usec + u->ru_stime.tv_usec) / 1e6;
}

/* The plan of --pairs all --concurrent auto on a synthetic machine of n PUs (2 per core): every
 * pair, n/2 pairs at once on distinct PUs, the n-1 rounds of the circle method, every class
 * sampled. The plan's own CPU time is bounded generously (a plan, not a benchmark: ASan and a
 * loaded VM). */
static int big_plan(const char *topo, int n, double *check_share)
{
	struct cmd_result *r = calloc(1, sizeof(*r));
	struct rusage u0, u1;
	getrusage(RUSAGE_CHILDREN, &u0);
	run_c2c(r, "run", "pingpong", "--topology", topo, "--dry-run", "--pairs", "all",
		"--concurrent", "auto", NULL);
	getrusage(RUSAGE_CHILDREN, &u1);
	double s = cpu_s(&u1) - cpu_s(&u0);
	assert_int_equal(r->status, 0);
	text_unwrap(r->out); /* the plan line is wrapped at 100 columns */
	assert_int_equal((long)before(r->out, "pair(s) of"), (long)n * (n - 1) / 2);
	assert_int_equal((long)before(r->out, "pair(s) at once"), n / 2);
	assert_int_equal((long)before(r->out, "round(s);"), n - 1);
	assert_non_null(strstr(r->out, "pairs may share a core"));
	assert_int_equal((long)before(r->out, "pair(s) (smt"),
			 8); /* 4 classes, 2 each (--check-pairs) */
	assert_non_null(strstr(r->out, "(smt 2, same-llc 2, same-package 2, cross-package 2)"));
	*check_share = before(r->out, "% of the ETA");
	if (s >= 10.0)
		fail_msg("%s: the plan took %.2f s of CPU; it must print in under 10 s", topo, s);
	int eta = eta_s(r->out);
	print_message("%d PUs: planned in %.2f s of CPU, ETA %d s, accuracy check %.1f%% of it\n",
		      n, s, eta, *check_share);
	free(r);
	return eta;
}

static void test_plan_768_and_1024(void **state)
{
	double share;
	(void)state;
	/* dual 192-core SMT-2 parts (AMD EPYC 9965): the whole matrix within ten minutes */
	int eta = big_plan("synthetic:pack:2 l3:8 core:24 pu:2", 768, &share);
	assert_true(eta > 60 && eta <= 600);
	assert_true(share > 0 && share <= 5.0);
	eta = big_plan("synthetic:pack:2 l3:8 core:32 pu:2", 1024, &share);
	assert_true(eta > 60 && eta < 3600);
	assert_true(share > 0 && share <= 5.0);
}

/* Past 2,048 PUs both modes' pairs exceed what one run holds: refused with how to split the run. */
static void test_cap_says_how_to_split(void **state)
{
	struct cmd_result *r = calloc(1, sizeof(*r));
	(void)state;
	run_c2c(r, "run", "pingpong", "--topology", "synthetic:pack:2 core:1025 pu:1", "--dry-run",
		"--pairs", "all", NULL);
	assert_int_equal(r->status, 2);
	assert_int_equal(count_lines(r->err), 1);
	assert_non_null(strstr(r->err, "2100225 pairs x 2 modes"));
	assert_non_null(strstr(r->err, "--pairs vs:CPU for each CPU"));
	free(r);
}

#define TINY "--samples", "20", "--round-trips", "5", "--preheat-ms", "1"

static pid_t start(const char *csv, const char *matrix, const char *cpus)
{
	const char *bin = getenv("C2C_BIN") ? getenv("C2C_BIN") : "./c2cbench";
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int devnull = open("/dev/null", 1);
		dup2(devnull, 1);
		dup2(devnull, 2);
		execl(bin, bin, "run", "pingpong", "--placement", cpus, TINY, "--reps", "200",
		      "--max-attempts", "1", "--concurrent", "auto", "--matrix", matrix, "--out",
		      csv, "--quiet", LENIENT, (char *)NULL);
		_exit(127);
	}
	return pid;
}

/* Killed outright (no cleanup runs): every row on disk is whole, and the matrix file holds the
 * repetitions finished before the kill (it is replaced after each one). */
static void test_killed_run_keeps_rows_and_matrix(void **state)
{
	int a, b, st;
	(void)state;
	if (two_usable_cpus(&a, &b)) {
		print_message("skipped: a pair needs two CPUs this process may use\n");
		skip();
	}
	char *dir = temp_dir(), csv[300], matrix[300], cpus[48];
	snprintf(csv, sizeof(csv), "%s/pp.csv", dir);
	snprintf(matrix, sizeof(matrix), "%s/m.csv", dir);
	snprintf(cpus, sizeof(cpus), "cpus:%d,%d", a, b);
	pid_t pid = start(csv, matrix, cpus);
	/* 2 rows a repetition (one pair, two modes): 5 rows are two repetitions done, a third begun
	 */
	assert_int_equal(wait_csv_rows(csv, 5, pid, 300), 0);
	kill(pid, SIGKILL);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFSIGNALED(st));
	char *t = slurp(csv);
	assert_non_null(t);
	assert_int_equal(t[strlen(t) - 1], '\n'); /* no half row */
	assert_true(count_lines(t) >= 6);
	free(t);
	char *m = slurp(matrix);
	assert_non_null(m);
	double v1 = -1, v2 = -1;
	/* 2 x 2, OS CPU order: the pair's median min_ns off the diagonal, in both cells */
	assert_int_equal(sscanf(m, ",%lf\n%lf,\n", &v1, &v2), 2);
	assert_true(v1 > 0 && v1 == v2);
	free(m);
	rm_rf(dir);
	free(dir);
}

/* The end of the field at p: its comma or newline, past a quoted field's commas ("cpus:0,1"). */
static const char *field_end(const char *p)
{
	if (*p == '"')
		for (p++; *p && !(*p == '"' && p[1] != '"'); p += *p == '"' ? 2 : 1)
			;
	return p + strcspn(p, ",\n");
}

/* Field col (0-based) of the line at p, into out. */
static void field(const char *p, int col, char *out, size_t n)
{
	for (int i = 0; i < col; i++)
		p = field_end(p) + 1;
	snprintf(out, n, "%.*s", (int)(field_end(p) - p), p);
}

static int col_of(const char *header, const char *name)
{
	char f[64];
	for (int i = 0; i < 400; i++) {
		field(header, i, f, sizeof(f));
		if (!strcmp(f, name))
			return i;
	}
	fail_msg("no column %s", name);
	return -1;
}

/* Every (mode, rep) of a one-pair pingpong CSV counted into seen[mode][rep]; returns the rows and
 * the seed they share in seed (fails on two seeds). */
static int count_keys(const char *csv, int seen[2][200], char *seed, size_t n)
{
	char *t = slurp(csv), v[64];
	assert_non_null(t);
	int rows = 0, cm = col_of(t, "mode"), cr = col_of(t, "rep"), cs = col_of(t, "seed");
	for (const char *line = strchr(t, '\n') + 1; *line; line = strchr(line, '\n') + 1, rows++) {
		field(line, cm, v, sizeof(v));
		int mode = !strcmp(v, "cas");
		field(line, cr, v, sizeof(v));
		int rep = atoi(v);
		assert_true(rep >= 0 && rep < 200);
		seen[mode][rep]++;
		field(line, cs, v, sizeof(v));
		if (!seed[0])
			snprintf(seed, n, "%s", v);
		assert_string_equal(seed, v);
	}
	free(t);
	return rows;
}

/* Interrupted, then resumed: the second run measures exactly the rows the first lacks, with its
 * seed, and its matrix holds the pair; another setting than the CSV's is refused with one line. */
static void test_resume_continues_the_rows(void **state)
{
	int a, b, st;
	(void)state;
	if (two_usable_cpus(&a, &b)) {
		print_message("skipped: a pair needs two CPUs this process may use\n");
		skip();
	}
	char *dir = temp_dir(), csv[300], csv2[300], matrix[300], m2[300], cpus[48], s1[64] = "",
	     s2[64] = "";
	snprintf(csv, sizeof(csv), "%s/a.csv", dir);
	snprintf(csv2, sizeof(csv2), "%s/b.csv", dir);
	snprintf(matrix, sizeof(matrix), "%s/m.csv", dir);
	snprintf(m2, sizeof(m2), "%s/m2.csv", dir);
	snprintf(cpus, sizeof(cpus), "cpus:%d,%d", a, b);
	pid_t pid = start(csv, matrix, cpus);
	assert_int_equal(wait_csv_rows(csv, 3, pid, 300), 0);
	kill(pid, SIGINT);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 130);
	int seen[2][200] = { { 0 } };
	int first = count_keys(csv, seen, s1, sizeof(s1));
	assert_true(first >= 3 && first < 400);
	struct cmd_result *r = calloc(1, sizeof(*r));
	run_c2c(r, "run", "pingpong", "--placement", cpus, "--samples", "21", "--round-trips", "5",
		"--preheat-ms", "1", "--reps", "200", "--concurrent", "auto", "--resume", csv,
		"--out", csv2, NULL);
	assert_int_equal(r->status, 2);
	assert_int_equal(count_lines(r->err), 1);
	assert_non_null(strstr(r->err, "has samples 20, this run 21"));
	/* a CSV of schema 11 or older names the request mem_node_req: read under today's name */
	char old[400], cmd[1400];
	snprintf(old, sizeof(old), "%s/old.csv", dir);
	snprintf(cmd, sizeof(cmd), "sed '1s/,mem_node_requested,/,mem_node_req,/' %s > %s && "
		 "head -1 %s | grep -q ',mem_node_req,'", csv, old, old);
	assert_int_equal(system(cmd), 0);
	run_c2c(r, "run", "pingpong", "--placement", cpus, TINY, "--reps", "200", "--home",
		"reader", "--concurrent", "auto", "--resume", old, "--out", csv2, NULL);
	assert_int_equal(r->status, 2);
	assert_non_null(strstr(r->err, "has mem_node_requested first, this run reader"));
	run_c2c(r, "run", "pingpong", "--placement", cpus, TINY, "--reps", "200", "--max-attempts",
		"1", "--concurrent", "auto", "--resume", csv, "--matrix", m2, "--out", csv2,
		"--quiet", LENIENT, NULL);
	/* 4: a mode's 200 repetitions all invalid (a loaded host). The rows and the matrix do not
	 * depend on validity: the matrix is the median of every repetition's min_ns */
	if (!RAN(r->status))
		fail_msg("exit %d: %s", r->status, r->err);
	int second = count_keys(csv2, seen, s2, sizeof(s2));
	assert_int_equal(first + second, 400);
	for (int m = 0; m < 2; m++)
		for (int rep = 0; rep < 200; rep++)
			assert_int_equal(seen[m][rep],
					 1); /* every row once, in one file or the other */
	assert_string_equal(s1, s2);
	char *m = slurp(m2);
	double v1 = -1, v2 = -1;
	assert_non_null(m);
	assert_int_equal(sscanf(m, ",%lf\n%lf,\n", &v1, &v2), 2);
	assert_true(v1 > 0 && v1 == v2);
	free(m);
	free(r);
	rm_rf(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_768_and_1024),
		cmocka_unit_test(test_cap_says_how_to_split),
		cmocka_unit_test(test_killed_run_keeps_rows_and_matrix),
		cmocka_unit_test(test_resume_continues_the_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
