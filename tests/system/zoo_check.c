/* make test-system: judge what one zoo guest's checks produced against the guest's own sysfs.
 *   zoo_check GUEST_DIR      (build/zoo/NAME: topo.txt and one folder per check, see guests.tsv)
 * A check whose folder is absent is skipped (the guest did not run it). */
#include "tests/system/zoo_topo.h"
#include "tests/system/zoo_rows.h"
#include "tests/testutil.h"
#include <string.h>

const char *zoo_dir;
struct zoo_topo zoo;

/* True where the relation named by placement pl holds between writer w and reader r. */
static int relation_holds(const char *pl, const struct zoo_cpu *w, const struct zoo_cpu *r)
{
	int same_core = w->core == r->core, same_pkg = w->pkg == r->pkg;
	if (w->cpu == r->cpu)
		return 0;
	if (!strcmp(pl, "smt"))
		return same_core;
	if (!strcmp(pl, "same-llc"))
		return !same_core && w->llc >= 0 && w->llc == r->llc;
	if (!strcmp(pl, "cross-llc"))
		return same_pkg && w->llc >= 0 && r->llc >= 0 && w->llc != r->llc;
	if (!strcmp(pl, "same-socket"))
		return same_pkg && !same_core && w->pkg == zoo.cpu[0].pkg;
	if (!strcmp(pl, "cross-socket"))
		return !same_pkg;
	if (!strcmp(pl,
		    "spread")) /* cores alternate packages: apart as far as the machine allows */
		return zoo_packages(&zoo) > 1 ? !same_pkg : !same_core;
	if (!strcmp(pl, "compact")) /* consecutive PUs: SMT siblings where the core has two */
		return same_pkg && (zoo_core_pus(&zoo, w->core) > 1 ? same_core : 1);
	return 0;
}

/* Whether the guest has what placement pl needs for one writer and one reader, from its sysfs. */
static int possible(const char *pl)
{
	int pkg0 = zoo_cpu(&zoo, zoo_first_cpu(&zoo, zoo.cpu[0].pkg))->pkg, smt = 0;
	for (int i = 0; i < zoo.ncpus; i++)
		smt |= zoo_core_pus(&zoo, zoo.cpu[i].core) > 1;
	if (!strcmp(pl, "smt"))
		return smt;
	if (!strcmp(pl, "same-llc")) { /* two cores under package 0's first LLC */
		const struct zoo_cpu *f = zoo_cpu(&zoo, zoo_first_cpu(&zoo, pkg0));
		int cores[ZOO_MAX_CPUS], n = 0;
		for (int i = 0; i < zoo.ncpus && f->llc >= 0; i++) {
			int k = 0;
			while (k < n && cores[k] != zoo.cpu[i].core)
				k++;
			if (zoo.cpu[i].llc == f->llc && k == n)
				cores[n++] = zoo.cpu[i].core;
		}
		return n >= 2;
	}
	if (!strcmp(pl, "cross-llc"))
		return zoo_llcs(&zoo, pkg0) >= 2;
	if (!strcmp(pl, "same-socket"))
		return zoo_cores(&zoo, pkg0) >= 2;
	if (!strcmp(pl, "cross-socket"))
		return zoo_packages(&zoo) >= 2;
	if (!strcmp(pl, "spread"))
		return zoo_cores(&zoo, -1) >= 2;
	return zoo.ncpus >= 2; /* compact */
}

/* One placement: planned where possible (the row's CPUs in the named relation, by the guest's
 * sysfs), else refused with exit 2 and one line. auto is judged as what it resolved to. */
static void one_placement(const char *dir, const char *pl)
{
	char name[64];
	snprintf(name, sizeof(name), "%s.rc", pl);
	int rc = zoo_int(dir, name);
	snprintf(name, sizeof(name), "%s.err", pl);
	char *err = zoo_file(dir, name);
	int auto_pl = !strcmp(pl, "auto");
	if (!auto_pl && !possible(pl)) {
		print_message("%s: impossible here, refused: %s", pl, err ? err : "(no stderr)\n");
		assert_int_equal(rc, 2);
		assert_int_equal(zoo_lines(err), 1);
		assert_non_null(strstr(err, "placement"));
		free(err);
		return;
	}
	free(err);
	snprintf(name, sizeof(name), "%s", pl);
	zoo_ran(dir, name);
	snprintf(name, sizeof(name), "%s.csv", pl);
	struct table t;
	zoo_table(&t, dir, name);
	assert_int_equal(t.nrows, 1);
	int w = zoo_cell_int(&t, 0, "writer_cpus"), r = zoo_cell_int(&t, 0, "reader_cpus");
	const char *used = table_get(&t, 0, "placement");
	assert_non_null(used);
	assert_string_equal(table_get(&t, 0, "placement_requested"), pl);
	const struct zoo_cpu *cw = zoo_cpu(&zoo, w), *cr = zoo_cpu(&zoo, r);
	assert_non_null(cw);
	assert_non_null(cr);
	print_message("%s%s%s: writer CPU %d (package %d, core %d, LLC %d, node %d), reader CPU %d "
		      "(package %d, core %d, LLC %d, node %d)\n",
		      pl, auto_pl ? " -> " : "", auto_pl ? used : "", w, cw->pkg, cw->core, cw->llc,
		      cw->node, r, cr->pkg, cr->core, cr->llc, cr->node);
	assert_true(relation_holds(auto_pl ? used : pl, cw, cr));
	if (auto_pl) {
		assert_true(possible(used));
		assert_true(strlen(table_get(&t, 0, "placement_auto_why")) > 0);
	}
	table_free(&t);
}

static void placements(void **s)
{
	(void)s;
	char dir[4096];
	zoo_check_dir(dir, sizeof(dir), "placements");
	const char *all[] = { "smt", "same-llc", "cross-llc", "same-socket", "cross-socket",
			      "spread", "compact", "auto" };
	for (size_t i = 0; i < sizeof(all) / sizeof(*all); i++)
		one_placement(dir, all[i]);
}

/* --mem-node N for each node with memory (memory-only ones too): mem_node_actual is N. */
static void memnode(void **s)
{
	(void)s;
	char dir[4096];
	zoo_check_dir(dir, sizeof(dir), "memnode");
	int checked = 0;
	for (int i = 0; i < zoo.nnodes; i++) {
		if (zoo.node_mem_kb[i] <= 0)
			continue;
		char name[64];
		snprintf(name, sizeof(name), "node%d", zoo.node[i]);
		zoo_ran(dir, name);
		snprintf(name, sizeof(name), "node%d.csv", zoo.node[i]);
		struct table t;
		zoo_table(&t, dir, name);
		assert_int_equal(t.nrows, 1);
		print_message("--mem-node %d: mem_node_actual %s\n", zoo.node[i],
			      table_get(&t, 0, "mem_node_actual"));
		assert_int_equal(zoo_cell_int(&t, 0, "mem_node_actual"), zoo.node[i]);
		table_free(&t);
		checked++;
	}
	assert_true(checked >= 1);
}

int main(int argc, char **argv)
{
	char err[512];
	if (argc != 2) {
		fprintf(stderr, "usage: zoo_check GUEST_DIR\n");
		return 2;
	}
	zoo_dir = argv[1];
	if (zoo_topo_read(&zoo, zoo_dir, err)) {
		fprintf(stderr, "zoo_check: %s\n", err);
		return 1;
	}
	const struct CMUnitTest t[] = {
		cmocka_unit_test(placements), cmocka_unit_test(memnode),
		cmocka_unit_test(zoo_pingpong), cmocka_unit_test(zoo_concurrent),
		cmocka_unit_test(zoo_concurrent_auto),
		cmocka_unit_test(zoo_vmalloc16), cmocka_unit_test(zoo_vmalloc8),
		cmocka_unit_test(zoo_refill),
		cmocka_unit_test(zoo_shepherd), cmocka_unit_test(zoo_counters),
		cmocka_unit_test(zoo_suite), cmocka_unit_test(zoo_cgroup),
	};
	return cmocka_run_group_tests_name(zoo_dir, t, NULL, NULL);
}
