/* End to end: a short real pending-bit run on all three layouts writes whole rows with positive rates. */
#include "tests/testutil.h"
#include "harness/bench.h"
#include <stdlib.h>
#include <string.h>

/* Column index of name in a CSV header line. */
static int col(const char *header, const char *name)
{
	int i = 0;
	const char *p = header;
	size_t n = strlen(name);
	while (p) {
		if (!strncmp(p, name, n) && (p[n] == ',' || p[n] == '\n' || !p[n]))
			return i;
		p = strchr(p, ',');
		if (p)
			p++;
		i++;
	}
	fail_msg("column %s missing", name);
	return -1;
}

/* Field i of a CSV line (no quoted commas in the fields used here). */
static void field(const char *line, int i, char *out, size_t n)
{
	for (; i > 0 && line; i--)
		line = strchr(line, ',') ? strchr(line, ',') + 1 : NULL;
	assert_non_null(line);
	size_t len = strcspn(line, ",\n");
	snprintf(out, n, "%.*s", (int)len, line);
}

static void three_layouts(void **s)
{
	(void)s;
	struct cmd_result r;
	char path[300];
	snprintf(path, sizeof(path), "%s/pb.csv", test_dir);
	run_c2c(&r, "run", "pending-bit", "--duration", "0.1", "--warmup", "0.02", "--max-attempts", "1", LENIENT, "--reps", "2", "--out", path, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "shared"));
	char *text = slurp(path);
	assert_non_null(text);
	assert_int_equal(count_lines(text), 1 + 3 * 2);
	assert_int_equal(text[strlen(text) - 1], '\n');
	const char *hdr = text;
	int c_layout = col(hdr, "layout"), c_wns = col(hdr, "writer_ns_per_op"), c_rns = col(hdr, "reader_ns_per_op"),
	    c_wops = col(hdr, "writer_ops_per_s"), c_same = col(hdr, "same_line"), c_off = col(hdr, "offset"),
	    c_schema = col(hdr, "schema_version"), c_wcpu = col(hdr, "writer_cpus"), c_rcpu = col(hdr, "reader_cpus");
	col(hdr, "reader_ops");
	col(hdr, "work_addr");
	col(hdr, "meta_line");
	col(hdr, "placement");
	col(hdr, "c2cbench_rev");
	int seen[3] = { 0 };
	for (const char *line = strchr(text, '\n') + 1; *line; line = strchr(line, '\n') + 1) {
		char v[64], lay[32], off[16], same[4];
		field(line, c_layout, lay, sizeof(lay));
		field(line, c_off, off, sizeof(off));
		field(line, c_same, same, sizeof(same));
		field(line, c_schema, v, sizeof(v));
		assert_int_equal(atoi(v), SCHEMA_VERSION);
		int k = !strcmp(lay, "shared") ? 0 : !strcmp(lay, "aligned") ? 1 : 2;
		seen[k]++;
		assert_string_equal(off, k == 0 ? "32" : k == 1 ? "64" : "128");
		assert_string_equal(same, k == 0 ? "1" : "0");
		int cols[] = { c_wns, c_rns, c_wops };
		for (size_t i = 0; i < 3; i++) {
			field(line, cols[i], v, sizeof(v));
			if (!(atof(v) > 0))
				fail_msg("non-positive rate '%s' in: %s", v, line);
		}
		char wc[16], rc[16];
		field(line, c_wcpu, wc, sizeof(wc));
		field(line, c_rcpu, rc, sizeof(rc));
		assert_string_not_equal(wc, rc);
	}
	assert_int_equal(seen[0], 2);
	assert_int_equal(seen[1], 2);
	assert_int_equal(seen[2], 2);
	free(text);
}

static void offset_sweep_rows(void **s)
{
	(void)s;
	struct cmd_result r;
	char path[300];
	snprintf(path, sizeof(path), "%s/sweep.csv", test_dir);
	run_c2c(&r, "run", "pending-bit", "--offset-sweep", "8:128:40", "--duration", "0.05", "--warmup", "0.01", "--max-attempts", "1", "--reps", "1",
		"--policy", "test-then-set", "--drain-us", "50", LENIENT, "--out", path, NULL);
	assert_true(r.status == 0 || r.status == 4); /* 4: a window >100% off on a loaded machine */
	char *text = slurp(path);
	assert_int_equal(count_lines(text), 1 + 4); /* 8, 48, 88, 128 */
	assert_non_null(strstr(text, ",offset-8,"));
	assert_non_null(strstr(text, ",offset-128,"));
	assert_null(strstr(text, "no drainer"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(three_layouts),
		cmocka_unit_test(offset_sweep_rows),
	};
	return cmocka_run_group_tests(t, test_dir_setup, test_dir_teardown);
}
