#include "tests/system/zoo_rows.h"
#include "tests/testutil.h"
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void zoo_check_dir(char *dir, size_t n, const char *check)
{
	struct stat st;
	snprintf(dir, n, "%s/%s", zoo_dir, check);
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		print_message("this guest does not run the %s check\n", check);
		skip();
	}
}

void zoo_table(struct table *t, const char *dir, const char *name)
{
	char path[4096], err[512];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (table_read(t, path, err)) {
		print_message("%s\n", err);
		fail();
	}
}

double zoo_cell_num(const struct table *t, long row, const char *col)
{
	const char *v = table_get(t, row, col);
	char *end = NULL;
	if (!v)
		print_message("%s: no column %s\n", t->path, col);
	assert_non_null(v);
	double d = strtod(v, &end);
	if (end == v || *end)
		print_message("%s row %ld: %s is '%s', not a number\n", t->path, row + 1, col, v);
	assert_true(end != v && !*end);
	return d;
}

long zoo_cell_int(const struct table *t, long row, const char *col)
{
	return (long)zoo_cell_num(t, row, col);
}

void zoo_ran(const char *dir, const char *name)
{
	char f[128];
	snprintf(f, sizeof(f), "%s.rc", name);
	int rc = zoo_int(dir, f);
	if (rc == 4) { /* rows written, none valid: TCG's timings can break a rule LENIENT keeps */
		print_message(
		    "%s: exit 4 (no valid repetition under emulation); its rows are judged\n",
		    name);
		return;
	}
	if (rc != 0) {
		snprintf(f, sizeof(f), "%s.err", name);
		char *err = zoo_file(dir, f);
		print_message("%s: exit %d: %s\n", name, rc, err ? err : "(no stderr)");
		free(err);
	}
	assert_int_equal(rc, 0);
}
