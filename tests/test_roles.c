/* Every role is counted: for each bench that declares roles, every role has counter columns and the
 * count of operations its threads did while measured (the per-1,000-operations denominator), gathered
 * through the same per-thread hooks that start and stop the hardware counters. */
#include "tests/testutil.h"
#include <stdlib.h>
#include <string.h>

/* Split one CSV line into fields (RFC 4180 quotes), in place; returns the count. */
static int split(char *line, char **f, int max)
{
	int n = 0;
	char *p = line;
	while (n < max) {
		char *o = p;
		f[n++] = o;
		if (*p == '"') {
			for (p++; *p && !(*p == '"' && p[1] != '"'); p++)
				*o++ = *p == '"' ? *++p : *p;
			if (*p == '"')
				p++;
		} else {
			while (*p && *p != ',' && *p != '\n')
				*o++ = *p++;
		}
		int more = *p == ',';
		*o = 0;
		if (!more)
			break;
		p++;
	}
	return n;
}

/* The value of col in the first data row of a CSV. */
static long long field(const char *csv, const char *col, int *found)
{
	char *copy = strdup(csv), *row = strchr(copy, '\n'), *h[512], *v[512];
	long long out = -1;
	*found = 0;
	*row++ = 0;
	int nh = split(copy, h, 512), nv = split(row, v, 512);
	for (int i = 0; i < nh && i < nv; i++)
		if (!strcmp(h[i], col)) {
			*found = 1;
			out = atoll(v[i]);
		}
	free(copy);
	return out;
}

static void roles_of(const char *bench, const char *const *roles, const char *const *args)
{
	struct cmd_result *r = malloc(sizeof(*r));
	char out[512];
	const char *a[16] = { 0 };
	snprintf(out, sizeof(out), "%s/%s.csv", test_dir, bench);
	for (int i = 0; args[i] && i < 12; i++)
		a[i] = args[i];
	run_c2c(r, "run", bench, "--reps", "1", "--quiet", LENIENT, "--out", out, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], NULL);
	if (r->status)
		fail_msg("%s failed: %s", bench, r->err);
	char *csv = slurp(out);
	for (int i = 0; roles[i]; i++) {
		char col[128];
		int found;
		snprintf(col, sizeof(col), "%s_counted_ops", roles[i]);
		long long ops = field(csv, col, &found);
		if (!found || ops <= 0)
			fail_msg("%s: role %s has no operation count (%s = %lld)", bench, roles[i], col, ops);
		snprintf(col, sizeof(col), "%s_cycles_per_kop", roles[i]); /* its counter columns (NA without a PMU) */
		if (!strstr(csv, col))
			fail_msg("%s: role %s has no counter columns", bench, roles[i]);
	}
	free(csv);
	free(r);
}

static void every_role_is_counted(void **s)
{
	(void)s;
	static const char *const pb[] = { "writer", "reader", "drainer", NULL };
	static const char *const pba[] = { "--duration", "0.1", "--warmup", "0.02", "--layout", "shared", "--drain-us", "200", NULL };
	static const char *const sh[] = { "kworker", "workload", "shepherd", NULL };
	/* the shepherd visits once per modelled second: long enough for visits even under qemu-user */
	const char *const sha[] = { "--duration", getenv("C2C_UNDER_QEMU") ? "2" : "0.5", "--warmup", "0.05", "--check", "pending", NULL };
	static const char *const rf[] = { "caller", "worker", NULL };
	static const char *const rfa[] = { "--worker", "unbound", "--attempts", "16384", "--retries", "100000", "--retry-ns", "20000", "--warmup", "0.01", NULL };
	roles_of("pending-bit", pb, pba);
	roles_of("shepherd", sh, sha);
	roles_of("refill", rf, rfa); /* the unbound worker populates pages (test_refill: at least 30) */
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(every_role_is_counted),
	};
	return cmocka_run_group_tests(t, test_dir_setup, test_dir_teardown);
}
