/* make test-system, the main job across machines: the quick preset run on guests of different
 * topology and on the host, then compared and reported as a user does.
 *   zoo_fleet OUT DIR DIR [DIR...]   (each DIR a quick preset's result directory; OUT: the report)
 * Every pair joins every pending-bit configuration (placement auto resolving differently is named,
 * not a reason to refuse), and every pingpong class both sides have; the report over all of them
 * names each machine's resolved placement. */
#include "lib/csvread.h"
#include "tests/testutil.h"
#include <stdlib.h>
#include <string.h>

static int ndirs;
static char **dirs;
static const char *out_dir;

/* The distinct values of column col over the CSVs of a result directory (bench rows only). */
static int values_in(const char *dir, const char *bench, const char *col, char vals[][64], int max)
{
	char cmd[4200], list[65536];
	snprintf(cmd, sizeof(cmd), "ls %s/*.csv", dir);
	assert_int_equal(sh_capture(list, sizeof(list), cmd), 0);
	int n = 0;
	for (char *p = strtok(list, "\n"); p; p = strtok(NULL, "\n")) {
		struct table t;
		char err[512];
		if (table_read(&t, p, err))
			continue;
		for (long r = 0; r < t.nrows; r++) {
			const char *b = table_get(&t, r, "bench"), *v = table_get(&t, r, col);
			if (!b || !v || strcmp(b, bench))
				continue;
			int k = 0;
			while (k < n && strcmp(vals[k], v))
				k++;
			if (k == n && n < max)
				snprintf(vals[n++], 64, "%s", v);
		}
		table_free(&t);
	}
	return n;
}

static int has(char vals[][64], int n, const char *v)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(vals[i], v))
			return 1;
	return 0;
}

/* compare --csv A B: every pending-bit configuration joined, and pingpong on each shared class. */
static void one_pair(const char *a, const char *b)
{
	const char *args[] = { "compare", "--csv", a, b, NULL };
	struct cmd_result *r = malloc(sizeof(*r));
	run_c2cv(r, args);
	if (r->status)
		print_message("compare %s %s: exit %d: %s\n", a, b, r->status, r->err);
	assert_int_equal(r->status, 0);
	struct table t;
	char err[512];
	assert_int_equal(table_parse(&t, "compare.csv", r->out, strlen(r->out), err), 0);
	int pb = 0, named = 0;
	char ca[8][64], cb[8][64], joined[8][64];
	int na = values_in(a, "pingpong", "class", ca, 8),
	    nb = values_in(b, "pingpong", "class", cb, 8);
	int nj = 0;
	for (long i = 0; i < t.nrows; i++) {
		const char *bench = table_get(&t, i, "bench"), *only = table_get(&t, i, "only_in");
		if (!strcmp(bench, "pending-bit")) {
			pb++;
			if (only[0])
				print_message("pending-bit %s/%s only in %s\n",
					      table_get(&t, i, "layout"),
					      table_get(&t, i, "policy"), only);
			assert_string_equal(only, "");
			named += table_get(&t, i, "resolved_note")[0] != 0;
		} else if (!strcmp(bench, "pingpong") && !only[0] && nj < 8 &&
			   !has(joined, nj, table_get(&t, i, "class"))) {
			snprintf(joined[nj++], 64, "%s", table_get(&t, i, "class"));
		}
	}
	for (int i = 0; i < na; i++)
		if (has(cb, nb, ca[i])) {
			if (!has(joined, nj, ca[i]))
				print_message("pingpong class %s on both sides, not joined\n",
					      ca[i]);
			assert_true(has(joined, nj, ca[i]));
		}
	char pa[4][64], pbv[4][64];
	int npa = values_in(a, "pending-bit", "placement", pa, 4);
	int npb = values_in(b, "pending-bit", "placement", pbv, 4);
	print_message("%s (%s) against %s (%s): %d pending-bit lines joined, %d of them naming the "
		      "resolved difference; %d pingpong classes joined\n", a, npa ? pa[0] : "?", b,
		      npb ? pbv[0] : "?", pb, named, nj);
	assert_true(pb >= 6); /* 2 policies x 3 layouts, each with its metrics */
	if (npa && npb && strcmp(pa[0], pbv[0]))
		assert_int_equal(named, pb); /* auto resolved differently: every line says so */
	table_free(&t);
	free(r);
}

static void every_pair_joins(void **s)
{
	(void)s;
	for (int i = 0; i < ndirs; i++)
		for (int j = i + 1; j < ndirs; j++)
			one_pair(dirs[i], dirs[j]);
}

/* report over all of them: it names each machine's resolved placement. */
static void report_names_each_placement(void **s)
{
	(void)s;
	const char **args = calloc((size_t)ndirs + 5, sizeof(*args));
	int k = 0;
	args[k++] = "report";
	for (int i = 0; i < ndirs; i++)
		args[k++] = dirs[i];
	args[k++] = "-o";
	args[k++] = out_dir;
	struct cmd_result *r = malloc(sizeof(*r));
	run_c2cv(r, args);
	if (r->status)
		print_message("report: exit %d: %s\n", r->status, r->err);
	assert_int_equal(r->status, 0);
	char path[4200];
	snprintf(path, sizeof(path), "%s/report.md", out_dir);
	char *md = slurp(path);
	assert_non_null(md);
	for (int i = 0; i < ndirs; i++) {
		char pl[4][64];
		int n = values_in(dirs[i], "pending-bit", "placement", pl, 4);
		assert_true(n >= 1);
		for (int j = 0; j < n; j++) {
			if (!strstr(md, pl[j]))
				print_message("report.md does not name %s's placement %s\n",
					      dirs[i], pl[j]);
			assert_non_null(strstr(md, pl[j]));
		}
	}
	/* the Summary: a baseline line for every pair of machines, whatever their shapes (the SMT
	 * guest's smt class against the others'), each side's nearest and farthest class named */
	char *sum = strstr(md, "## Summary"), *end = sum ? strstr(sum + 1, "\n## ") : NULL;
	assert_non_null(end);
	*end = 0;
	for (int i = 0; i < ndirs; i++)
		for (int j = i + 1; j < ndirs; j++) {
			char la[2][64], lb[2][64], va[2][64], vb[2][64], want[300];
			int na = values_in(dirs[i], "pingpong", "label", la, 2);
			int nb = values_in(dirs[j], "pingpong", "label", lb, 2);
			int ya = values_in(dirs[i], "pingpong", "valid", va, 2);
			int yb = values_in(dirs[j], "pingpong", "valid", vb, 2);
			if (na != 1 || nb != 1 || !has(va, ya, "yes") || !has(vb, yb, "yes")) {
				print_message("%s, %s: no valid pingpong row on a side: no "
					      "baseline line to ask for\n",
					      dirs[i], dirs[j]);
				continue;
			}
			snprintf(want, sizeof(want), "Baseline, A = %s, B = %s (pingpong", la[0],
				 lb[0]);
			if (!strstr(sum, want))
				print_message("report.md's Summary has no line '%s...'\n", want);
			assert_non_null(strstr(sum, want));
			assert_non_null(strstr(strstr(sum, want), "nearest: A "));
		}
	free(md);
	free(r);
	free(args);
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: zoo_fleet OUT DIR DIR [DIR...]\n");
		return 2;
	}
	out_dir = argv[1];
	dirs = argv + 2;
	ndirs = argc - 2;
	const struct CMUnitTest t[] = {
		cmocka_unit_test(every_pair_joins),
		cmocka_unit_test(report_names_each_placement),
	};
	return cmocka_run_group_tests_name("zoo fleet: the quick preset on several machines", t,
					   NULL, NULL);
}
