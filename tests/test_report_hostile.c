/* report against hostile input and faults: values built to break out of gnuplot strings, Markdown
 * cells and HTML run nothing and break nothing; the output directory is new, empty or --force'd,
 * and a failed write or gnuplot leaves no report, no temporary file and no 0-byte PNG. */
#include "lib/util.h" /* before cmocka, whose fail() macro would rename util.h's fail() */
#include "tests/report_util.h"
#include "tests/testutil.h"
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

static char csv[600];

/* No entry of test_dir's directory starts with ".NAME.tmp-" (report's temporary directory). */
static void no_temp_left(const char *name)
{
	char prefix[300];
	DIR *d = opendir(test_dir);
	snprintf(prefix, sizeof(prefix), ".%s.tmp-", name);
	assert_non_null(d);
	for (struct dirent *e; (e = readdir(d));)
		if (!strncmp(e->d_name, prefix, strlen(prefix)))
			fail_msg("temporary %s left in %s", e->d_name, test_dir);
	closedir(d);
}

/* A file in test_dir that an injected command would create. */
static void pwn_path(char *buf, size_t cap, int i)
{
	snprintf(buf, cap, "%s/PWNED%d", test_dir, i);
}

/* plots.gp with the contents of every single-quoted literal ('' inside one) and comment removed:
 * what gnuplot runs as commands. */
static char *gp_code(const char *gp)
{
	char *out = xcalloc(strlen(gp) + 1, 1), *o = out;
	int in = 0, comment = 0;
	for (const char *c = gp; *c; c++) {
		if (*c == '\n')
			comment = 0;
		if (comment)
			continue;
		if (in) {
			if (*c == '\'' && c[1] == '\'')
				c++;
			else if (*c == '\'')
				in = 0, *o++ = '\'';
			continue;
		}
		if (*c == '#') {
			comment = 1;
			continue;
		}
		if (*c == '\'')
			in = 1;
		*o++ = *c;
	}
	return out;
}

/* Injection strings in a host, a CPU model, a configuration value and na_reason run nothing; in a
 * label they are refused. */
static void hostile_inputs(void **state)
{
	(void)state;
	char out[600], p[700], cmd[6][800];
	for (int i = 0; i < 6; i++) {
		char f[700];
		pwn_path(f, sizeof(f), i);
		snprintf(cmd[i], sizeof(cmd[i]),
			 i % 2 ? "x' ; system 'touch %s' ; #" : "rmw\" ; system \"touch %s\" ; #",
			 f);
	}
	char host[1700], policy[1700], cpu[900];
	snprintf(host, sizeof(host), "%s\nset output '%s/PWNED-out'\n|h|<b>", cmd[2], test_dir);
	snprintf(policy, sizeof(policy), "%s|a\nb<script>alert(1)</script>", cmd[1]);
	snprintf(cpu, sizeof(cpu), "`touch %s/PWNED-bq` @x", test_dir);
	FILE *f = pb_csv(csv);
	for (int rep = 0; rep < 3; rep++) {
		pb_row(f, "m-a", host, cpu, "shared", policy, rep, 10 + rep, 3, 1);
		pb_row(f, "m-a", host, cpu, "aligned", policy, rep, 5 + rep, 3, 1);
		pb_row(f, "m-b", cmd[3], "CPU", "shared", policy, rep, 20 + rep, 3, 1);
		pb_row(f, "m-b", cmd[3], "CPU", "aligned", cmd[4], rep, 20 + rep, 3, 1);
	}
	fclose(f);
	snprintf(out, sizeof(out), "%s/hostile", test_dir);
	struct cmd_result r;
	char bad[700];
	snprintf(bad, sizeof(bad), "%s/bad-label.csv", test_dir);
	for (int i = 0; i < 2; i++) { /* a label is a name (as compare reads it): an injection
					 string in one is refused */
		f = pb_csv(bad);
		pb_row(f, i ? "other|<i>" : cmd[0], "h", "CPU", "shared", "rmw", 0, 10, 3, 1);
		fclose(f);
		run_c2c(&r, "report", bad, "-o", out, NULL);
		assert_int_equal(r.status, 2);
		assert_int_equal(count_lines(r.err), 1);
		assert_non_null(strstr(r.err, "is not accepted; accepted: 1 to"));
		assert_false(file_exists(out));
	}
	run_c2c(&r, "report", csv, "-o", out, NULL);
	if (r.status)
		fail_msg("report failed: %s", r.err);
	for (int i = 0; i < 6; i++) {
		pwn_path(p, sizeof(p), i);
		assert_false(file_exists(p)); /* nothing ran */
	}
	snprintf(p, sizeof(p), "%s/PWNED-out", test_dir);
	assert_false(file_exists(p));
	snprintf(p, sizeof(p), "%s/PWNED-bq", test_dir);
	assert_false(file_exists(p));
	assert_true(report_pngs_ok(out) >= 2);
	report_no_gnuplot_warning(out);
	snprintf(p, sizeof(p), "%s/report.md", out);
	char *md = slurp(p);
	md_tables_well_formed(md);
	assert_null(strstr(md, "<script"));
	assert_null(strstr(md, "<b>"));
	assert_non_null(strstr(md, "&lt;script&gt;"));
	free(md);
	snprintf(p, sizeof(p), "%s/report.html", out);
	char *html = slurp(p);
	assert_null(strstr(html, "<script"));
	assert_null(strstr(html, "<b>"));
	assert_null(strstr(html, "<i>"));
	free(html);
	assert_true(html_images_load(out) >= 2);
	snprintf(p, sizeof(p), "%s/plots.gp", out);
	char *gp = slurp(p);
	char *code = gp_code(gp);
	assert_null(strstr(code, "system")); /* the injected words are all inside literals */
	assert_null(strstr(code, "`"));
	assert_null(strstr(code, "PWNED"));
	assert_non_null(strstr(gp, "system ''touch")); /* there, with the quote doubled */
	free(code);
	free(gp);
}

/* A non-empty directory is refused (exit 2, untouched) unless --force; an empty one is used. */
static void out_dir_rules(void **state)
{
	(void)state;
	struct cmd_result r;
	char out[600], keep[700], p[700];
	snprintf(out, sizeof(out), "%s/existing", test_dir);
	mkdir(out, 0755);
	run_c2c(&r, "report", csv, "-o", out, NULL); /* empty: used */
	assert_int_equal(r.status, 0);
	snprintf(keep, sizeof(keep), "%s/mine.txt", out);
	FILE *f = fopen(keep, "w");
	fputs("the user's file\n", f);
	fclose(f);
	run_c2c(&r, "report", csv, "-o", out, NULL);
	assert_int_equal(r.status, 2);
	assert_int_equal(count_lines(r.err), 1);
	assert_non_null(strstr(r.err, "already exists and is not empty"));
	assert_non_null(strstr(r.err, "--force"));
	assert_true(file_exists(keep));
	run_c2c(&r, "report", csv, "-o", out, "--force", NULL);
	assert_int_equal(r.status, 0);
	assert_false(file_exists(keep)); /* replaced whole */
	snprintf(p, sizeof(p), "%s/report.html", out);
	assert_true(file_exists(p));
	no_temp_left("existing");
}

/* Put a fake gnuplot first on PATH: body is its shell script. */
static char *fake_gnuplot(const char *body)
{
	static char dir[600];
	char p[700], *old = strdup(getenv("PATH"));
	snprintf(dir, sizeof(dir), "%s/fakebin", test_dir);
	mkdir(dir, 0755);
	snprintf(p, sizeof(p), "%s/gnuplot", dir);
	FILE *f = fopen(p, "w");
	fprintf(f, "#!/bin/sh\n%s\n", body);
	fclose(f);
	chmod(p, 0755);
	char path[4096];
	snprintf(path, sizeof(path), "%s:%s", dir, old);
	setenv("PATH", path, 1);
	return old;
}

/* gnuplot failing (exit 1 after a 0-byte PNG), or exiting 0 without drawing: exit 1, nothing left.
 */
static void gnuplot_failure(void **state)
{
	(void)state;
	struct cmd_result r;
	char out[600];
	snprintf(out, sizeof(out), "%s/gpfail", test_dir);
	char *old =
	    fake_gnuplot(": > b1-v2-g1-1.png; echo 'plots.gp line 9: fake failure' >&2; exit 1");
	run_c2c(&r, "report", csv, "-o", out, NULL);
	assert_int_equal(r.status, 1);
	assert_int_equal(count_lines(r.err), 1);
	assert_non_null(strstr(r.err, "gnuplot failed"));
	assert_false(file_exists(out));
	no_temp_left("gpfail");
	setenv("PATH", old, 1);
	free(old);
	old = fake_gnuplot("exit 0");
	run_c2c(&r, "report", csv, "-o", out, NULL);
	setenv("PATH", old, 1);
	free(old);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "gnuplot did not draw"));
	assert_false(file_exists(out));
	no_temp_left("gpfail");
}

/* gnuplot exiting 0 with a PNG cut short (a full disk): the PNG is checked whole (its IEND chunk),
 * so report exits 1 and leaves nothing. */
static void gnuplot_truncated_png(void **state)
{
	(void)state;
	struct cmd_result r;
	char out[600], real[600] = "", body[1400];
	sh_capture(real, sizeof(real), "command -v gnuplot");
	real[strcspn(real, "\n")] = 0;
	assert_true(real[0] == '/');
	snprintf(out, sizeof(out), "%s/gpcut", test_dir);
	snprintf(body, sizeof(body),
		 "'%s' \"$@\" || exit 1\nfor f in *.png; do head -c 300 \"$f\" > cut.tmp; "
		 "mv cut.tmp \"$f\"; done\nexit 0",
		 real);
	char *old = fake_gnuplot(body);
	run_c2c(&r, "report", csv, "-o", out, NULL);
	setenv("PATH", old, 1);
	free(old);
	assert_int_equal(r.status, 1);
	assert_int_equal(count_lines(r.err), 1);
	assert_non_null(strstr(r.err, "is not a whole PNG"));
	assert_false(file_exists(out));
	no_temp_left("gpcut");
}

/* A write that fails (a file-size limit, as in a nearly full directory): exit 1, one line naming
 * the file, no report and no temporary directory. */
static void write_failure(void **state)
{
	(void)state;
	struct cmd_result r;
	char out[600];
	struct rlimit old, lim;
	snprintf(out, sizeof(out), "%s/full", test_dir);
	getrlimit(RLIMIT_FSIZE, &old);
	lim = old;
	lim.rlim_cur = 1500;
	signal(SIGXFSZ, SIG_IGN); /* inherited: the write fails with EFBIG instead of killing */
	setrlimit(RLIMIT_FSIZE, &lim);
	run_c2c(&r, "report", csv, "-o", out, NULL);
	setrlimit(RLIMIT_FSIZE, &old);
	signal(SIGXFSZ, SIG_DFL);
	assert_int_equal(r.status, 1);
	assert_int_equal(count_lines(r.err), 1);
	assert_non_null(strstr(r.err, "cannot write"));
	assert_non_null(strstr(r.err, out));
	assert_non_null(strstr(r.err, "File too large"));
	assert_false(file_exists(out));
	no_temp_left("full");
}

static int setup(void **state)
{
	(void)state;
	test_dir_setup(NULL);
	snprintf(csv, sizeof(csv), "%s/hostile.csv", test_dir);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hostile_inputs),  cmocka_unit_test(out_dir_rules),
		cmocka_unit_test(gnuplot_failure), cmocka_unit_test(gnuplot_truncated_png),
		cmocka_unit_test(write_failure),
	};
	return cmocka_run_group_tests(tests, setup, test_dir_teardown);
}
