/* Bad input through the real binary: one line naming the value and what is accepted, exit 2, no
 * CSV. */
#include "tests/testutil.h"
#include "lib/util.h"
#include "layouts/layout.h"
#include <dirent.h>
#include <sched.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char out[300];

static int setup(void **s)
{
	(void)s;
	test_dir_setup(NULL);
	snprintf(out, sizeof(out), "%s/out.csv", test_dir);
	return 0;
}

/* Run pending-bit with one bad setting; expect a single error line containing `says`. The placement
 * is two CPUs this process may use unless the test gives one or a topology: the default (auto)
 * depends on the machine's packages, caches, SMT and CPU vendor, and a setting checked after
 * planning must not meet a planning error first. */
static void refused(const char *says, const char *a, const char *b, const char *c, const char *d)
{
	static struct cmd_result r;
	const char *pl = two_cpus();
	if (!pl) { /* settings checked after the plan (--mem-node, --events) would meet its refusal
		    */
		print_message("skipped: pending-bit's writer and reader need two CPUs this process "
			      "may use\n");
		skip();
	}
	const char *def[] = { "--duration", "0.05", "--warmup", "0.01", "--reps", "1", "--out", out,
			      "--placement", pl },
		   *given[] = { a, b, c, d };
	const char *argv[20] = { "run", "pending-bit" };
	int n = 2;
	for (size_t i = 0; i < ARRAY_SIZE(def);
	     i += 2) { /* a default only where the test does not give the option */
		int dup = 0;
		for (size_t j = 0; j < ARRAY_SIZE(given) && given[j]; j++) {
			dup |= !strncmp(given[j], def[i], strlen(def[i])); /* --opt or --opt=X */
			int topo = !strncmp(given[j], "--topology", 10); /* auto: the topology's */
			dup |= topo && !strcmp(def[i], "--placement");
		}
		if (!dup) {
			argv[n++] = def[i];
			argv[n++] = def[i + 1];
		}
	}
	for (size_t j = 0; j < ARRAY_SIZE(given) && given[j]; j++)
		argv[n++] = given[j];
	argv[n] = NULL;
	run_c2cv(&r, argv);
	if (r.status != 2 || !strstr(r.err, says) || count_lines(r.err) != 1)
		fail_msg("args %s %s: status %d, stderr: %s (wanted '%s')", a, b ? b : "", r.status,
			 r.err, says);
	assert_string_equal(strncmp(r.err, "c2cbench: error: ", 17) ? "no prefix" : "ok", "ok");
	assert_false(file_exists(out));
}

static void bad_names(void **s)
{
	(void)s;
	struct cmd_result r;
	run_c2c(&r, "run", "nosuch", NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "unknown bench 'nosuch'; accepted: "));
	run_c2c(&r, "frobnicate", NULL);
	assert_int_equal(r.status, 2);
	char says[600];
	snprintf(says, sizeof(says), "'bogus' is not accepted; accepted: %s", layout_names());
	refused(says, "--layout", "bogus", NULL, NULL);
	refused("'diagonal' is not accepted", "--placement", "diagonal", NULL, NULL);
	refused("'never' is not accepted; accepted: rmw,test-then-set", "--policy", "never", NULL,
		NULL);
	/* no drainer: PENDING set in warm-up stays set, nothing measured but an invariant */
	refused("--policy test-then-set with --drain-us 0 is not accepted", "--policy",
		"test-then-set", NULL, NULL);
	refused("accepted: --drain-us US > 0", "--policy", "test-then-set", "--drain-us", "0");
	refused("unknown option '--frobs'", "--frobs", NULL, NULL, NULL);
}

static void bad_numbers(void **s)
{
	(void)s;
	refused("--duration: 'abc'", "--duration", "abc", NULL, NULL);
	refused("--duration: '-1'", "--duration", "-1", NULL, NULL);
	refused("--duration: '0'", "--duration", "0", NULL, NULL);
	refused("--reps: '0'", "--reps", "0", NULL, NULL);
	refused("--reps: '2x'", "--reps", "2x", NULL, NULL);
	refused("--writers: '0'", "--writers", "0", NULL, NULL);
	refused("--readers: '-1'", "--readers", "-1", NULL, NULL);
	refused("--work: '-5'", "--work", "-5", NULL, NULL);
	refused("--offset-sweep: '0:64:8'", "--offset-sweep", "0:64:8", NULL, NULL);
	refused("--offset-sweep: '8:64'", "--offset-sweep", "8:64", NULL, NULL);
}

/* Settings that used to change silently: each is refused on one line now, or kept as written. */
static void no_silent_changes(void **s)
{
	(void)s;
	refused("--duration is given twice", "--duration", "1", "--duration", "2");
	refused("--reps is given twice", "--reps", "2", "--reps", "2");
	refused("option '--dur' is not accepted; accepted: the full name --duration", "--dur", "1",
		NULL, NULL);
	refused("option '--write' is not accepted; accepted: the full name --writers", "--write=2",
		NULL, NULL, NULL);
	refused("element 1 is not a CPU number", "--placement", "cpus:-1,0", NULL, NULL);
	refused("CPU 0 is named twice", "--placement", "cpus:0,0", NULL, NULL);
	refused("element 2 is not a CPU number", "--placement", "cpus:0,", NULL, NULL);
	refused("--mem-node: '4294967296' is not accepted", "--mem-node", "4294967296", NULL, NULL);
	refused("--mem-node: '-1' is not accepted", "--mem-node", "-1", NULL, NULL);
	refused("'shared,,padded' is not accepted (element 2 is empty)", "--layout",
		"shared,,padded", NULL, NULL);
	refused("(element 2 is empty)", "--layout", "shared,", NULL, NULL);
	refused("(element 2 is empty)", "--events", "cycles,,instructions", NULL, NULL);
	refused("--offset-sweep: '8::64'", "--offset-sweep", "8::64", NULL, NULL);
	refused("--offset-sweep: '8:64:8:'", "--offset-sweep", "8:64:8:", NULL, NULL);
	refused("--offset-sweep: ':8:64:8'", "--offset-sweep", ":8:64:8", NULL, NULL);
	refused("--duration: '0x1'", "--duration", "0x1", NULL, NULL);
	refused("--duration: ' 1'", "--duration", " 1", NULL, NULL);
	refused("--duration: 'inf'", "--duration", "inf", NULL, NULL);
	refused("--duration: 'nan'", "--duration", "nan", NULL, NULL);
	refused("--reps: '+2'", "--reps", "+2", NULL, NULL);
	refused("--reps: '0x2'", "--reps", "0x2", NULL, NULL);
	refused("--policy: 'a\\nb' is not accepted", "--policy", "a\nb", NULL,
		NULL); /* the newline printed as \n */
	struct cmd_result r;
	/* on a topology given: this machine's CPUs 0 and 1 need not both be this process's to use
	 */
	run_c2c(&r, "run", "pending-bit", "--placement", "cpus:1,0", "--topology",
		"synthetic:core:2 pu:1", "--dry-run", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "placement cpus:1,0"));
	const char *w = strstr(r.out, "\nwriter"), *rd = strstr(r.out, "\nreader");
	assert_non_null(w);
	assert_non_null(rd);
	int wcpu = -1, rcpu = -1;
	assert_int_equal(sscanf(w + 1, "writer %*d %d", &wcpu), 1);
	assert_int_equal(sscanf(rd + 1, "reader %*d %d", &rcpu), 1);
	assert_int_equal(wcpu, 1); /* the writer asked for CPU 1: not sorted away */
	assert_int_equal(rcpu, 0);
}

#define ONE_PKG "synthetic:pack:1 core:2 pu:1"
#define TWO_L3 "synthetic:pack:1 l3:2 core:1 pu:1"
#define ONE_L3 "synthetic:pack:2 l3:1 core:2 pu:1"
#define TWO_NODES "synthetic:pack:2 numa:1 core:1 pu:1"

/* What no machine can place, each on a topology given explicitly (what auto resolves to, and
 * whether a machine has two packages or two L3s, is the machine's), and a node this machine lacks
 * by sysfs. */
static void impossible_placements(void **s)
{
	(void)s;
	char node[16], says[80];
	refused("needs allowed cores on 2 packages but " ONE_PKG " has them on 1", "--placement",
		"cross-socket", "--topology=" ONE_PKG, "--dry-run");
	refused("placement same-socket needs 1001 allowed cores on package 0 but " ONE_PKG " has 2",
		"--writers=1000", "--placement=same-socket", "--topology=" ONE_PKG, "--dry-run");
	/* auto there: one package without caches is same-socket, whatever this machine's vendor */
	refused("placement same-socket needs 1001", "--writers=1000", "--placement=auto",
		"--topology=" ONE_PKG, "--dry-run");
	refused("placement cross-llc puts 1000 writer(s) under the first last-level cache of "
		"package 0, "
		"which has 1 allowed cores",
		"--writers=1000", "--placement=cross-llc", "--topology=" TWO_L3, "--dry-run");
	refused("placement cross-llc needs 2 last-level caches over allowed cores of package 0 "
		"but " ONE_L3 " has 1",
		"--placement", "cross-llc", "--topology=" ONE_L3, "--dry-run");
	refused("placement smt needs cores with 2 or more PUs (SMT) but " ONE_PKG
		" has 1 PU per core",
		"--placement", "smt", "--topology=" ONE_PKG, "--dry-run");
	snprintf(node, sizeof(node), "%d", sysfs_missing_node()); /* one past this machine's last */
	snprintf(says, sizeof(says), "--mem-node: node %s does not exist; accepted: ", node);
	refused(says, "--mem-node", node, NULL, NULL);
	refused("--mem-node: node 2 does not exist; accepted: writer, reader or a node (0-1)",
		"--mem-node", "2", "--topology=" TWO_NODES, "--dry-run");
	refused("can only plan", "--topology", "synthetic:pack:2 core:2 pu:1", NULL, NULL);
	refused("not a valid hwloc synthetic", "--topology", "synthetic:bogus:2", "--dry-run",
		NULL);
}

/* A CPU number past this machine's last one (sysfs), after a CPU this process may use. */
static void missing_cpu(void **s)
{
	(void)s;
	int a, top = 0;
	char list[64], says[64];
	DIR *d = opendir("/sys/devices/system/cpu");
	assert_non_null(d);
	for (struct dirent *e; (e = readdir(d));) {
		int cpu;
		char end;
		if (sscanf(e->d_name, "cpu%d%c", &cpu, &end) == 1 && cpu >= top)
			top = cpu + 1;
	}
	closedir(d);
	if (two_usable_cpus(&a, NULL)) {
		cpu_set_t one;
		assert_int_equal(sched_getaffinity(0, sizeof(one), &one), 0);
		for (a = 0; !CPU_ISSET(a, &one); a++)
			;
	}
	snprintf(list, sizeof(list), "cpus:%d,%d", a, top);
	snprintf(says, sizeof(says), "CPU %d does not exist", top);
	refused(says, "--placement", list, NULL, NULL);
}

/* The writer's and the first reader's CPU in a --dry-run plan. */
static void planned_cpus(const struct cmd_result *r, int *wcpu, int *rcpu)
{
	const char *w = strstr(r->out, "\nwriter"), *rd = strstr(r->out, "\nreader");
	if (!w || !rd)
		fail_msg("no writer or reader in the plan: %s", r->out);
	assert_int_equal(sscanf(w + 1, "writer %*d %d", wcpu), 1);
	assert_int_equal(sscanf(rd + 1, "reader %*d %d", rcpu), 1);
}

/* cross-socket and auto as this machine's sysfs says: with one package cross-socket is refused
 * and auto is something else; with two or more both put the writer and the reader on CPUs of
 * different packages by physical_package_id. */
static void cross_socket_here(void **s)
{
	(void)s;
	struct cmd_result r;
	int n = sysfs_packages(), wcpu = -1, rcpu = -1;
	if (n < 2) {
		refused("needs allowed cores on 2 packages but this machine has them on 1",
			"--placement", "cross-socket", NULL, NULL);
		run_c2c(&r, "run", "pending-bit", "--placement", "auto", "--dry-run", NULL);
		assert_null(strstr(r.out, "placement cross-socket"));
		return;
	}
	if (usable_cpus() < sysconf(_SC_NPROCESSORS_ONLN)) { /* a cpuset may leave out a package */
		print_message("skipped: %d packages, but this process may not use every CPU\n", n);
		skip();
	}
	const char *pls[] = { "cross-socket", "auto" };
	for (int i = 0; i < 2; i++) {
		run_c2c(&r, "run", "pending-bit", "--placement", pls[i], "--dry-run", NULL);
		if (r.status != 0)
			fail_msg("%d packages in sysfs, but %s was refused: %s", n, pls[i], r.err);
		const char *says = i ? "auto: cross-socket (" : "placement cross-socket";
		assert_non_null(strstr(r.out, says));
		planned_cpus(&r, &wcpu, &rcpu);
		assert_true(sysfs_cpu_package(wcpu) >= 0);
		assert_int_not_equal(sysfs_cpu_package(wcpu), sysfs_cpu_package(rcpu));
	}
}

/* On the first two CPUs this process may use: CPUs 0 and 1 need not be (taskset, a container's
 * cpuset), and the child is narrowed to the first. */
static void cpu_outside_cpuset(void **s)
{
	(void)s;
	cpu_set_t old, one;
	int a, b;
	char list[48], says[80];
	assert_int_equal(sched_getaffinity(0, sizeof(old), &old), 0);
	if (two_usable_cpus(&a, &b)) {
		print_message("skipped: needs a second CPU to exclude\n");
		skip();
	}
	CPU_ZERO(&one);
	CPU_SET(a, &one);
	snprintf(list, sizeof(list), "cpus:%d,%d", a, b);
	snprintf(says, sizeof(says), "CPU %d is outside this process's allowed cpuset", b);
	struct cmd_result r;
	assert_int_equal(sched_setaffinity(0, sizeof(one), &one),
			 0); /* inherited, as taskset -c A */
	run_c2c(&r, "run", "pending-bit", "--placement", list, "--out", out, NULL);
	assert_int_equal(sched_setaffinity(0, sizeof(old), &old), 0);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, says));
	assert_false(file_exists(out));
}

/* On two CPUs this process may use: the default placement would need what this machine may lack
 * (same-socket two cores, cross-llc two L3s), and its refusal would come before the output's. */
static void unwritable_output(void **s)
{
	(void)s;
	struct cmd_result r;
	const char *pl = two_cpus();
	if (!pl) {
		print_message("skipped: a run needs two CPUs this process may use\n");
		skip();
	}
	run_c2c(&r, "run", "pending-bit", "--placement", pl, "--out", "/nonexistent-dir/x.csv",
		"--duration", "0.05", NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "cannot create '/nonexistent-dir/x.csv'"));
	assert_int_equal(count_lines(r.err), 1);
	run_c2c(&r, "run", "pending-bit", "--placement", pl, "--out", "/dev/full", "--duration",
		"0.05", "--warmup", "0.01", "--reps", "1", "--quiet", NULL);
	assert_int_not_equal(r.status, 0);
	assert_non_null(strstr(r.err, "cannot write to '/dev/full': No space left on device"));
	assert_non_null(strstr(r.err, "c2cbench: error: "));
	assert_null(strstr(strstr(r.err, "c2cbench: error: ") + 1,
			   "c2cbench: error: ")); /* one error line (notes may precede it) */
	struct stat st;
	assert_int_equal(stat("/dev/full", &st), 0);
	assert_true(S_ISCHR(st.st_mode)); /* a device given as --out is written to, never removed */
}

static void help_and_dry_run(void **s)
{
	(void)s;
	struct cmd_result r;
	run_c2c(&r, "run", "pending-bit", "--help", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "--offset-sweep"));
	assert_non_null(strstr(r.out, "--placement"));
	run_c2c(&r, "run", "pending-bit", "--topology", "synthetic:pack:2 numa:1 core:8 pu:2",
		"--dry-run", "--writers", "2", "--mem-node", "reader", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "placement cross-socket"));
	assert_non_null(strstr(r.out, "memory on NUMA node 1"));
	assert_non_null(strstr(r.out, "reader     0    16     1"));
	run_c2c(&r, "topo", "--topology", "synthetic:pack:2 numa:1 core:2 pu:2", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "packages: 2"));
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(bad_names),
		cmocka_unit_test(bad_numbers),
		cmocka_unit_test(no_silent_changes),
		cmocka_unit_test(impossible_placements),
		cmocka_unit_test(missing_cpu),
		cmocka_unit_test(cross_socket_here),
		cmocka_unit_test(cpu_outside_cpuset),
		cmocka_unit_test(unwritable_output),
		cmocka_unit_test(help_and_dry_run),
	};
	return cmocka_run_group_tests(t, setup, test_dir_teardown);
}
