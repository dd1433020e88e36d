/* Environment variables are options: each C2C_* variable c2cbench reads is checked at start like
 * its option (one line naming the value and what is accepted, exit 2), a file it names is read
 * only when regular (C2C_EVENTS_TABLE=/dev/zero is refused, never read), and docs/cli.md lists
 * every one in one table. */
#include "tests/testutil.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* With name=value, `c2cbench list` is refused in one line holding want, exit 2; unset after. */
static void refused(const char *name, const char *value, const char *want)
{
	struct cmd_result r;
	setenv(name, value, 1);
	run_c2c(&r, "list", NULL);
	unsetenv(name);
	if (r.status != 2 || count_lines(r.err) != 1 || !strstr(r.err, want))
		fail_msg("%s=%s: exit %d, stderr: %s (wanted '%s')", name, value, r.status, r.err,
			 want);
	assert_non_null(strstr(r.err, name));
	assert_string_equal(r.out, "");
}

static void accepted(const char *name, const char *value)
{
	struct cmd_result r;
	setenv(name, value, 1);
	run_c2c(&r, "list", NULL);
	unsetenv(name);
	if (r.status)
		fail_msg("%s=%s: exit %d: %s", name, value, r.status, r.err);
}

static void timeouts_are_whole_seconds(void **s)
{
	(void)s;
	const char *bad[] = { "abc", "-5", "0", "3601", "", "1.5", "99999999999999999999" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		refused("C2C_PERF_TIMEOUT", bad[i], "accepted: whole seconds from 1 to 3600");
		refused("C2C_SLURM_TIMEOUT", bad[i], "accepted: whole seconds from 1 to 3600");
	}
	accepted("C2C_PERF_TIMEOUT", "1");
	accepted("C2C_PERF_TIMEOUT", "3600");
	accepted("C2C_SLURM_TIMEOUT", "60");
}

static void files_are_of_their_kind(void **s)
{
	(void)s;
	/* a device never ends, a FIFO blocks: refused at start, never read */
	refused("C2C_EVENTS_TABLE", "/dev/zero", "a character device; accepted: a regular file");
	refused("C2C_EVENTS_TABLE", "/nonexistent/table.tsv", "No such file");
	refused("C2C_EVENTS_TABLE", "/", "a directory");
	accepted("C2C_EVENTS_TABLE", "events/platforms.tsv");
	refused("C2C_SYSFS_ROOT", "/dev/null", "accepted: a directory");
	accepted("C2C_SYSFS_ROOT", "/sys");
	refused("C2C_SELF_EXEC", "README.md", "not executable");
	refused("C2C_SELF_EXEC", "/", "a directory");
}

static void flags_and_words(void **s)
{
	(void)s;
	refused("C2C_CHECK_COLUMNS", "yes", "accepted: 1 (on), 0 or empty (off)");
	refused("C2C_PROGRESS_LINES", "2", "accepted: 1 (on), 0 or empty (off)");
	accepted("C2C_PROGRESS_LINES", "0");
	refused("C2C_CPUID", "Intel", "accepted: VENDOR:FAMILY:MODEL");
	accepted("C2C_CPUID", "GenuineIntel:6:207");
	/* recorded in a .meta (INI) or searched as given: a line end would forge a key */
	refused("C2C_SLURM_CONSTRAINT", "xeon\nstatus = complete", "without control characters");
	refused("C2C_PRESET_PATH", "/tmp\x1b]0;x\a", "without control characters");
	/* C1 too: a raw 0x9b is CSI on an 8-bit terminal, U+009B on a UTF-8 one; "µ" is text */
	refused("C2C_SLURM_CONSTRAINT", "xeon\x9b" "2J", "without control characters");
	refused("C2C_PRESET_PATH", "/tmp/\xc2\x9b" "2J", "without control characters");
	accepted("C2C_SLURM_CONSTRAINT", "xeon-\xc2\xb5");
	accepted("C2C_SLURM_CONSTRAINT", "xeon");
}

/* docs/cli.md's table names every variable the sources read: C2C_*, and SLURM_* from Slurm. */
static void one_table_documents_them(void **s)
{
	(void)s;
	char *doc = slurp("docs/cli.md"), read[4096];
	assert_non_null(doc);
	const char *table = strstr(doc, "\n## Environment\n");
	assert_non_null(table);
	assert_int_equal(
		sh_capture(read, sizeof(read),
			   "grep -rhoE '\"(C2C|SLURMD?)_[A-Z_]+\"' lib stats schema harness "
			   "layouts benches analysis runner cli --include=*.c --include=*.h | "
			   "grep -oE '(C2C|SLURMD?)_[A-Z_]+' | sort -u"),
		0);
	assert_true(strlen(read) > 100);
	for (char *save = NULL, *v = strtok_r(read, "\n", &save); v;
	     v = strtok_r(NULL, "\n", &save)) {
		char row[64];
		snprintf(row, sizeof(row), "\n| `%s` |", v);
		if (!strstr(table, row))
			fail_msg("docs/cli.md's environment table lacks %s", v);
	}
	free(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(timeouts_are_whole_seconds),
		cmocka_unit_test(files_are_of_their_kind),
		cmocka_unit_test(flags_and_words),
		cmocka_unit_test(one_table_documents_them),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
