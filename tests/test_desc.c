/* FILE.bench (schema/desc.h): every registered bench's description reads back as it was written,
 * and a hostile description is one line naming its file and line, or a skipped key with a
 * warning, never a crash or a half-read description. */
#include "tests/testutil.h"
#include "harness/bench.h"
#include "harness/bench_desc_out.h"
#include "harness/bench_columns.h"
#include "lib/util.h"
#include "schema/desc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static void same_list(const char *const *a, const char *const *b)
{
	int i = 0;
	for (; a && a[i]; i++) {
		assert_non_null(b);
		assert_string_equal(a[i], b[i]);
	}
	assert_true(!b || !b[i]);
}

static void same_view(const struct bench_view *a, const struct bench_view *b)
{
	assert_int_equal(a->kind, b->kind);
	const char *const sa[] = { a->title, a->variant_prefix, a->implied_cols, a->x_cols,
				   a->x_label, a->row_col, a->col_col, a->facet_col, a->class_col };
	const char *const sb[] = { b->title, b->variant_prefix, b->implied_cols, b->x_cols,
				   b->x_label, b->row_col, b->col_col, b->facet_col, b->class_col };
	for (size_t i = 0; i < sizeof(sa) / sizeof(sa[0]); i++)
		assert_true(same_str(sa[i], sb[i]));
	assert_int_equal(a->x_is_variant, b->x_is_variant);
	assert_int_equal(a->is_baseline, b->is_baseline);
	assert_int_equal(a->with_baseline, b->with_baseline);
	same_list(a->classes, b->classes);
	for (int i = 0; a->marks && a->marks[i]; i++) {
		assert_true(a->marks[i] == b->marks[i]);
		assert_true(same_str(a->mark_labels && a->mark_labels[i] ? a->mark_labels[i] : "",
				     b->mark_labels[i]));
	}
	int i = 0;
	for (; a->metrics[i].col; i++) {
		const struct view_metric *x = &a->metrics[i], *y = &b->metrics[i];
		assert_non_null(y->col);
		assert_true(same_str(x->col, y->col) && same_str(x->label, y->label) &&
			    same_str(x->unit, y->unit) && same_str(x->axis, y->axis));
		assert_int_equal(x->higher_better, y->higher_better);
	}
	assert_null(b->metrics[i].col);
}

/* The seed-note rule both the run summary and compare use: the note stands without a condition
 * or beside "yes"; else the rows' why, or that the rows cannot tell. */
static void the_note_stands_only_beside_yes(void **s)
{
	(void)s;
	char out[300];
	assert_null(desc_note_instead(NULL, "no: anything", out, sizeof(out)));
	assert_null(desc_note_instead("seed_setting", "yes", out, sizeof(out)));
	assert_ptr_equal(desc_note_instead("seed_setting", "no: workers 2 (seed 16)", out,
					   sizeof(out)),
			 out);
	assert_string_equal(out, "the seed's figures are left out, the setting differs: workers 2 "
				 "(seed 16)");
	assert_non_null(desc_note_instead("seed_setting", "", out, sizeof(out)));
	assert_non_null(desc_note_instead("seed_setting", NULL, out, sizeof(out)));
	assert_non_null(strstr(out, "(no seed_setting column)"));
}

static const char *cell(const void *row, const char *col)
{
	const char *const *kv = row; /* NULL-terminated NAME, VALUE pairs */
	for (; *kv; kv += 2)
		if (!strcmp(kv[0], col))
			return kv[1];
	return NULL;
}

/* A row's split attribute (a bench's split_cols): the integer its columns all hold, else -1. */
static void the_split_attribute_is_the_shared_value(void **s)
{
	(void)s;
	const char *same[] = { "1", "1" }, *differ[] = { "0", "1" }, *na[] = { "NA", "NA" };
	const char *gone[] = { "2", NULL }, *text[] = { "x", "x" }, *three[] = { "3", "3", "4" };
	assert_int_equal(desc_split_attr_of(same, 2), 1);
	assert_int_equal(desc_split_attr_of(same, 1), 1);
	assert_int_equal(desc_split_attr_of(differ, 2), -1);
	assert_int_equal(desc_split_attr_of(na, 2), -1);
	assert_int_equal(desc_split_attr_of(gone, 2), -1);
	assert_int_equal(desc_split_attr_of(text, 2), -1);
	assert_int_equal(desc_split_attr_of(three, 2), 3);
	assert_int_equal(desc_split_attr_of(three, 3), -1);
	assert_int_equal(desc_split_attr_of(same, 0), -1);
	const char *const row[] = { "pkg_a", "7", "pkg_b", "7", "pkg_c", "NA", "pkg_d", "6", NULL };
	assert_int_equal(desc_split_attr("pkg_a,pkg_b", cell, row), 7);
	assert_int_equal(desc_split_attr("pkg_b", cell, row), 7);
	assert_int_equal(desc_split_attr("pkg_a,pkg_d", cell, row), -1);
	assert_int_equal(desc_split_attr("pkg_a,pkg_c", cell, row), -1);
	assert_int_equal(desc_split_attr("pkg_a,no_such", cell, row), -1);
	assert_int_equal(desc_split_attr(NULL, cell, row), -1);
	assert_int_equal(desc_split_attr("pkg_a,pkg_a,pkg_a,pkg_a,pkg_a,pkg_a,pkg_a,pkg_a", cell,
					 row),
			 7);
	assert_int_equal(desc_split_attr("pkg_a,pkg_a,pkg_a,pkg_a,pkg_a,pkg_a,pkg_a,pkg_a,pkg_a",
					 cell, row),
			 -1); /* more than DESC_SPLIT_COLS_MAX */
}

/* Each bench of this build: its text parses, every field equal to its struct bench's. */
static void every_bench_reads_back(void **s)
{
	(void)s;
	int n = 0;
	for (const struct bench *b; (b = bench_at(n)); n++) {
		char err[ERRLEN] = "", warn[ERRLEN];
		char *text = bench_desc_text(b, err);
		if (!text)
			fail_msg("%s: %s", b->name, err);
		struct bench_desc d;
		if (bench_desc_parse(&d, b->name, text, strlen(text), err, warn, sizeof(warn)))
			fail_msg("%s: %s", b->name, err);
		assert_string_equal(warn, "");
		assert_string_equal(d.name, b->name);
		assert_true(same_str(d.variant_col, b->variant_col));
		assert_true(same_str(d.match_by, b->match.by));
		assert_true(same_str(d.summary_by, b->summary_by));
		assert_true(same_str(d.split_cols, b->split.cols));
		assert_true(same_str(d.split_name, b->split.name));
		assert_true(same_str(d.summary_note, b->summary_note.text));
		assert_true(same_str(d.summary_note_if, b->summary_note.only_if));
		same_list(bench_config(b), d.config);
		same_list(b->match.loose, d.match_loose);
		same_list(b->summary, d.summary);
		same_list(b->variant_order, d.variant_order);
		int r = 0;
		for (; bench_resolved(b) && bench_resolved(b)[r].requested; r++) {
			assert_string_equal(bench_resolved(b)[r].requested,
					    d.resolved[r].requested);
			assert_string_equal(bench_resolved(b)[r].resolved, d.resolved[r].resolved);
			assert_true(same_str(bench_resolved(b)[r].unit, d.resolved[r].unit));
		}
		assert_true(!d.resolved || !d.resolved[r].requested);
		int v = 0;
		for (; b->views && b->views[v].kind; v++)
			same_view(&b->views[v], &d.views[v]);
		assert_true(!d.views || !d.views[v].kind);
		bench_desc_free(&d);
		free(text);
	}
	assert_true(n >= 5);
	const struct bench *pp = bench_find("pingpong"); /* one at least has a split */
	assert_non_null(pp);
	assert_string_equal(pp->split.cols, "pkg_a,pkg_b");
}

/* A description's split reads back as written; one without it (an older writer's) has none. */
static void the_split_reads_back(void **s)
{
	(void)s;
	struct bench_desc w = { .name = "f", .variant_col = "size", .split_cols = "a,b",
				.split_name = "package" },
			  d;
	char *text = NULL, err[ERRLEN] = "", warn[ERRLEN];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(bench_desc_write(f, &w, err), 0);
	assert_int_equal(fclose(f), 0);
	assert_non_null(strstr(text, "\nsplit_cols = a,b\nsplit_name = package\n"));
	assert_int_equal(bench_desc_parse(&d, "x.bench", text, len, err, warn, sizeof(warn)), 0);
	assert_string_equal(warn, "");
	assert_string_equal(d.split_cols, "a,b");
	assert_string_equal(d.split_name, "package");
	bench_desc_free(&d);
	free(text);
	const char *old = "[bench]\nname = f\nvariant_col = size\nsummary_by = a\n";
	assert_int_equal(bench_desc_parse(&d, "x.bench", old, strlen(old), err, warn,
					  sizeof(warn)),
			 0);
	assert_null(d.split_cols);
	assert_null(d.split_name);
	bench_desc_free(&d);
}

/* text must be refused with a message holding want (and "x.bench:LINE:"). */
static void refused(const char *text, const char *want)
{
	struct bench_desc d;
	char err[ERRLEN] = "", warn[ERRLEN];
	if (!bench_desc_parse(&d, "x.bench", text, strlen(text), err, warn, sizeof(warn))) {
		bench_desc_free(&d);
		fail_msg("accepted: %s", text);
	}
	if (!strstr(err, want) || strchr(err, '\n') || strncmp(err, "x.bench", 7))
		fail_msg("'%s' for: %s", err, text);
	assert_null(d.name); /* nothing half-read is left */
}

#define BENCH "[bench]\nname = f\nvariant_col = size\n"
#define VIEW "[view]\nkind = bars\n"
#define METRIC "[metric]\ncol = ops_per_s\nlabel = ops\nunit = ops/s\nhigher_better = 1\n"

static void hostile_descriptions_are_one_line(void **s)
{
	(void)s;
	refused("", "no [bench] section");
	refused("[bench]\nname = f\n", "x.bench:1: [bench] names no variant_col");
	refused("name = f\n", "x.bench:1: key 'name' before any section");
	refused(BENCH "[view]\nkind = pie\n" METRIC, "x.bench:5: kind 'pie' is not accepted");
	refused(BENCH "[view]\ntitle = t\n" METRIC, "x.bench:4: [view] names no kind");
	refused(BENCH VIEW, "x.bench:4: [view] has no [metric] section");
	refused(BENCH VIEW "[metric]\ncol = x\nlabel = y\n", "x.bench:6: [metric] names no unit");
	refused(BENCH "[view]\nkind = lines\n" METRIC, "a lines [view] names no x_cols");
	refused(BENCH "[view]\nkind = matrix\nrow_col = a\n" METRIC, "a matrix [view] lacks");
	refused(BENCH METRIC, "x.bench:4: [metric] before any [view]");
	refused(BENCH VIEW METRIC "[resolved]\nrequested = a\nresolved = b\n[metric]\ncol = b\n",
		"[metric] before any [view]");
	refused(BENCH "[resolved]\nrequested = a\n", "x.bench:4: [resolved] names no resolved");
	refused(BENCH "name = g\n", "x.bench:4: name is given twice");
	refused(BENCH "[bench]\n", "a second [bench] section");
	refused(BENCH VIEW "x_is_variant = yes\n" METRIC, "x_is_variant 'yes' is not accepted");
	refused(BENCH "[view]\nkind = lines\nx_cols = o\nmark = 0 zero\n" METRIC, "mark '0 zero'");
	refused(BENCH "[view]\nkind = lines\nx_cols = o\nmark = nan\n" METRIC, "mark 'nan'");
	refused(BENCH "this line has no equals sign\n", "x.bench:4: 'this line has no");
	refused(BENCH "Bad-Key = 1\n", "key 'Bad-Key' is not a name");
	refused(BENCH "[view\n", "'[view' is not a section header");
	refused(BENCH "summary = a\tb\n", "summary's value holds a control byte");
	refused(BENCH "split_cols = a,b\n",
		"x.bench:1: [bench] names split_cols without split_name");
	refused(BENCH "split_name = package\n", "[bench] names split_name without split_cols");
	refused(BENCH "split_cols = a,,b\nsplit_name = p\n",
		"x.bench:4: split_cols 'a,,b' is not accepted (element 2 is empty)");
	refused(BENCH "split_cols = a,b,c,d,e,f,g,h,i\nsplit_name = p\n",
		"(more than 8 columns)");
	refused(BENCH "split_cols = a\nsplit_name = p\nsplit_name = q\n",
		"x.bench:6: split_name is given twice");
	char nul[] = BENCH "config = a\0b\n";
	struct bench_desc d;
	char err[ERRLEN], warn[ERRLEN];
	assert_int_equal(bench_desc_parse(&d, "x.bench", nul, sizeof(nul) - 1, err, warn,
					  sizeof(warn)),
			 -1);
	assert_non_null(strstr(err, "x.bench:4: a NUL byte"));
	/* bounds: a line too long, more list items than the room */
	size_t big = 3 * DESC_LINE_MAX;
	char *t = xcalloc(big + 64, 1);
	snprintf(t, big + 64, BENCH "summary = ");
	memset(t + strlen(t), 'x', 2 * DESC_LINE_MAX);
	refused(t, "x.bench:4: a line of");
	t[0] = 0;
	strcat(t, BENCH);
	for (int i = 0; i <= DESC_LIST_MAX; i++)
		strcat(t, "config = c\n");
	refused(t, "more than 256 config lines");
	free(t);
}

/* A newer writer's section or key is skipped, said once; the rest is read. */
static void unknown_keys_are_skipped_with_a_warning(void **s)
{
	(void)s;
	const char *text = BENCH "colour = red\n" VIEW "shape = round\n" METRIC
			   "[future]\nanything = at all\n";
	struct bench_desc d;
	char err[ERRLEN] = "", warn[ERRLEN];
	assert_int_equal(bench_desc_parse(&d, "x.bench", text, strlen(text), err, warn,
					  sizeof(warn)),
			 0);
	assert_string_equal(warn, "x.bench:4: key 'colour' unknown to this version, skipped");
	assert_string_equal(d.variant_col, "size");
	assert_int_equal(d.views[0].kind, VIEW_BARS);
	assert_string_equal(d.views[0].metrics[0].col, "ops_per_s");
	assert_int_equal(d.views[0].metrics[0].higher_better, 1);
	assert_null(d.views[0].metrics[1].col);
	assert_int_equal(d.views[1].kind, VIEW_END);
	assert_null(d.config);
	bench_desc_free(&d);
}

/* The writer refuses what the reader could not read back. */
static void the_writer_refuses_what_cannot_be_read(void **s)
{
	(void)s;
	static const char *const cfg[] = { "a\nb", NULL };
	struct bench_desc d = { .name = "f", .variant_col = "size", .config = cfg };
	char err[ERRLEN] = "";
	FILE *f = fopen("/dev/null", "w");
	assert_non_null(f);
	assert_int_equal(bench_desc_write(f, &d, err), -1);
	assert_non_null(strstr(err, "config holds a control byte"));
	d.config = NULL;
	d.split_cols = "a";
	assert_int_equal(bench_desc_write(f, &d, err), -1);
	assert_non_null(strstr(err, "split_cols without split_name"));
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_bench_reads_back),
		cmocka_unit_test(the_split_reads_back),
		cmocka_unit_test(the_note_stands_only_beside_yes),
		cmocka_unit_test(the_split_attribute_is_the_shared_value),
		cmocka_unit_test(hostile_descriptions_are_one_line),
		cmocka_unit_test(unknown_keys_are_skipped_with_a_warning),
		cmocka_unit_test(the_writer_refuses_what_cannot_be_read),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
