/* Column declarations (harness/columns.h): every bench declares what its rows hold, the names its
 * other declarations use are declared, an undeclared column aborts a checked run, and the
 * declaration goes beside every result set and out of `list --columns`. */
#include "tests/testutil.h"
#include "lib/csvread.h"
#include "harness/bench_columns.h"
#include "schema/meta.h"
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Every registered bench: declared, consistent, and each declared name well formed. */
static void every_bench_declares_its_columns(void **state)
{
	(void)state;
	char err[ERRLEN];
	int n = 0;
	for (int i = 0; bench_at(i); i++, n++)
		if (bench_columns_check(bench_at(i), err))
			fail_msg("%s", err);
	assert_true(n >= 5);
	for (const struct col_decl *c = harness_columns; c->name; c++) {
		assert_true(c->kind >= COL_CONFIG && c->kind <= COL_CONTEXT);
		assert_non_null(c->unit);
		assert_null(strpbrk(c->desc, "\r\n"));
	}
}

/* ROLE stands for the bench's roles only; other placeholders for any name; literal parts match
 * exactly. */
static void placeholders_match(void **state)
{
	(void)state;
	const char *roles = "writer,reader";
	assert_true(col_match("oncpu_ROLE", "oncpu_writer", roles));
	assert_false(col_match("oncpu_ROLE", "oncpu_drainer", roles));
	assert_false(col_match("oncpu_ROLE", "oncpu_", roles));
	assert_true(col_match("ROLE_METRIC_per_kop", "reader_hitm_local_per_kop", roles));
	assert_false(col_match("ROLE_METRIC_per_kop", "reader_per_kop", roles));
	assert_false(col_match("ROLE_METRIC_per_kop", "reader_cycles_per_op", roles));
	assert_true(col_match("METRIC_event", "cycles_event", roles));
	assert_true(col_match("median_ns", "median_ns", roles));
	assert_false(col_match("median_ns", "median_ns2", roles));
	/* the first match wins: the SDE form before the general counter form */
	const struct col_decl *c = col_find(NULL, roles, "writer_sde_x_per_kop");
	assert_non_null(c);
	assert_string_equal(c->name, "ROLE_sde_NAME_per_kop");
	assert_null(col_find(NULL, roles, "no_such_column"));
}

static const struct col_decl scratch_cols[] = {
    {"shape", COL_CONFIG, "text", COL_NOSIDE, "the variant"},
    {"lat_ns", COL_METRIC, "ns", COL_LOWER, "latency"},
    {0},
};
static const char *const bad_summary[] = {"lat_ns", "latency_ns", NULL};
static const struct view_metric up_metrics[] = {{"lat_ns", "latency", "ns", NULL, 1}, {0}};
static const struct bench_view up_views[] = {{.kind = VIEW_BARS, .metrics = up_metrics},
					     {.kind = VIEW_END}};

/* A summary or split naming an undeclared column, a split without its name, or a view drawing a
 * metric the other way up than declared, is refused with a message naming it. */
static void other_declarations_refer_to_declared_names(void **state)
{
	(void)state;
	char err[ERRLEN];
	struct bench b = {.name = "scratch", .variant_col = "shape", .columns = scratch_cols};
	assert_int_equal(bench_columns_check(&b, err), 0);
	b.summary = bad_summary;
	assert_int_equal(bench_columns_check(&b, err), -1);
	assert_non_null(strstr(err, "'latency_ns'"));
	b.summary = NULL;
	b.variant_col = "layout";
	assert_int_equal(bench_columns_check(&b, err), -1);
	assert_non_null(strstr(err, "'layout'"));
	b.variant_col = "shape";
	b.views = up_views;
	assert_int_equal(bench_columns_check(&b, err), -1);
	assert_non_null(strstr(err, "lat_ns"));
	b.views = NULL;
	static const char *const metric_as_config[] = {"lat_ns", NULL};
	b.config = metric_as_config;
	assert_int_equal(bench_columns_check(&b, err), -1);
	assert_non_null(strstr(err, "'lat_ns', declared metric, not configuration"));
	b.config = NULL;
	b.split.cols = "shape,pkg";
	b.split.name = "package";
	assert_int_equal(bench_columns_check(&b, err), -1);
	assert_non_null(strstr(err, "its split.cols names column 'pkg', which it does not"));
	b.split.cols = "shape";
	assert_int_equal(bench_columns_check(&b, err), 0);
	b.split.name = NULL;
	assert_int_equal(bench_columns_check(&b, err), -1);
	assert_non_null(strstr(err, "its split has no name"));
	b.split.cols = "shape,shape,shape,shape,shape,shape,shape,shape,shape";
	b.split.name = "package";
	assert_int_equal(bench_columns_check(&b, err), -1);
	assert_non_null(strstr(err, "its split has more than 8 columns"));
	b.split.cols = NULL;
	assert_int_equal(bench_columns_check(&b, err), -1);
	assert_non_null(strstr(err, "its split has a name but no columns"));
	b.split.name = NULL;
	b.columns = NULL;
	assert_int_equal(bench_columns_check(&b, err), -1);
}

/* The keys compare joins a bench's rows on must not depend on whether the build knows the bench.
 * A build that knows it joins on bench, {variant_col, config...} and harness_config (analysis/
 * groups.c adds bench and harness_config for every bench); one that does not joins on bench, the
 * variant column, every column of the result set's X.columns declared configuration, and
 * harness_config. So the rule: {variant_col, config...} is exactly the configuration columns of
 * the bench's rows less bench and harness_config (duration_requested_s, warmup_requested_s):
 * - every column the bench itself declares configuration (benches/NAME/columns.c);
 * - and the harness's configuration columns its rows hold: placement_requested and
 *   mem_node_requested, which the harness writes for a BENCH_PLACED bench (a bench that writes
 *   one itself and means something else declares it itself: pingpong's placement_requested,
 *   recorded and not joined on, is context).
 * The first half is read from the declarations; the second from a short real run of each bench,
 * its X.columns (the kinds a build without the bench reads). */
static int keyed(const struct bench *b, const char *col)
{
	if (!strcmp(col, b->variant_col))
		return 1;
	for (int i = 0; bench_config(b) && bench_config(b)[i]; i++)
		if (!strcmp(col, bench_config(b)[i]))
			return 1;
	return 0;
}

static int joined_anyway(const char *col)
{
	if (!strcmp(col, "bench"))
		return 1;
	for (int i = 0; harness_config[i]; i++)
		if (!strcmp(col, harness_config[i]))
			return 1;
	return 0;
}

static void own_configuration_is_keyed(void **state)
{
	(void)state;
	for (int i = 0; bench_at(i); i++) {
		const struct bench *b = bench_at(i);
		for (const struct col_decl *c = b->columns; c->name; c++)
			if (c->kind == COL_CONFIG && !joined_anyway(c->name) && !keyed(b, c->name))
				fail_msg("bench %s declares %s configuration, but neither its "
					 "variant_col nor its config lists it",
					 b->name, c->name);
		for (int k = 0; bench_config(b) && bench_config(b)[k]; k++)
			if (joined_anyway(bench_config(b)[k]))
				fail_msg("bench %s: its config lists %s, which compare "
					 "joins on for every bench",
					 b->name, bench_config(b)[k]);
	}
}

/* A short run of any bench (PL: two usable CPUs), from what its declaration takes (short_args),
 * never from a list of benches: a new bench (scripts/scratch-bench.sh) runs the same way. */
static int short_run(const struct bench *b, const char *pl, const char *csv, struct cmd_result *r)
{
	const char *common[] = {"--reps", "1", "--max-attempts", "1", LENIENT, "--quiet", "--out",
				csv};
	const char *argv[32] = {"run", b->name};
	int n = 2;
	if (short_args(b, pl, "0.02", argv, &n))
		return 1; /* needs two CPUs */
	for (size_t k = 0; k < ARRAY_SIZE(common); k++)
		argv[n++] = common[k];
	argv[n] = NULL;
	run_c2cv(r, argv);
	return 0;
}

/* Is col a row of the declaration d, of kind configuration? */
static int written_as_config(const struct table *d, const char *col)
{
	for (long j = 0; j < d->nrows; j++)
		if (!strcmp(csv_cell(d, j, "column"), col))
			return !strcmp(csv_cell(d, j, "kind"), "configuration");
	return 0;
}

static void written_configuration_is_keyed(void **state)
{
	(void)state;
	char *dir = temp_dir(), csv[512], cols[512];
	const char *pl = two_cpus();
	struct cmd_result r;
	for (int i = 0; bench_at(i); i++) {
		const struct bench *b = bench_at(i);
		snprintf(csv, sizeof(csv), "%s/%s.csv", dir, b->name);
		snprintf(cols, sizeof(cols), "%s/%s.columns", dir, b->name);
		if (short_run(b, pl, csv, &r)) {
			print_message("%s not run: it needs two usable CPUs\n", b->name);
			continue;
		}
		if (!RAN(r.status))
			fail_msg("%s: status %d: %s", b->name, r.status, r.err);
		struct table d;
		csv_load(&d, cols);
		for (long k = 0; k < d.nrows; k++) {
			const char *col = csv_cell(&d, k, "column");
			if (!strcmp(csv_cell(&d, k, "kind"), "configuration") &&
			    !joined_anyway(col) && !keyed(b, col))
				fail_msg("bench %s writes %s, declared configuration (%s), but "
					 "neither its variant_col nor its config lists it",
					 b->name, col, csv_cell(&d, k, "declared_as"));
		}
		if (!written_as_config(&d, b->variant_col))
			fail_msg("bench %s: its variant_col %s is not a configuration "
				 "column of its rows",
				 b->name, b->variant_col);
		for (int k = 0; bench_config(b) && bench_config(b)[k]; k++)
			if (!written_as_config(&d, bench_config(b)[k]))
				fail_msg("bench %s: its config lists %s, which its rows do "
					 "not hold as configuration",
					 b->name, bench_config(b)[k]);
		table_free(&d);
	}
	rm_rf(dir);
	free(dir);
}

/* bench_row_check in a child: its exit status or signal, and what it said. */
static int row_check_child(const char *key, const char *check, char *msg, size_t n)
{
	int fd[2];
	assert_int_equal(pipe(fd), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct bench b = {.name = "scratch",
				  .variant_col = "shape",
				  .validity.roles = "worker",
				  .columns = scratch_cols};
		struct row *r = calloc(1, sizeof(*r));
		dup2(fd[1], 2);
		setenv("C2C_CHECK_COLUMNS", check, 1);
		row_set(r, "shape", "x");
		row_set(r, "lat_ns", "1");
		row_set(r, "label", "host");
		row_set(r, "oncpu_worker", "1");
		row_set(r, key, "1");
		bench_row_check(&b, r);
		_exit(0);
	}
	close(fd[1]);
	ssize_t got = read(fd[0], msg, n - 1);
	msg[got > 0 ? got : 0] = 0;
	close(fd[0]);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : WEXITSTATUS(st);
}

/* A row with an undeclared column aborts where the check is on, naming the column and bench. */
static void undeclared_column_aborts(void **state)
{
	(void)state;
	char msg[1024];
	assert_int_equal(row_check_child("latency_ns", "1", msg, sizeof(msg)), 128 + SIGABRT);
	assert_non_null(strstr(msg, "'latency_ns'"));
	assert_non_null(strstr(msg, "bench scratch"));
	assert_int_equal(row_check_child("oncpu_nobody", "1", msg, sizeof(msg)), 128 + SIGABRT);
	if (row_check_child("lat_ns", "1", msg, sizeof(msg)))
		fail_msg("a declared column refused: %s", msg);
#ifndef C2C_DEBUG
	assert_int_equal(row_check_child("latency_ns", "0", msg, sizeof(msg)), 0);
#endif
}

/* A real run writes FILE.columns beside FILE.csv and FILE.meta: one declared line per column of
 * the CSV's header, in its order, read through the one CSV reader. */
static void result_set_carries_its_declaration(void **state)
{
	(void)state;
	char *dir = temp_dir(), csv[512], cols[512], meta[512];
	struct cmd_result r;
	snprintf(csv, sizeof(csv), "%s/rf.csv", dir);
	snprintf(cols, sizeof(cols), "%s/rf.columns", dir);
	snprintf(meta, sizeof(meta), "%s/rf.meta", dir);
	/* a bound worker shares the caller's CPU: any machine */
	run_c2c(&r, "run", "refill", "--worker", "bound", "--attempts", "512", "--max-attempts",
		"1", "--reps", "1", "--warmup", "0.01", LENIENT, "--quiet", "--out", csv, NULL);
	if (!RAN(r.status))
		fail_msg("status %d: %s", r.status, r.err);
	assert_true(file_exists(meta));
	struct table t, d;
	csv_load(&t, csv);
	csv_load(&d, cols);
	assert_int_equal(d.ncols, 6);
	assert_string_equal(d.cols[0], "column");
	assert_int_equal(d.nrows, t.ncols);
	const struct bench *b = bench_find("refill");
	for (long i = 0; i < d.nrows; i++) {
		const char *name = csv_cell(&d, i, "column"), *kind = csv_cell(&d, i, "kind");
		assert_string_equal(name, t.cols[i]);
		const struct col_decl *c = bench_column(b, name);
		if (!c)
			fail_msg("%s is in the CSV but not declared", name);
		assert_string_equal(csv_cell(&d, i, "declared_as"), c->name);
		assert_string_equal(kind, col_kind_name(c->kind));
		assert_string_equal(csv_cell(&d, i, "description"), c->desc);
	}
	assert_string_equal(csv_cell(&d, 0, "column"), "schema_version");
	table_free(&t);
	table_free(&d);
	rm_rf(dir);
	free(dir);
}

/* out, what `list --columns what` printed, has a line for each column of t, its name and kind;
 * returns how many t declares. */
static int lists_every_column(const char *out, const struct col_decl *t, const char *what)
{
	int n = 0;
	for (; t->name; t++, n++) {
		char want[256];
		snprintf(want, sizeof(want), "\n%-32s %-13s", t->name, col_kind_name(t->kind));
		if (!strstr(out, want))
			fail_msg("list --columns %s: no line for %s", what, t->name);
	}
	return n;
}

/* The lines of out that start an entry: a line a long meaning wraps onto starts with a space. */
static int entries(const char *out)
{
	int n = 0;
	for (const char *l = out; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] != 0))
		n += *l != ' ';
	return n;
}

/* `list --columns BENCH` prints every name the bench declares, and none of the harness's unless
 * asked with `harness`; --markdown is a table of the same; a wrong name is one line, status 2. */
static void list_prints_the_declaration(void **state)
{
	(void)state;
	struct cmd_result r;
	for (int i = 0; bench_at(i); i++) {
		const struct bench *b = bench_at(i);
		run_c2c(&r, "list", "--columns", b->name, NULL);
		assert_int_equal(r.status, 0);
		int n = lists_every_column(r.out, b->columns, b->name);
		assert_null(strstr(r.out, "\nna_reason "));
		int sides = 0;
		for (const struct col_side *t = b->sides; t && t->name; t++, sides++) {
			char want[256];
			snprintf(want, sizeof(want), "\nside table %s/%s (X-%s.csv): ", b->name,
				 t->name, t->name);
			if (!strstr(r.out, want))
				fail_msg("list --columns %s: no line for side table %s", b->name,
					 t->name);
		}
		assert_int_equal(entries(r.out), n + 2 + sides);
		run_c2c(&r, "list", "--columns", b->name, "--markdown", NULL);
		assert_int_equal(r.status, 0);
		assert_int_equal(count_lines(r.out), n + 2);
		assert_non_null(strstr(r.out, "| column | kind | unit | better | meaning |\n"));
	}
	run_c2c(&r, "list", "--columns", "harness", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\nna_reason "));
	assert_non_null(strstr(r.out, "\noncpu_ROLE "));
	run_c2c(&r, "list", "--columns", "pendin-bit", NULL);
	assert_int_equal(r.status, 2);
	assert_int_equal(count_lines(r.err), 1);
	assert_non_null(strstr(r.err, "'pendin-bit'"));
	assert_non_null(strstr(r.err, "pending-bit"));
	run_c2c(&r, "list", "--columns", "refill", "--csv", NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "'--csv'"));
	run_c2c(&r, "list", "--columns", "refill/gaps", NULL);
	assert_int_equal(r.status, 2);
	assert_int_equal(count_lines(r.err), 1);
	assert_non_null(strstr(r.err, "'refill/gaps'"));
}

/* `list --columns BENCH/TABLE` prints a side table's own declaration, every name of it, and a side
 * table the bench does not write is one line naming those it does, status 2. */
static void list_prints_side_tables(void **state)
{
	(void)state;
	struct cmd_result r;
	int seen = 0;
	for (int i = 0; bench_at(i); i++)
		for (const struct col_side *t = bench_at(i)->sides; t && t->name; t++, seen++) {
			char name[128];
			snprintf(name, sizeof(name), "%s/%s", bench_at(i)->name, t->name);
			run_c2c(&r, "list", "--columns", name, NULL);
			assert_int_equal(r.status, 0);
			assert_int_equal(entries(r.out),
					 lists_every_column(r.out, t->columns, name) + 2);
			char bad[160];
			snprintf(bad, sizeof(bad), "%sx", name);
			run_c2c(&r, "list", "--columns", bad, NULL);
			assert_int_equal(r.status, 2);
			assert_int_equal(count_lines(r.err), 1);
			assert_non_null(strstr(r.err, name));
		}
	assert_true(seen >= 1); /* shepherd's gap histograms */
}

/* The generated table between the markers of file path is `list --columns name --markdown`: the
 * main marker, or for a side table (name BENCH/TABLE) the one that names it. */
static void table_is_declaration(const char *path, const char *name)
{
	const char *said = "generated by scripts/bench-columns.sh from the declaration; do not "
			   "edit -->\n",
		   *end = "<!-- end of columns -->\n";
	char begin[256];
	if (strchr(name, '/'))
		snprintf(begin, sizeof(begin), "<!-- columns %s: %s", name, said);
	else
		snprintf(begin, sizeof(begin), "<!-- columns: %s", said);
	struct cmd_result r;
	char *text = slurp(path);
	if (!text)
		fail_msg("%s: cannot read it", path);
	char *from = strstr(text, begin), *to = from ? strstr(from, end) : NULL;
	if (!to)
		fail_msg("%s: no generated column table for %s (scripts/bench-columns.sh)", path,
			 name);
	from += strlen(begin);
	*to = 0;
	run_c2c(&r, "list", "--columns", name, "--markdown", NULL);
	assert_int_equal(r.status, 0);
	if (strcmp(from, r.out))
		fail_msg("%s: its column table is not %s's declaration; run "
			 "scripts/bench-columns.sh ./c2cbench",
			 path, name);
	free(text);
}

/* Each bench README's column table is its declaration, and results/README.md's the harness's
 * (scripts/bench-columns.sh writes them): a column added to a declaration and not to the README,
 * or the other way, fails here. */
static void readme_tables_are_the_declarations(void **state)
{
	(void)state;
	for (int i = 0; bench_at(i); i++) {
		char path[256];
		snprintf(path, sizeof(path), "benches/%s/README.md", bench_at(i)->name);
		table_is_declaration(path, bench_at(i)->name);
		for (const struct col_side *t = bench_at(i)->sides; t && t->name; t++) {
			char name[128];
			snprintf(name, sizeof(name), "%s/%s", bench_at(i)->name, t->name);
			table_is_declaration(path, name);
		}
	}
	table_is_declaration("results/README.md", "harness");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(every_bench_declares_its_columns),
	    cmocka_unit_test(list_prints_side_tables),
	    cmocka_unit_test(placeholders_match),
	    cmocka_unit_test(other_declarations_refer_to_declared_names),
	    cmocka_unit_test(own_configuration_is_keyed),
	    cmocka_unit_test(written_configuration_is_keyed),
	    cmocka_unit_test(undeclared_column_aborts),
	    cmocka_unit_test(result_set_carries_its_declaration),
	    cmocka_unit_test(list_prints_the_declaration),
	    cmocka_unit_test(readme_tables_are_the_declarations),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
