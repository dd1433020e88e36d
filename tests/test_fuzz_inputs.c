/* The fuzz targets' seed corpora and every regression input, replayed through the same entry points
 * with the normal compiler: CI covers them without clang, and `make asan` checks their memory use.
 */
#include "tests/testutil.h"
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#define LLVMFuzzerTestOneInput fuzz_cli_one
#include "tests/fuzz/fuzz_cli.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_csv_one
#include "tests/fuzz/fuzz_csv.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_preset_one
#include "tests/fuzz/fuzz_preset.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_report_one
#include "tests/fuzz/fuzz_report.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_topo_one
#include "tests/fuzz/fuzz_topo.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_groups_one
#include "tests/fuzz/fuzz_groups.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_slurm_one
#include "tests/fuzz/fuzz_slurm.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_resume_one
#include "tests/fuzz/fuzz_resume.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_desc_one
#include "tests/fuzz/fuzz_desc.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_resultset_one
#include "tests/fuzz/fuzz_resultset.c"
#undef LLVMFuzzerTestOneInput

/* Feed every file in dir to fn; return how many. */
static int replay_dir(const char *dir, int (*fn)(const unsigned char *, size_t))
{
	DIR *d = opendir(dir);
	int n = 0;
	if (!d)
		return 0;
	for (struct dirent *e; (e = readdir(d));) {
		char path[1024];
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		FILE *f = fopen(path, "rb");
		assert_non_null(f);
		static unsigned char buf[1 << 20];
		size_t len = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		unsigned char *copy =
		    malloc(len ? len : 1); /* exactly len bytes, as libFuzzer gives them */
		memcpy(copy, buf, len);
		assert_int_equal(fn(copy, len), 0);
		free(copy);
		n++;
	}
	closedir(d);
	return n;
}

static void replay(const char *target, int (*fn)(const unsigned char *, size_t))
{
	char dir[256];
	snprintf(dir, sizeof(dir), "tests/fuzz/corpus/%s", target);
	int seeds = replay_dir(dir, fn);
	if (seeds < 3)
		fail_msg("%s: %d seed input(s); the corpus should be there", dir, seeds);
	snprintf(dir, sizeof(dir), "tests/fuzz/regressions/%s", target);
	replay_dir(dir, fn);
}

static void cli_inputs(void **s)
{
	(void)s;
	replay("cli", fuzz_cli_one);
	topo_free(&topo);
}

static void csv_inputs(void **s)
{
	(void)s;
	replay("csv", fuzz_csv_one);
}

static void preset_inputs(void **s)
{
	(void)s;
	replay("preset", fuzz_preset_one);
}

static void report_inputs(void **s)
{
	(void)s;
	replay("report", fuzz_report_one);
}

static void topo_inputs(void **s)
{
	(void)s;
	replay("topo", fuzz_topo_one);
}

static void groups_inputs(void **s)
{
	(void)s;
	replay("groups", fuzz_groups_one);
}

static void slurm_inputs(void **s)
{
	(void)s;
	replay("slurm", fuzz_slurm_one);
}

static void resume_inputs(void **s)
{
	(void)s;
	replay("resume", fuzz_resume_one);
}

static void desc_inputs(void **s)
{
	(void)s;
	replay("desc", fuzz_desc_one);
}

static void resultset_inputs(void **s)
{
	(void)s;
	replay("resultset", fuzz_resultset_one);
}

/* Found by fuzz_csv (UBSan): an empty field before any byte was read passed memcpy a NULL source.
 */
static void csv_empty_first_field(void **s)
{
	(void)s;
	struct table t;
	char err[ERRLEN] = "";
	assert_int_equal(table_parse(&t, "x.csv", ",x\n", 3, err), -1);
	assert_non_null(strstr(err, "x.csv:1: column 1 of the header has no name"));
	assert_int_equal(table_parse(&t, "y.csv", "a,b\n,\n", 6, err), 0);
	assert_int_equal(t.nrows, 1);
	assert_string_equal(t.cell[0][0], "");
	assert_string_equal(t.cell[0][1], "");
	table_free(&t);
	assert_int_equal(fuzz_csv_one((const unsigned char *)",x\n", 3), 0);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(cli_inputs),
		cmocka_unit_test(csv_inputs),
		cmocka_unit_test(preset_inputs),
		cmocka_unit_test(report_inputs),
		cmocka_unit_test(topo_inputs),
		cmocka_unit_test(groups_inputs),
		cmocka_unit_test(slurm_inputs),
		cmocka_unit_test(resume_inputs),
		cmocka_unit_test(desc_inputs),
		cmocka_unit_test(resultset_inputs),
		cmocka_unit_test(csv_empty_first_field),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
