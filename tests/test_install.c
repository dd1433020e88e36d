/* make install: into a temporary DESTDIR, and into a real PREFIX with the binary then copied away;
 * run from another directory, the installed binary finds its presets, man -l renders the page, and
 * the bash and zsh completions complete from the installed binary. The tree was built before (make
 * test builds it with the default PREFIX), which is the case the generated prefix header is for. A
 * built tree is up to date for make, and a changed header rebuilds only what includes it. */
#include "tests/testutil.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int setup(void **s)
{
	(void)s;
	test_dir_setup(NULL);
	return 0;
}

/* Run a shell command (cwd: the repository) keeping stdout and stderr; returns its exit status. */
static int sh(char *out, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int sh(char *out, size_t n, const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	strncat(cmd, " 2>&1", sizeof(cmd) - strlen(cmd) - 1);
	return sh_capture(out, n, cmd);
}

/* The installed zsh completion in a real interactive zsh (tests/zsh/complete.zsh drives it through
 * zpty with compinit): the benches after `run`, the option after `--lay`, its choices after it. */
static void zsh_completes(char *out, size_t n, const char *repo)
{
	char benches[1024], want[2048];
	if (sh(out, n, "command -v zsh")) {
		fprintf(stderr,
			"test_install: zsh completion not tested: no zsh here (scripts/deps.sh "
			"installs it)\n");
		return;
	}
	int st = sh(out, n,
		    "cd / && PATH=%s/dest/opt/c2c/bin:/usr/bin:/bin zsh -f "
		    "%s/tests/zsh/complete.zsh %s/dest/opt/c2c/share/zsh/site-functions "
		    "'c2cbench run ' 'c2cbench run pending-bit --lay' 'c2cbench run pending-bit "
		    "--layout p' 'c2cbench run pingpong --dur'",
		    test_dir, repo, test_dir);
	if (st == 3) {
		fprintf(stderr, "test_install: zsh completion not tested: %s", out);
		return;
	}
	char *got = strdup(out);
	assert_int_equal(sh(benches, sizeof(benches),
			    "%s/dest/opt/c2c/bin/c2cbench list | awk '/^bench /{print $2}'",
			    test_dir),
			 0);
	assert_non_null(strstr(benches, "pending-bit\n"));
	snprintf(want, sizeof(want),
		 "== c2cbench run \n%s== c2cbench run pending-bit --lay\n--layout\n== c2cbench run "
		 "pending-bit --layout p\npadded\n"
		 "== c2cbench run pingpong --dur\n",
		 benches); /* pingpong takes no --duration: nothing */
	if (st || strcmp(got, want))
		fail_msg("zsh completion (status %d) offered:\n%s\nwanted:\n%s", st, got, want);
	free(got);
}

static void installed_binary_finds_presets_and_man_page(void **s)
{
	(void)s;
	if (getenv("C2C_UNDER_QEMU")) { /* the installed aarch64 binary runs only through qemu, not
					   from PATH */
		fprintf(stderr,
			"test_install: skipped under qemu-user: the install is tested on the "
			"native build\n");
		skip();
	}
	char *out = malloc(1 << 16), repo[PATH_MAX];
	assert_non_null(getcwd(repo, sizeof(repo)));
	/* DESTDIR staging, as a package build does */
	if (sh(out, 1 << 16, "make -s --no-print-directory install DESTDIR=%s/dest PREFIX=/opt/c2c",
	       test_dir))
		fail_msg("make install DESTDIR failed:\n%s", out);
	assert_int_equal(sh(out, 1 << 16,
			    "cd / && %s/dest/opt/c2c/bin/c2cbench preset quick --dry-run",
			    test_dir),
			 0);
	assert_non_null(strstr(out, "preset quick ("));
	assert_non_null(strstr(
		out,
		"/dest/opt/c2c/bin/../share/c2cbench/presets/quick.ini")); /* beside the binary */
	assert_int_equal(sh(out, 1 << 16,
			    "cd / && MANWIDTH=100 man -l %s/dest/opt/c2c/share/man/man1/c2cbench.1",
			    test_dir),
			 0);
	assert_non_null(strstr(out, "HARNESS OPTIONS"));
	assert_non_null(strstr(out, "--out FILE|-"));
	assert_non_null(strstr(out, "EXIT STATUS"));
	assert_int_equal(
		sh(out, 1 << 16, "cd / && %s/dest/opt/c2c/bin/c2cbench preset --help", test_dir),
		0);
	/* PREFIX reached preset.o, built before: a directory of the search, a line each */
	assert_non_null(strstr(out, "\n  /opt/c2c/share/c2cbench/presets\n"));
	/* the bash completion, from the installed binary */
	assert_int_equal(sh(out, 1 << 16,
			    "cd / && PATH=%s/dest/opt/c2c/bin:/usr/bin:/bin bash -c 'source "
			    "%s/dest/opt/c2c/share/bash-completion/completions/c2cbench; "
			    "COMP_WORDS=(c2cbench run pending-bit --lay); COMP_CWORD=3; _c2cbench; "
			    "echo \"[${COMPREPLY[*]}]\"; "
			    "COMP_WORDS=(c2cbench run pingpong --dur); COMP_CWORD=3; _c2cbench; "
			    "echo \"[${COMPREPLY[*]}]\"; "
			    "COMP_WORDS=(c2cbench run pending-bit --layout p); COMP_CWORD=4; "
			    "_c2cbench; echo \"[${COMPREPLY[*]}]\"'",
			    test_dir, test_dir),
			 0);
	if (!strstr(out, "[--layout]\n[]\n[padded]\n"))
		fail_msg("completion: %s", out);
	zsh_completes(out, 1 << 16, repo);

	/* a real PREFIX, the binary then copied elsewhere: it finds the presets by the compiled
	 * path */
	if (sh(out, 1 << 16, "make -s --no-print-directory install PREFIX=%s/prefix", test_dir))
		fail_msg("make install PREFIX failed:\n%s", out);
	assert_int_equal(sh(out, 1 << 16,
			    "mkdir -p %s/elsewhere && cp %s/prefix/bin/c2cbench %s/elsewhere/",
			    test_dir, test_dir, test_dir),
			 0);
	assert_int_equal(
		sh(out, 1 << 16, "cd / && %s/elsewhere/c2cbench preset quick --dry-run", test_dir),
		0);
	char want[PATH_MAX + 64];
	snprintf(want, sizeof(want), "(%s/prefix/share/c2cbench/presets/quick.ini)", test_dir);
	if (!strstr(out, want))
		fail_msg("the copied binary did not find %s:\n%s", want, out);
	/* back to the default PREFIX for the rest of the suite's binary */
	assert_int_equal(sh(out, 1 << 16, "make -s --no-print-directory all"), 0);
	free(out);
}

/* A second make runs nothing (the revision reaches context.o through a header that changes only
 * with it); a newer layouts/layout.h rebuilds the layouts, never the engine (which may not include
 * it). */
static void make_rebuilds_only_what_changed(void **s)
{
	(void)s;
	if (getenv("C2C_UNDER_QEMU")) {
		fprintf(
		    stderr,
		    "test_install: skipped under qemu-user: make is tested on the native build\n");
		skip();
	}
	char *out = malloc(1 << 16);
	if (sh(out, 1 << 16, "make -s --no-print-directory all"))
		fail_msg("make all failed:\n%s", out);
	if (sh(out, 1 << 16, "make -q --no-print-directory all"))
		fail_msg("a second make would rebuild: %s", out);
	assert_int_equal(sh(out, 1 << 16, "make -n --no-print-directory -W layouts/layout.h all"),
			 0);
	if (!strstr(out, "-c layouts/registry.c") || strstr(out, "-c lib/util.c"))
		fail_msg("a newer layouts/layout.h rebuilds:\n%.2000s", out);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(installed_binary_finds_presets_and_man_page),
		cmocka_unit_test(make_rebuilds_only_what_changed),
	};
	return cmocka_run_group_tests(tests, setup, test_dir_teardown);
}
