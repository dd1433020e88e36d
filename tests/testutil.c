#include "tests/testutil.h"
#include <dirent.h>
#include "lib/csvread.h"
#include "lib/opts.h"
#include "tests/runsum_shim.h"
#include "harness/bench.h"
#include "harness/validity.h"
#include "harness/novalid.h"
#include "lib/util.h"
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A test binary run by itself checks columns as the suite does (scripts/run-tests.sh): before the
 * benches register (priority 101 runs before the default), and in every c2cbench it starts. */
static void __attribute__((constructor(101))) check_columns(void)
{
	setenv("C2C_CHECK_COLUMNS", "1", 0);
}

static void drain(int fd, char *buf, size_t cap)
{
	size_t k = 0;
	ssize_t n;
	while ((n = read(fd, buf + k, cap - 1 - k)) > 0 && k + 1 < cap)
		k += (size_t)n;
	buf[k] = 0;
}

void text_unwrap(char *s)
{
	char *w = s;
	for (char *p = s; *p; p++) {
		if (*p == '\n' && p[1] == ' ') {
			*w++ = ' ';
			while (p[1] == ' ')
				p++;
			continue;
		}
		*w++ = *p;
	}
	*w = 0;
}

void run_c2c(struct cmd_result *r, const char *arg0, ...)
{
	const char *args[64];
	int n = 0;
	va_list ap;
	va_start(ap, arg0);
	for (const char *a = arg0; a && n < 63; a = va_arg(ap, const char *))
		args[n++] = a;
	va_end(ap);
	args[n] = NULL;
	run_c2cv(r, args);
}

void run_c2cv(struct cmd_result *r, const char *const *args)
{
	const char *argv[130];
	int n = 0, po[2], pe[2];
	const char *bin = getenv("C2C_BIN") ? getenv("C2C_BIN") : "./c2cbench";
	argv[n++] = bin;
	for (int i = 0; args[i] && n < 129; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	assert_int_equal(pipe(po), 0);
	assert_int_equal(pipe(pe), 0);
	/* stderr is read after stdout: keep it in a file so a chatty child cannot block on a full
	 * pipe */
	char errpath[] = "/tmp/c2c-test-err-XXXXXX";
	int efd = mkstemp(errpath);
	assert_true(efd >= 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(po[1], 1);
		dup2(efd, 2);
		close(po[0]);
		execv(bin, (char *const *)argv);
		_exit(127);
	}
	close(po[1]);
	close(pe[0]);
	close(pe[1]);
	drain(po[0], r->out, sizeof(r->out));
	close(po[0]);
	int st;
	waitpid(pid, &st, 0);
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	lseek(efd, 0, SEEK_SET);
	drain(efd, r->err, sizeof(r->err));
	close(efd);
	unlink(errpath);
}

int count_lines(const char *s)
{
	int n = 0;
	for (const char *p = s; *p; p++)
		n += *p == '\n';
	return n + (*s && s[strlen(s) - 1] != '\n');
}

int wait_csv_rows(const char *path, int n, int pid, double max_s)
{
	struct timespec two_ms = { 0, 2000000L };
	for (long i = 0; i < (long)(max_s * 500); i++) {
		char *t = slurp(path);
		int rows = t ? count_lines(t) - 1 : -1;
		free(t);
		if (rows >= n)
			return 0;
		if (waitpid((pid_t)pid, NULL, WNOHANG) == (pid_t)pid)
			return -1;
		nanosleep(&two_ms, NULL);
	}
	return -1;
}

char *temp_dir(void)
{
	char *t = strdup("/tmp/c2c-test-XXXXXX");
	assert_non_null(mkdtemp(t));
	return t;
}

char *test_dir;

int test_dir_setup(void **state)
{
	(void)state;
	test_dir = temp_dir();
	return 0;
}

int test_dir_teardown(void **state)
{
	(void)state;
	rm_rf(test_dir);
	free(test_dir);
	test_dir = NULL;
	return 0;
}

void rm_rf(const char *path)
{
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", path);
	assert_int_equal(system(cmd), 0);
}

int file_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

void csv_load(struct table *t, const char *path)
{
	char err[ERRLEN];
	if (table_read(t, path, err))
		fail_msg("%s", err);
}

int row_measured(const struct table *t, long r)
{
	if (!strcmp(csv_cell(t, r, "valid"), "yes"))
		return 1;
	if (!*csv_cell(t, r, "invalid_reason"))
		fail_msg("row %ld: invalid with no invalid_reason", r + 1);
	return 0;
}

int every_config_measured(const char *path, const char *col)
{
	struct table t;
	csv_load(&t, path);
	int all = 1;
	for (long i = 0; i < t.nrows && all; i++) {
		int got = 0;
		for (long j = 0; j < t.nrows && !got; j++)
			got = !strcmp(csv_cell(&t, j, col), csv_cell(&t, i, col)) &&
			      row_measured(&t, j);
		all = got;
	}
	table_free(&t);
	return all;
}

void csv_load_text(struct table *t, const char *name, const char *text)
{
	char err[ERRLEN];
	if (table_parse(t, name, text, strlen(text), err))
		fail_msg("%s", err);
}

const char *csv_cell(const struct table *t, long r, const char *col)
{
	if (table_col(t, col) < 0)
		fail_msg("%s: no column %s", t->path, col);
	if (r < 0 || r >= t->nrows)
		fail_msg("%s: no row %ld (%ld rows)", t->path, r, t->nrows);
	return table_get(t, r, col);
}

char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *s = malloc((size_t)n + 1);
	size_t got = fread(s, 1, (size_t)n, f);
	s[got] = 0;
	fclose(f);
	return s;
}

int usable_cpus(void)
{
	cpu_set_t s;
	CPU_ZERO(&s);
	assert_int_equal(sched_getaffinity(0, sizeof(s), &s), 0);
	return CPU_COUNT(&s);
}

int two_usable_cpus(int *a, int *b)
{
	cpu_set_t s;
	int got[2], n = 0;
	CPU_ZERO(&s);
	assert_int_equal(sched_getaffinity(0, sizeof(s), &s), 0);
	for (int c = 0; c < CPU_SETSIZE && n < 2; c++)
		if (CPU_ISSET(c, &s))
			got[n++] = c;
	if (n < 2)
		return -1;
	if (a)
		*a = got[0];
	if (b)
		*b = got[1];
	return 0;
}

const char *two_cpus(void)
{
	static char buf[32];
	int a, b;
	if (two_usable_cpus(&a, &b))
		return NULL;
	snprintf(buf, sizeof(buf), "cpus:%d,%d", a, b);
	return buf;
}

static int read_int(const char *path, int *v)
{
	FILE *f = fopen(path, "r");
	int ok = f && fscanf(f, "%d", v) == 1;
	if (f)
		fclose(f);
	return ok ? 0 : -1;
}

int sysfs_cpu_package(int cpu)
{
	char p[128];
	int v;
	snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
	return read_int(p, &v) ? -1 : v;
}

int sysfs_packages(void)
{
	int seen[4096], n = 0;
	DIR *d = opendir("/sys/devices/system/cpu");
	assert_non_null(d);
	for (struct dirent *e; (e = readdir(d));) {
		int cpu, pkg, k;
		char end;
		if (sscanf(e->d_name, "cpu%d%c", &cpu, &end) != 1)
			continue;
		if ((pkg = sysfs_cpu_package(cpu)) < 0)
			continue; /* offline: no topology/ */
		for (k = 0; k < n && seen[k] != pkg; k++)
			;
		if (k == n && n < 4096)
			seen[n++] = pkg;
	}
	closedir(d);
	return n > 0 ? n : 1;
}

int sysfs_missing_node(void)
{
	int top = 0;
	DIR *d = opendir("/sys/devices/system/node");
	for (struct dirent *e; d && (e = readdir(d));) {
		int node;
		char end;
		if (sscanf(e->d_name, "node%d%c", &node, &end) == 1 && node >= top)
			top = node + 1;
	}
	if (d)
		closedir(d);
	return top > 0 ? top : 1;
}

int sh_capture(char *out, size_t n, const char *cmd)
{
	FILE *p = popen(cmd, "r");
	size_t k = 0;
	assert_non_null(p);
	for (size_t got; k + 1 < n && (got = fread(out + k, 1, n - 1 - k, p)) > 0;)
		k += got;
	out[k] = 0;
	int st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* Whether bench b takes option name (its own table, or the harness's as it gives b). */
static int bench_takes(const struct bench *b, const char *name)
{
	struct opt_spec htab[HARNESS_OPTS_MAX];
	const struct opt_spec *tables[] = { bench_harness_opts(b, htab, HARNESS_OPTS_MAX),
					    b->opts };
	for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++)
		for (const struct opt_spec *o = tables[t]; o && o->name; o++)
			if (!strcmp(o->name, name))
				return 1;
	return 0;
}

int short_args(const struct bench *b, const char *pl, const char *dur, const char **argv, int *n)
{
	if ((b->flags & BENCH_PLACED) && !pl)
		return 1;
	if (b->flags & BENCH_PLACED) {
		argv[(*n)++] = "--placement";
		argv[(*n)++] = pl;
	}
	if (bench_takes(b, "duration")) {
		argv[(*n)++] = "--duration";
		argv[(*n)++] = dur;
		argv[(*n)++] = "--warmup";
		argv[(*n)++] = "0.01";
	}
	return 0;
}

char *one_spaced(const char *s)
{
	char *out = xstrdup(s), *w = out;
	for (const char *p = s; *p; p++)
		if (!(*p == ' ' || *p == '\n') || (w > out && w[-1] != ' '))
			*w++ = *p == '\n' ? ' ' : *p;
	*w = 0;
	return out;
}

char *joined_lines(const char *s)
{
	char *out = xstrdup(s), *w = out;
	for (const char *r = s; *r; r++)
		if (*r == '\n' && !strncmp(r + 1, "    ", NOVALID_MORE)) {
			*w++ = ' ';
			r += NOVALID_MORE;
		} else
			*w++ = *r;
	*w = 0;
	return out;
}

const char *check_measured_nothing(const char *text, const char *csv, const char *config)
{
	static char rule[32];
	struct table t;
	char e[512], want[256];
	int n = 0, of = 0, most = 0, cnt[VR_N] = { 0 };
	static char *err; /* the lines as one: a test may keep the rule returned */
	free(err);
	err = joined_lines(text);
	const char *head = strstr(err, "c2cbench: measured nothing: ");
	if (!head)
		fail_msg("no measured-nothing lines in: %s", err);
	snprintf(want, sizeof(want), "got no valid repetition: %s\n", config);
	const char *why = strstr(head, "\n  why: in ");
	if (!strstr(head, want) || !why ||
	    sscanf(why, "\n  why: in %d of its %d attempt(s), ", &n, &of) != 2)
		fail_msg("no '%s' or why line in: %s", want, head);
	const char *r = strstr(why, " (rule ");
	if (!r || sscanf(r, " (rule %31[a-z], docs/validity.md)", rule) != 1 ||
	    !strstr(head, "\n  try: ") ||
	    !strstr(head, "exit status 4; every attempt is a row in "))
		fail_msg("no rule or try line in: %s", head);
	if (table_read(&t, csv, e))
		fail_msg("%s: %s", csv, e);
	for (long i = 0; i < t.nrows; i++) {
		const char *reason = table_get(&t, i, "invalid_reason");
		if (strcmp(table_get(&t, i, "valid"), "no"))
			fail_msg("a valid row in %s, yet measured nothing", csv);
		for (int k = 0; k < VR_N; k++) {
			char name[40];
			snprintf(name, sizeof(name), "%s: ", vrule_name[k]);
			cnt[k] += strstr(reason, name) != NULL;
		}
	}
	for (int k = 0; k < VR_N; k++)
		most = cnt[k] > most ? cnt[k] : most;
	int named = -1;
	for (int k = 0; k < VR_N; k++)
		if (!strcmp(rule, vrule_name[k]))
			named = k;
	if (named < 0 || cnt[named] != most || n != most || of != t.nrows)
		fail_msg("rule %s in %d of %d: the rows say %d of %ld, the most %d", rule, n, of,
			 named < 0 ? -1 : cnt[named], t.nrows, most);
	table_free(&t);
	return rule;
}

char *summary_printed(struct summary *s, struct opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	summary_print(s, f);
	fclose(f);
	summary_free(s);
	opts_free(o);
	return buf;
}
