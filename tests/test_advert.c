/* Arm PMUv3: an event the kernel's PMU does not advertise (sysfs events/, from PMCEID) is NA with
 * the reason, never 0. Made-up sysfs trees (C2C_SYSFS_ROOT): an N1-like one, where the parents of
 * the Arm stand-ins are listed, and a QEMU-like one with only sw_incr, inst_retired, cpu_cycles. */
#include "lib/csvread.h"
#include "harness/counters/advert.h"
#include "harness/counters/evtab.h"
#include "tests/testutil.h"
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define QEMU_WB "not advertised by armv8_pmuv3_0: no l1d_cache_wb in sysfs events/ (PMCEID)"
#define QEMU_INVAL "not advertised by armv8_pmuv3_0: no l1d_cache in sysfs events/ (PMCEID)"

static char n1[512], qemu[512], bl[512], later[512], devs[4][600];

static void mkdirs(const char *path)
{
	char buf[1024];
	snprintf(buf, sizeof(buf), "%s", path);
	for (char *s = buf + 1; *s; s++)
		if (*s == '/') {
			*s = 0;
			mkdir(buf, 0755);
			*s = '/';
		}
	mkdir(buf, 0755);
}

/* root/bus/event_source/devices/pmu/events/NAME holding "event=0x...", as the kernel writes it. */
static void pmu_tree(const char *root, const char *pmu, const char *const *ev)
{
	char dir[1024], path[1200];
	snprintf(dir, sizeof(dir), "%s/bus/event_source/devices/%s/events", root, pmu);
	mkdirs(dir);
	for (; *ev; ev += 2) {
		snprintf(path, sizeof(path), "%s/%s", dir, ev[0]);
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		fprintf(f, "event=%s\n", ev[1]);
		fclose(f);
	}
}

static const char *const qemu_events[] = { "sw_incr", "0x0000", "inst_retired", "0x0008",
					   "cpu_cycles", "0x0011", NULL };
static const char *const n1_events[] = { "sw_incr", "0x0000", "l1d_cache_refill", "0x0003",
					 "l1d_cache", "0x0004", "inst_retired", "0x0008",
					 "cpu_cycles", "0x0011", "l1d_cache_wb", "0x0015",
					 "sample_pop", "0x4000", NULL };

static int setup(void **state)
{
	if (test_dir_setup(state))
		return -1;
	snprintf(n1, sizeof(n1), "%s/n1", test_dir);
	snprintf(qemu, sizeof(qemu), "%s/qemu", test_dir);
	snprintf(bl, sizeof(bl), "%s/biglittle", test_dir);
	pmu_tree(n1, "armv8_pmuv3_0", n1_events);
	pmu_tree(n1, "cpu", qemu_events); /* not an armv8_ PMU: never read */
	pmu_tree(qemu, "armv8_pmuv3_0", qemu_events);
	pmu_tree(bl, "armv8_cortex_a76", n1_events); /* one core type has the parent, one not */
	pmu_tree(bl, "armv8_cortex_a55", qemu_events);
	snprintf(later, sizeof(later), "%s/later", test_dir); /* a kernel listing 0x47 itself */
	pmu_tree(later, "armv8_pmuv3", (const char *const[]){ "l1d_cache_wb_clean", "0x0047",
							      NULL });
	const char *roots[] = { n1, qemu, bl, later };
	for (int i = 0; i < 4; i++)
		snprintf(devs[i], sizeof(devs[i]), "%s/bus/event_source/devices", roots[i]);
	return 0;
}

static char why[256];

/* The verdict for event ev (named name) against made-up tree t (0 N1, 1 QEMU, 2 two core types,
 * 3 a kernel that lists an event outside PMCEID's ranges itself). */
static enum adv_verdict chk(int t, unsigned ev, const char *name)
{
	return adv_check(devs[t], 1, ev, name, why, sizeof(why));
}

/* The rule itself: PMCEID-covered events by their own listing, 0x40-0x3fff ones by their parent. */
static void test_rule_on_trees(void **state)
{
	(void)state;
	/* N1-like: both stand-ins through their parents, cycles itself */
	assert_int_equal(chk(0, 0x47, "L1D_CACHE_WB_CLEAN"), ADV_YES);
	assert_string_equal(why, "advertised by armv8_pmuv3_0 through its parent l1d_cache_wb "
				 "(0x15) in sysfs events/: l1d_cache_wb_clean (0x47) is outside "
				 "PMCEID");
	assert_int_equal(chk(0, 0x48, "L1D_CACHE_INVAL"), ADV_YES);
	assert_int_equal(chk(0, 0x11, "arm_n1::CPU_CYCLES:u"), ADV_YES);
	assert_string_equal(why, "advertised by armv8_pmuv3_0: cpu_cycles (0x11) in sysfs events/ "
				 "(PMCEID)");
	assert_int_equal(chk(0, 0x4000, "SAMPLE_POP"), ADV_YES);
	assert_int_equal(chk(0, 0x4001, "SAMPLE_FEED"), ADV_NO);
	/* QEMU-like: the parents are missing, so are the stand-ins; a PMCEID event by itself */
	assert_int_equal(chk(1, 0x47, "L1D_CACHE_WB_CLEAN"), ADV_NO);
	assert_string_equal(why, QEMU_WB ", the parent of l1d_cache_wb_clean (0x47, outside "
				 "PMCEID)");
	assert_int_equal(chk(1, 0x48, "L1D_CACHE_INVAL"), ADV_NO);
	assert_string_equal(why, QEMU_INVAL ", the parent of l1d_cache_inval (0x48, outside "
				 "PMCEID)");
	assert_int_equal(chk(1, 0x03, "L1D_CACHE_REFILL"), ADV_NO);
	assert_string_equal(why, "not advertised by armv8_pmuv3_0: no l1d_cache_refill in sysfs "
				 "events/ (PMCEID)");
	assert_int_equal(chk(1, 0x08, "INST_RETIRED"), ADV_YES);
	/* outside PMCEID with no parent in the map, or no number at all: counted, but said so */
	assert_int_equal(chk(1, 0x1234, "IMP_DEF"), ADV_UNVERIFIED);
	assert_non_null(strstr(why, "not verifiable against armv8_pmuv3_0: 0x1234 is outside"));
	assert_int_equal(adv_check(devs[1], 0, 0, "PAPI_TOT_CYC", why, sizeof(why)),
			 ADV_UNVERIFIED);
	/* every armv8_ PMU must advertise it: the one that does not is named */
	assert_int_equal(chk(2, 0x47, "L1D_CACHE_WB_CLEAN"), ADV_NO);
	assert_non_null(strstr(why, "not advertised by armv8_cortex_a55: no l1d_cache_wb"));
	assert_int_equal(chk(2, 0x11, "CPU_CYCLES"), ADV_YES);
	assert_non_null(strstr(why, "advertised by armv8_cortex_a55,armv8_cortex_a76:"));
	/* an event listed itself is advertised, whatever its parent */
	assert_int_equal(chk(3, 0x47, "L1D_CACHE_WB_CLEAN"), ADV_YES);
	assert_string_equal(why, "advertised by armv8_pmuv3: l1d_cache_wb_clean (0x47) in sysfs "
				 "events/");
	assert_int_equal(chk(3, 0x48, "L1D_CACHE_INVAL"), ADV_NO);
	assert_int_equal(chk(3, 0x10047, "TOO_BIG"), ADV_UNVERIFIED);
	/* no armv8_ PMU (x86, or no sysfs): the check does not apply */
	assert_int_equal(adv_check(test_dir, 1, 0x47, "L1D_CACHE_WB_CLEAN", why, sizeof(why)),
			 ADV_NONE);
}

/* The sysfs root comes from C2C_SYSFS_ROOT, else /sys; encodings give the PMUv3 number. */
static void test_root_and_numbers(void **state)
{
	char buf[512];
	unsigned ev = 0;
	(void)state;
	unsetenv("C2C_SYSFS_ROOT");
	assert_string_equal(adv_devices_dir(buf, sizeof(buf)), "/sys/bus/event_source/devices");
	setenv("C2C_SYSFS_ROOT", qemu, 1);
	assert_string_equal(adv_devices_dir(buf, sizeof(buf)), devs[1]);
	unsetenv("C2C_SYSFS_ROOT");
	assert_int_equal(adv_event_number("config=0x47", &ev), 0);
	assert_int_equal(ev, 0x47);
	assert_int_equal(adv_event_number("config=0x4000 config1=0x0", &ev), 0);
	assert_int_equal(ev, 0x4000);
	assert_int_equal(adv_event_number("-", &ev), -1);
	assert_true(adv_arm_pmu("arm_n1"));
	assert_false(adv_arm_pmu("skx"));
}

/* Every Arm row of the platform table can be checked: its number is in PMCEID's ranges or its
 * parent is in the map (a new Arm row outside both fails here, not silently in a guest). */
static void test_table_rows_verifiable(void **state)
{
	struct evtab tab;
	char err[512];
	int arm = 0;
	(void)state;
	unsetenv("C2C_EVENTS_TABLE");
	assert_int_equal(evtab_load(&tab, err), 0);
	for (int i = 0; i < tab.n; i++) {
		const struct evrow *r = &tab.row[i];
		unsigned ev;
		if (!adv_arm_pmu(r->pmu))
			continue;
		arm++;
		assert_int_equal(adv_event_number(r->encoding, &ev), 0);
		if (adv_check(devs[0], 1, ev, r->event, why, sizeof(why)) == ADV_UNVERIFIED)
			fail_msg("%s %s (%s): %s", r->pmu, r->metric, r->event, why);
	}
	assert_true(arm >= 16);
	evtab_free(&tab);
}

/* `events --check` says per event: advertised or not, and why; the check's verdict (names and
 * encodings) is unchanged by it. */
static void test_events_check_shows_it(void **state)
{
	struct cmd_result *r = malloc(sizeof(*r));
	(void)state;
	setenv("C2C_SYSFS_ROOT", qemu, 1);
	run_c2c(r, "events", "--pmu", "arm_n1", "--check", NULL);
	text_unwrap(r->out); /* events fits its lines to 100 columns */
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "coh_writeback    -> " QEMU_WB));
	assert_non_null(strstr(r->out, "coh_inval        -> " QEMU_INVAL));
	assert_non_null(strstr(r->out, "cycles           -> advertised by armv8_pmuv3_0: "
				       "cpu_cycles"));
	setenv("C2C_SYSFS_ROOT", n1, 1);
	run_c2c(r, "events", "--pmu", "arm_n1", "--check", NULL);
	text_unwrap(r->out); /* events fits its lines to 100 columns */
	assert_int_equal(r->status, 0);
	assert_null(strstr(r->out, "not advertised"));
	assert_non_null(strstr(r->out,
			       "coh_writeback    -> advertised by armv8_pmuv3_0 through its "
			       "parent l1d_cache_wb (0x15)"));
	setenv("C2C_SYSFS_ROOT", test_dir, 1); /* no armv8_ PMU */
	run_c2c(r, "events", "--pmu", "arm_n1", "--check", NULL);
	text_unwrap(r->out); /* events fits its lines to 100 columns */
	assert_non_null(strstr(r->out, "coh_writeback    -> not verifiable: no armv8_* PMU in "));
	run_c2c(r, "events", "--pmu", "skx", "--check", NULL); /* not an Arm PMU: nothing added */
	text_unwrap(r->out); /* events fits its lines to 100 columns */
	assert_null(strstr(r->out, "->"));
	unsetenv("C2C_SYSFS_ROOT");
	free(r);
}

/* A run under tree: the Arm stand-ins' columns, and the reasons recorded for them. */
static void run_arm(const char *tree, const char *out, struct table *t)
{
	struct cmd_result *r = malloc(sizeof(*r));
	char err[512];
	setenv("C2C_SYSFS_ROOT", tree, 1);
	setenv("LIBPFM_FORCE_PMU", "arm_n1", 1); /* the Arm rows on any machine */
	run_c2c(r, "run", "pending-bit", "--duration", "0.05", "--warmup", "0.01", "--max-attempts",
		"1", "--reps", "1", "--layout", "shared", "--events", "auto", "--out", out, LENIENT,
		NULL);
	unsetenv("LIBPFM_FORCE_PMU");
	unsetenv("C2C_SYSFS_ROOT");
	/* exit 4 (the one attempt invalid: a loaded machine) still writes the row this test reads:
	 * its counter columns and their reasons do not depend on validity */
	int st = r->status;
	if (st && st != 4)
		fail_msg("run failed (%d): %s", st, r->err);
	free(r);
	if (table_read(t, out, err))
		fail_msg("%s", err);
	assert_int_equal(t->nrows, 1);
}

/* In the CSV: NA for the stand-ins under the QEMU-like tree, with the reason in na_reason; under
 * the N1-like tree no "not advertised" reason. Never a number for an event not advertised. */
static void test_csv_na_with_reason(void **state)
{
	struct table t;
	char out[600];
	(void)state;
	snprintf(out, sizeof(out), "%s/qemu.csv", test_dir);
	run_arm(qemu, out, &t);
	const char *na = table_get(&t, 0, "na_reason");
	assert_non_null(na);
	for (int c = 0; c < t.ncols; c++)
		if (strstr(t.cols[c], "coh_") && strstr(t.cols[c], "_per_kop"))
			assert_string_equal(t.cell[0][c], "NA");
	assert_string_equal(table_get(&t, 0, "hitm_per_kop"), "NA");
	assert_string_equal(table_get(&t, 0, "coh_writeback_event"), "L1D_CACHE_WB_CLEAN");
	/* the reason is said for the stand-in's columns, as "counters [cols]: reason" */
	const char *wb = strstr(na, "]: " QEMU_WB);
	assert_non_null(wb);
	const char *open = wb;
	while (open > na && *open != '[')
		open--;
	assert_non_null(strstr(open, "coh_writeback"));
	assert_true(strstr(open, "coh_writeback") < wb);
	assert_non_null(strstr(na, "]: " QEMU_INVAL));
	table_free(&t);

	snprintf(out, sizeof(out), "%s/n1.csv", test_dir);
	run_arm(n1, out, &t);
	na = table_get(&t, 0, "na_reason");
	assert_non_null(na);
	assert_null(strstr(na, "not advertised"));
	if (!strcmp(table_get(&t, 0, "writer_coh_writeback_per_kop"),
		    "NA")) /* for another reason */
		assert_non_null(strstr(na, "coh_writeback"));
	table_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rule_on_trees),
		cmocka_unit_test(test_root_and_numbers),
		cmocka_unit_test(test_table_rows_verifiable),
		cmocka_unit_test(test_events_check_shows_it),
		cmocka_unit_test(test_csv_na_with_reason),
	};
	return cmocka_run_group_tests(tests, setup, test_dir_teardown);
}
