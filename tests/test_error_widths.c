/* Bad input gets one line that fits in 100 columns, and exit status 2: every option of every
 * bench (read from its --help) and of every command given a 10-character bad value, unknown
 * options and names; what a --dry-run prints besides fits too. */
#include "tests/testutil.h"
#include "lib/wrap.h"
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BAD "bogus12345" /* the longest bad value the 100 columns are promised for */

static int setup(void **s)
{
	(void)s;
	char cwd[PATH_MAX], p[PATH_MAX + 16], bin[PATH_MAX];
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	snprintf(p, sizeof(p), "%s/presets", cwd);
	setenv("C2C_PRESET_PATH", p, 1);
	if (!getenv("C2C_BIN") && realpath("./c2cbench", bin))
		setenv("C2C_BIN", bin, 1);
	test_dir_setup(NULL);
	/* whatever an accepted value writes (--out bogus12345) lands in the scratch directory */
	assert_int_equal(chdir(test_dir), 0);
	return 0;
}

static int teardown(void **s)
{
	assert_int_equal(chdir("/"), 0);
	return test_dir_teardown(s);
}

/* What failed, every case of a test (one fix often settles many). */
static char failed[32768];
static int nfailed;

static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void note(const char *fmt, ...)
{
	size_t k = strlen(failed);
	char one[240]; /* enough of it to see which */
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(one, sizeof(one), fmt, ap);
	va_end(ap);
	if (k + sizeof(one) + 2 < sizeof(failed))
		snprintf(failed + k, sizeof(failed) - k, "%s\n", one);
	nfailed++;
}

static void none_failed(void)
{
	if (nfailed) {
		fputs(failed, stderr);
		fail_msg("%d case(s) above", nfailed);
	}
}

/* Notes a line of text over 100 columns. */
static void fits(const char *what, const char *stream, const char *t)
{
	for (const char *p = t; *p;) {
		size_t n = strcspn(p, "\n");
		int w = text_cols(p, n);
		if (w > TEXT_WIDTH)
			note("%s: a line of %d columns on %s: %.*s", what, w, stream, (int)n, p);
		p += n + (p[n] == '\n');
	}
}

/* The run refused its input: status 2 and one error line of at most 100 columns, naming named. */
static void refused(const struct cmd_result *r, const char *what, const char *named)
{
	fits(what, "stdout", r->out);
	fits(what, "stderr", r->err);
	const char *e = strstr(r->err, "c2cbench: error: ");
	if (r->status != 2)
		return note("%s: status %d, not 2: %s", what, r->status, r->err);
	if (!e)
		return note("%s: no error line: %s", what, r->err);
	if (strstr(e + 1, "c2cbench: error: "))
		return note("%s: more than one error line: %s", what, r->err);
	size_t n = strcspn(e, "\n");
	if (named && !memmem(e, n, named, strlen(named)))
		note("%s: the error does not name '%s': %.*s", what, named, (int)n, e);
}

/* Options that take any text: a bad value for them is a good one (a label, a file to write). */
static int takes_any_text(const char *meta)
{
	return !strcmp(meta, "FILE") || !strcmp(meta, "FILE|-") || !strcmp(meta, "NAME") ||
	       !strcmp(meta, "DIR") || !strcmp(meta, "D");
}

/* Each "  --name METAVAR" line of a --help text: fn(name, metavar) (metavar "" for a flag). */
static int each_option(const char *help, void (*fn)(const char *, const char *, void *),
		       void *arg)
{
	int n = 0;
	for (const char *p = help; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		char name[48] = "", meta[48] = "";
		size_t ind = strspn(p, " ");
		if (ind < 2 || strncmp(p + ind, "--", 2) ||
		    sscanf(p + ind + 2, "%47[a-z0-9-]", name) != 1)
			continue;
		const char *m = p + ind + 2 + strlen(name);
		if (*m == ' ' && m[1] != ' ' && m[1] != '\n')
			sscanf(m + 1, "%47[^ \n]", meta);
		if (meta[0] == '[' || meta[0] == '|' || meta[0] == '-')
			meta[0] = '\0'; /* "[--a | --b]": a synopsis, not a value */
		fn(name, meta, arg);
		n++;
	}
	return n;
}

struct bench_arg {
	const char *bench;
	int refused;
};

static void bench_option(const char *name, const char *meta, void *arg)
{
	struct bench_arg *b = arg;
	struct cmd_result *r = malloc(sizeof(*r));
	char opt[64], what[160];
	assert_non_null(r);
	snprintf(opt, sizeof(opt), "--%s", name);
	snprintf(what, sizeof(what), "run %s %s %s", b->bench, opt, meta[0] ? BAD : "");
	if (!meta[0]) { /* a flag: given a value, the value is an unexpected argument */
		run_c2c(r, "run", b->bench, opt, BAD, "--dry-run", NULL);
		refused(r, what, BAD);
	} else {
		run_c2c(r, "run", b->bench, opt, BAD, "--dry-run", NULL);
		if (r->status == 0 && takes_any_text(meta)) {
			fits(what, "stdout", r->out); /* the --dry-run's own lines */
			fits(what, "stderr", r->err);
		} else {
			refused(r, what, BAD);
			b->refused++;
		}
	}
	free(r);
}

/* Every option of every bench, with a bad value: one line, 100 columns, status 2. */
static void every_bench_option_refuses_in_one_short_line(void **s)
{
	(void)s;
	failed[0] = '\0', nfailed = 0;
	struct cmd_result *r = malloc(sizeof(*r)), *h = malloc(sizeof(*h));
	int benches = 0;
	run_c2c(r, "list", NULL);
	assert_int_equal(r->status, 0);
	for (char *l = r->out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		char b[64];
		if (strncmp(l, "bench ", 6) || sscanf(l + 6, "%63s", b) != 1)
			continue;
		struct bench_arg a = { b, 0 };
		run_c2c(h, "run", b, "--help", NULL);
		assert_int_equal(h->status, 0);
		int n = each_option(h->out, bench_option, &a);
		assert_true(n >= 20);         /* the harness's options at least */
		assert_true(a.refused >= 15); /* its numbers, percentages, choices */
		benches++;
	}
	assert_true(benches >= 5);
	none_failed();
	free(r);
	free(h);
}

struct cmd_arg {
	const char *cmd, *sub;
};

static void command_option(const char *name, const char *meta, void *arg)
{
	struct cmd_arg *c = arg;
	struct cmd_result *r = malloc(sizeof(*r));
	char opt[64], what[160];
	assert_non_null(r);
	snprintf(opt, sizeof(opt), "--%s", name);
	snprintf(what, sizeof(what), "%s %s %s %s", c->cmd, c->sub ? c->sub : "", opt, BAD);
	if (!strcmp(name, "help") || !strcmp(name, "version")) {
		free(r);
		return;
	}
	if (c->sub)
		run_c2c(r, c->cmd, c->sub, opt, BAD, NULL);
	else
		run_c2c(r, c->cmd, opt, BAD, NULL);
	if (r->status == 0 || !meta[0]) { /* a value it takes, or a flag's argument: it fits */
		fits(what, "stdout", r->out);
		fits(what, "stderr", r->err);
	} else {
		refused(r, what, NULL);
	}
	free(r);
}

/* Every command (from `c2cbench --help`): an unknown option, and each of its options with a bad
 * value and no other argument, are refused in one line of 100 columns with status 2. */
static void every_command_refuses_in_one_short_line(void **s)
{
	(void)s;
	failed[0] = '\0', nfailed = 0;
	struct cmd_result *r = malloc(sizeof(*r)), *h = malloc(sizeof(*h));
	int n = 0;
	run_c2c(r, "--help", NULL);
	assert_int_equal(r->status, 0);
	for (char *l = r->out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		char cmd[64], what[160];
		if (strncmp(l, "  ", 2) || l[2] == ' ' || sscanf(l + 2, "%63s", cmd) != 1)
			continue;
		if (!strcmp(cmd, "help") || !strcmp(cmd, "version"))
			continue;
		const char *subs[] = { NULL, "submit", "status" };
		for (int i = 0; i < (strcmp(cmd, "slurm") ? 1 : 3); i++) {
			struct cmd_arg a = { cmd, subs[i] };
			if (!strcmp(cmd, "slurm") && !i)
				continue;
			snprintf(what, sizeof(what), "%s %s --" BAD, cmd, a.sub ? a.sub : "");
			if (a.sub)
				run_c2c(r, cmd, a.sub, "--" BAD, NULL);
			else
				run_c2c(r, cmd, "--" BAD, NULL);
			refused(r, what, "--" BAD);
			if (a.sub)
				run_c2c(h, cmd, a.sub, "--help", NULL);
			else
				run_c2c(h, cmd, "--help", NULL);
			assert_int_equal(h->status, 0);
			each_option(h->out, command_option, &a);
			n++;
		}
	}
	assert_true(n >= 10);
	none_failed();
	free(r);
	free(h);
}

/* Names that are not there, and values the commands check themselves. */
static void bad_names_refuse_in_one_short_line(void **s)
{
	(void)s;
	failed[0] = '\0', nfailed = 0;
	struct cmd_result *r = malloc(sizeof(*r));
	const char *cases[][6] = {
		{ BAD, NULL },
		{ "run", BAD, NULL },
		{ "run", NULL },
		{ "preset", BAD, NULL },
		{ "preset", "quick", "--" BAD, NULL },
		{ "list", BAD, NULL },
		{ "list", "--columns", BAD, NULL },
		{ "events", "--pmu", BAD, NULL },
		{ "topo", "--topology", BAD, NULL },
		{ "import", BAD, NULL },
		{ "import", "core-to-core-latency", BAD, "--topology", BAD, NULL },
		{ "slurm", BAD, NULL },
		{ "run", "pending-bit", "--events", BAD, "--dry-run", NULL },
		{ "run", "pingpong", "--events", BAD, "--dry-run", NULL },
		{ "list", "--columns", NULL },
		{ "compare", BAD, BAD, NULL },
		{ "report", BAD, "-o", BAD, NULL },
		{ "summary", BAD, NULL },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char what[200] = "";
		for (int k = 0; k < 6 && cases[i][k]; k++)
			snprintf(what + strlen(what), sizeof(what) - strlen(what), " %s",
				 cases[i][k]);
		run_c2cv(r, cases[i]);
		refused(r, what, NULL);
	}
	free(r);
	none_failed();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_bench_option_refuses_in_one_short_line),
		cmocka_unit_test(every_command_refuses_in_one_short_line),
		cmocka_unit_test(bad_names_refuse_in_one_short_line),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
