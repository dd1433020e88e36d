/* The tree's layering holds: each file includes only the folders its own folder may use
 * (docs/hacking.md, "The tree"), and every include names its folder. */
#include "tests/testutil.h"
#include <dirent.h>
#include <ctype.h>
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
    {"layouts/", {"lib/", "layouts/", NULL}},
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

/* The result-set reader's own headers: only its files (analysis/groups*.c) include them; the rest
 * of the program reads result sets through analysis/resultset.h. */
static int reader_internal(const char *path, const char *inc)
{
	static const char *const own[] = { "analysis/groups_int.h", "analysis/groups_decl.h",
					   "analysis/groups_schema.h", NULL };
	int is_own = 0;
	for (int i = 0; own[i]; i++)
		is_own |= !strcmp(inc, own[i]);
	return is_own && strncmp(path, "analysis/groups", strlen("analysis/groups"));
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
		else if (reader_internal(path, inc))
			note(path, inc, "the reader's own header: include analysis/resultset.h");
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
	assert_false(allowed(b, "benches/refill/refill.c", "analysis/resultset.h"));
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
			     "analysis/resultset.h"));
	/* the result files' format knows no engine; analysis reads files, never the registry */
	assert_false(allowed(rule_for("schema/desc.c"), "schema/desc.c", "harness/bench.h"));
	assert_false(
	    allowed(rule_for("analysis/groups.c"), "analysis/groups.c", "harness/bench.h"));
	assert_true(allowed(rule_for("analysis/groups.c"), "analysis/groups.c", "schema/desc.h"));
	/* the result-set reader is one header to the rest of the program; its own stay behind it */
	assert_true(reader_internal("analysis/compare.c", "analysis/groups_int.h"));
	assert_true(reader_internal("cli/cmd_report.c", "analysis/groups_schema.h"));
	assert_true(reader_internal("analysis/report_load.c", "analysis/groups_decl.h"));
	assert_false(reader_internal("analysis/groups_read.c", "analysis/groups_schema.h"));
	assert_false(reader_internal("analysis/compare.c", "analysis/resultset.h"));
	/* a layout registers through the generic registry in lib/, and knows no engine */
	assert_true(allowed(rule_for("layouts/x.c"), "layouts/x.c", "lib/registry.h"));
	assert_false(allowed(rule_for("layouts/x.c"), "layouts/x.c", "harness/bench.h"));
}

/* The first header under prefix that path reaches through its quoted includes, followed
 * transitively, as "a.c > b.h > prefix/c.h" in chain; 0 when none does. seen holds the visited. */
static int reaches(const char *path, const char *prefix, char *chain, size_t n, char (*seen)[128],
		   int *nseen)
{
	for (int i = 0; i < *nseen; i++)
		if (!strcmp(seen[i], path))
			return 0;
	if (*nseen < 256)
		snprintf(seen[(*nseen)++], 128, "%s", path);
	char *text = slurp(path), inc[128];
	int found = 0;
	for (const char *p = text ? text : ""; *p && !found;
	     p += strcspn(p, "\n") + (p[strcspn(p, "\n")] != 0)) {
		if (sscanf(p, " #include \"%127[^\"]\"", inc) != 1)
			continue;
		size_t at = strlen(chain);
		snprintf(chain + at, n - at, " > %s", inc);
		found = !strncmp(inc, prefix, strlen(prefix)) ||
			reaches(inc, prefix, chain, n, seen, nseen);
		if (!found)
			chain[at] = 0;
	}
	free(text);
	return found;
}

static int reaches_from(const char *path, const char *prefix, char *chain, size_t n)
{
	char(*seen)[128] = calloc(256, 128);
	int nseen = 0;
	snprintf(chain, n, "%s", path);
	int found = reaches(path, prefix, chain, n, seen, &nseen);
	free(seen);
	return found;
}

/* An analysis command reaches nothing of the engine: compare's and report's front ends parse
 * their options through lib/ (lib/cmdargs.h) and read result sets through analysis/, and no
 * header they include, however deep, is in harness/. */
static void analysis_commands_reach_no_engine_header(void **s)
{
	(void)s;
	char chain[1024];
	/* the check itself: a front end that runs benches reaches the engine through bench.h */
	assert_true(reaches_from("cli/cmd_list.c", "harness/", chain, sizeof(chain)));
	assert_non_null(strstr(chain, "harness/bench.h"));
	const char *const cmds[] = { "cli/cmd_compare.c", "cli/cmd_report.c" };
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		char *text = slurp(cmds[i]);
		assert_non_null(text); /* run from the repository root */
		assert_non_null(strstr(text, "#include \"lib/cmdargs.h\""));
		free(text);
		if (reaches_from(cmds[i], "harness/", chain, sizeof(chain)))
			fail_msg("%s reaches the engine: %s", cmds[i], chain);
	}
}

/* What harness/bench.h includes (docs/hacking.md, "Writing a bench"): what a bench uses (the
 * harness's own state in struct bench_ctx is behind pointers). A new include is a decision: the
 * file that needs it includes it instead, or, where every bench uses it, it is added here. */
static const char *const bench_h_includes[] = {
	"harness/columns.h", "harness/evidence.h", "lib/opts.h",
	"harness/placement.h", "harness/row.h", "harness/threads.h", "harness/topo.h",
	"schema/desc.h", "stdint.h", NULL,
};

/* The includes in text not in want, and those of want text lacks, as "+NAME" and "-NAME" words in
 * out ("" when they are the same). */
static const char *includes_differ(const char *text, const char *const *want, char *out,
				   size_t n)
{
	char got[64][128];
	int ngot = 0;
	out[0] = 0;
	for (const char *p = text; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] != 0)) {
		char inc[128];
		if (sscanf(p, " #include %*[\"<]%127[^\">]", inc) != 1 || ngot == 64)
			continue;
		snprintf(got[ngot++], sizeof(got[0]), "%s", inc);
		int known = 0;
		for (int i = 0; want[i]; i++)
			known |= !strcmp(want[i], inc);
		if (!known)
			snprintf(out + strlen(out), n - strlen(out), " +%s", inc);
	}
	for (int i = 0; want[i]; i++) {
		int found = 0;
		for (int j = 0; j < ngot; j++)
			found |= !strcmp(want[i], got[j]);
		if (!found)
			snprintf(out + strlen(out), n - strlen(out), " -%s", want[i]);
	}
	return out;
}

static void bench_h_includes_only_its_list(void **s)
{
	(void)s;
	char out[1024];
	const char *const two[] = { "harness/row.h", "stdint.h", NULL };
	/* the check itself: an include added, one taken away, the same two in another order */
	assert_string_equal(includes_differ("#include \"harness/row.h\"\n#include <stdint.h>\n"
					    "#include \"schema/meta.h\" /* x */\n",
					    two, out, sizeof(out)),
			    " +schema/meta.h");
	assert_string_equal(includes_differ("#include <stdint.h>\n", two, out, sizeof(out)),
			    " -harness/row.h");
	assert_string_equal(
	    includes_differ("#include <stdint.h>\n#include \"harness/row.h\"\n", two, out,
			    sizeof(out)),
	    "");
	char *h = slurp("harness/bench.h");
	assert_non_null(h); /* run from the repository root */
	if (includes_differ(h, bench_h_includes, out, sizeof(out))[0])
		fail_msg("harness/bench.h includes other than its list (+ added, - gone):%s; the "
			 "file that needs a header includes it, or, if every bench uses it, add it "
			 "to bench_h_includes in tests/test_layers.c",
			 out);
	free(h);
}

/* The fields of struct bench in text (harness/bench.h), names space-separated in out: a
 * declaration at the struct's own depth names a function pointer "(*NAME)", a nested struct
 * "} NAME" or plain "TYPE *A, *B". Comments are left out first. Returns their count. */
static int bench_fields(const char *text, char *out, size_t n)
{
	const char *p = strstr(text, "\nstruct bench {");
	int depth = 0, count = 0;
	char decl[512];
	size_t k = 0;
	out[0] = 0;
	for (p = p ? strchr(p + 1, '{') + 1 : ""; *p && depth >= 0; p++) {
		if (p[0] == '/' && p[1] == '*') {
			const char *e = strstr(p + 2, "*/");
			p = e ? e + 1 : p + strlen(p) - 1;
			continue;
		}
		if (*p == '{' || *p == '}')
			depth += *p == '{' ? 1 : -1;
		if (depth < 0)
			break;
		if (k < sizeof(decl) - 1)
			decl[k++] = *p;
		if (*p != ';' || depth)
			continue;
		decl[k] = 0;
		k = 0;
		char *fp = strstr(decl, "(*"), *cl = strrchr(decl, '}'), names[4][64];
		int nn = 0;
		if (cl) /* a nested struct: its own members are not the bench's */
			nn = sscanf(cl, "} %63[A-Za-z0-9_]", names[0]);
		else if (fp)
			nn = sscanf(fp, "(*%63[A-Za-z0-9_]", names[0]);
		else
			for (char *t = strtok(decl, ",;"); t && nn < 4; t = strtok(NULL, ",;")) {
				char *e = t + strlen(t);
				while (e > t && (e[-1] == ' ' || e[-1] == '\n' || e[-1] == '\t'))
					*--e = 0;
				while (e > t && (isalnum((unsigned char)e[-1]) || e[-1] == '_'))
					e--;
				nn += sscanf(e, "%63[A-Za-z0-9_]", names[nn]) == 1;
			}
		for (int i = 0; i < nn; i++, count++)
			snprintf(out + strlen(out), n - strlen(out), "%s%s", *out ? " " : "",
				 names[i]);
	}
	return count;
}

/* The engine's contract stays small and is documented in one place: every field of struct bench
 * has a row in docs/hacking.md's table ("`struct bench`, field by field"), and there are fewer
 * than the 30 it had when that was asked (issue 41). */
static void bench_contract_is_documented(void **s)
{
	(void)s;
	char names[2048];
	/* the reader itself, on a made-up struct of each kind of declaration */
	assert_int_equal(bench_fields("\nstruct bench {\n\tconst char *a, *b; /* x; y */\n"
				      "\tint (*run)(int x, int y);\n\tstruct q {\n\t\tint z;\n"
				      "\t\tint (*w)(void);\n\t} v;\n\tunsigned flags;\n};\n",
				      names, sizeof(names)),
			 5);
	assert_string_equal(names, "a b run v flags");
	char *h = slurp("harness/bench.h"), *doc = slurp("docs/hacking.md");
	assert_non_null(h);
	assert_non_null(doc);
	int n = bench_fields(h, names, sizeof(names));
	const char *t = strstr(doc, "### `struct bench`, field by field");
	assert_non_null(t);
	if (n >= 30 || n < 5)
		fail_msg("struct bench has %d fields (%s): the contract may not grow back to 30", n,
			 names);
	const char *end = strstr(t, "\n## "); /* the next section; "### " is not one */
	for (char *w = strtok(names, " "); w; w = strtok(NULL, " ")) {
		char want[80];
		snprintf(want, sizeof(want), "`%s`", w);
		const char *row = strstr(t, want);
		if (!row || (end && end < row))
			fail_msg("struct bench's field %s has no row in docs/hacking.md's table "
				 "(\"`struct bench`, field by field\"): say what it is and its "
				 "default",
				 w);
	}
	free(h);
	free(doc);
}

/* No two files call each other (docs/hacking.md): from `nm -A` of the objects, a file calls b
 * when it uses a function b defines; a pair that calls both ways is a circle, unless listed here
 * (none today). */
static const char *const circles_allowed[] = { NULL };

struct calls {
	int n;
	char file[400][80];
	unsigned char *edge; /* edge[a * 400 + b]: file a calls file b */
};

static int file_index(struct calls *k, const char *obj, size_t len)
{
	for (int i = 0; i < k->n; i++)
		if (strlen(k->file[i]) == len && !strncmp(k->file[i], obj, len))
			return i;
	assert_true(k->n < 400);
	snprintf(k->file[k->n], sizeof(k->file[0]), "%.*s", (int)len, obj);
	return k->n++;
}

/* The circles in nm -A text ("OBJ: ADDR T name" defines, "OBJ: U name" uses), as "a.o b.o\n"
 * lines in out, the allowed ones left out; the count. */
static int circles(const char *nm, char *out, size_t n)
{
	struct calls *k = calloc(1, sizeof(*k));
	char (*def)[128] = calloc(20000, sizeof(*def)), line[512];
	int *def_file = calloc(20000, sizeof(int)), ndef = 0, found = 0;
	k->edge = calloc(400 * 400, 1);
	out[0] = 0;
	for (int pass = 0; pass < 2; pass++) /* definitions first, then what uses them */
		for (const char *p = nm; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] != 0)) {
			snprintf(line, sizeof(line), "%.*s", (int)strcspn(p, "\n"), p);
			char *colon = strstr(line, ".o:"), type[4], sym[128];
			if (!colon)
				continue;
			int f = file_index(k, line, (size_t)(colon + 2 - line));
			char *rest = colon + 3, addr[40];
			if (sscanf(rest, " U %127s", sym) == 1) {
				for (int d = 0; pass == 1 && d < ndef; d++)
					if (def_file[d] != f && !strcmp(def[d], sym))
						k->edge[f * 400 + def_file[d]] = 1;
			} else if (pass == 0 &&
				   sscanf(rest, "%39s %3s %127s", addr, type, sym) == 3 &&
				   !strcmp(type, "T") && ndef < 20000) {
				snprintf(def[ndef], sizeof(def[0]), "%s", sym);
				def_file[ndef++] = f;
			}
		}
	for (int a = 0; a < k->n; a++)
		for (int b = a + 1; b < k->n; b++) {
			if (!k->edge[a * 400 + b] || !k->edge[b * 400 + a])
				continue;
			char pair[200];
			int allowed = 0;
			snprintf(pair, sizeof(pair), "%s %s", k->file[a], k->file[b]);
			for (int i = 0; circles_allowed[i]; i++)
				allowed |= !!strstr(pair, circles_allowed[i]);
			if (!allowed && strlen(out) + strlen(pair) + 2 < n)
				found++, strcat(strcat(out, pair), "\n");
		}
	free(k->edge);
	free(k);
	free(def);
	free(def_file);
	return found;
}

static char build_dir[512] = "build";

static void no_two_files_call_each_other(void **s)
{
	(void)s;
	char cmd[1024], *nm = malloc(1 << 24), *out = malloc(16384);
	/* the check itself: a circle between two files is found, a one-way call is not */
	assert_int_equal(circles("x/a.o:0000000000000010 T f\nx/a.o:                 U g\n"
				 "x/b.o:0000000000000020 T g\nx/b.o:                 U f\n"
				 "x/c.o:                 U f\n",
				 out, 16384),
			 1);
	assert_string_equal(out, "x/a.o x/b.o\n");
	snprintf(
		cmd, sizeof(cmd),
		"root=$PWD; cd %s && find lib stats schema harness layouts benches analysis runner "
		"import cli -name '*.o' 2>/dev/null | sort | while read -r o; do "
		"[ -e \"$root/${o%%.o}.c\" ] && echo \"$o\"; done | xargs nm -A",
		build_dir); /* an object whose source is gone is left out */
	assert_int_equal(sh_capture(nm, 1 << 24, cmd), 0);
	assert_true(strlen(nm) > 100000); /* the objects are there (run after the build) */
	if (circles(nm, out, 16384))
		fail_msg("files in %s that call each other (move the function to the file it "
			 "belongs in):\n%s",
			 build_dir, out);
	free(nm);
	free(out);
}

int main(int argc, char **argv)
{
	/* the objects beside this test's own folder: build/tests/test_layers -> build */
	const char *t = argc > 0 ? strstr(argv[0], "/tests/test_layers") : NULL;
	if (t)
		snprintf(build_dir, sizeof(build_dir), "%.*s", (int)(t - argv[0]), argv[0]);

	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_include_respects_the_layers),
		cmocka_unit_test(the_rules_refuse_what_they_must),
		cmocka_unit_test(bench_h_includes_only_its_list),
		cmocka_unit_test(analysis_commands_reach_no_engine_header),
		cmocka_unit_test(bench_contract_is_documented),
		cmocka_unit_test(no_two_files_call_each_other),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
