/* Counters: the platform table checked through libpfm4, names known wrong rejected, SDE counts
 * equal to the bench's own, NA with the reason when there is no PMU, --require-counters, bogus
 * names, the summary's words for extra passes and time-shared counters. */
#include "harness/bench.h"
#include "harness/counters/counters.h"
#include "harness/counters/evtab.h"
#include "harness/counters/pmu.h"
#include "harness/row.h"
#include "lib/csvread.h"
#include "analysis/runsum_parts.h"
#include "tests/testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct evtab tab;

static int setup(void **state)
{
	char err[512];
	(void)state;
	unsetenv("C2C_EVENTS_TABLE");
	if (evtab_load(&tab, err) || pmu_init(NULL, err)) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	evtab_free(&tab);
	return 0;
}

/* Every row of every PMU the table names encodes, on that PMU, to the encoding the table records.
 */
static void test_table_rows_encode(void **state)
{
#if defined(__aarch64__)
	static const char *const must_check[] = { "arm_n1", "arm_v1", "arm_n2", "arm_v2" };
#else
	/* emr, gnr and amd64_fam1ah_zen5 through their compatible PMU (spr, zen4): checked with
	 * libpfm4 4.13 too */
	static const char *const must_check[] = { "hsw_ep",
						  "bdw_ep",
						  "skx",
						  "clx",
						  "icx",
						  "spr",
						  "emr",
						  "gnr",
						  "amd64_fam17h_zen2",
						  "amd64_fam19h_zen3",
						  "amd64_fam19h_zen4",
						  "amd64_fam1ah_zen5" };
#endif
	struct cmd_result *r = malloc(sizeof(*r));
	char pmus[1024];
	int checked = 0, unchecked = 0;
	(void)state;
	snprintf(pmus, sizeof(pmus), "%s", evtab_pmus(&tab));
	for (char *save = NULL, *p = strtok_r(pmus, ",", &save); p;
	     p = strtok_r(NULL, ",", &save)) {
		run_c2c(r, "events", "--pmu", p, "--check", NULL);
		text_unwrap(r->out); /* events fits its lines to 100 columns */
		if (r->status != 0 || strstr(r->out, "REJECTED") || strstr(r->out, "MISMATCH"))
			fail_msg("table rows for %s fail the libpfm4 check:\n%s%s", p, r->out,
				 r->err);
		int rows = 0;
		for (int i = 0; i < tab.n; i++)
			rows += !strcmp(tab.row[i].pmu, p);
		int oks = 0;
		for (const char *s = r->out; (s = strstr(s, " ok config=")); s++)
			oks++;
		int via = !pmu_known(p) &&
			strstr(r->out, "; encoded on ") != NULL; /* a fallback PMU encodes them */
		if (pmu_known(p) || via) {
			if (oks != rows)
				fail_msg("%s: %d of %d rows encode:\n%s", p, oks, rows, r->out);
			checked++;
		} else {
			assert_non_null(strstr(r->out, "unchecked: the installed libpfm4 has no"));
			print_message("unchecked (installed libpfm4 has no %s table): %d row(s)\n",
				      p, rows);
			unchecked++;
		}
	}
	for (size_t i = 0; i < sizeof(must_check) / sizeof(must_check[0]); i++) {
		assert_true(evtab_has_pmu(&tab, must_check[i]));
		run_c2c(r, "events", "--pmu", must_check[i], "--check", NULL);
		text_unwrap(r->out); /* events fits its lines to 100 columns */
		assert_int_equal(
		    r->status,
		    0); /* every row of these PMUs is checked here, none left unchecked */
		assert_null(strstr(r->out, "unchecked"));
	}
	print_message("table: %d PMU(s) checked with libpfm4, %d listed as unchecked\n", checked,
		      unchecked);
	free(r);
}

/* The reference row (tests/data/reference_events.tsv) for pmu (or one whose name starts with it)
 * and event. */
static int ref_find(char *ref, const char *pmu, const char *event, char *enc, size_t n,
		    char *verified, size_t vn)
{
	for (char *line = ref; line && *line;) {
		char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char buf[2048];
		snprintf(buf, sizeof(buf), "%.*s", (int)len, line);
		char *f[8] = { 0 }, *save = NULL;
		int k = 0;
		for (char *t = strtok_r(buf, "\t", &save); t && k < 8;
		     t = strtok_r(NULL, "\t", &save))
			f[k++] = t;
		if (k >= 7 && !strncmp(f[0], pmu, strlen(pmu)) &&
		    (!f[0][strlen(pmu)] || f[0][strlen(pmu)] == '@') && !strcmp(f[2], event)) {
			snprintf(enc, n, "%s", f[6]);
			char *z = strstr(enc, " config1=0");
			if (z && !z[10])
				*z = 0;
			snprintf(verified, vn, "%s", f[3]);
			return 1;
		}
		line = nl ? nl + 1 : NULL;
	}
	return 0;
}

/* The table agrees with the verified reference: same name, same encoding; a "4.13.0 via PMU" row's
 * spelling is one the reference verified on that PMU (NAME|NAME: every spelling is checked). */
static void test_table_matches_reference(void **state)
{
	char *ref = slurp("tests/data/reference_events.tsv");
	(void)state;
	assert_non_null(ref);
	for (int i = 0; i < tab.n; i++) {
		const struct evrow *e = &tab.row[i];
		const char *via =
		    strncmp(e->verified_with, "4.13.0 via ", 11) ? NULL : e->verified_with + 11;
		int found = 0, verified = 0;
		for (const char *p = e->event; *p;) {
			size_t len = strcspn(p, "|");
			char name[256], enc[256], yes[16];
			snprintf(name, sizeof(name), "%.*s", (int)len, p);
			for (int w = 0; w < 2; w++) {
				const char *pmu = w ? via : e->pmu;
				if (!pmu ||
				    !ref_find(ref, pmu, name, enc, sizeof(enc), yes, sizeof(yes)))
					continue;
				if (strcmp(enc, e->encoding))
					fail_msg("%s %s: table encoding %s, reference %s (%s)",
						 e->pmu, name, e->encoding, enc, pmu);
				found++;
				verified |= !strcmp(yes, "yes");
			}
			p += len + (p[len] == '|');
		}
		if (!found)
			fail_msg("%s %s (%s) is not in the verified reference", e->pmu, e->event,
				 e->metric);
		if (!strncmp(e->verified_with, "4.13.0", 6) && !verified)
			fail_msg("%s %s: table says verified with %s, the reference has no "
				 "verified spelling",
				 e->pmu, e->event, e->verified_with);
	}
	free(ref);
}

/* A mistyped name fails the check: a name libpfm4 rejects, and one that encodes to a different
 * event (x86 rows on an x86 build; Arm rows, through the arm64 libpfm4 with LIBPFM_FORCE_PMU, on an
 * aarch64 build). */
static void test_mistyped_table_fails(void **state)
{
	struct cmd_result *r = malloc(sizeof(*r));
	char *dir = temp_dir(), path[512];
	(void)state;
	snprintf(path, sizeof(path), "%s/platforms.tsv", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
#if defined(__aarch64__)
	const char *pmu = "arm_n1", *typo = "L1D_CACHE_WB_CLEEN",
		   *mismatch = "MISMATCH: libpfm4 gives config=0x48, the table says config=0x47";
	fprintf(f,
		"arm_n1\tcoh_writeback\tL1D_CACHE_WB_CLEEN\tconfig=0x47\t4.13.0\ttypo in the "
		"name\tany-core\n");
	fprintf(f,
		"arm_n1\tcoh_inval\tL1D_CACHE_INVAL\tconfig=0x47\t4.13.0\twrong encoding "
		"recorded\tany-core\n");
#else
	const char *pmu = "skx", *typo = "XSNP_HITN",
		   *mismatch = "MISMATCH: libpfm4 gives config=0x8d3, the table says config=0x4d3";
	fprintf(f,
		"skx\thitm_local\tMEM_LOAD_L3_HIT_RETIRED:XSNP_HITN\tconfig=0x4d2\t4.13.0\ttypo in "
		"the umask\n");
	fprintf(f,
		"skx\thitm_remote\tMEM_LOAD_L3_MISS_RETIRED:REMOTE_FWD\tconfig=0x4d3\t4.13."
		"0\twrong umask that still encodes\n");
#endif
	fclose(f);
	setenv("C2C_EVENTS_TABLE", path, 1);
	run_c2c(r, "events", "--pmu", pmu, "--check", NULL);
	text_unwrap(r->out); /* events fits its lines to 100 columns */
	unsetenv("C2C_EVENTS_TABLE");
	assert_int_equal(r->status, 1);
	assert_non_null(strstr(r->out, typo));
	assert_non_null(strstr(r->out, "REJECTED"));
	assert_non_null(strstr(r->out, mismatch));
	rm_rf(dir);
	free(dir);
	free(r);
}

/* Names known to be wrong (tests/data/negative_checks.tsv) are not in the table and are rejected or
 * mis-encode. */
static void test_negative_checks(void **state)
{
	char *text = slurp("tests/data/negative_checks.tsv");
	struct cmd_result *r = malloc(sizeof(*r));
	int n = 0;
	(void)state;
	assert_non_null(text);
	for (char *save = NULL, *line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *f[8] = { 0 }, *s2 = NULL;
		int k = 0;
		for (char *t = strtok_r(line, "\t", &s2); t && k < 8; t = strtok_r(NULL, "\t", &s2))
			f[k++] = t;
		if (k < 4 || !strcmp(f[0], "pmu"))
			continue;
		const char *pmu = f[0], *name = f[2], *outcome = f[3];
		for (int i = 0; i < tab.n; i++)
			if (!strcmp(tab.row[i].event, name) && !strcmp(tab.row[i].pmu, pmu))
				fail_msg("the table uses %s on %s, a name known to be wrong", name,
					 pmu);
		if (!pmu_known(pmu)) {
			/* the PMU itself is absent from libpfm4 4.13: that is why the name fails */
			const char *pfx = strstr(name, "::");
			if (pfx) {
				char p[64];
				snprintf(p, sizeof(p), "%.*s", (int)(pfx - name), name);
				assert_false(pmu_known(p));
			} else {
				print_message("negative check %s on %s: unchecked (installed "
					      "libpfm4 has no %s table)\n",
					      name, pmu, pmu);
			}
			n++;
			continue;
		}
		run_c2c(r, "events", "--pmu", pmu, "--check", name, NULL);
		text_unwrap(r->out); /* events fits its lines to 100 columns */
		if (!strncmp(outcome, "confirmed-rejected", 18)) {
			if (r->status != 1 || !strstr(r->out, "REJECTED"))
				fail_msg("%s on %s should be rejected:\n%s", name, pmu, r->out);
		} else { /* encodes-but-WRONG: it must not encode to the vendor's value */
			const char *exp = strstr(outcome, "expects ");
			assert_non_null(exp);
			char want[128];
			snprintf(want, sizeof(want), "%s",
				 strstr(exp, "config1=") ? strstr(exp, "config1=") : exp);
			want[strcspn(want, ");")] = 0;
			assert_int_equal(r->status, 0);
			assert_null(strstr(r->out, want));
		}
		n++;
	}
	assert_true(n >= 10);
	free(text);
	free(r);
}

static void run_pb(struct cmd_result *r, const char *out, const char *events, const char *extra)
{
	run_c2c(r, "run", "pending-bit", "--duration", "0.2", "--warmup", "0.02", "--max-attempts",
		"1", "--reps", "1", "--layout", "shared,aligned", "--events", events, LENIENT,
		"--out", out, extra, NULL);
}

/* SDE tallies read through PAPI's sde component equal the bench's own columns exactly. */
static void test_sde_equals_bench_counts(void **state)
{
	struct cmd_result *r = malloc(sizeof(*r));
	char *dir = temp_dir(), out[512];
	struct table c;
	static const char *const pairs[][2] = { { "sde_pending_rmw", "writer_rmw" },
						{ "sde_pending_already_set", "writer_already_set" },
						{ "sde_drains", "drains" },
						{ "sde_reader_ops", "reader_ops" } };
	(void)state;
	snprintf(out, sizeof(out), "%s/sde.csv", dir);
	run_pb(r, out,
	       "sde:::c2cbench::pending_rmw,sde:::c2cbench::pending_already_set,sde:::c2cbench::"
	       "drains,sde:::c2cbench::reader_ops",
	       "--drain-us=20");
	if (r->status &&
	    r->status != 4) /* 4: a loaded machine measured nothing; counts are checked */
		fail_msg("run failed: %s", r->err);
	csv_load(&c, out);
	assert_int_equal(c.nrows, 2);
	for (long row = 0; row < c.nrows; row++)
		for (int i = 0; i < 4; i++) {
			const char *sde = csv_cell(&c, row, pairs[i][0]),
				   *own = csv_cell(&c, row, pairs[i][1]);
			assert_string_not_equal(sde, "NA");
			/* counted where measured; equal whatever the attempt's validity */
			if (!strcmp(csv_cell(&c, row, "valid"), "yes"))
				assert_true(atoll(own) > 0);
			assert_string_equal(sde, own);
		}
	table_free(&c);
	rm_rf(dir);
	free(dir);
	free(r);
}

/* Without a PMU the run completes, counter columns are NA (never 0) and the status says why. */
static void test_no_pmu_gives_na_and_reason(void **state)
{
	struct cmd_result *r = malloc(sizeof(*r));
	char *dir = temp_dir(), out[512];
	struct table c;
	(void)state;
	snprintf(out, sizeof(out), "%s/na.csv", dir);
	/* a PMU libpfm4 4.13 (x86 build) lacks: no counters on any x86 machine, a PMU or not */
	run_pb(r, out, "auto", pmu_default() ? "--pmu=power9" : "--quiet");
	if (!RAN(r->status)) /* NA and its reason are in every row, valid or not */
		fail_msg("run failed: %s", r->err);
	csv_load(&c, out);
	const char *status = csv_cell(&c, 0, "counters_status");
	if (!pmu_default())
		assert_string_equal(status, "no PMU: perf_event component disabled");
	else
		assert_non_null(strstr(status, "no PMU"));
	for (long row = 0; row < c.nrows; row++)
		for (int i = 0; i < c.ncols; i++) {
			const char *col = c.cols[i];
			if (strstr(col, "_per_kop") || !strcmp(col, "hitm_source"))
				assert_string_equal(c.cell[row][i], "NA");
		}
	csv_cell(&c, 0, "reader_hitm_local_per_kop"); /* present (it fails the test when absent) */
	csv_cell(&c, 0, "writer_rfo_hitm_per_kop");
	assert_non_null(strstr(csv_cell(&c, 0, "na_reason"), "hitm_local"));
	assert_non_null(strstr(csv_cell(&c, 0, "na_reason"), "no PMU"));
	assert_string_equal(csv_cell(&c, 0, "counters_multiplexed"),
			    "NA"); /* not a constant: nothing ran, so it cannot be told */
	assert_non_null(strstr(csv_cell(&c, 0, "na_reason"),
			       "counters [counters_multiplexed,counters_running_pct]: no hardware "
			       "counter ran"));
	table_free(&c);
	rm_rf(dir);
	free(dir);
	free(r);
}

/* --require-counters turns "no counters" into exit 3 before anything runs (no CSV left behind). */
static void test_require_counters_exits_3(void **state)
{
	struct cmd_result *r = malloc(sizeof(*r));
	char *dir = temp_dir(), out[512];
	(void)state;
	snprintf(out, sizeof(out), "%s/req.csv", dir);
	/* hitm_remote has no event on Zen 4: refused on any machine */
	run_c2c(r, "run", "pending-bit", "--events", "hitm_remote", "--pmu", "amd64_fam19h_zen4",
		"--require-counters", "--out", out, NULL);
	assert_int_equal(r->status, 3);
	assert_int_equal(count_lines(r->err), 1);
	assert_non_null(strstr(r->err, "hitm_remote: no such event on amd64_fam19h_zen4"));
	assert_false(file_exists(out));
	if (!pmu_default()) { /* this machine: no PMU at all */
		run_c2c(r, "run", "pending-bit", "--require-counters", "--out", out, NULL);
		assert_int_equal(r->status, 3);
		assert_non_null(strstr(r->err, "no PMU: perf_event component disabled"));
		assert_false(file_exists(out));
	}
	rm_rf(dir);
	free(dir);
	free(r);
}

/* A bogus event name: one line, exit 2, the closest valid names. */
static void test_bogus_event_name(void **state)
{
	struct cmd_result *r = malloc(sizeof(*r));
	(void)state;
	run_c2c(r, "run", "pending-bit", "--events", "hitm_locl", "--dry-run", NULL);
	assert_int_equal(r->status, 2);
	assert_int_equal(count_lines(r->err), 1);
	assert_non_null(strstr(r->err, "--events: unknown 'hitm_locl' (closest: hitm_local"));
	run_c2c(r, "run", "pending-bit", "--events", "MEM_LOAD_L3_HIT_RETIRED:XSNP_HITN", "--pmu",
		"skx", "--dry-run", NULL);
	assert_int_equal(r->status, 2);
	assert_non_null(strstr(r->err, "closest: MEM_LOAD_L3_HIT_RETIRED:XSNP_HITM"));
	/* candidates come from the PMU in use: a POWER event is never offered on another PMU */
	run_c2c(r, "run", "pending-bit", "--events", "PM_CYX", "--pmu", "skx", "--dry-run", NULL);
	assert_int_equal(r->status, 2);
	assert_null(strstr(r->err, "PM_CYC"));
	run_c2c(r, "run", "pending-bit", "--events", "MEM_LOAD_L3_HIT_RETIRED:XSNP_HITN", "--pmu",
		"power9", "--dry-run", NULL);
	assert_null(strstr(r->err, "XSNP_HITM"));
	run_c2c(r, "run", "pending-bit", "--events", "sde:::c2cbench::pending_rmx", "--dry-run",
		NULL);
	assert_int_equal(r->status, 2);
	assert_non_null(strstr(r->err, "closest: sde:::c2cbench::pending_rmw"));
	run_c2c(r, "run", "pending-bit", "--pmu", "no_such_pmu", "--dry-run", NULL);
	assert_int_equal(r->status, 2);
	assert_int_equal(count_lines(r->err), 1);
	free(r);
}

/* The summary's words for extra passes and time-shared counters, from the rows' own columns. */
/* Every line of a summary text fits 100 columns; then its wrapped lines joined again, in place. */
static void unwrap(char *text)
{
	char *o = text;
	for (const char *l = text; *l;) {
		size_t n = strcspn(l, "\n");
		assert_true(n <= 100);
		l += n + (l[n] == '\n');
	}
	for (const char *p = text; *p; p++) {
		if (*p == '\n' && p[1] == ' ' && p[2] == ' ') {
			*o++ = ' ';
			p += 2;
		} else {
			*o++ = *p;
		}
	}
	*o = 0;
}

/* A row of the summary's input: a one-row table of three counter columns. */
static void counter_row(struct table *t, char **cell, const char *passes, const char *mux,
			const char *pct)
{
	static char *cols[] = { "counter_passes", "counters_multiplexed", "counters_running_pct" };
	static char **row;
	static long line = 2;
	cell[0] = (char *)passes, cell[1] = (char *)mux, cell[2] = (char *)pct;
	row = cell;
	*t = (struct table){.path = "made-up.csv", .ncols = 3, .cols = cols, .nrows = 1,
			    .cell = &row, .line = &line};
}

static void test_summary_passes_and_multiplexing(void **state)
{
	struct counters_seen s;
	struct table r;
	char *cell[3], *text = NULL;
	size_t len = 0;
	(void)state;
	memset(&s, 0, sizeof(s));
	counter_row(&r, cell, "1", "no", "100.00");
	counters_seen_add(&s, &r);
	FILE *f = open_memstream(&text, &len);
	counters_seen_print(f, &s);
	fclose(f);
	assert_string_equal(text, ""); /* one pass, not time-shared: nothing to say */
	free(text);
	counter_row(&r, cell, "2", "yes", "48.50");
	counters_seen_add(&s, &r);
	f = open_memstream(&text, &len);
	counters_seen_print(f, &s);
	fclose(f);
	unwrap(text);
	assert_non_null(strstr(text, "did not fit the PMU's counters at once: each configuration "
				     "ran 2 passes"));
	assert_non_null(strstr(text,
			       "MULTIPLEXED: the kernel time-shared the counters in 1 of 2 "
			       "rows (counters_multiplexed=yes, lowest share running 48.5%)"));
	free(text);
}

/* An uncounted HITM figure is one NA line with the reason (under QEMU's N1: the stand-ins not
 * advertised), wrapped within 100 columns, never a 0. */
static void test_summary_na_hitm_wrapped(void **state)
{
	static struct rs_ctx c; /* no variants: the NA line needs none */
	const char *status =
	    "coh_writeback: not advertised by armv8_pmuv3_0: no l1d_cache_wb in sysfs events/ "
	    "(PMCEID), the parent of l1d_cache_wb_clean (0x47, outside PMCEID); coh_inval: not "
	    "advertised by armv8_pmuv3_0: no l1d_cache in sysfs events/ (PMCEID), the parent of "
	    "l1d_cache_inval (0x48, outside PMCEID)";
	int var[1] = { 0 };
	double hitm[1] = { 0 };
	unsigned char ok[1] = { 0 };
	char *text = NULL;
	size_t len = 0;
	(void)state;
	FILE *f = open_memstream(&text, &len);
	counters_summary(f, "", status, &c, var, hitm, ok, 1);
	fclose(f);
	unwrap(text);
	assert_non_null(strstr(text, "HITM per 1,000 operations: NA, not counted (coh_writeback: "
				     "not advertised by armv8_pmuv3_0: no l1d_cache_wb in sysfs "
				     "events/"));
	assert_non_null(strstr(text, "(0x48, outside PMCEID))\n"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_rows_encode),
		cmocka_unit_test(test_table_matches_reference),
		cmocka_unit_test(test_mistyped_table_fails),
		cmocka_unit_test(test_negative_checks),
		cmocka_unit_test(test_sde_equals_bench_counts),
		cmocka_unit_test(test_no_pmu_gives_na_and_reason),
		cmocka_unit_test(test_require_counters_exits_3),
		cmocka_unit_test(test_bogus_event_name),
		cmocka_unit_test(test_summary_passes_and_multiplexing),
		cmocka_unit_test(test_summary_na_hitm_wrapped),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
