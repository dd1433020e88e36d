/* Labels (--label on run and preset): strict characters, the default from the host name, and the
 * label in every row, the .meta, metadata.txt and the run directory's name. */
#include "tests/testutil.h"
#include "lib/csvread.h"
#include "schema/label.h"
#include "lib/util.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void label_characters(void **state)
{
	(void)state;
	char err[ERRLEN], long_ok[LABEL_MAX + 1], too_long[LABEL_MAX + 2];
	const char *good[] = { "xeon-a", "epyc.7763", "A_1", "9", NULL };
	const char *bad[] = { "",    "-x",  ".hidden", "_x",   "a b", "a/b", "a;b",
			      "a,b", "<b>", "a\"b",    "a\nb", "é",   NULL };
	for (int i = 0; good[i]; i++)
		if (label_check("--label", good[i], err))
			fail_msg("'%s' refused: %s", good[i], err);
	for (int i = 0; bad[i]; i++) {
		if (!label_check("--label", bad[i], err))
			fail_msg("'%s' accepted", bad[i]);
		int first = bad[i][0] == '-' || bad[i][0] == '.' || bad[i][0] == '_';
		assert_non_null(strstr(err, first ? "accepted: a letter or digit first"
						  : "accepted: 1-64 letters, digits, . _ -"));
		assert_null(strchr(err, '\n'));
	}
	memset(long_ok, 'a', LABEL_MAX);
	long_ok[LABEL_MAX] = 0;
	assert_int_equal(label_check("--label", long_ok, err), 0);
	memset(too_long, 'a', LABEL_MAX + 1);
	too_long[LABEL_MAX + 1] = 0;
	assert_int_equal(label_check("--label", too_long, err), -1);
}

static void label_default_from_host(void **state)
{
	(void)state;
	char out[LABEL_MAX + 1], err[ERRLEN];
	label_from_host("node01.cluster", out, sizeof(out));
	assert_string_equal(out, "node01.cluster");
	label_from_host("my host;x", out, sizeof(out));
	assert_string_equal(out, "my-host-x");
	label_from_host("-odd", out, sizeof(out));
	assert_string_equal(out, "h-odd");
	label_from_host("", out, sizeof(out));
	assert_string_equal(out, "unknown");
	char big[200];
	memset(big, 'b', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	label_from_host(big, out, sizeof(out));
	assert_int_equal(strlen(out), LABEL_MAX);
	assert_int_equal(label_check("label", out, err), 0); /* a default is always a valid label */
}

/* Every row of the CSV at path has label == want; return the row count. */
static long rows_labelled(const char *path, const char *want)
{
	struct table t;
	char err[ERRLEN];
	if (table_read(&t, path, err))
		fail_msg("%s", err);
	assert_true(table_col(&t, "label") >= 0);
	for (long r = 0; r < t.nrows; r++)
		assert_string_equal(table_get(&t, r, "label"), want);
	long n = t.nrows;
	table_free(&t);
	return n;
}

static void run_records_label(void **state)
{
	(void)state;
	struct cmd_result r;
	char csv[600], meta[600], bad[600];
	snprintf(csv, sizeof(csv), "%s/run.csv", test_dir);
	run_c2c(&r, "run", "pending-bit", "--label", "xeon-a", "--layout", "shared,padded",
		"--duration", "0.02", "--warmup", "0.01", "--max-attempts", "1", "--reps", "1",
		"--quiet", LENIENT, "--out", csv, NULL);
	if (r.status &&
	    r.status != 4) /* 4: a loaded machine measured nothing; the label is checked */
		fail_msg("%s", r.err);
	assert_int_equal(rows_labelled(csv, "xeon-a"), 2);
	snprintf(meta, sizeof(meta), "%s/run.meta", test_dir);
	char *m = slurp(meta);
	assert_non_null(strstr(m, "\nlabel = xeon-a\n"));
	free(m);
	/* refused before anything runs: one line, exit 2, no file */
	snprintf(bad, sizeof(bad), "%s/bad.csv", test_dir);
	run_c2c(&r, "run", "pending-bit", "--label", "two words", "--out", bad, NULL);
	assert_int_equal(r.status, 2);
	assert_int_equal(count_lines(r.err), 1);
	assert_non_null(strstr(r.err, "--label 'two words' is not accepted"));
	assert_false(file_exists(bad));
}

static const char *tiny =
	"[defaults]\nduration = 0.02\nwarmup = 0.01\nreps = 1\nmax-attempts = 1\n" /* one row per
										      repetition */
	"[a]\nbench = pending-bit\nlayout = shared\n";

static char *write_file(const char *name, const char *text)
{
	static char path[600];
	snprintf(path, sizeof(path), "%s/%s", test_dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

static void preset_records_label(void **state)
{
	(void)state;
	struct cmd_result r;
	char ini[600], res[600], f[1400];
	snprintf(ini, sizeof(ini), "%s", write_file("tiny.ini", tiny));
	snprintf(res, sizeof(res), "%s/results", test_dir);
	run_c2c(&r, "preset", ini, "--label", "node-7", "--results", res, NULL);
	if (r.status &&
	    r.status != 4) /* 4: a loaded machine measured nothing; the label is checked */
		fail_msg("%s", r.err);
	DIR *d = opendir(res);
	assert_non_null(d);
	char name[300] = "";
	for (struct dirent *e; (e = readdir(d));)
		if (e->d_name[0] != '.')
			snprintf(name, sizeof(name), "%s", e->d_name);
	closedir(d);
	assert_true(!strncmp(name, "node-7-", 7)); /* the directory is named by the label */
	snprintf(f, sizeof(f), "%s/%s/01-a.csv", res, name);
	assert_int_equal(rows_labelled(f, "node-7"), 1);
	snprintf(f, sizeof(f), "%s/%s/metadata.txt", res, name);
	char *m = slurp(f);
	assert_non_null(strstr(m, "\n[machine]\nlabel = node-7\nhost = "));
	free(m);
	run_c2c(&r, "preset", ini, "--label", "a/b", "--results", res, NULL);
	assert_int_equal(r.status, 2);
	assert_int_equal(count_lines(r.err), 1);
	assert_non_null(strstr(r.err, "--label 'a/b' is not accepted"));
	/* a preset cannot set the label: the invocation names the machine */
	run_c2c(&r, "preset", write_file("lab.ini", "[a]\nbench = pending-bit\nlabel = x\n"),
		"--dry-run", NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "'label' cannot be set in a preset"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(label_characters),
		cmocka_unit_test(label_default_from_host),
		cmocka_unit_test(run_records_label),
		cmocka_unit_test(preset_records_label),
	};
	return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}
