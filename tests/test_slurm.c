/* Fleet runs against a real Slurm cluster on this machine (scripts/slurm-local.sh: munged,
 * slurmctld and two slurmd, nodes xeon1 and epyc1 with features xeon and epyc). No mock of any
 * Slurm tool. */
#include "tests/testutil.h"
#include "lib/csvread.h"
#include "lib/parse.h"
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char cluster[PATH_MAX], conf[PATH_MAX + 16];
static int have_cluster;

/* Run a shell command (a fixed string of the test's own); return its exit status. */
static int sh(const char *fmt, const char *arg)
{
	char cmd[PATH_MAX * 2];
	snprintf(cmd, sizeof(cmd), fmt, arg);
	int st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static int cluster_up(void **s)
{
	(void)s;
	if (geteuid() != 0) {
		fprintf(stderr,
			"test_slurm: not root: the local Slurm cluster cannot be started, tests "
			"skipped\n");
		return 0;
	}
	char *d = temp_dir();
	snprintf(cluster, sizeof(cluster), "%s", d);
	free(d);
	if (sh("bash scripts/slurm-local.sh up '%s' >/dev/null", cluster))
		return -1;
	snprintf(conf, sizeof(conf), "%s/slurm.conf", cluster);
	setenv("SLURM_CONF", conf, 1);
	have_cluster = 1;
	return 0;
}

static int cluster_down(void **s)
{
	(void)s;
	if (cluster[0]) {
		sh("bash scripts/slurm-local.sh down '%s'", cluster);
		rm_rf(cluster);
	}
	return 0;
}

#define NEED_CLUSTER()                    \
	do {                                      \
		if (!have_cluster)                \
			skip();                   \
	} while (0)

/* The value of `key = value` in an INI metadata file, or "". */
static void meta_get(const char *path, const char *key, char *out, size_t n)
{
	char *t = slurp(path), pat[64];
	out[0] = 0;
	if (!t)
		return;
	snprintf(pat, sizeof(pat), "\n%s = ", key); /* metadata.txt is INI */
	char *p = strstr(t, pat);
	if (p)
		snprintf(out, n, "%.*s", (int)strcspn(p + strlen(pat), "\n"), p + strlen(pat));
	free(t);
}

/* The result directory of one label and preset in DIR (the preset names it LABEL-DATE-PRESET). */
static int result_dir(const char *dir, const char *label, const char *preset, char *out, size_t n)
{
	char cmd[PATH_MAX * 2];
	snprintf(cmd, sizeof(cmd), "ls -d '%s'/%s-*-%s 2>/dev/null | head -1", dir, label, preset);
	FILE *p = popen(cmd, "r");
	out[0] = 0;
	if (p && fgets(out, (int)n, p))
		out[strcspn(out, "\n")] = 0;
	if (p)
		pclose(p);
	return out[0] ? 0 : -1;
}

/* The job id printed by submit ("submitted job array N ..."). */
static long job_of(const char *out)
{
	const char *p = strstr(out, "submitted job array ");
	return p ? strtol(p + 20, NULL, 10) : -1;
}

/* The status lines in r (submit --wait, or status) of a fleet of ntasks whose tasks all ran: exit 0
 * with each task done, or 1 where the tasks not done exited 4 (a preset that measured nothing: a
 * loaded node; fleet.ini's rules are relaxed, not off) with their result finished. Where and how
 * a task ran is recorded either way, and is what the fleet tests check. */
static void fleet_ran(const struct cmd_result *r, int ntasks)
{
	int lines = 0, nothing = 0;
	for (const char *p = strstr(r->out, "\n  task "); p; p = strstr(p + 1, "\n  task ")) {
		char line[800];
		snprintf(line, sizeof(line), "%.*s", (int)strcspn(p + 1, "\n"), p + 1);
		lines++;
		if (strstr(line, " failed ") && strstr(line, ": exit 4, result state finished"))
			nothing++;
		else if (!strstr(line, " done "))
			fail_msg("exit %d: a task neither done nor measured nothing: %s", r->status,
				 line);
	}
	assert_int_equal(lines, ntasks);
	assert_int_equal(r->status, nothing ? 1 : 0);
	if (nothing)
		print_message("%d task(s) measured nothing (exit 4, a loaded node)\n", nothing);
}

static void each_constraint_lands_on_its_node(void **s)
{
	SKIP_UNDER_QEMU("the fleet runner is architecture-independent orchestration; its Slurm "
			"cluster runs in the x86 suite");
	(void)s;
	NEED_CLUSTER();
	struct cmd_result r;
	char dir[PATH_MAX], res[PATH_MAX], meta[PATH_MAX + 32], v[128], rep[PATH_MAX + 8];
	snprintf(dir, sizeof(dir), "%s/fleet-ok", test_dir);
	run_c2c(&r, "slurm", "submit", "tests/data/fleet.ini", "--constraints", "xeon,epyc",
		"--results", dir, "--wait", NULL);
	fleet_ran(&r, 2);
	assert_non_null(strstr(r.out, "submitted job array"));
	const char *want[][2] = { { "xeon", "xeon1" }, { "epyc", "epyc1" } };
	for (int i = 0; i < 2; i++) {
		char label[64];
		snprintf(label, sizeof(label), "%s-%s", want[i][0], want[i][1]);
		assert_int_equal(result_dir(dir, label, "fleet", res, sizeof(res)), 0);
		snprintf(meta, sizeof(meta), "%s/metadata.txt", res);
		meta_get(meta, "slurm_node", v, sizeof(v));
		assert_string_equal(v, want[i][1]);
		meta_get(meta, "slurm_constraint", v, sizeof(v));
		assert_string_equal(v, want[i][0]);
		meta_get(meta, "slurm_array_task_id", v, sizeof(v));
		assert_int_equal(atoi(v), i);
		meta_get(meta, "slurm_job_id", v, sizeof(v));
		assert_int_equal(atol(v), job_of(r.out));
		meta_get(meta, "label", v, sizeof(v));
		assert_string_equal(v, label);
		meta_get(meta, "state", v, sizeof(v));
		assert_string_equal(v, "finished");
	}
	run_c2c(&r, "slurm", "status", dir, NULL);
	fleet_ran(&r, 2);
	assert_int_equal(count_lines(r.out), 3);
	snprintf(rep, sizeof(rep), "%s/rep", test_dir);
	run_c2c(&r, "report", dir, "-o", rep,
		NULL); /* DIR as it is: a directory of result directories */
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "2 machine(s)"));
	snprintf(meta, sizeof(meta), "%s/report.md", rep);
	char *md = slurp(meta);
	assert_non_null(md);
	assert_non_null(strstr(md, "xeon-xeon1"));
	assert_non_null(strstr(md, "epyc-epyc1"));
	free(md);
}

/* A task cancelled while it runs (as a node crash or scancel would) is reported interrupted with
 * its reason; the other task's results stay whole; --resume reruns only it, continuing its
 * directory. */
static void a_failed_task_is_reported_and_resumed(void **s)
{
	SKIP_UNDER_QEMU("the fleet runner is architecture-independent orchestration; its Slurm "
			"cluster runs in the x86 suite");
	(void)s;
	NEED_CLUSTER();
	struct cmd_result r;
	char dir[PATH_MAX], res[PATH_MAX], cmd[256], meta[PATH_MAX + 32], v[64];
	snprintf(dir, sizeof(dir), "%s/fleet-cut", test_dir);
	run_c2c(&r, "slurm", "submit", "tests/data/fleet-long.ini", "--constraints", "xeon,epyc",
		"--results", dir, NULL);
	assert_int_equal(r.status, 0);
	long job = job_of(r.out);
	assert_true(job > 0);
	for (int i = 0; i < 300 && result_dir(dir, "epyc-epyc1", "fleet-long", res, sizeof(res));
	     i++)
		usleep(50000); /* task 1 has started its preset */
	assert_int_equal(result_dir(dir, "epyc-epyc1", "fleet-long", res, sizeof(res)), 0);
	snprintf(meta, sizeof(meta), "%s/metadata.txt", res);
	for (int i = 0; i < 100 && !file_exists(meta); i++)
		usleep(50000);
	snprintf(cmd, sizeof(cmd), "scancel %ld_1", job);
	assert_int_equal(sh("%s", cmd), 0);
	for (int i = 0; i < 3000; i++) { /* up to 5 min: task 0's preset on a loaded machine */
		run_c2c(&r, "slurm", "status", dir, NULL);
		if (!strstr(r.out, "running") && !strstr(r.out, "pending"))
			break;
		usleep(100000);
	}
	assert_int_equal(r.status, 1);
	/* task 0 is done, or (a loaded machine) its preset measured nothing and exited 4: either
	 * way it ran to its end, uncancelled; the test is about task 1 */
	int done0 = strstr(r.out, "task 0  xeon         done") != NULL;
	if (!done0 &&
	    (!strstr(r.out, "task 0  xeon         failed") || !strstr(r.out, "exit 4")))
		fail_msg("task 0 is neither done nor measured nothing (exit 4):\n%s", r.out);
	if (!done0)
		print_message("task 0 measured nothing on this loaded machine (exit 4): its "
			      "results are not checked\n");
	if (!strstr(r.out, "task 1  epyc         interrupted") &&
	    !strstr(r.out, "task 1  epyc         failed"))
		fail_msg("task 1 is neither interrupted nor failed:\n%s", r.out);
	assert_non_null(strstr(r.out, "no exit line")); /* the reason: killed, not a clean exit */
	assert_int_equal(result_dir(dir, "xeon-xeon1", "fleet-long", res, sizeof(res)), 0);
	char csv[PATH_MAX + 16];
	snprintf(csv, sizeof(csv), "%s/01-pb.csv", res);
	char *before = slurp(csv);
	assert_non_null(before);
	run_c2c(&r, "slurm", "submit", "--results", dir, "--resume", "--wait", NULL);
	if (!strstr(r.out, "exit 4")) /* every task done */
		assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "task 1 on epyc"));
	if (strstr(r.out, "task 1  epyc         failed") && strstr(r.out, "exit 4"))
		print_message("task 1's rerun measured nothing on this loaded machine (exit 4)\n");
	else
		assert_non_null(strstr(r.out, "task 1  epyc         done"));
	if (done0) {
		assert_null(strstr(r.out, "task 0 on xeon")); /* the done task is not run again */
		char *after = slurp(csv);
		assert_string_equal(before, after); /* the other task's results are untouched */
		free(after);
	}
	free(before);
	assert_int_equal(result_dir(dir, "epyc-epyc1", "fleet-long", res, sizeof(res)), 0);
	meta_get(meta, "state", v, sizeof(v));
	assert_string_equal(v, "finished");
}

static void dry_run_is_a_valid_batch_script(void **s)
{
	(void)s;
	NEED_CLUSTER();
	struct cmd_result r;
	char dir[PATH_MAX], script[PATH_MAX + 16];
	snprintf(dir, sizeof(dir), "%s/fleet-dry", test_dir);
	run_c2c(&r, "slurm", "submit", "tests/data/fleet.ini", "--constraints", "xeon,epyc",
		"--results", dir, "--dry-run", "--sbatch-arg", "--time=5", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "#SBATCH --array=0,1\n"));
	assert_non_null(strstr(r.out, "#SBATCH --exclusive\n"));
	assert_non_null(strstr(r.out, "#SBATCH --time=5\n"));
	snprintf(script, sizeof(script), "%s/dry.sbatch", test_dir);
	FILE *f = fopen(script, "w");
	assert_non_null(f);
	fputs(r.out, f);
	fclose(f);
	assert_int_equal(sh("sbatch --test-only '%s' 2>/dev/null", script), 0);
	snprintf(script, sizeof(script), "%s/slurm", dir);
	assert_false(file_exists(script)); /* a dry run submits and records nothing */
}

/* Bad input: one line, exit 2, nothing submitted. */
static void bad_input_submits_nothing(void **s)
{
	(void)s;
	NEED_CLUSTER();
	struct cmd_result r;
	char dir[PATH_MAX], sub[PATH_MAX + 8];
	snprintf(dir, sizeof(dir), "%s/fleet-bad", test_dir);
	const char *cases[][3] = {
	    {"no-such-preset", "xeon", "no-such-preset"},
	    {"tests/data/fleet.ini", "", "empty list"},
	    {"tests/data/fleet.ini", "xeon,,epyc", "empty element"},
	    {"tests/data/fleet.ini", "xeon,nosuchfeature",
	     "Slurm refuses constraint 'nosuchfeature'"},
	    {"tests/data/fleet.ini", "xe;on", "not a feature name"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		run_c2c(&r, "slurm", "submit", cases[i][0], "--constraints", cases[i][1],
			"--results", dir, NULL);
		assert_int_equal(r.status, 2);
		assert_int_equal(count_lines(r.err), 1);
		if (!strstr(r.err, cases[i][2]))
			fail_msg("case %zu: '%s' not in: %s", i, cases[i][2], r.err);
		snprintf(sub, sizeof(sub), "%s/slurm", dir);
		assert_false(file_exists(sub));
	}
	run_c2c(&r, "slurm", "submit", "tests/data/fleet.ini", "--constraints", "xeon", "--results",
		"/etc/passwd/x", NULL);
	assert_int_equal(r.status, 2);
	assert_int_equal(count_lines(r.err), 1);
	assert_int_equal(sh("test -z \"$(squeue -h%s)\"", ""), 0); /* no job is queued */
}

static void missing_slurm_tools_are_one_line(void **s)
{
	(void)s;
	struct cmd_result r;
	char dir[PATH_MAX], *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	snprintf(dir, sizeof(dir), "%s/fleet-notools", test_dir);
	setenv("PATH", "/nonexistent", 1);
	run_c2c(&r, "slurm", "submit", "tests/data/fleet.ini", "--constraints", "xeon", "--results",
		dir, NULL);
	if (old)
		setenv("PATH", old, 1);
	free(old);
	assert_int_equal(r.status, 2);
	assert_int_equal(count_lines(r.err), 1);
	assert_non_null(strstr(r.err, "sbatch not found on PATH"));
}

/* The CPUs of a plan's table (`role # P# ...` rows of a --dry-run), up to max; how many. */
static int plan_cpus(const char *out, int *cpus, int max)
{
	const char *p = strstr(out, "\nrole ");
	int n = 0, cpu;
	char role[32];
	for (p = p ? strchr(p + 1, '\n') : NULL; p && n < max; p = strchr(p + 1, '\n'))
		if (sscanf(p + 1, "%31s %*d %d", role, &cpu) == 2)
			cpus[n++] = cpu;
		else
			break;
	return n;
}

static int in_set(int cpu, const int *set, int n)
{
	for (int i = 0; i < n; i++)
		if (set[i] == cpu)
			return 1;
	return 0;
}

/* The file DIR/NAME of the job's outputs, whole ("" when absent: the test fails on it later). */
static char *job_file(const char *dir, const char *name)
{
	char path[PATH_MAX + 32];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	char *t = slurp(path);
	return t ? t : strdup("");
}

/* A job in part of a node (sbatch -c1, no --exclusive) plans and runs inside the CPUs Slurm bound
 * it to, as /proc/self/status says inside the job: plans, rows and the .meta's allowed_pus. What
 * the part cannot hold is one line and exit 2. A cluster that does not confine a step (task/none:
 * slurm-local.sh fell back) or nodes of one CPU skip, saying so. */
static void a_partial_node_job_plans_inside_it(void **s)
{
	SKIP_UNDER_QEMU("the fleet runner is architecture-independent orchestration; its Slurm "
			"cluster runs in the x86 suite");
	(void)s;
	NEED_CLUSTER();
	char dir[PATH_MAX], script[PATH_MAX + 16], csv[PATH_MAX + 16], bin[PATH_MAX], out[64];
	const char *b = getenv("C2C_BIN") ? getenv("C2C_BIN") : "./c2cbench";
	int a0, a1;
	assert_non_null(realpath(b, bin));
	assert_int_equal(sh_capture(out, sizeof(out), "sinfo -h -n xeon1 -o %c"), 0);
	if (atoi(out) < 2) {
		print_message("skipped: node xeon1 has %d CPU(s): no allocation is smaller\n",
			      atoi(out));
		skip();
	}
	assert_int_equal(two_usable_cpus(&a0, &a1), 0); /* the node's CPUs are this machine's */
	snprintf(dir, sizeof(dir), "%s/partial", test_dir);
	assert_int_equal(sh("mkdir -p '%s'", dir), 0);
	snprintf(script, sizeof(script), "%s/job.sh", dir);
	FILE *f = fopen(script, "w");
	assert_non_null(f);
	fprintf(f,
		"#!/bin/sh\ncd '%s'\nc2c='%s'\n"
		"sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status > allowed\n"
		"\"$c2c\" run pending-bit --dry-run > auto.out 2> auto.err; echo $? > auto.rc\n"
		"\"$c2c\" run pending-bit --dry-run --placement cpus:%d,%d > two.out 2> two.err;"
		" echo $? > two.rc\n"
		"\"$c2c\" run refill --worker bound --dry-run > rdry.out 2>&1; echo $? > rdry.rc\n"
		"\"$c2c\" run refill --worker bound --duration 0.05 --warmup 0.01 --reps 1"
		" --max-attempts 1 --valid-oncpu 0 --valid-overlap 0 --valid-window 1000"
		" --valid-steal 100 --valid-probe 1000 --valid-setting 1000000 --out rf.csv"
		" > rf.out 2>&1; echo $? > rf.rc\n",
		dir, bin, a0, a1);
	fclose(f);
	assert_int_equal(sh("cd '%s' && timeout 300 sbatch --wait --quiet -w xeon1 -n1 -c1 "
			    "-o job.out job.sh",
			    dir),
			 0);
	char *allowed = job_file(dir, "allowed"), why[96];
	allowed[strcspn(allowed, "\n")] = 0;
	int set[CPU_SETSIZE], n = parse_cpulist(allowed, set, CPU_SETSIZE, why, sizeof(why));
	if (n < 1)
		fail_msg("the job's Cpus_allowed_list '%s' is not a CPU list (%s)", allowed, why);
	if (n >= atoi(out)) {
		print_message("skipped: the -c1 job may use CPUs %s, the whole node: this cluster "
			      "does not confine a step (task/none; see slurm-local.sh's stderr)\n",
			      allowed);
		free(allowed);
		skip();
	}
	/* auto: a plan on allowed CPUs only, or (pending-bit needs two CPUs) one line, exit 2 */
	char *rc = job_file(dir, "auto.rc"), *o = job_file(dir, "auto.out"),
	     *e = job_file(dir, "auto.err");
	int cpus[64], k = plan_cpus(o, cpus, 64);
	if (atoi(rc) == 0) {
		assert_true(k >= 2);
		for (int i = 0; i < k; i++)
			if (!in_set(cpus[i], set, n))
				fail_msg("auto planned CPU %d outside the job's %s:\n%s", cpus[i],
					 allowed, o);
	} else {
		assert_int_equal(atoi(rc), 2);
		assert_int_equal(count_lines(e), 1);
		assert_non_null(strstr(e, "allowed"));
	}
	free(rc), free(o), free(e);
	/* two CPUs of the node, not both in the job's part: refused, naming the one outside */
	rc = job_file(dir, "two.rc"), e = job_file(dir, "two.err");
	if (in_set(a0, set, n) && in_set(a1, set, n))
		assert_int_equal(atoi(rc), 0);
	else {
		char says[96];
		snprintf(says, sizeof(says), "CPU %d is outside this process's allowed cpuset",
			 in_set(a0, set, n) ? a1 : a0);
		assert_int_equal(atoi(rc), 2);
		assert_int_equal(count_lines(e), 1);
		if (!strstr(e, says))
			fail_msg("'%s' not in: %s", says, e);
	}
	free(rc), free(e);
	/* refill's bound worker needs one CPU: planned and run there, and recorded */
	rc = job_file(dir, "rdry.rc"), o = job_file(dir, "rdry.out");
	assert_int_equal(atoi(rc), 0);
	k = plan_cpus(o, cpus, 64);
	assert_int_equal(k, 2);
	for (int i = 0; i < k; i++)
		if (!in_set(cpus[i], set, n))
			fail_msg("refill planned CPU %d outside the job's %s:\n%s", cpus[i],
				 allowed, o);
	free(rc), free(o);
	rc = job_file(dir, "rf.rc"), o = job_file(dir, "rf.out");
	if (!RAN(atoi(rc)))
		fail_msg("refill in the job: exit %d: %s", atoi(rc), o);
	free(rc), free(o);
	struct table tb;
	snprintf(csv, sizeof(csv), "%s/rf.csv", dir);
	csv_load(&tb, csv);
	assert_true(tb.nrows >= 1);
	for (long r = 0; r < tb.nrows; r++) {
		const char *ids = csv_cell(&tb, r, "thread_ids");
		for (const char *at = strchr(ids, '@'); at; at = strchr(at + 1, '@'))
			if (!in_set(atoi(at + 1), set, n))
				fail_msg("a thread ran on CPU %d, outside the job's %s: %s",
					 atoi(at + 1), allowed, ids);
	}
	table_free(&tb);
	char meta[PATH_MAX + 32], v[160];
	snprintf(meta, sizeof(meta), "%s/rf.meta", dir);
	meta_get(meta, "allowed_pus", v, sizeof(v));
	int rec[CPU_SETSIZE], nrec = parse_cpulist(v, rec, CPU_SETSIZE, why, sizeof(why));
	assert_int_equal(nrec, n);
	for (int i = 0; i < nrec; i++)
		assert_true(in_set(rec[i], set, n));
	free(allowed);
}

static int setup(void **s)
{
	return test_dir_setup(s) || cluster_up(s);
}

static int teardown(void **s)
{
	cluster_down(s);
	return test_dir_teardown(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(missing_slurm_tools_are_one_line),
		cmocka_unit_test(bad_input_submits_nothing),
		cmocka_unit_test(dry_run_is_a_valid_batch_script),
		cmocka_unit_test(each_constraint_lands_on_its_node),
		cmocka_unit_test(a_failed_task_is_reported_and_resumed),
		cmocka_unit_test(a_partial_node_job_plans_inside_it),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
