/* Write-then-rename (lib/replace.h): the old file or the whole new one, under a temporary of
 * its own name; REPLACE_NEW keeps a file that is already there; nothing is left behind. */
#include "tests/testutil.h"
#include "lib/replace.h"
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The number of entries in test_dir (not . and ..). */
static int entries(void)
{
	DIR *d = opendir(test_dir);
	int n = 0;
	assert_non_null(d);
	for (struct dirent *e; (e = readdir(d));)
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void replaces_whole_and_keeps_the_users_files(void **s)
{
	(void)s;
	char path[600], user_tmp[620];
	snprintf(path, sizeof(path), "%s/a.meta", test_dir);
	snprintf(user_tmp, sizeof(user_tmp), "%s.tmp", path);
	write_file(path, "old\n");
	write_file(user_tmp, "the user's\n");
	struct replace r;
	FILE *f = replace_open(&r, path);
	assert_non_null(f);
	fputs("new\n", f);
	char *t = slurp(path);
	assert_string_equal(t, "old\n"); /* until the commit, readers see the old file */
	free(t);
	assert_int_equal(entries(), 3);
	assert_int_equal(replace_commit(&r, REPLACE_OVER), 0);
	t = slurp(path);
	assert_string_equal(t, "new\n");
	free(t);
	t = slurp(user_tmp);
	assert_string_equal(t, "the user's\n");
	free(t);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0644);
	assert_int_equal(entries(), 2); /* no temporary left */

	/* REPLACE_NEW: an existing file stays, EEXIST, and the temporary goes */
	f = replace_open(&r, path);
	assert_non_null(f);
	fputs("newer\n", f);
	assert_int_equal(replace_commit(&r, REPLACE_NEW), -1);
	assert_int_equal(errno, EEXIST);
	t = slurp(path);
	assert_string_equal(t, "new\n");
	free(t);
	assert_int_equal(entries(), 2);

	/* abort: nothing written, nothing left */
	f = replace_open(&r, path);
	assert_non_null(f);
	fputs("never\n", f);
	replace_abort(&r);
	t = slurp(path);
	assert_string_equal(t, "new\n");
	free(t);
	assert_int_equal(entries(), 2);
	unlink(path);
	unlink(user_tmp);
}

static void a_missing_directory_is_an_error(void **s)
{
	(void)s;
	char path[600];
	struct replace r;
	snprintf(path, sizeof(path), "%s/no/such/dir/x.csv", test_dir);
	assert_null(replace_open(&r, path));
	assert_int_equal(errno, ENOENT);
	/* a name in the working directory (no slash) gets its temporary there */
	char cwd[4096];
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(test_dir), 0);
	FILE *f = replace_open(&r, "here.txt");
	assert_non_null(f);
	fputs("x", f);
	assert_int_equal(replace_commit(&r, REPLACE_NEW), 0);
	assert_int_equal(chdir(cwd), 0);
	snprintf(path, sizeof(path), "%s/here.txt", test_dir);
	char *t = slurp(path);
	assert_string_equal(t, "x");
	free(t);
	assert_int_equal(entries(), 1);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(replaces_whole_and_keeps_the_users_files),
		cmocka_unit_test(a_missing_directory_is_an_error),
	};
	return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}
