/* CPUs the installed libpfm4 has no table for: the compatible PMU by made-up CPUID values, one with
 * no fallback (NA and the reason), and what a run on such a CPU records in its CSV. */
#include "harness/counters/fallback.h"
#include "tests/testutil.h"
#include "lib/csvread.h"
#include <stdlib.h>
#include <string.h>

static const struct pmu_fallback *fb(const char *vendor, int family, int model, char *why, size_t n)
{
	struct cpu_sig s = { .family = family, .model = model, .fake = 1 };
	snprintf(s.vendor, sizeof(s.vendor), "%s", vendor);
	return pmu_fallback_for_cpu(&s, why, n);
}

/* Emerald and Granite Rapids go to spr, Zen 5 and the Zen 4 models 4.13 misses to zen4; others get
 * none. */
static void fallback_by_cpuid(void **st)
{
	char why[256] = "";
	(void)st;
	const struct pmu_fallback *f = fb("GenuineIntel", 6, 207, why, sizeof(why));
	assert_non_null(f);
	assert_string_equal(f->target, "emr");
	assert_string_equal(f->use, "spr");
	f = fb("GenuineIntel", 6, 173, why, sizeof(why));
	assert_non_null(f);
	assert_string_equal(f->target, "gnr");
	assert_string_equal(f->use, "spr");
	f = fb("AuthenticAMD", 0x1a, 0x02, why, sizeof(why));
	assert_non_null(f);
	assert_string_equal(f->target, "amd64_fam1ah_zen5");
	assert_string_equal(f->use, "amd64_fam19h_zen4");
	f = fb("AuthenticAMD", 0x19, 0xa0, why, sizeof(why));
	assert_non_null(f);
	assert_string_equal(f->use, "amd64_fam19h_zen4");
	assert_null(fb("AuthenticAMD", 0x19, 0x01, why,
		       sizeof(why))); /* Milan: libpfm4 detects it, no fallback */
	assert_null(fb("GenuineIntel", 6, 250, why, sizeof(why)));
	assert_string_equal(why,
			    "no compatible PMU is known for GenuineIntel family 0x6 model 0xfa");
	assert_null(fb("", 0, 0, why, sizeof(why)));
	assert_non_null(strstr(why, "no CPUID"));
	assert_string_equal(pmu_fallback_for_target("gnr")->use, "spr");
	assert_null(pmu_fallback_for_target("skx"));
}

/* The value of column col in the first data row of a CSV (malloc'ed), or NULL without that column.
 */
static char *csv_value(const char *path, const char *col)
{
	struct table t;
	csv_load(&t, path);
	const char *v = t.nrows ? table_get(&t, 0, col) : NULL;
	char *out = v ? strdup(v) : NULL;
	table_free(&t);
	return out;
}

static void run_as(struct cmd_result *r, const char *cpuid, const char *out)
{
	setenv("C2C_CPUID", cpuid, 1);
	run_c2c(r, "run", "pending-bit", "--duration", "0.05", "--warmup", "0.01", "--max-attempts",
		"1", "--reps", "1", "--layout", "shared", "--out", out, "--quiet", LENIENT, NULL);
	unsetenv("C2C_CPUID");
}

/* A run on a made-up Emerald Rapids records the detected (none), used (spr) and table (emr) PMUs
 * and why. */
static void run_records_fallback(void **st)
{
	struct cmd_result *r = malloc(sizeof(*r));
	char out[512];
	(void)st;
	snprintf(out, sizeof(out), "%s/emr.csv", test_dir);
	run_as(r, "GenuineIntel:6:207", out);
	if (!RAN(r->status)) /* 4: a loaded machine measured nothing; the columns are checked */
		fail_msg("run failed: %s", r->err);
#if !defined(__x86_64__)
	/* an arm64 libpfm4 has no x86 table: no fallback, and the row says so */
	char *u = csv_value(out, "counters_pmu"), *w = csv_value(out, "counters_pmu_reason");
	assert_string_equal(u, "NA");
	assert_non_null(strstr(w, "the compatible PMU spr is not in the installed libpfm4"));
	free(u), free(w), free(r);
	return;
#endif
	char *det = csv_value(out, "counters_pmu_detected"), *used = csv_value(out, "counters_pmu"),
	     *table = csv_value(out, "counters_pmu_table"),
	     *why = csv_value(out, "counters_pmu_reason"), *ev = csv_value(out, "hitm_local_event");
	assert_string_equal(det, "none");
	assert_string_equal(used, "spr");
	assert_string_equal(table, "emr");
	assert_non_null(
	    strstr(why, "Emerald Rapids (GenuineIntel family 0x6 model 0xcf, C2C_CPUID)"));
	assert_non_null(strstr(why, "forced spr"));
	assert_string_equal(ev, "MEM_LOAD_L3_HIT_RETIRED:XSNP_FWD");
	free(det), free(used), free(table), free(why), free(ev);
	free(r);
}

/* No compatible PMU: the counters are NA and the row says why; the run itself goes on. */
static void run_without_fallback_is_na(void **st)
{
	struct cmd_result *r = malloc(sizeof(*r));
	char out[512];
	(void)st;
	snprintf(out, sizeof(out), "%s/none.csv", test_dir);
	run_as(r, "GenuineIntel:6:250", out);
	if (!RAN(r->status)) /* 4: a loaded machine measured nothing; the columns are checked */
		fail_msg("run failed: %s", r->err);
	char *used = csv_value(out, "counters_pmu"), *why = csv_value(out, "counters_pmu_reason"),
	     *v = csv_value(out, "writer_cycles_per_kop"), *na = csv_value(out, "na_reason");
	assert_string_equal(used, "NA");
	assert_string_equal(v, "NA");
	assert_non_null(
	    strstr(why, "no compatible PMU is known for GenuineIntel family 0x6 model 0xfa"));
	assert_non_null(strstr(na, "no compatible PMU"));
	free(used), free(why), free(v), free(na);
	setenv("C2C_CPUID", "GenuineIntel:six:207", 1);
	run_c2c(r, "run", "pending-bit", "--dry-run", NULL);
	unsetenv("C2C_CPUID");
	assert_int_equal(r->status, 2);
	assert_non_null(strstr(r->err, "C2C_CPUID: 'GenuineIntel:six:207' is not accepted"));
	free(r);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(fallback_by_cpuid),
		cmocka_unit_test(run_records_fallback),
		cmocka_unit_test(run_without_fallback_is_na),
	};
	return cmocka_run_group_tests(t, test_dir_setup, test_dir_teardown);
}
