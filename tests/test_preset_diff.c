/* A preset's version travels with its results: two result sets that ran the same preset name with
 * different settings for an entry say so in words, and every entry that did not change compares. */
#include "tests/testutil.h"
#include <stdio.h>
#include <string.h>

#define REF "results/reference/epyc-zen3-kvm-2vcpu/vm-20261201T154250-quick"

/* The shipped quick set as it would be had its test-then-set entry run with --drain-us 500 (its
 * CSV's drain_us column too) and its rmw entry with --reps 3. */
static void make_changed(const char *dir)
{
	char cmd[9000];
	snprintf(
		cmd, sizeof(cmd),
		"rm -rf %s && cp -r " REF " %s && "
		"sed -i -e '/policy test-then-set$/s/$/ --drain-us 500/' -e '/policy rmw$/s/--reps "
		"5/--reps 3/' %s/metadata.txt && grep -q 'test-then-set --drain-us 500$' "
		"%s/metadata.txt && awk 'BEGIN{FS=OFS=\",\"} NR==1{for(i=1;i<=NF;i++) "
		"if($i==\"drain_us\") c=i} NR>1{$c=500} {print}' %s/02-test-then-set.csv > %s/x && "
		"mv %s/x %s/02-test-then-set.csv && sed -i 's/^label = vm$/label = later/' "
		"%s/*.meta && for f in %s/*.csv; do sed -i 's/,vm,vm,AMD EPYC,/,later,vm,AMD "
		"EPYC,/' $f; done",
		dir, dir, dir, dir, dir, dir, dir, dir, dir, dir);
	assert_int_equal(system(cmd), 0);
}

static void a_changed_entry_is_named(void **state)
{
	(void)state;
	struct cmd_result r;
	char dir[600];
	snprintf(dir, sizeof(dir), "%s/later", test_dir);
	make_changed(dir);
	run_c2c(&r, "compare", REF, dir, NULL);
	if (r.status)
		fail_msg("%s", r.err);
	assert_non_null(strstr(r.out, "\nquick's test-then-set differs: drain-us 0 in A, 500 in B; "
				      "not compared\n"));
	assert_non_null(strstr(r.out, "\nquick's rmw differs: reps 5 in A, 3 in B; compared (the "
				      "change is not in what is joined)\n"));
	assert_null(strstr(r.out, "baseline differs"));
	/* the unchanged entries compare: rmw and the baseline join; test-then-set does not */
	assert_non_null(strstr(r.out, "pending-bit shared offset=32 policy=rmw"));
	assert_non_null(strstr(r.out, ": A 5 of 6 rows valid, B 5 of 6"));
	assert_non_null(strstr(r.out, "pingpong 0-1/cas mode=cas: A 5 of 5 rows valid, B 5 of 5"));
	assert_non_null(strstr(r.out, "only in A (3 configuration(s)"));
	/* the same set on both sides: nothing to say */
	run_c2c(&r, "compare", REF, REF, NULL);
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.out, "differs:"));
	/* the report's Summary says it too, each side named by its directory */
	char out[700], md[800];
	snprintf(out, sizeof(out), "%s/rep", test_dir);
	run_c2c(&r, "report", REF, dir, "-o", out, NULL);
	if (r.status)
		fail_msg("%s", r.err);
	snprintf(md, sizeof(md), "%s/report.md", out);
	char *text = slurp(md);
	assert_non_null(text);
	assert_non_null(strstr(text, "quick's test-then-set differs: drain-us 0 in "
				     "vm-20261201T154250-quick, 500 in later; not compared."));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_changed_entry_is_named),
	};
	return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}
