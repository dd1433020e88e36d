/* The tree's layering holds: each file includes only the folders its own folder may use
 * (docs/hacking.md, "The tree"), and every include names its folder. */
#include "tests/testutil.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Which include prefixes a source folder may use; "benches/" means its own bench folder only. */
struct rule {
	const char *dir;
	const char *const allowed[10];
};

static const struct rule rules[] = {
    {"lib/", {"lib/", NULL}},
    {"stats/", {"lib/", "stats/", NULL}},
    {"schema/", {"lib/", "stats/", "schema/", NULL}},
    {"harness/", {"lib/", "stats/", "schema/", "harness/", NULL}},
    {"layouts/", {"lib/", "harness/", "layouts/", NULL}},
    {"benches/", {"lib/", "stats/", "schema/", "harness/", "layouts/", "benches/", NULL}},
    {"analysis/", {"lib/", "stats/", "schema/", "analysis/", NULL}},
    {"runner/", {"lib/", "schema/", "harness/", "runner/", NULL}},
    {"import/", {"lib/", "stats/", "schema/", "harness/", "import/", NULL}},
    {"cli/", {"lib/", "stats/", "schema/", "harness/", "layouts/", "analysis/", "runner/",
	     "import/", "cli/", NULL}},
};

static char violations[8192];
static size_t vlen;
static int files_seen;

/* The rule for a path, or NULL for folders outside the layering (tests/, scripts/). */
static const struct rule *rule_for(const char *path)
{
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (!strncmp(path, rules[i].dir, strlen(rules[i].dir)))
			return &rules[i];
	return NULL;
}

/* A bench may include its own folder only: benches/NAME/ of the including file. */
static int same_bench(const char *path, const char *inc)
{
	const char *slash = strchr(path + strlen("benches/"), '/');
	size_t n = slash ? (size_t)(slash - path) + 1 : strlen(path);
	return !strncmp(path, inc, n);
}

static int allowed(const struct rule *r, const char *path, const char *inc)
{
	for (int i = 0; r->allowed[i]; i++) {
		size_t n = strlen(r->allowed[i]);
		if (strncmp(inc, r->allowed[i], n))
			continue;
		if (!strcmp(r->allowed[i], "benches/") && !same_bench(path, inc))
			return 0;
		return 1;
	}
	return 0;
}

static void note(const char *path, const char *inc, const char *why)
{
	if (vlen < sizeof(violations) - 256)
		vlen += (size_t)snprintf(violations + vlen, sizeof(violations) - vlen,
					 "%s: #include \"%s\" (%s)\n", path, inc, why);
}

/* Check every quoted include of one file against its folder's rule. */
static void check_file(const char *path)
{
	const struct rule *r = rule_for(path);
	FILE *f = fopen(path, "r");
	if (!r || !f) {
		if (f)
			fclose(f);
		return;
	}
	files_seen++;
	char line[1024];
	while (fgets(line, sizeof(line), f)) {
		char inc[512];
		if (sscanf(line, " #include \"%511[^\"]\"", inc) != 1)
			continue;
		if (!strchr(inc, '/'))
			note(path, inc, "an include names its folder");
		else if (!allowed(r, path, inc))
			note(path, inc, "this folder may not include that one");
	}
	fclose(f);
}

static void walk(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char p[1024];
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		size_t n = strlen(p);
		if (e->d_type == DT_DIR)
			walk(p);
		else if (n > 2 && (!strcmp(p + n - 2, ".c") || !strcmp(p + n - 2, ".h")))
			check_file(p);
	}
	closedir(d);
}

static void every_include_respects_the_layers(void **s)
{
	(void)s;
	vlen = 0;
	files_seen = 0;
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		char d[64];
		snprintf(d, sizeof(d), "%.*s", (int)strlen(rules[i].dir) - 1, rules[i].dir);
		walk(d);
	}
	assert_true(files_seen > 40); /* run from the repository root, where the sources are */
	if (vlen)
		fail_msg("layering violations:\n%s", violations);
}

/* The checker itself catches what it must: a bench reaching into analysis/, another bench, no
 * folder. */
static void the_rules_refuse_what_they_must(void **s)
{
	(void)s;
	const struct rule *b = rule_for("benches/refill/refill.c");
	assert_non_null(b);
	assert_false(allowed(b, "benches/refill/refill.c", "analysis/groups.h"));
	assert_false(allowed(b, "benches/refill/refill.c", "benches/shepherd/run.h"));
	assert_true(allowed(b, "benches/refill/refill.c", "benches/refill/pcpu_reserve.h"));
	assert_true(allowed(b, "benches/refill/refill.c", "harness/bench.h"));
	assert_false(allowed(rule_for("analysis/report.c"), "analysis/report.c",
			     "benches/pingpong/pairs.h"));
	assert_false(allowed(rule_for("harness/driver.c"), "harness/driver.c", "cli/commands.h"));
	assert_null(rule_for("tests/test_cli.c"));
	/* the library and the statistics know no engine */
	assert_false(allowed(rule_for("lib/util.c"), "lib/util.c", "harness/bench.h"));
	assert_false(
	    allowed(rule_for("stats/twosample.c"), "stats/twosample.c", "harness/bench.h"));
	assert_true(allowed(rule_for("stats/twosample.c"), "stats/twosample.c", "lib/util.h"));
	/* the runner reads kept CSVs through the one reader, in lib/, never through analysis/ */
	assert_true(allowed(rule_for("runner/preset_config.c"), "runner/preset_config.c",
			    "lib/csvread.h"));
	assert_false(allowed(rule_for("runner/preset_config.c"), "runner/preset_config.c",
			     "analysis/groups.h"));
	/* the result files' format knows no engine; analysis reads files, never the registry */
	assert_false(allowed(rule_for("schema/desc.c"), "schema/desc.c", "harness/bench.h"));
	assert_false(
	    allowed(rule_for("analysis/groups.c"), "analysis/groups.c", "harness/bench.h"));
	assert_true(allowed(rule_for("analysis/groups.c"), "analysis/groups.c", "schema/desc.h"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_include_respects_the_layers),
		cmocka_unit_test(the_rules_refuse_what_they_must),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
