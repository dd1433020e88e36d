/* Nothing of a user's is overwritten: a run's side files (X.columns, X.bench, a side table's
 * X-NAME.csv and X-NAME.columns) are created only if absent and never through a link; one in the
 * way is refused before anything is measured, in one line, exit 2, and no file of the run is left.
 */
#include "tests/testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Run bench (short) to dir/s.csv with path (in dir) already there as a file or a link to a file
 * of the user's: refused before measuring, the user's files as they were, no file of the run. */
static void refused_with(const char *bench, const char *in_way, int as_link)
{
	struct cmd_result r;
	char *dir = temp_dir(), out[512], way[512], victim[512], want[600];
	snprintf(out, sizeof(out), "%s/s.csv", dir);
	snprintf(way, sizeof(way), "%s/%s", dir, in_way);
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	FILE *f = fopen(as_link ? victim : way, "w");
	assert_non_null(f);
	fputs("the user's\n", f);
	fclose(f);
	if (as_link)
		assert_int_equal(symlink("victim", way), 0);
	if (!strcmp(bench, "shepherd"))
		run_c2c(&r, "run", bench, "--check", "busy", "--duration", "0.05", "--warmup",
			"0.01", "--reps", "1", "--max-attempts", "1", "--out", out, NULL);
	else
		run_c2c(&r, "run", bench, "--layout", "shared", "--duration", "0.05", "--warmup",
			"0.01", "--reps", "1", "--max-attempts", "1", "--out", out, NULL);
	assert_int_equal(r.status, 2);
	assert_int_equal(count_lines(r.err), 1);
	snprintf(want, sizeof(want), "cannot create '%s': it already exists", way);
	if (!strstr(r.err, want))
		fail_msg("no '%s' in: %s", want, r.err);
	assert_null(strstr(r.out, "repetition(s) requested")); /* nothing measured */
	char *text = slurp(as_link ? victim : way);
	assert_string_equal(text, "the user's\n");
	free(text);
	const char *ours[] = { "s.csv", "s.meta", "s.columns", "s.bench", "s-gaps.csv",
			       "s-gaps.columns" };
	for (size_t i = 0; i < sizeof(ours) / sizeof(ours[0]); i++) {
		char p[600];
		snprintf(p, sizeof(p), "%s/%s", dir, ours[i]);
		if (strcmp(ours[i], in_way) && file_exists(p))
			fail_msg("%s left behind", ours[i]);
	}
	rm_rf(dir);
	free(dir);
}

static void columns_kept(void **s)
{
	(void)s;
	refused_with("pending-bit", "s.columns", 0);
	refused_with("pending-bit", "s.columns", 1);
}

static void bench_description_kept(void **s)
{
	(void)s;
	refused_with("pending-bit", "s.bench", 0);
	refused_with("pending-bit", "s.bench", 1);
}

static void side_table_files_kept(void **s)
{
	(void)s;
	refused_with("shepherd", "s-gaps.columns", 0);
	refused_with("shepherd", "s-gaps.csv", 1);
}

/* A dangling or self-looping link is in the way too: nothing is created at its target. */
static void dangling_and_looping_links_refused(void **s)
{
	(void)s;
	struct cmd_result r;
	char *dir = temp_dir(), out[512], way[512], target[512];
	snprintf(out, sizeof(out), "%s/s.csv", dir);
	snprintf(way, sizeof(way), "%s/s.columns", dir);
	snprintf(target, sizeof(target), "%s/nowhere", dir);
	assert_int_equal(symlink("nowhere", way), 0);
	run_c2c(&r, "run", "pending-bit", "--layout", "shared", "--duration", "0.05", "--reps", "1",
		"--out", out, NULL);
	assert_int_equal(r.status, 2);
	assert_false(file_exists(target));
	assert_false(file_exists(out));
	unlink(way);
	snprintf(way, sizeof(way), "%s/s.bench", dir);
	assert_int_equal(symlink("s.bench", way), 0); /* s.bench -> itself */
	run_c2c(&r, "run", "pending-bit", "--layout", "shared", "--duration", "0.05", "--reps", "1",
		"--out", out, NULL);
	assert_int_equal(r.status, 2);
	assert_int_equal(count_lines(r.err), 1);
	assert_false(file_exists(out));
	rm_rf(dir);
	free(dir);
}

/* import's result set likewise: a user's X.columns at the name it picks is refused (exit 2) and
 * kept, and import removes only the files it made. The name has the second in it: the second
 * import, right after the first's files but X.columns are gone, picks the same name (retried
 * when the second ticked over). */
static void import_keeps_a_users_columns(void **s)
{
	(void)s;
	struct cmd_result r;
	char *dir = temp_dir(), csv[600], p[700];
	int hit = 0;
	for (int tries = 0; tries < 5 && !hit; tries++) {
		run_c2c(&r, "import", "core-to-core-latency",
			"tests/data/c2c-latency/epyc-7773x.csv", "--topology", "linux:1x64x2",
			"--out", dir, NULL);
		const char *at = strstr(r.out, "written to ");
		if (r.status || !at || sscanf(at + strlen("written to "), "%599s", csv) != 1)
			fail_msg("import: exit %d: %s%s", r.status, r.out, r.err);
		size_t n = strlen(csv) - strlen(".csv");
		snprintf(p, sizeof(p), "%.*s.columns", (int)n, csv);
		FILE *f = fopen(p, "w"); /* the user's now */
		assert_non_null(f);
		fputs("the user's\n", f);
		fclose(f);
		unlink(csv);
		snprintf(csv + n, sizeof(csv) - n, ".meta");
		unlink(csv);
		snprintf(csv + n, sizeof(csv) - n, ".bench");
		unlink(csv);
		run_c2c(&r, "import", "core-to-core-latency",
			"tests/data/c2c-latency/epyc-7773x.csv", "--topology", "linux:1x64x2",
			"--out", dir, NULL);
		hit = r.status == 2;
		if (!hit && r.status)
			fail_msg("import over a user's .columns: exit %d: %s", r.status, r.err);
		if (hit) {
			assert_int_equal(count_lines(r.err), 1);
			assert_non_null(strstr(r.err, "it already exists"));
			char *text = slurp(p);
			assert_string_equal(text, "the user's\n");
			free(text);
			snprintf(csv + n, sizeof(csv) - n, ".csv");
			assert_false(file_exists(csv));
			snprintf(csv + n, sizeof(csv) - n, ".meta");
			assert_false(file_exists(csv));
		}
		rm_rf(dir);
		assert_int_equal(mkdir(dir, 0755), 0);
	}
	assert_true(hit);
	rm_rf(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(columns_kept),
		cmocka_unit_test(bench_description_kept),
		cmocka_unit_test(side_table_files_kept),
		cmocka_unit_test(dangling_and_looping_links_refused),
		cmocka_unit_test(import_keeps_a_users_columns),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
