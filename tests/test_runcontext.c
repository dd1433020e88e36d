/* The run context on this machine: every fact present (a value, or NA with a reason), the
 * hypervisor as the kernel sees it, the meta file next to the CSV, and the noise warnings. */
#include "harness/context.h"
#include "lib/util.h" /* before cmocka, which defines a fail() macro */
#include "tests/testutil.h"
#include "lib/csvread.h"
#include "lib/parse.h"
#include <ini.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const required[] = {
	"cpu_vendor", "cpu_family", "cpu_model_number", "microcode",
	"pmu",	      "kernel_pmu", "l1d_bytes",	"l2_bytes",
	"l3_bytes",   "hypervisor", "governor",		"boost",
	"smt",	      "thp",	    "numa_balancing",	"perf_event_paranoid",
	"cflags",     "numa_per_package", "prefetchers", "snoop_mode"
};

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

/* NUMA nodes per package (SNC, NPS) from the topology: each package's nodes counted. */
static void test_numa_per_package(void **state)
{
	static const char *const cases[][2] = {
	    {"synthetic:pack:2 numa:2 core:2 pu:1", "2"},
	    {"synthetic:pack:2 numa:1 l3:2 core:2 pu:2", "1"},
	    {"synthetic:pack:1 numa:4 core:1 pu:1", "4"},
	};
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct context c;
		struct topo t;
		char err[ERRLEN] = "";
		assert_int_equal(topo_load(&t, cases[i][0], err), 0);
		context_collect(&c, &t);
		const struct ctx_fact *f = context_fact(&c, "numa_per_package");
		assert_non_null(f);
		if (strcmp(f->val, cases[i][1]))
			fail_msg("%s: numa_per_package %s, want %s", cases[i][0], f->val,
				 cases[i][1]);
		context_foreign(&c, &t, "imported");
		assert_string_equal(context_fact(&c, "numa_per_package")->val, cases[i][1]);
		assert_string_equal(context_fact(&c, "prefetchers")->why, "imported");
		topo_free(&t);
	}
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
	char fp[32], fpval[16][160]; /* fingerprint, and the value of each fp_keys field */
	int fpseen;
};

static int on_entry(void *user, const char *section, const char *name, const char *value)
{
	struct seen *s = user;
	if (!strcmp(section, "context")) {
		s->ctx_keys++;
		s->has_hv |= !strcmp(name, "hypervisor") && value[0];
		s->has_host |= !strcmp(name, "host") && value[0];
		if (!strcmp(name, "fingerprint"))
			snprintf(s->fp, sizeof(s->fp), "%s", value);
		for (int i = 0; fp_keys[i] && i < 16; i++)
			if (!strcmp(name, fp_keys[i])) {
				snprintf(s->fpval[i], sizeof(s->fpval[i]), "%s", value);
				s->fpseen++;
			}
	} else if (!strcmp(section, "na_reason")) {
		s->na_reasons += value[0] != 0;
	}
	return 1;
}

static const char *seen_get(void *arg, const char *key)
{
	struct seen *s = arg;
	for (int i = 0; fp_keys[i] && i < 16; i++)
		if (!strcmp(key, fp_keys[i]))
			return s->fpval[i];
	return NULL;
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
	/* 12 fixed keys (label, host ... c2cbench_rev), then every fact, then the fingerprint */
	assert_int_equal(s.ctx_keys, c.nfacts + 13);
	assert_int_equal(s.na_reasons, na);
	assert_true(s.has_hv && s.has_host);
	/* the fingerprint is the id of the fields the file holds, each of them there once */
	int nkeys = 0;
	while (fp_keys[nkeys])
		nkeys++;
	assert_int_equal(s.fpseen, nkeys);
	char id[FP_ID_LEN + 1];
	fp_id(seen_get, &s, id);
	assert_string_equal(s.fp, id);
	assert_string_equal(c.fingerprint, id);
	snprintf(s.fpval[1], sizeof(s.fpval[1]), "%s",
		 strcmp(s.fpval[1], "25") ? "25" : "26"); /* another family */
	fp_id(seen_get, &s, id);
	assert_string_not_equal(s.fp, id);
	assert_int_equal(context_write_meta(&c, path, err), -1); /* never overwritten */
	assert_non_null(strstr(err, "already exists"));
	rm_rf(dir);
	free(dir);
	topo_free(&t);
}

/* NUMA nodes per package is part of the id where known; an older .meta, without it (or NA), hashes
 * to the id it holds: tests/data/schemas/v11/01-rmw.meta's fields give its fingerprint. */
static void test_fingerprint_numa_per_package(void **state)
{
	(void)state;
	struct seen s = { 0 };
	char id[FP_ID_LEN + 1], one[FP_ID_LEN + 1], two[FP_ID_LEN + 1];
	assert_int_equal(ini_parse("tests/data/schemas/v11/01-rmw.meta", on_entry, &s), 0);
	assert_string_equal(s.fp, "ba85b3698dfb");
	fp_id(seen_get, &s, id);
	assert_string_equal(id, s.fp);
	int k = 0;
	while (fp_keys[k] && strcmp(fp_keys[k], "numa_per_package"))
		k++;
	assert_non_null(fp_keys[k]); /* a field of the fingerprint */
	assert_string_equal(s.fpval[k], ""); /* not in that .meta */
	snprintf(s.fpval[k], sizeof(s.fpval[k]), "NA");
	fp_id(seen_get, &s, id);
	assert_string_equal(id, "ba85b3698dfb"); /* unknown: hashed as the older sets were */
	snprintf(s.fpval[k], sizeof(s.fpval[k]), "1");
	fp_id(seen_get, &s, one);
	snprintf(s.fpval[k], sizeof(s.fpval[k]), "2");
	fp_id(seen_get, &s, two);
	assert_string_not_equal(one, "ba85b3698dfb");
	assert_string_not_equal(one, two); /* SNC2 or NPS2: another machine */
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
	const char *pl = two_cpus(); /* CPUs 0 and 1 need not be this process's (taskset, cpuset) */
	(void)state;
	if (!pl) {
		print_message("skipped: a pingpong pair needs two CPUs this process may use\n");
		skip();
	}
	struct cmd_result *r = calloc(1, sizeof(*r));
	char *dir = temp_dir(), csv[256], meta[256];
	snprintf(csv, sizeof(csv), "%s/pp.csv", dir);
	snprintf(meta, sizeof(meta), "%s/pp.meta", dir);
	run_c2c(r, "run", "pingpong", "--placement", pl, "--samples", "20", "--round-trips", "5",
		"--preheat-ms", "0", "--max-attempts", "1", "--reps", "1", "--mode", "load-store",
		"--out", csv, NULL);
	/* strict rules (what the .meta must say): on a loaded machine the one attempt may be
	 * invalid, exit 4; the .meta is written whole either way */
	assert_true(r->status == 0 || r->status == 4);
	assert_true(file_exists(meta));
	char *m = slurp(meta);
	assert_non_null(strstr(m, "\nhypervisor = "));
	const char *hv = strstr(m, "\nhypervisor = ") + 14;
	if (strncmp(hv, "none", 4) &&
	    strncmp(hv, "NA", 2)) /* NA: not known (aarch64 without /sys/hypervisor) */
		assert_non_null(strstr(r->err, "warning: running under a hypervisor"));
	/* how its attempts were judged: each rule as used, not relaxed (fewer attempts is not) */
	assert_non_null(strstr(m, "\n[validity]\nvalid-window = 10\nvalid-oncpu = 90\n"
				  "valid-overlap = 90\nvalid-steal = 2\nvalid-probe = 2\n"
				  "valid-setting = 25\nmax-attempts = 1\nrelaxed = no\n"));
	assert_null(strstr(m, "relaxed_by"));
	free(m);
	snprintf(csv, sizeof(csv), "%s/pp2.csv", dir);
	snprintf(meta, sizeof(meta), "%s/pp2.meta", dir);
	run_c2c(r, "run", "pingpong", "--placement", pl, "--samples", "20", "--round-trips", "5",
		"--preheat-ms", "0", "--max-attempts", "1", "--reps", "1", "--mode", "load-store",
		"--valid-oncpu", "0", "--valid-probe", "3", "--valid-steal", "1", "--out", csv,
		NULL);
	assert_true(r->status == 0 || r->status == 4);
	m = slurp(meta);
	assert_non_null(m);
	assert_non_null(strstr(m, "\nvalid-oncpu = 0\n"));
	assert_non_null(strstr(m, "\nvalid-steal = 1\n")); /* stricter: not relaxed by it */
	assert_non_null(
	    strstr(m, "\nrelaxed = yes\nrelaxed_by = --valid-oncpu 0 --valid-probe 3\n"));
	free(m);
	rm_rf(dir);
	free(dir);
	free(r);
}

/* The last CPU this process may run on (not assumed to be 0 or 1), and how many it may use. */
static int last_usable_cpu(const cpu_set_t *mine)
{
	int last = -1;
	for (int i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, mine))
			last = i;
	return last;
}

/* Every CPU of a space-separated list of ROLE+index@CPU (thread_ids) or of CPUs is cpu. */
static void all_on(const char *list, int cpu, const char *col)
{
	char want[16];
	int n = 0;
	snprintf(want, sizeof(want), "%d", cpu);
	for (const char *p = list; *p; p += strspn(p, " ")) {
		size_t len = strcspn(p, " ");
		const char *at = memchr(p, '@', len), *v = at ? at + 1 : p;
		size_t vl = len - (size_t)(v - p);
		if (vl != strlen(want) || strncmp(v, want, vl))
			fail_msg("%s '%s': a thread off CPU %d, the only one allowed", col, list,
				 cpu);
		n++;
		p += len;
	}
	assert_true(n > 0);
}

/* Narrowed to one CPU (as taskset -c X, or a Slurm step bound by task/affinity), a run plans only
 * on it: the planner's allowed set is hwloc's allowed cpuset and the process affinity together,
 * and the context records it (allowed_pus). What needs more CPUs is one line and exit 2. */
static void test_affinity_is_the_allowed_set(void **state)
{
	(void)state;
	cpu_set_t old, one;
	assert_int_equal(sched_getaffinity(0, sizeof(old), &old), 0);
	if (CPU_COUNT(&old) < 2) {
		print_message("skipped: this process may use one CPU: nothing to narrow\n");
		skip();
	}
	int x = last_usable_cpu(&old);
	char *dir = temp_dir(), csv[256], meta[256], pl[32], says[96];
	struct cmd_result *r = calloc(1, sizeof(*r));
	struct context c;
	struct topo t;
	CPU_ZERO(&one);
	CPU_SET(x, &one);
	assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0); /* the child inherits it */
	collect(&c, &t); /* in this process too: the fact the .meta gets */
	const struct ctx_fact *f = context_fact(&c, "allowed_pus");
	assert_non_null(f);
	int cpus[4], n = parse_cpulist(f->val, cpus, 4, says, sizeof(says));
	run_c2c(r, "run", "pending-bit", "--dry-run", NULL); /* auto */
	struct cmd_result *r2 = calloc(1, sizeof(*r2)), *r3 = calloc(1, sizeof(*r3));
	snprintf(pl, sizeof(pl), "cpus:%d", x);
	run_c2c(r2, "run", "pending-bit", "--dry-run", "--placement", pl, NULL);
	snprintf(csv, sizeof(csv), "%s/rf.csv", dir);
	run_c2c(r3, "run", "refill", "--worker", "bound", "--duration", "0.05", "--warmup", "0.01",
		"--reps", "1", "--max-attempts", "1", LENIENT, "--out", csv, NULL);
	assert_int_equal(sched_setaffinity(0, sizeof(old), &old), 0);
	topo_free(&t);
	assert_int_equal(n, 1);
	assert_int_equal(cpus[0], x);
	/* pending-bit's writer and reader need two CPUs: auto (whatever it resolves to here) and
	 * cpus:X are refused in one line each, naming what the allowed set lacks */
	assert_int_equal(r->status, 2);
	assert_int_equal(count_lines(r->err), 1);
	assert_non_null(strstr(r->err, "allowed"));
	assert_int_equal(r2->status, 2);
	assert_int_equal(count_lines(r2->err), 1);
	assert_non_null(strstr(r2->err, "gives 1 CPUs but the run has 2 threads"));
	/* refill's bound worker runs on the caller's CPU: a real run, every thread on X */
	if (!RAN(r3->status))
		fail_msg("refill --worker bound on CPU %d: exit %d: %s", x, r3->status, r3->err);
	struct table tb;
	csv_load(&tb, csv);
	assert_true(tb.nrows >= 1);
	for (long i = 0; i < tb.nrows; i++) {
		all_on(csv_cell(&tb, i, "thread_ids"), x, "thread_ids");
		all_on(csv_cell(&tb, i, "thread_cpu_start"), x, "thread_cpu_start");
		all_on(csv_cell(&tb, i, "thread_cpu_end"), x, "thread_cpu_end");
	}
	table_free(&tb);
	snprintf(meta, sizeof(meta), "%s/rf.meta", dir);
	char *m = slurp(meta), want[48];
	assert_non_null(m);
	snprintf(want, sizeof(want), "\nallowed_pus = %d\n", x);
	if (!strstr(m, want))
		fail_msg("the .meta does not record CPU %d as the allowed set:\n%s", x, m);
	free(m);
	rm_rf(dir);
	free(dir);
	free(r);
	free(r2);
	free(r3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_facts_present),
	    cmocka_unit_test(test_numa_per_package),
	    cmocka_unit_test(test_hypervisor_matches_kernel),
	    cmocka_unit_test(test_governor_matches_sysfs),
	    cmocka_unit_test(test_meta_file),
	    cmocka_unit_test(test_fingerprint_numa_per_package),
	    cmocka_unit_test(test_noise_warnings),
	    cmocka_unit_test(test_run_writes_meta),
	    cmocka_unit_test(test_affinity_is_the_allowed_set),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
