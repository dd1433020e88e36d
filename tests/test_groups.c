/* The grouping engine (analysis/resultset.h) and its streaming reader, on made-up CSVs with known
 * answers: the full-configuration join (a duration difference never pools), valid rows only with
 * their counts, labels (one machine each), sides by label, declared variant order, metric errors.
 */
#include "lib/csvstream.h"
#include "analysis/resultset.h"
#include "cli/bench_fallback.h"
#include "lib/util.h"
#include "tests/testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HDR                                                                                        \
	"schema_version,bench,layout,rep,offset,policy,placement,writers,readers,mem_node,work_"   \
	"ns,drain_us,duration_requested_s,warmup_requested_s,writer_ns_per_op,reader_ns_per_op,"   \
	"label,host,cpu_model,valid\n"

/* A row of pending-bit: layout, rep, requested duration, writer ns, label, host, cpu, valid. */
static void row(FILE *f, const char *layout, int rep, const char *dur, double w, const char *label,
		const char *host, const char *cpu, const char *valid)
{
	fprintf(f, "2,pending-bit,%s,%d,32,rmw,same-socket,1,1,0,0,0,%s,0.2,%g,NA,%s,%s,%s,%s\n",
		layout, rep, dur, w, label, host, cpu, valid);
}

static char *path_of(const char *name)
{
	static char p[4][600];
	static int k;
	k = (k + 1) % 4;
	snprintf(p[k], sizeof(p[k]), "%s/%s", test_dir, name);
	return p[k];
}

static FILE *csv_new(const char *name)
{
	FILE *f = fopen(path_of(name), "w");
	assert_non_null(f);
	fputs(HDR, f);
	return f;
}

/* The group of bench pending-bit with this layout and requested duration, or -1. */
static int find_group(const struct groups *g, const char *layout, const char *dur)
{
	for (int i = 0; i < g->ngroup; i++) {
		const struct grp_group *gr = &g->group[i];
		const struct grp_bench *b = &g->bench[gr->bench];
		int ok = !strcmp(gr->val[0], layout);
		for (int k = 0; k < b->nkey; k++)
			if (!strcmp(b->key_col[k], "duration_requested_s"))
				ok &= gr->val[k] && !strcmp(gr->val[k], dur);
		if (ok)
			return i;
	}
	return -1;
}

static int metric_ix(const struct groups *g, int gi, const char *m)
{
	const struct grp_bench *b = &g->bench[g->group[gi].bench];
	for (int i = 0; i < b->nmet; i++)
		if (!strcmp(b->metric[i], m))
			return i;
	return -1;
}

static void duration_difference_never_pools(void **state)
{
	(void)state;
	FILE *f = csv_new("dur.csv");
	for (int r = 0; r < 5; r++) {
		row(f, "shared", r, "1.5", 10 + r, "m1", "h1", "cpu", "yes");
		row(f, "shared", r, "1", 20 + r, "m1", "h1", "cpu", "yes");
	}
	row(f, "shared", 5, "1", 99, "m1", "h1", "cpu", "no"); /* invalid: counted, not used */
	fclose(f);
	struct groups g;
	char err[ERRLEN];
	assert_int_equal(groups_init(&g, NULL, err), 0);
	if (groups_add(&g, path_of("dur.csv"), 0, err) || groups_finish(&g, err))
		fail_msg("%s", err);
	assert_int_equal(g.ngroup, 2);
	int g15 = find_group(&g, "shared", "1.5"), g1 = find_group(&g, "shared", "1");
	assert_true(g15 >= 0 && g1 >= 0 && g15 != g1);
	const struct grp_cell *c15 = groups_cell(&g, g15, 0), *c1 = groups_cell(&g, g1, 0);
	int m = metric_ix(&g, g1, "writer_ns_per_op"), rm = metric_ix(&g, g1, "reader_ns_per_op");
	assert_true(m >= 0 && rm >= 0);
	assert_int_equal(c15->rows, 5);
	assert_int_equal(c15->valid, 5);
	assert_int_equal(c1->rows, 6);
	assert_int_equal(c1->valid, 5);
	assert_int_equal(c1->met[m].n, 5);
	for (size_t i = 0; i < c1->met[m].n; i++) {
		assert_true(c1->met[m].v[i] >= 20 &&
			    c1->met[m].v[i] < 25); /* neither 99 nor the 1.5 s values */
		assert_int_equal(c1->met[m].row[i], (long)c1->met[m].v[i] - 20); /* its valid row */
	}
	assert_int_equal(c1->met[rm].n, 0); /* NA is no value */
	assert_null(groups_cell(&g, g1, 1));
	assert_int_equal(g.side[0].rows, 11);
	assert_int_equal(g.side[0].valid, 10);
	groups_free(&g);
}

static void order_is_declared_baseline_first(void **state)
{
	(void)state;
	FILE *f = csv_new("order.csv");
	const char *shuffled[] = { "padded", "aligned", "shared" };
	for (int i = 0; i < 3; i++)
		row(f, shuffled[i], 0, "1", 5, "m1", "h1", "cpu", "yes");
	fclose(f);
	struct groups g;
	char err[ERRLEN], lab[200];
	assert_int_equal(groups_init(&g, NULL, err), 0);
	assert_int_equal(groups_add(&g, path_of("order.csv"), 0, err), 0);
	assert_int_equal(groups_finish(&g, err), 0);
	assert_int_equal(g.ngroup, 3);
	const char *want[] = { "shared", "aligned", "padded" }; /* pending-bit's variant_order */
	for (int i = 0; i < 3; i++)
		assert_string_equal(g.group[g.order[i]].val[0], want[i]);
	groups_label(&g, g.order[0], lab, sizeof(lab));
	assert_string_equal(lab, "pending-bit shared"); /* nothing else varies */
	groups_free(&g);
}

/* The order of the CSV's groups (variant names, joined by spaces) with the fallback fb. */
static void order_of(const char *csv, groups_desc_fn fb, char *out, size_t n)
{
	struct groups g;
	char err[ERRLEN];
	groups_set_desc_fallback(fb);
	assert_int_equal(groups_init(&g, NULL, err), 0);
	if (groups_add(&g, path_of(csv), 0, err))
		fail_msg("%s", err);
	assert_int_equal(groups_finish(&g, err), 0);
	out[0] = 0;
	for (int i = 0; i < g.ngroup; i++)
		snprintf(out + strlen(out), n - strlen(out), "%s%s", i ? " " : "",
			 g.group[g.order[i]].val[0]);
	groups_free(&g);
	groups_set_desc_fallback(bench_fallback);
}

/* A set's own FILE.bench is how it is read, over this build's pending-bit; without one, the
 * fallback (this build's) describes it; with neither, the bench is undescribed and its variants
 * come in natural order. */
static void the_files_description_comes_first(void **state)
{
	(void)state;
	FILE *f = csv_new("own.csv");
	const char *shuffled[] = { "padded", "aligned", "shared" };
	for (int i = 0; i < 3; i++)
		row(f, shuffled[i], 0, "1", 5, "m1", "h1", "cpu", "yes");
	fclose(f);
	char got[200];
	order_of("own.csv", bench_fallback, got, sizeof(got));
	assert_string_equal(got, "shared aligned padded"); /* this build's variant_order */
	order_of("own.csv", NULL, got, sizeof(got));
	assert_string_equal(got, "aligned padded shared"); /* none: the values' natural order */
	f = fopen(path_of("own.bench"), "w");
	assert_non_null(f);
	fputs("[bench]\nname = pending-bit\nvariant_col = layout\nvariant_order = padded\n"
	      "variant_order = shared\nvariant_order = aligned\n",
	      f);
	fclose(f);
	order_of("own.csv", bench_fallback, got, sizeof(got));
	assert_string_equal(got, "padded shared aligned"); /* the file's, not this build's */
}

static void csv_without_valid_or_label_column(void **state)
{
	(void)state;
	FILE *f = fopen(path_of("old.csv"), "w");
	char err[ERRLEN];
	assert_non_null(f);
	fputs("schema_version,bench,layout,rep,offset,policy,placement,writers,readers,mem_node,"
	      "work_ns,drain_us,writer_ns_per_op,reader_ns_per_op,host,cpu_model\n",
	      f);
	for (int r = 0; r < 3; r++)
		fprintf(f,
			"1,pending-bit,shared,%d,32,rmw,same-socket,1,1,0,0,0,%d,1,old-host,cpu\n",
			r, 7 + r);
	fclose(f);
	struct groups g;
	assert_int_equal(groups_init(&g, NULL, err), 0);
	if (groups_add(&g, path_of("old.csv"), GROUPS_BY_LABEL, err) || groups_finish(&g, err))
		fail_msg("%s", err);
	assert_int_equal(g.nside, 1);
	assert_string_equal(g.side[0].name, "old-host"); /* the host name stands in for the label */
	const struct grp_cell *c = groups_cell(&g, 0, 0);
	assert_int_equal(c->valid, 3); /* no valid column: every row is valid */
	const struct grp_bench *b = &g.bench[0];
	int dk = -1;
	for (int k = 0; k < b->nkey; k++)
		if (!strcmp(b->key_col[k], "duration_requested_s"))
			dk = k;
	assert_true(dk > 0);
	/* the older schema has no requested duration: named so, never "" or a request, and nothing
	 * stands in (no measured duration either) */
	assert_string_equal(g.group[0].val[dk], "not recorded (schema 1)");
	assert_int_equal(g.group[0].nrec[dk], 1);
	assert_null(g.group[0].eff[dk]);
	groups_free(&g);
	/* the same host name on another CPU, without labels: told apart by the CPU model, not
	 * refused */
	f = fopen(path_of("old2.csv"), "w");
	fputs("schema_version,bench,layout,rep,offset,policy,placement,writers,readers,mem_node,"
	      "work_ns,drain_us,duration_s,writer_ns_per_op,host,cpu_model\n",
	      f);
	fputs("1,pending-bit,shared,0,32,rmw,same-socket,1,1,0,0,0,1.5012,7,vm,AMD EPYC\n", f);
	fputs("1,pending-bit,shared,0,32,rmw,same-socket,1,1,0,0,0,0.9987,7,vm,Intel Xeon\n", f);
	fclose(f);
	assert_int_equal(groups_init(&g, NULL, err), 0);
	if (groups_add(&g, path_of("old2.csv"), GROUPS_BY_LABEL, err) || groups_finish(&g, err))
		fail_msg("%s", err);
	assert_int_equal(g.nside, 2);
	assert_string_equal(g.side[0].name, "vm");
	assert_string_equal(g.side[1].name, "vm-Intel-Xeon");
	assert_int_equal(g.ngroup, 2); /* 1.5 s and 1 s measured: two configurations */
	assert_string_equal(g.group[g.order[0]].val[dk], "not recorded (schema 1)");
	assert_string_equal(g.group[g.order[0]].eff[dk], "1"); /* the measured one stands in */
	assert_string_equal(g.group[g.order[1]].eff[dk], "1.5");
	groups_free(&g);
}

static void labels_make_sides_and_refuse_two_machines(void **state)
{
	(void)state;
	FILE *f = csv_new("two.csv");
	row(f, "shared", 0, "1", 5, "xeon-a", "h1", "Xeon", "yes");
	row(f, "shared", 0, "1", 9, "epyc-b", "h2", "EPYC", "yes");
	fclose(f);
	struct groups g;
	char err[ERRLEN];
	assert_int_equal(groups_init(&g, NULL, err), 0);
	assert_int_equal(groups_add(&g, path_of("two.csv"), GROUPS_BY_LABEL, err), 0);
	assert_int_equal(groups_finish(&g, err), 0);
	assert_int_equal(g.nside, 2);
	assert_string_equal(g.side[0].name, "xeon-a");
	assert_string_equal(g.side[1].name, "epyc-b");
	assert_int_equal(g.ngroup, 1); /* one configuration on two machines */
	assert_non_null(groups_cell(&g, 0, 0));
	assert_non_null(groups_cell(&g, 0, 1));
	groups_free(&g);
	/* many labels: no table to overflow, every one its own side */
	f = csv_new("many.csv");
	for (int i = 0; i < 40; i++) {
		char l[16];
		snprintf(l, sizeof(l), "m%02d", i);
		row(f, "shared", 0, "1", 5, l, l, "cpu", "yes");
	}
	fclose(f);
	assert_int_equal(groups_init(&g, NULL, err), 0);
	assert_int_equal(groups_add(&g, path_of("many.csv"), GROUPS_BY_LABEL, err), 0);
	assert_int_equal(g.nside, 40);
	assert_string_equal(g.side[39].name, "m39");
	groups_free(&g);
	/* one label, two machines: refused with both named */
	f = csv_new("clash.csv");
	row(f, "shared", 0, "1", 5, "vm", "host-1", "AMD EPYC", "yes");
	row(f, "shared", 1, "1", 5, "vm", "host-2", "Intel Xeon", "yes");
	fclose(f);
	assert_int_equal(groups_init(&g, NULL, err), 0);
	assert_int_equal(groups_add(&g, path_of("clash.csv"), 0, err), -1);
	assert_non_null(strstr(err, "label 'vm' names two machines: host 'host-1' (AMD EPYC)"));
	assert_non_null(strstr(err, "host 'host-2' (Intel Xeon) in "));
	assert_non_null(strstr(err, "clash.csv:3"));
	assert_null(strchr(err, '\n'));
	groups_free(&g);
}

static void bad_cells_are_errors(void **state)
{
	(void)state;
	struct {
		const char *row, *what;
	} cases[] = {
		{ "2,pending-bit,shared,0,32,rmw,same-socket,1,1,0,0,0,1,0.2,fast,NA,m,h,c,yes\n",
		  "writer_ns_per_op = 'fast' is not accepted" },
		{ "2,pending-bit,shared,0,32,rmw,same-socket,1,1,0,0,0,1,0.2,0x10,NA,m,h,c,yes\n",
		  "writer_ns_per_op = '0x10' is not accepted" },
		{ "2,pending-bit,shared,0,32,rmw,same-socket,1,1,0,0,0,1,0.2,inf,NA,m,h,c,yes\n",
		  "no hex, spaces, inf or nan" },
		{ "2,pending-bit,shared,0,32,rmw,same-socket,1,1,0,0,0,1,0.2,5,NA,m,h,c,yes",
		  "the last row does not end with a newline" },
		{ "2,pending-bit,shared,0,32,rmw,same-socket,1,1,0,0,0,1,0.2,5,NA,m,h,c,maybe\n",
		  "valid 'maybe' is not accepted; accepted: yes or no" },
		{ "2,pending-bit,shared,0,32,rmw,same-socket,1,1,0,0,0,1,0.2,5,NA,a b,h,c,yes\n",
		  "label 'a b' is not accepted" },
		{ "999,pending-bit,shared,0,32,rmw,same-socket,1,1,0,0,0,1,0.2,5,NA,m,h,c,yes\n",
		  "schema_version 999; this c2cbench reads schema_version " },
		{ "2,pending-bit,shared,0\n", "row has 4 field(s) but the header has 20" },
		{ "2,pending-bit,\"shared,0\n", "a quoted field is not closed" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		FILE *f = csv_new("bad.csv");
		fputs(cases[i].row, f);
		fclose(f);
		struct groups g;
		char err[ERRLEN];
		assert_int_equal(groups_init(&g, NULL, err), 0);
		assert_int_equal(groups_add(&g, path_of("bad.csv"), 0, err), -1);
		if (!strstr(err, cases[i].what) || !strstr(err, "bad.csv:2"))
			fail_msg("case %zu: expected '%s' at bad.csv:2 in: %s", i, cases[i].what,
				 err);
		groups_free(&g);
	}
}

static void unknown_metric_lists_available(void **state)
{
	(void)state;
	FILE *f = csv_new("m.csv");
	row(f, "shared", 0, "1", 5, "m1", "h1", "cpu", "yes");
	fclose(f);
	struct groups g;
	char err[ERRLEN];
	assert_int_equal(groups_init(&g, "writer_ns_per_op,nope", err), 0);
	assert_int_equal(groups_add(&g, path_of("m.csv"), 0, err), 0);
	assert_int_equal(groups_finish(&g, err), -1);
	assert_non_null(strstr(err,
			       "--metric nope: no input has this column; accepted: pending-bit: "
			       "writer_ns_per_op,reader_ns_per_op"));
	groups_free(&g);
	assert_int_equal(groups_init(&g, "a,,b", err), -1);
	assert_non_null(strstr(err, "an empty name"));
	groups_free(&g);
}

/* The streaming reader gives the same records and the same refusals as the whole-file reader. */
static void stream_reader(void **state)
{
	(void)state;
	FILE *f = fopen(path_of("s.csv"), "w");
	fputs("\xef\xbb\xbf" "a,b,c\r\n1,\"x, \"\"y\"\"\",\"two\nlines\"\r\n\n,,\n", f);
	fclose(f);
	struct csvs s;
	char err[ERRLEN];
	assert_int_equal(csvs_open(&s, path_of("s.csv"), err), 0);
	assert_int_equal(csvs_next(&s, err), 1);
	assert_int_equal(s.nf, 3);
	assert_string_equal(csvs_field(&s, 0), "a");
	assert_int_equal(csvs_next(&s, err), 1);
	assert_string_equal(csvs_field(&s, 1), "x, \"y\"");
	assert_string_equal(csvs_field(&s, 2), "two\nlines");
	assert_int_equal(csvs_next(&s, err), 1);
	assert_int_equal(s.line, 5); /* the quoted newline and the blank line count */
	assert_int_equal(s.nf, 3);
	assert_string_equal(csvs_field(&s, 2), "");
	assert_int_equal(csvs_next(&s, err), 0);
	csvs_close(&s);
	const struct {
		const char *text;
		size_t len;
		const char *what;
	} bad[] = {
		{ "a,b\n1,\"open\n", 12, ":2: a quoted field is not closed" },
		{ "a,b\n1,x\"y\n", 10, ":2: a quote inside an unquoted field" },
		{ "a,b\n1,\"x\"y\n", 11, ":2: text after a closing quote" },
		{ "a,b\n1,x\0y\n", 10, ":2: NUL byte" },
		{ "a,b\n1,x\ry\n", 10, "carriage return" },
		{ "a,b\n1,2", 7, ":2: the last row does not end with a newline" },
		{ "a,b\n1,\"2\"", 9, ":2: the last row does not end with a newline" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		f = fopen(path_of("h.csv"), "w");
		fwrite(bad[i].text, 1, bad[i].len, f);
		fclose(f);
		assert_int_equal(csvs_open(&s, path_of("h.csv"), err), 0);
		int rc;
		while ((rc = csvs_next(&s, err)) == 1)
			;
		assert_int_equal(rc, -1);
		if (!strstr(err, bad[i].what))
			fail_msg("expected '%s' in: %s", bad[i].what, err);
		csvs_close(&s);
	}
	/* a field longer than one read buffer */
	f = fopen(path_of("long.csv"), "w");
	fputs("a,b\n", f);
	for (int i = 0; i < 50000; i++)
		fputc('x', f);
	fputs(",2\n", f);
	fclose(f);
	assert_int_equal(csvs_open(&s, path_of("long.csv"), err), 0);
	assert_int_equal(csvs_next(&s, err), 1);
	assert_int_equal(csvs_next(&s, err), 1);
	assert_int_equal(strlen(csvs_field(&s, 0)), 50000);
	assert_string_equal(csvs_field(&s, 1), "2");
	csvs_close(&s);
}

int main(void)
{
	groups_set_desc_fallback(bench_fallback); /* these CSVs carry no X.bench, as compare's */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(duration_difference_never_pools),
		cmocka_unit_test(order_is_declared_baseline_first),
		cmocka_unit_test(the_files_description_comes_first),
		cmocka_unit_test(csv_without_valid_or_label_column),
		cmocka_unit_test(labels_make_sides_and_refuse_two_machines),
		cmocka_unit_test(bad_cells_are_errors),
		cmocka_unit_test(unknown_metric_lists_available),
		cmocka_unit_test(stream_reader),
	};
	return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}
