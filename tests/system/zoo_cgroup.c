/* The cgroup check: c2cbench run inside a cpuset cgroup plans inside it (#29). The allowed CPUs and
 * nodes are the cgroup's own effective sets, as the guest's kernel wrote them. */
#include "tests/system/zoo_rows.h"
#include "tests/testutil.h"
#include <stdlib.h>
#include <string.h>

/* A kernel cpulist ("4-7", "0,2-3") as a membership table over 0..ZOO_MAX_CPUS-1. */
static int cpulist(const char *s, char *in)
{
	int n = 0;
	memset(in, 0, ZOO_MAX_CPUS);
	while (s && *s && *s != '\n') {
		char *e;
		long a = strtol(s, &e, 10), b = a;
		if (e == s)
			return -1;
		if (*e == '-')
			b = strtol(e + 1, &e, 10);
		for (long i = a; i <= b && i < ZOO_MAX_CPUS; i++)
			in[i] = 1, n++;
		s = *e == ',' ? e + 1 : e;
	}
	return n;
}

void zoo_cgroup(void **s)
{
	(void)s;
	char dir[4096], cpus[ZOO_MAX_CPUS], mems[ZOO_MAX_CPUS];
	zoo_check_dir(dir, sizeof(dir), "cgroup");
	char *why = zoo_file(dir, "why");
	if (why)
		fail_msg("no cpuset cgroup in the guest: %s", why);
	char *ac = zoo_file(dir, "allowed_cpus"), *am = zoo_file(dir, "allowed_mems");
	assert_non_null(ac);
	assert_non_null(am);
	assert_true(cpulist(ac, cpus) >= 2);
	assert_true(cpulist(am, mems) >= 1);
	assert_int_equal(zoo_int(dir, "plan.rc"), 0);
	zoo_ran(dir, "auto");
	struct table t;
	zoo_table(&t, dir, "auto.csv");
	assert_int_equal(t.nrows, 1);
	int w = zoo_cell_int(&t, 0, "writer_cpus"), r = zoo_cell_int(&t, 0, "reader_cpus");
	int node = zoo_cell_int(&t, 0, "mem_node_actual");
	print_message("cgroup cpus %.*s, mems %.*s: auto -> %s, writer CPU %d, reader CPU %d, "
		      "memory on node %d\n",
		      (int)strcspn(ac, "\n"), ac, (int)strcspn(am, "\n"), am,
		      table_get(&t, 0, "placement"), w, r, node);
	assert_true(w >= 0 && w < ZOO_MAX_CPUS && cpus[w]);
	assert_true(r >= 0 && r < ZOO_MAX_CPUS && cpus[r]);
	assert_int_not_equal(w, r);
	assert_true(node >= 0 && node < ZOO_MAX_CPUS && mems[node]);
	table_free(&t);
	free(ac);
	free(am);
}
