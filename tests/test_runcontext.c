/* The run context on this machine: every fact present (a value, or NA with a reason), the
 * hypervisor as the kernel sees it, the meta file next to the CSV, and the noise warnings. */
#include "harness/context.h"
#include "harness/util.h" /* before cmocka, which defines a fail() macro */
#include "tests/testutil.h"
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const required[] = { "cpu_vendor", "cpu_family", "cpu_model_number", "microcode", "pmu",
					"kernel_pmu", "l1d_bytes", "l2_bytes", "l3_bytes", "hypervisor", "governor",
					"boost", "smt", "thp", "numa_balancing", "perf_event_paranoid", "cflags" };

static void collect(struct context *c, struct topo *t)
{
	char err[ERRLEN] = "";
	assert_int_equal(topo_load(t, NULL, err), 0);
	context_collect(c, t);
}

static void test_facts_present(void **state)
{
	struct context c;
	struct topo t;
	(void)state;
	collect(&c, &t);
	for (size_t i = 0; i < ARRAY_SIZE(required); i++) {
		const struct ctx_fact *f = context_fact(&c, required[i]);
		assert_non_null(f);
		assert_true(f->val[0] != 0);
		if (!strcmp(f->val, "NA"))
			assert_true(strlen(f->why) > 5); /* NA always says why */
		else
			assert_string_equal(f->why, "");
	}
	assert_int_equal(c.pus, t.npus);
	assert_true(strlen(c.git_rev) > 0);
	topo_free(&t);
}

/* The kernel's own view: the "hypervisor" cpuinfo flag (x86) must match what context found. */
static void test_hypervisor_matches_kernel(void **state)
{
	struct context c;
	struct topo t;
	(void)state;
	collect(&c, &t);
	char *info = slurp("/proc/cpuinfo");
	assert_non_null(info);
	const struct ctx_fact *hv = context_fact(&c, "hypervisor");
	if (strstr(info, "\nflags") && strstr(info, " hypervisor"))
		assert_string_not_equal(hv->val, "none");
	else if (strstr(info, "\nflags"))
		assert_string_equal(hv->val, "none");
	free(info);
	topo_free(&t);
}

/* The governor fact reads the same file cpufreq users read, or is NA when there is none. */
static void test_governor_matches_sysfs(void **state)
{
	struct context c;
	struct topo t;
	(void)state;
	collect(&c, &t);
	const struct ctx_fact *g = context_fact(&c, "governor");
	char *sys = slurp("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
	if (!sys) {
		assert_string_equal(g->val, "NA");
		assert_non_null(strstr(g->why, "cpufreq"));
	} else {
		sys[strcspn(sys, "\n")] = 0;
		assert_non_null(strstr(g->val, sys));
		free(sys);
	}
	topo_free(&t);
}

struct seen {
	int ctx_keys, na_reasons, has_hv, has_host;
};

static int on_entry(void *user, const char *section, const char *name, const char *value)
{
	struct seen *s = user;
	if (!strcmp(section, "context")) {
		s->ctx_keys++;
		s->has_hv |= !strcmp(name, "hypervisor") && value[0];
		s->has_host |= !strcmp(name, "host") && value[0];
	} else if (!strcmp(section, "na_reason")) {
		s->na_reasons += value[0] != 0;
	}
	return 1;
}

static void test_meta_file(void **state)
{
	struct context c;
	struct topo t;
	char path[256], err[ERRLEN] = "";
	char *dir = temp_dir();
	(void)state;
	collect(&c, &t);
	context_meta_path("results/x.csv", path, sizeof(path));
	assert_string_equal(path, "results/x.meta");
	context_meta_path("out", path, sizeof(path));
	assert_string_equal(path, "out.meta");
	snprintf(path, sizeof(path), "%s/run.meta", dir);
	assert_int_equal(context_write_meta(&c, path, err), 0);
	struct seen s = { 0 };
	assert_int_equal(ini_parse(path, on_entry, &s), 0);
	int na = 0;
	for (int i = 0; i < c.nfacts; i++)
		na += c.fact[i].why[0] != 0;
	assert_int_equal(s.ctx_keys, c.nfacts + 12); /* 12 fixed keys (label, host ... c2cbench_rev), then every fact */
	assert_int_equal(s.na_reasons, na);
	assert_true(s.has_hv && s.has_host);
	assert_int_equal(context_write_meta(&c, path, err), -1); /* never overwritten */
	assert_non_null(strstr(err, "already exists"));
	rm_rf(dir);
	free(dir);
	topo_free(&t);
}

static void set_fact(struct context *c, const char *key, const char *val)
{
	struct ctx_fact *f = &c->fact[c->nfacts++];
	snprintf(f->key, sizeof(f->key), "%s", key);
	snprintf(f->val, sizeof(f->val), "%s", val);
	f->why[0] = 0;
}

static int warnings(const struct context *c)
{
	FILE *f = tmpfile();
	assert_non_null(f);
	int n = context_warn(c, f);
	fclose(f);
	return n;
}

static void test_noise_warnings(void **state)
{
	struct context c;
	(void)state;
	memset(&c, 0, sizeof(c));
	set_fact(&c, "governor", "performance");
	set_fact(&c, "numa_balancing", "off");
	set_fact(&c, "hypervisor", "none");
	assert_int_equal(warnings(&c), 0);
	snprintf(c.fact[0].val, sizeof(c.fact[0].val), "powersave");
	assert_int_equal(warnings(&c), 1);
	snprintf(c.fact[1].val, sizeof(c.fact[1].val), "on");
	snprintf(c.fact[2].val, sizeof(c.fact[2].val), "bhyve");
	assert_int_equal(warnings(&c), 3);
	snprintf(c.fact[0].val, sizeof(c.fact[0].val), "NA"); /* unknown is not a warning */
	snprintf(c.fact[0].why, sizeof(c.fact[0].why), "no cpufreq");
	assert_int_equal(warnings(&c), 2);
}

/* A real run writes FILE.meta next to FILE.csv and warns on stderr before it measures. */
static void test_run_writes_meta(void **state)
{
	struct cmd_result *r = calloc(1, sizeof(*r));
	char *dir = temp_dir(), csv[256], meta[256];
	(void)state;
	snprintf(csv, sizeof(csv), "%s/pp.csv", dir);
	snprintf(meta, sizeof(meta), "%s/pp.meta", dir);
	run_c2c(r, "run", "pingpong", "--placement", "cpus:0,1", "--samples", "20", "--round-trips", "5",
		"--preheat-ms", "0", "--max-attempts", "1", "--reps", "1", "--mode", "load-store", LENIENT,
		"--out", csv, NULL);
	assert_int_equal(r->status, 0);
	assert_true(file_exists(meta));
	char *m = slurp(meta);
	assert_non_null(strstr(m, "\nhypervisor = "));
	const char *hv = strstr(m, "\nhypervisor = ") + 14;
	if (strncmp(hv, "none", 4) && strncmp(hv, "NA", 2)) /* NA: not known (aarch64 without /sys/hypervisor) */
		assert_non_null(strstr(r->err, "warning: running under a hypervisor"));
	free(m);
	rm_rf(dir);
	free(dir);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_facts_present),	  cmocka_unit_test(test_hypervisor_matches_kernel),
		cmocka_unit_test(test_governor_matches_sysfs), cmocka_unit_test(test_meta_file),
		cmocka_unit_test(test_noise_warnings),	  cmocka_unit_test(test_run_writes_meta),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
