/* A machine's identity: its fingerprint id recomputed from its fields on read (an edited .meta is
 * named so), and compare's and report's --label DIR=NAME, which names machines at compare time. */
#include "tests/testutil.h"
#include <stdio.h>
#include <string.h>

#define SETS "tests/data/comparable" /* made-up result sets: see tests/data/README.md */

/* A .meta whose fields were edited but not its id: named as edited, and its machine told by its
 * fields (never the same vm#ID as the machine it was copied from). */
static void an_edited_fingerprint_is_named(void **state)
{
	(void)state;
	struct cmd_result r;
	char dir[600], cmd[5000];
	snprintf(dir, sizeof(dir), "%s/edited", test_dir);
	snprintf(
		cmd, sizeof(cmd),
		"rm -rf %s && cp -r %s/a %s && sed -i 's/^cpu_model_number = 1$/cpu_model_number = "
		"9/' %s/01-pending-bit.meta && grep -q '^cpu_model_number = 9$' "
		"%s/01-pending-bit.meta && grep -q '^fingerprint = ' %s/01-pending-bit.meta",
		dir, SETS, dir, dir, dir, dir);
	assert_int_equal(system(cmd), 0);
	run_c2c(&r, "compare", SETS "/a", dir, NULL);
	if (r.status)
		fail_msg("%s", r.err);
	assert_non_null(strstr(r.err,
			       "01-pending-bit.meta: fingerprint a9b3474b8e55 does not match its "
			       "fields"));
	assert_non_null(strstr(r.err, "an edited or corrupt .meta"));
	assert_non_null(strstr(r.err, "names two machines (cpu_model_number 1 vs 9)"));
	const char *a = strstr(r.out, "A: "), *b = strstr(r.out, "B: ");
	assert_non_null(a);
	assert_non_null(b);
	char la[64] = "", lb[64] = "";
	assert_int_equal(sscanf(strstr(a, "vm#"), "%63[^ ,(]", la), 1);
	assert_int_equal(sscanf(strstr(b, "vm#"), "%63[^ ,(]", lb), 1);
	assert_string_not_equal(la, lb);
	/* the shipped sets' ids all match their fields */
	run_c2c(&r, "compare", SETS "/a", SETS "/b", NULL);
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.err, "does not match"));
}

/* NUMA nodes per package (SNC, NPS) tells machines apart where both sets record it; a set written
 * before it was recorded is the same machine as one that records it. */
static void numa_per_package_is_identity(void **state)
{
	(void)state;
	struct cmd_result r;
	char one[600], two[600], cmd[5000];
	snprintf(one, sizeof(one), "%s/nps1", test_dir);
	snprintf(two, sizeof(two), "%s/nps2", test_dir);
	snprintf(cmd, sizeof(cmd),
		 "rm -rf %s %s && cp -r %s/a %s && cp -r %s/a %s && sed -i 's/^fingerprint = /"
		 "numa_per_package = 1\\nfingerprint = /' %s/*.meta && sed -i 's/^fingerprint = /"
		 "numa_per_package = 2\\nfingerprint = /' %s/*.meta && grep -q "
		 "'^numa_per_package = 2$' %s/01-pending-bit.meta",
		 one, two, SETS, one, SETS, two, one, two, two);
	assert_int_equal(system(cmd), 0);
	run_c2c(&r, "compare", one, two, NULL);
	if (r.status)
		fail_msg("%s", r.err);
	assert_non_null(strstr(r.err, "names two machines (numa_per_package 1 vs 2)"));
	run_c2c(&r, "compare", SETS "/a", one, NULL);
	if (r.status)
		fail_msg("%s", r.err);
	assert_null(strstr(r.err, "names two machines"));
}

/* Two servers run under one label by mistake: refused as before, and compared once each is named
 * at compare time; a bad --label is one line, exit 2. */
static void relabel_at_compare_time(void **state)
{
	(void)state;
	struct cmd_result r;
	char a[600], b[600], cmd[6000], spa[700], spb[700];
	snprintf(a, sizeof(a), "%s/srv1", test_dir);
	snprintf(b, sizeof(b), "%s/srv2", test_dir);
	snprintf(
		cmd, sizeof(cmd),
		"rm -rf %s %s && cp -r %s/a %s && cp -r %s/a %s && sed -i 's/,vm,vm,AMD "
		"EPYC,/,vm,other,AMD EPYC,/' %s/*.csv && grep -q ',vm,other,AMD EPYC,' "
		"%s/01-pending-bit.csv",
		a, b, SETS, a, SETS, b, b, b);
	assert_int_equal(system(cmd), 0);
	run_c2c(&r, "compare", a, b, NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "label 'vm' names two machines: host 'vm'"));
	snprintf(spa, sizeof(spa), "%s=first", a);
	snprintf(spb, sizeof(spb), "%s/=second", b); /* any spelling of the path */
	run_c2c(&r, "compare", a, b, "--label", spa, "--label", spb, NULL);
	if (r.status)
		fail_msg("%s", r.err);
	assert_non_null(strstr(r.out, "machine(s): first (host vm, AMD EPYC)"));
	assert_non_null(strstr(r.out, "machine(s): second (host other, AMD EPYC)"));
	assert_null(strstr(r.out, "only in"));
	/* report takes it too: both machines in the report */
	char out[700], md[800];
	snprintf(out, sizeof(out), "%s/rep", test_dir);
	run_c2c(&r, "report", a, b, "-o", out, "--label", spa, "--label", spb, NULL);
	if (r.status)
		fail_msg("%s", r.err);
	snprintf(md, sizeof(md), "%s/report.md", out);
	char *text = slurp(md);
	assert_non_null(text);
	assert_non_null(strstr(text, "A = first"));
	assert_non_null(strstr(text, "B = second"));
	free(text);
	/* bad input: one line naming the value, exit 2 */
	run_c2c(&r, "compare", a, b, "--label", "nosuchdir=x", NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "--label 'nosuchdir=x': nosuchdir: no such file"));
	assert_int_equal(count_lines(r.err), 1);
	snprintf(spa, sizeof(spa), "%s=bad name", a);
	run_c2c(&r, "compare", a, b, "--label", spa, NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "name 'bad name' is not accepted"));
	run_c2c(&r, "compare", a, a, "--label", "tests=x", NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "--label 'tests=x' names none of the inputs"));
	run_c2c(&r, "compare", a, b, "--label", NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "--label needs a value"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(an_edited_fingerprint_is_named),
		cmocka_unit_test(numa_per_package_is_identity),
		cmocka_unit_test(relabel_at_compare_time),
	};
	return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}
