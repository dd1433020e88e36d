/* The baseline between machines of any shape: a machine whose only pingpong pair is same-llc and
 * one whose only pair is same-package share no class, and still join on their nearest and
 * farthest classes, in compare and in the report's Summary. */
#include "lib/csvread.h"
#include "lib/util.h"
#include "tests/testutil.h"
#include <stdio.h>
#include <string.h>

#define REF "results/reference/epyc-zen3-kvm-2vcpu/vm-20261201T154250-quick"

/* llc: the shipped VM's baseline (its one pair, 0-1, is same-llc); pkg: the same file as another
 * machine's whose pair is same-package, at twice the latency (the min_ns and median_ns columns). */
static void make_shapes(char *llc, char *pkg, size_t n)
{
	char cmd[4000];
	snprintf(llc, n, "%s/llc", test_dir);
	snprintf(pkg, n, "%s/pkg", test_dir);
	snprintf(cmd, sizeof(cmd),
		 "rm -rf %s %s && mkdir -p %s %s && cp " REF "/03-baseline.csv " REF
		 "/03-baseline.meta %s && sed 's/^label = vm$/label = pkg/' " REF
		 "/03-baseline.meta > %s/03-baseline.meta && "
		 "awk 'BEGIN{FS=OFS=\",\"} NR==1{for(i=1;i<=NF;i++){if($i==\"class\")c=i; "
		 "if($i==\"min_ns\")a=i; if($i==\"median_ns\")b=i; if($i==\"label\")l=i}} "
		 "NR>1{$c=\"same-package\"; $a=2*$a; $b=2*$b; $l=\"pkg\"} {print}' " REF
		 "/03-baseline.csv > %s/03-baseline.csv && grep -q same-package %s/03-baseline.csv "
		 "&& ! grep -q same-package %s/03-baseline.csv",
		 llc, pkg, llc, pkg, llc, pkg, pkg, pkg, llc);
	assert_int_equal(system(cmd), 0);
}

static void nearest_and_farthest_join_across_shapes(void **state)
{
	(void)state;
	char llc[600], pkg[600], err[ERRLEN];
	struct cmd_result r;
	struct table t;
	make_shapes(llc, pkg, sizeof(llc));
	run_c2c(&r, "compare", llc, pkg, NULL);
	if (r.status)
		fail_msg("%s", r.err);
	/* the classes stay apart (none is the same), and the baseline joins across them */
	assert_non_null(strstr(r.out, "  pingpong class only in A: same-llc\n"));
	assert_non_null(strstr(r.out, "  nearest and farthest: A same-llc, B same-package (each "
				      "machine's only pair class, joined across"));
	run_c2c(&r, "compare", llc, pkg, "--csv", NULL);
	if (r.status)
		fail_msg("%s", r.err);
	if (table_parse(&t, "out.csv", r.out, strlen(r.out), err))
		fail_msg("%s", err);
	int lines = 0;
	for (long i = 0; i < t.nrows; i++) {
		const char *note = table_get(&t, i, "resolved_note");
		if (!strstr(note, "nearest and farthest: A same-llc, B same-package"))
			continue;
		lines++;
		if (!strcmp(table_get(&t, i, "metric"), "min_ns"))
			assert_string_equal(table_get(&t, i, "ratio"), "2");
	}
	assert_int_equal(lines, 4); /* min_ns and median_ns of cas and load-store */
	table_free(&t);
	/* the report's Summary: a baseline line for the pair, each side's class named */
	char out[700], md[800];
	snprintf(out, sizeof(out), "%s/report", test_dir);
	run_c2c(&r, "report", llc, pkg, "-o", out, NULL);
	if (r.status)
		fail_msg("%s", r.err);
	snprintf(md, sizeof(md), "%s/report.md", out);
	char *text = slurp(md);
	assert_non_null(text);
	char *sum = strstr(text, "## Summary"), *end = sum ? strstr(sum, "\n## ") : NULL;
	assert_non_null(end);
	*end = 0;
	assert_non_null(strstr(sum, "Baseline, A = vm, B = pkg (pingpong min\\_ns, mode cas): "
				    "nearest: A same-llc 113.7 ns, B same-package 227.4 ns; "
				    "farthest: A same-llc 113.7 ns, B same-package 227.4 ns"));
	free(text);
}

/* A class both have joins by class as before, and only the classes that differ are added: here
 * each side's farthest (same-llc on A, same-package on B), never the shared nearest (smt). */
static void a_shared_class_joins_by_class(void **state)
{
	(void)state;
	char llc[600], pkg[600], cmd[3000];
	struct cmd_result r;
	make_shapes(llc, pkg, sizeof(llc));
	/* both machines get an smt pair too (the same file's rows, class smt, pair 0-2) */
	snprintf(
		cmd, sizeof(cmd),
		"for d in %s %s; do awk 'BEGIN{FS=OFS=\",\"} "
		"NR==1{for(i=1;i<=NF;i++){if($i==\"class\")c=i; if($i==\"config\")v=i; "
		"if($i==\"cpu_b\")b=i}} {print} NR>1{$c=\"smt\"; sub(/^0-1/,\"0-2\",$v); $b=2; "
		"print}' $d/03-baseline.csv > $d/x && mv $d/x $d/03-baseline.csv; done",
		llc, pkg);
	assert_int_equal(system(cmd), 0);
	run_c2c(&r, "compare", llc, pkg, NULL);
	if (r.status)
		fail_msg("%s", r.err);
	assert_non_null(strstr(
		r.out,
		"pingpong 0-2/cas cpu_b=2 class=smt mode=cas: A 5 of 5 rows valid, B 5 of 5"));
	assert_non_null(strstr(r.out, "  farthest: A same-llc, B same-package (each machine's "
				      "farthest pair class"));
	assert_null(strstr(r.out, "nearest:"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nearest_and_farthest_join_across_shapes),
		cmocka_unit_test(a_shared_class_joins_by_class),
	};
	return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}
