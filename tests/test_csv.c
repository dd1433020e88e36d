/* CSV writing: quoting per RFC 4180, whole rows, a fixed header, no overwriting, failed writes. */
#include "tests/testutil.h"
#include "harness/csv.h"
#include "stats/stats.h"
#include "lib/util.h"
#include <stdlib.h>
#include <string.h>

static void quoting(void **s)
{
	(void)s;
	char out[128];
	csv_field("plain", out, sizeof(out));
	assert_string_equal(out, "plain");
	csv_field("a,b", out, sizeof(out));
	assert_string_equal(out, "\"a,b\"");
	csv_field("say \"hi\"", out, sizeof(out));
	assert_string_equal(out, "\"say \"\"hi\"\"\"");
	csv_field("two\nlines", out, sizeof(out));
	assert_string_equal(out, "\"two\nlines\"");
	csv_field("", out, sizeof(out));
	assert_string_equal(out, "");
}

/* na_reason holds whole reasons only: past 1,023 bytes (the old cut) they are all there, and when
 * the row is full a reason is left out whole, never cut; row_set keeps a value of any length. */
static void na_reason_never_cut(void **s)
{
	(void)s;
	struct row *r = xcalloc(1, sizeof(*r));
	char key[32], why[128];
	int n = 0;
	for (int i = 0; i < 400; i++) {
		snprintf(key, sizeof(key), "col%d", i);
		snprintf(why, sizeof(why), "a reason of some length, number %d, with (a; b) inside",
			 i);
		row_na(r, key, why);
	}
	assert_true(strlen(r->na_reason) > 1023);
	assert_true(strlen(r->na_reason) < sizeof(r->na_reason));
	for (char *e = r->na_reason; e; n++) { /* every piece is whole: "colN: ... (a; b) inside" */
		char *next = strstr(e, " inside; col");
		size_t len = next ? (size_t)(next - e) + 7 : strlen(e);
		assert_true(len > 7);
		assert_memory_equal(e + len - 7, " inside", 7);
		assert_memory_equal(e, "col", 3);
		e = next ? next + 9 : NULL;
	}
	assert_true(n > 100 && n < 400); /* many kept, the rest left out whole */
	row_set(r, "na_reason", "%s", r->na_reason);
	assert_string_equal(row_get(r, "na_reason"), r->na_reason); /* not cut at 4,096 */
	row_clear(r);
	free(r);
}

static void header_then_rows(void **s)
{
	(void)s;
	char *dir = temp_dir(), path[256], err[ERRLEN];
	struct csv c;
	struct row r = { 0 };
	snprintf(path, sizeof(path), "%s/x.csv", dir);
	assert_int_equal(csv_open(&c, path, err), 0);
	row_set(&r, "a", "%d", 1);
	row_set(&r, "b", "%s", "x,y");
	row_na(&r, "c", "not measured here");
	assert_int_equal(csv_write(&c, &r, err), 0);
	row_set(&r, "a", "%d", 2);
	assert_int_equal(csv_write(&c, &r, err), 0);
	struct row other = { 0 };
	row_set(&other, "b", "1");
	row_set(&other, "a", "2");
	row_set(&other, "c", "3");
	/* the same columns in another order: written in the header's */
	assert_int_equal(csv_write(&c, &other, err), 0);
	struct row fewer = { 0 }, another = { 0 };
	row_set(&fewer, "a", "4");
	row_set(&fewer, "b", "5");
	assert_int_equal(csv_write(&c, &fewer, err), -1); /* a column of the header missing */
	row_set(&another, "a", "4");
	row_set(&another, "d", "5");
	row_set(&another, "b", "6");
	assert_int_equal(csv_write(&c, &another, err), -1); /* one the header does not have */
	assert_non_null(strstr(err, "no column 'c'"));
	assert_int_equal(csv_close(&c, err), 0);
	char *text = slurp(path);
	assert_string_equal(text, "a,b,c\n1,\"x,y\",NA\n2,\"x,y\",NA\n2,1,3\n");
	row_clear(&fewer);
	row_clear(&another);
	assert_string_equal(r.na_reason, "c: not measured here");
	assert_int_equal(csv_open(&c, path, err),
			 -1); /* an existing result file is never overwritten */
	assert_non_null(strstr(err, "already exists"));
	free(text);
	row_clear(&r);
	row_clear(&other);
	rm_rf(dir);
	free(dir);
}

static void full_disk_is_an_error(void **s)
{
	(void)s;
	char err[ERRLEN];
	struct csv c;
	struct row r = { 0 };
	row_set(&r, "a", "1");
	assert_int_equal(csv_open(&c, "/dev/full", err), 0);
	assert_int_equal(csv_write(&c, &r, err), -1);
	assert_non_null(strstr(err, "/dev/full"));
	csv_close(&c, err);
	row_clear(&r);
}

static void stats_median_cv(void **s)
{
	(void)s;
	double v[] = { 5, 1, 3, 2, 4 };
	struct stats st = stats_of(v, 5);
	assert_true(st.median == 3 && st.min == 1 && st.max == 5);
	assert_true(st.cv > 0.52 && st.cv < 0.53); /* sd 1.5811 / mean 3 */
	double e[] = { 1, 3 };
	assert_true(stats_of(e, 2).median == 2);
	assert_int_equal(stats_of(e, 0).n, 0);
	double one[] = { 7 };
	assert_true(stats_of(one, 1).cv == 0);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(quoting),
		cmocka_unit_test(header_then_rows),
		cmocka_unit_test(na_reason_never_cut),
		cmocka_unit_test(full_disk_is_an_error),
		cmocka_unit_test(stats_median_cv),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
