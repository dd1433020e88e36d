/* `preset --resume` keeps a complete CSV only when it was made with the options its run gives now:
 * a CSV of this machine, made after the directory by another command (`c2cbench run ... --out
 * DIR/01-a.csv`), is set aside and measured again, with one warning naming the file, the option
 * and both values (runner/preset_config.c); one the CSV reader (lib/csvread.h) refuses is too. */
#include "tests/testutil.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define LENIENT_INI "valid-oncpu = 0\nvalid-overlap = 0\nvalid-window = 1000\n"
#define RUN_ARGS "--warmup", "0.01", LENIENT

static char ini[512], run[1200], csv[1400], meta[1400];

static int lines_in(const char *path)
{
	char *t = slurp(path);
	int n = t ? count_lines(t) : 0;
	free(t);
	return n;
}

/* Replace the run's CSV and .meta (and side files, never overwritten) with what `c2cbench run
 * pending-bit` makes of args. */
static void foreign(const char *layout, const char *duration, const char *reps,
		    const char *attempts)
{
	struct cmd_result r;
	char side[1420];
	unlink(csv);
	unlink(meta);
	snprintf(side, sizeof(side), "%.*s.columns", (int)strlen(meta) - 5, meta);
	unlink(side);
	snprintf(side, sizeof(side), "%.*s.bench", (int)strlen(meta) - 5, meta);
	unlink(side);
	run_c2c(&r, "run", "pending-bit", "--layout", layout, "--duration", duration, "--reps",
		reps, "--max-attempts", attempts, RUN_ARGS, "--quiet", "--out", csv, NULL);
	if (!RAN(r.status))
		fail_msg("c2cbench run failed: %s", r.err);
}

/* The resume's one warning on run [a], or NULL when it keeps the CSV. */
static const char *resumed(struct cmd_result *r, int dry)
{
	if (dry)
		run_c2c(r, "preset", ini, "--resume", run, "--dry-run", NULL);
	else
		run_c2c(r, "preset", ini, "--resume", run, NULL);
	if (!RAN(r->status))
		fail_msg("resume failed: %s", r->err);
	const char *w = strstr(r->err, "c2cbench: warning: --resume: run [a]: ");
	if (w)
		assert_non_null(strstr(w, "; it runs again (its files go to "));
	return w ? w + strlen("c2cbench: warning: --resume: run [a]: ") : NULL;
}

static void expect(struct cmd_result *r, const char *what)
{
	const char *w = resumed(r, 1);
	if (!w || strncmp(w, what, strlen(what)))
		fail_msg("expected '%s', got: %s", what, r->err);
	assert_non_null(strstr(r->out, "[a] pending-bit")); /* the plan runs it again */
	assert_null(strstr(r->out, "(complete: kept"));
}

static void kept_csv_of_other_options_runs_again(void **state)
{
	(void)state;
	struct cmd_result r;
	char res[600], aside[1500];
	snprintf(ini, sizeof(ini), "%s/cfg.ini", test_dir);
	FILE *f = fopen(ini, "w");
	assert_non_null(f);
	fputs("[a]\nbench = pending-bit\nlayout = shared,aligned\nduration = 0.02\nwarmup = 0.01\n"
	      "reps = 2\nmax-attempts = 1\nvalid-setting = 1000000\nvalid-probe = 1000\n"
	      "valid-steal = 100\nmem-node = writer\n" LENIENT_INI,
	      f);
	fclose(f);
	snprintf(res, sizeof(res), "%s/cfg-res", test_dir);
	run_c2c(&r, "preset", ini, "--results", res, NULL);
	if (!RAN(r.status))
		fail_msg("preset failed: %s", r.err);
	DIR *d = opendir(res);
	assert_non_null(d);
	for (struct dirent *e; (e = readdir(d));)
		if (e->d_name[0] != '.')
			snprintf(run, sizeof(run), "%s/%s", res, e->d_name);
	closedir(d);
	snprintf(csv, sizeof(csv), "%s/01-a.csv", run);
	snprintf(meta, sizeof(meta), "%s/01-a.meta", run);
	/* its own CSV: kept */
	assert_null(resumed(&r, 1));
	char *plan = one_spaced(r.out); /* the plan's lines are broken at 100 columns */
	assert_non_null(strstr(plan, "(complete: kept from the earlier invocation)"));
	free(plan);
	/* the same options, the list in another order: kept */
	foreign("aligned,shared", "0.02", "2", "1");
	assert_null(resumed(&r, 1));
	/* a layout fewer: set aside, never deleted, and measured again */
	foreign("shared", "0.02", "2", "1");
	const char *w = resumed(&r, 0);
	if (!w || strncmp(w,
			  "01-a.csv was made with other options (--layout is 'shared,aligned' in "
			  "the preset, 'shared' in the file)",
			  90))
		fail_msg("a CSV of other layouts was kept: %s", r.err);
	snprintf(aside, sizeof(aside), "%s/interrupted/01-a-1.csv", run);
	assert_int_equal(lines_in(aside), 3);
	assert_int_equal(lines_in(csv), 5); /* 2 layouts x 2 repetitions, made again */
	assert_null(resumed(&r, 1));
	/* each other option, in the rows or the .meta: named with both values */
	foreign("shared,aligned", "0.03", "2", "1");
	expect(&r, "01-a.csv:2 was made with other options (--duration is '0.02' in the preset, "
		   "'0.03' in the file)");
	foreign("shared,aligned", "0.02", "3", "1");
	expect(&r, "01-a.csv was made with other options (--reps is '2' in the preset, 3 "
		   "repetition(s) in the file)");
	foreign("shared,aligned", "0.02", "2", "2");
	expect(&r, "01-a.csv was made with other options (--max-attempts is '1' in the preset, "
		   "'2' in its .meta)");
	/* the file's values are shown escaped: the warning stays one line */
	foreign("shared,aligned", "0.02", "2", "1");
	char cmd[3200];
	snprintf(cmd, sizeof(cmd),
		 "sed -i '2s/^\\([^,]*,pending-bit,\\)[a-z]*,/\\1\"sha\\nred\",/' '%s'", csv);
	assert_int_equal(system(cmd), 0);
	expect(&r, "01-a.csv was made with other options (--layout is 'shared,aligned' in the "
		   "preset, 'sha\\nred,");
	assert_null(strstr(r.err, "\nred"));
	/* --mem-node as given, against mem_node_requested (schema 10): before, writer met the node
	 * it resolved to and was not checked */
	foreign("shared,aligned", "0.02", "2", "1");
	snprintf(cmd, sizeof(cmd),
		 "sed -i '2s/,writer,/,reader,/' '%s' && sed -n 2p '%s' | grep -q ,reader,", csv,
		 csv);
	assert_int_equal(system(cmd), 0);
	expect(&r, "01-a.csv:2 was made with other options (--mem-node is 'writer' in the preset, "
		   "'reader' in the file)");
	/* a row the one CSV reader refuses: not kept, the reader's message names file and line */
	foreign("shared,aligned", "0.02", "2", "1");
	snprintf(cmd, sizeof(cmd), "sed -i '3s/$/,extra/' '%s'", csv);
	assert_int_equal(system(cmd), 0);
	expect(&r, "01-a.csv:3: row has ");
	assert_non_null(strstr(r.err, "field(s) but the header has"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kept_csv_of_other_options_runs_again),
	};
	test_dir_setup(NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
