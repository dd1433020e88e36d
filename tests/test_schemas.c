/* Every schema ever written is read as today's (analysis/groups_schema.c): what an older schema did
 * not record is named so, never taken for a request, and joins on its effective value. */
#include "tests/testutil.h"
#include <stdio.h>
#include <string.h>

#define ZEN3 "results/reference/epyc-zen3-kvm-2vcpu"
#define ZEN5 "results/reference/epyc-zen5-bhyve-2vcpu"

/* The text with its wrapped lines joined again ("\n" and the continuation indent: one space). */
static const char *unwrapped(const char *out)
{
	static char buf[1 << 17];
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

/* The shipped schema-6 quick set's rmw run as today's writer would have written it: schema 10,
 * with mem_node_requested writer (the default) beside the node it resolved to. */
static void make_now(const char *dir)
{
	char cmd[4000];
	snprintf(cmd, sizeof(cmd),
		 "rm -rf %s && mkdir -p %s && cp " ZEN3 "/vm-20261201T154250-quick/01-rmw.meta %s && "
		 "awk 'BEGIN{FS=OFS=\",\"} NR==1{print $0,\"mem_node_requested\"; next} "
		 "{$1=10; print $0,\"writer\"}' " ZEN3 "/vm-20261201T154250-quick/01-rmw.csv "
		 "> %s/01-rmw.csv && head -1 %s/01-rmw.csv | grep -q mem_node_requested",
		 dir, dir, dir, dir, dir);
	assert_int_equal(system(cmd), 0);
}

/* Schema 6 had no mem_node_requested: its rows join today's on the node used, and say so; the
 * configuration that did not join is headed "not recorded (schema 6)", never "=0". */
static void schema_6_joins_on_the_node_used(void **state)
{
	(void)state;
	struct cmd_result r;
	char now[600];
	snprintf(now, sizeof(now), "%s/now", test_dir);
	make_now(now);
	run_c2c(&r, "compare", ZEN3 "/vm-20261201T154250-quick", now, NULL);
	if (r.status)
		fail_msg("%s", r.err);
	const char *u = unwrapped(r.out);
	assert_non_null(strstr(u, "pending-bit shared offset=32 policy=rmw mem_node_requested=writer"));
	assert_non_null(strstr(u, "A's mem_node_requested not recorded (schema 6): joined on the "
				  "node used, 0"));
	assert_non_null(strstr(u, "mem_node_requested=not recorded (schema 6)")); /* only in A */
	assert_null(strstr(u, "mem_node_requested=0"));
	assert_null(strstr(u, "only in B"));
	/* B's writer's node is 1: the node A used (0) is not what B's request became, so nothing
	 * joins, and the refusal names what stood in */
	char cmd[3000];
	snprintf(cmd, sizeof(cmd),
		 "awk 'BEGIN{FS=OFS=\",\"} NR==1{for(i=1;i<=NF;i++) if($i==\"mem_node\") c=i} "
		 "NR>1{$c=1} {print}' %s/01-rmw.csv > %s/x && mv %s/x %s/01-rmw.csv",
		 now, now, now, now);
	assert_int_equal(system(cmd), 0);
	run_c2c(&r, "compare", ZEN3 "/vm-20261201T154250-quick", now, NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "mem_node_requested (A not recorded (schema 6): 0, B writer)"));
}

/* Schema 1 recorded neither the placement, the atomics, the node nor the warm-up asked: the
 * preset's command line (metadata.txt) gives what was asked, the schema what was used. */
static void schema_1_joins_by_its_command_line(void **state)
{
	(void)state;
	struct cmd_result r;
	char now[600];
	snprintf(now, sizeof(now), "%s/now1", test_dir);
	make_now(now);
	run_c2c(&r, "compare", ZEN5 "/vm-20261130T000155-quick", now, NULL);
	if (r.status)
		fail_msg("%s", r.err);
	const char *u = unwrapped(r.out);
	assert_non_null(strstr(u, "pending-bit aligned offset=64 policy=rmw"));
	assert_non_null(strstr(u, "A's placement_requested not in its rows (schema 1): auto, from "
				  "its run's command line"));
	assert_non_null(strstr(u, "A's atomics_requested not recorded (schema 1): joined on the "
				  "atomics used (lock: the only kind before --atomics), lock"));
	assert_non_null(strstr(u, "A's mem_node_requested not recorded (schema 1): joined on the "
				  "node used, 0"));
	assert_null(strstr(u, "only in B"));
	/* a schema-1 file outside its result directory has no command line: its placement is not
	 * recorded, and joins on the placement used where that is the same */
	char cmd[1400], lone[600];
	snprintf(lone, sizeof(lone), "%s/lone.csv", test_dir);
	snprintf(cmd, sizeof(cmd), "cp " ZEN5 "/vm-20261130T000155-quick/01-rmw.csv %s", lone);
	assert_int_equal(system(cmd), 0);
	run_c2c(&r, "compare", lone, ZEN5 "/vm-20261130T000155-quick/01-rmw.csv", NULL);
	if (r.status)
		fail_msg("%s", r.err);
	u = unwrapped(r.out);
	assert_non_null(strstr(u, "A's placement_requested not recorded (schema 1): joined on the "
				  "placement used, same-socket"));
	assert_non_null(strstr(u, "A's warmup_requested_s not recorded (schema 1): joined without "
				  "it"));
	assert_null(strstr(u, "only in"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(schema_6_joins_on_the_node_used),
		cmocka_unit_test(schema_1_joins_by_its_command_line),
	};
	return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}
