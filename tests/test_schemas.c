/* Every schema ever written is read as today's (analysis/groups_schema.c): what an older schema did
 * not record is named so, never taken for a request, and joins on its effective value. */
#include "lib/csvfield.h"
#include "lib/csvread.h"
#include "lib/util.h"
#include "schema/meta.h"
#include "tests/testutil.h"
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ZEN3 "results/reference/epyc-zen3-kvm-2vcpu"
#define ZEN5 "results/reference/epyc-zen5-bhyve-2vcpu"
#define V12 "tests/data/schemas/v12/03-baseline"

/* The text with its wrapped lines joined again ("\n" and the continuation indent: one space). */
static const char *unwrapped(const char *out)
{
	static char buf[1 << 17];
	size_t k = 0;
	for (const char *p = out; *p && k + 1 < sizeof(buf); p++) {
		if (p[0] == '\n' && !strncmp(p + 1, "    ", 4)) {
			buf[k++] = ' ';
			p += strspn(p + 1, " ");
			continue;
		}
		buf[k++] = *p;
	}
	buf[k] = 0;
	return buf;
}

/* The shipped schema-6 quick set's rmw run as today's writer would have written it: schema 10,
 * with mem_node_requested writer (the default) beside the node it resolved to. */
static void make_now(const char *dir)
{
	char cmd[4000];
	snprintf(cmd, sizeof(cmd),
		 "rm -rf %s && mkdir -p %s && cp " ZEN3
		 "/vm-20261201T154250-quick/01-rmw.meta %s && awk 'BEGIN{FS=OFS=\",\"} NR==1{print "
		 "$0,\"mem_node_requested\"; next} "
		 "{$1=10; print $0,\"writer\"}' " ZEN3 "/vm-20261201T154250-quick/01-rmw.csv "
		 "> %s/01-rmw.csv && head -1 %s/01-rmw.csv | grep -q mem_node_requested",
		 dir, dir, dir, dir, dir);
	assert_int_equal(system(cmd), 0);
}

/* Schema 6 had no mem_node_requested: its rows join today's on the node used, and say so; the
 * configuration that did not join is headed "not recorded (schema 6)", never "=0". */
static void schema_6_joins_on_the_node_used(void **state)
{
	(void)state;
	struct cmd_result r;
	char now[600];
	snprintf(now, sizeof(now), "%s/now", test_dir);
	make_now(now);
	run_c2c(&r, "compare", ZEN3 "/vm-20261201T154250-quick", now, NULL);
	if (r.status)
		fail_msg("%s", r.err);
	const char *u = unwrapped(r.out);
	assert_non_null(
		strstr(u, "pending-bit shared offset=32 policy=rmw mem_node_requested=writer"));
	assert_non_null(strstr(u, "A's mem_node_requested not recorded (schema 6): joined on the "
				  "node used, 0"));
	assert_non_null(strstr(u, "mem_node_requested=not recorded (schema 6)")); /* only in A */
	assert_null(strstr(u, "mem_node_requested=0"));
	assert_null(strstr(u, "only in B"));
	/* a metric schema 6 had no column for (writer_rmw_per_s): not recorded, not "no valid
	 * value", against a schema-11 set that has it */
	struct cmd_result *r11 = malloc(sizeof(*r11));
	run_c2c(r11, "compare", ZEN3 "/vm-20261201T154250-quick",
		"results/reference/epyc-zen5-bhyve-2vcpu-k1272/vm-20261205T123458-quick", NULL);
	if (r11->status)
		fail_msg("%s", r11->err);
	assert_non_null(strstr(r11->out, "writer_rmw_per_s"));
	assert_non_null(strstr(r11->out, "NA: not recorded in A (schema 6)"));
	assert_null(strstr(r11->out, "NA: no valid value in A\n"));
	free(r11);
	/* the report: the joined configuration's settings say that a machine's rows did not record
	 * it; the one that did not join is "not recorded (schema 6)", never "=0" */
	char out[700], md[800], lab[700];
	snprintf(out, sizeof(out), "%s/rep6", test_dir);
	snprintf(lab, sizeof(lab), "%s=later", now); /* one machine label: two sides by --label */
	run_c2c(&r, "report", ZEN3 "/vm-20261201T154250-quick", now, "-o", out, "--label", lab,
		NULL);
	if (r.status)
		fail_msg("%s", r.err);
	snprintf(md, sizeof(md), "%s/report.md", out);
	char *text = slurp(md);
	assert_non_null(text);
	assert_non_null(strstr(text,
			       "policy=rmw, mem\\_node\\_requested=writer (a machine's rows: not "
			       "recorded (schema 6), joined on its effective value)"));
	assert_non_null(strstr(text, "mem\\_node\\_requested=not recorded (schema 6)"));
	assert_null(strstr(text, "mem\\_node\\_requested=0"));
	free(text);
	/* B's writer's node is 1: the node A used (0) is not what B's request became, so nothing
	 * joins, and the refusal names what stood in */
	char cmd[3000];
	snprintf(cmd, sizeof(cmd),
		 "awk 'BEGIN{FS=OFS=\",\"} NR==1{for(i=1;i<=NF;i++) if($i==\"mem_node\") c=i} "
		 "NR>1{$c=1} {print}' %s/01-rmw.csv > %s/x && mv %s/x %s/01-rmw.csv",
		 now, now, now, now);
	assert_int_equal(system(cmd), 0);
	run_c2c(&r, "compare", ZEN3 "/vm-20261201T154250-quick", now, NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(
		strstr(r.err, "mem_node_requested (A not recorded (schema 6): 0, B writer)"));
}

/* Schema 1 recorded neither the placement, the atomics, the node nor the warm-up asked: the
 * preset's command line (metadata.txt) gives what was asked, the schema what was used. */
static void schema_1_joins_by_its_command_line(void **state)
{
	(void)state;
	struct cmd_result r;
	char now[600];
	snprintf(now, sizeof(now), "%s/now1", test_dir);
	make_now(now);
	run_c2c(&r, "compare", ZEN5 "/vm-20261130T000155-quick", now, NULL);
	if (r.status)
		fail_msg("%s", r.err);
	const char *u = unwrapped(r.out);
	assert_non_null(strstr(u, "pending-bit aligned offset=64 policy=rmw"));
	assert_non_null(strstr(u, "A's placement_requested not in its rows (schema 1): auto, from "
				  "its run's command line"));
	assert_non_null(strstr(u, "A's atomics_requested not recorded (schema 1): joined on the "
				  "atomics used (lock: the only kind before --atomics), lock"));
	assert_non_null(strstr(u, "A's mem_node_requested not recorded (schema 1): joined on the "
				  "node used, 0"));
	assert_null(strstr(u, "only in B"));
	/* a schema-1 file outside its result directory has no command line: its placement is not
	 * recorded, and joins on the placement used where that is the same */
	char cmd[1400], lone[600];
	snprintf(lone, sizeof(lone), "%s/lone.csv", test_dir);
	snprintf(cmd, sizeof(cmd), "cp " ZEN5 "/vm-20261130T000155-quick/01-rmw.csv %s", lone);
	assert_int_equal(system(cmd), 0);
	run_c2c(&r, "compare", lone, ZEN5 "/vm-20261130T000155-quick/01-rmw.csv", NULL);
	if (r.status)
		fail_msg("%s", r.err);
	u = unwrapped(r.out);
	assert_non_null(strstr(u, "A's placement_requested not recorded (schema 1): joined on the "
				  "placement used, same-socket"));
	assert_non_null(strstr(u, "A's warmup_requested_s not recorded (schema 1): joined without "
				  "it"));
	assert_null(strstr(u, "only in"));
}

/* The schema-12 baseline as schema 11 wrote it, in dir: the request named mem_node_req, the node
 * found mem_node, no node planned; its X.bench and X.columns renamed alike, its rows of 11. */
static void as_schema_11(const char *dir)
{
	static const char *const was[][2] = { { "mem_node_requested", "mem_node_req" },
					      { "mem_node_actual", "mem_node" },
					      { "mem_node", NULL } };
	char cmd[4800], path[800], err[ERRLEN], q[4096];
	snprintf(cmd, sizeof(cmd),
		 "rm -rf %s && mkdir -p %s && cp " V12 ".meta %s && sed 's/^config = "
		 "mem_node_requested$/config = mem_node_req/' " V12 ".bench > %s/03-baseline.bench "
		 "&& grep -qx 'config = mem_node_req' %s/03-baseline.bench && sed -e "
		 "'/^mem_node,/d' -e 's/^mem_node_actual,mem_node_actual,/mem_node,mem_node,/' -e "
		 "'s/^mem_node_requested,mem_node_requested,/mem_node_req,mem_node_req,/' " V12
		 ".columns > %s/03-baseline.columns",
		 dir, dir, dir, dir, dir, dir);
	assert_int_equal(system(cmd), 0);
	struct table t;
	if (table_read(&t, V12 ".csv", err))
		fail_msg("%s", err);
	snprintf(path, sizeof(path), "%s/03-baseline.csv", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	for (long r = -1; r < t.nrows; r++) {
		int first = 1;
		for (int c = 0; c < t.ncols; c++) {
			const char *name = t.cols[c], *v = r < 0 ? name : c ? t.cell[r][c] : "11";
			size_t w = 0;
			while (w < ARRAY_SIZE(was) && strcmp(was[w][0], name))
				w++;
			if (w < ARRAY_SIZE(was) && !was[w][1])
				continue; /* not recorded by 11 */
			if (r < 0 && w < ARRAY_SIZE(was))
				v = was[w][1];
			csv_field(v, q, sizeof(q));
			fprintf(f, "%s%s", first ? "" : ",", q);
			first = 0;
		}
		fputc('\n', f);
	}
	assert_int_equal(fclose(f), 0);
	table_free(&t);
}

/* A pingpong set of schema 11 (mem_node_req, mem_node the node found) joins one of 12
 * (mem_node_requested, mem_node_actual) on the request, whichever is read first: every
 * configuration on both sides, none "only in" one. */
static void schema_11_pingpong_joins_12_on_the_request(void **state)
{
	(void)state;
	char old[600], perr[ERRLEN];
	snprintf(old, sizeof(old), "%s/pp11", test_dir);
	as_schema_11(old);
	for (int order = 0; order < 2; order++) {
		struct cmd_result *r = malloc(sizeof(*r));
		struct table t;
		const char *a = order ? V12 ".csv" : old, *b = order ? old : V12 ".csv";
		run_c2c(r, "compare", "--csv", a, b, NULL);
		if (r->status)
			fail_msg("%s against %s: %s", a, b, r->err);
		if (table_parse(&t, "out.csv", r->out, strlen(r->out), perr))
			fail_msg("%s", perr);
		assert_true(t.nrows > 0);
		assert_int_equal(table_col(&t, "mem_node_req"), -1);
		assert_true(table_col(&t, "mem_node_requested") >= 0);
		for (long i = 0; i < t.nrows; i++) {
			assert_string_equal(table_get(&t, i, "bench"), "pingpong");
			assert_string_equal(table_get(&t, i, "only_in"), "");
			assert_string_equal(table_get(&t, i, "mem_node_requested"), "first");
		}
		table_free(&t);
		run_c2c(r, "compare", a, b, NULL); /* the table names no side alone either */
		assert_int_equal(r->status, 0);
		assert_null(strstr(r->out, "only in"));
		free(r);
	}
}

/* The fresh quick set of this test run (the quick preset with 2 repetitions: the settings that
 * join are the preset's), made once. Under load it may exit 4 with rows invalid: they still join.
 */
static char fresh[700];

static const char *fresh_quick(void)
{
	if (fresh[0])
		return fresh;
	char ini[700], cmd[2000], out[700];
	struct cmd_result r;
	snprintf(ini, sizeof(ini), "%s/quick.ini", test_dir);
	snprintf(cmd, sizeof(cmd), "sed 's/^reps = .*/reps = 2/' presets/quick.ini > %s && grep -q "
		 "'^reps = 2$' %s", ini, ini);
	assert_int_equal(system(cmd), 0);
	run_c2c(&r, "preset", ini, "--results", test_dir, "--label", "fresh", NULL);
	if (r.status != 0 && r.status != 4)
		fail_msg("quick: exit %d: %s", r.status, r.err);
	snprintf(cmd, sizeof(cmd), "ls -d %s/fresh-*-quick", test_dir);
	assert_int_equal(sh_capture(out, sizeof(out), cmd), 0);
	out[strcspn(out, "\n")] = 0;
	snprintf(fresh, sizeof(fresh), "%s", out);
	return fresh;
}

/* compare --csv set fresh: how many pending-bit rmw and pingpong lines joined (both sides). */
static int joins(const char *set, int *pb, int *pp, char *err, size_t n)
{
	struct cmd_result r;
	struct table t;
	char perr[ERRLEN];
	*pb = *pp = 0;
	run_c2c(&r, "compare", "--csv", set, fresh_quick(), NULL);
	snprintf(err, n, "%s", r.err);
	if (r.status)
		return r.status;
	if (table_parse(&t, "out.csv", r.out, strlen(r.out), perr))
		fail_msg("%s: %s", set, perr);
	for (long i = 0; i < t.nrows; i++) {
		const char *b = table_get(&t, i, "bench"), *only = table_get(&t, i, "only_in");
		if (only[0])
			continue;
		*pb += !strcmp(b, "pending-bit") && !strcmp(table_get(&t, i, "policy"), "rmw");
		*pp += !strcmp(b, "pingpong");
	}
	table_free(&t);
	return 0;
}

/* The first data row's value of col in the CSV at path ("" when absent). */
static void first_value(const char *path, const char *col, char *out, size_t n)
{
	struct table t;
	csv_load(&t, path);
	const char *v = t.nrows ? table_get(&t, 0, col) : NULL;
	snprintf(out, n, "%s", v ? v : "");
	table_free(&t);
}

/* The compatibility promise: tests/data/schemas holds a quick set of every schema ever released,
 * and each joins a quick set of today's on pending-bit and on the baseline. A schema change that
 * breaks a join fails here; a new schema version without its set fails here too. */
static void every_schema_joins_a_fresh_quick_set(void **state)
{
	(void)state;
	char set[300], path[1000], atomics[32], err[8192];
	snprintf(path, sizeof(path), "%s/01-rmw.csv", fresh_quick());
	first_value(path, "atomics", atomics, sizeof(atomics));
	for (int v = 1; v <= SCHEMA_VERSION; v++) {
		int pb, pp;
		snprintf(set, sizeof(set), "tests/data/schemas/v%d", v);
		if (access(set, R_OK))
			fail_msg("%s: no result set of schema %d (tests/data/schemas/README.md)",
				 set, v);
		snprintf(path, sizeof(path), "%s/01-rmw.csv", set);
		char sv[16];
		first_value(path, "schema_version", sv, sizeof(sv));
		assert_int_equal(atoi(sv), v);
		if (joins(set, &pb, &pp, err, sizeof(err)))
			fail_msg("%s against today's quick: %s", set, err);
		print_message("schema %d: %d pending-bit rmw line(s) and %d pingpong joined\n", v,
			      pb, pp);
		/* before --atomics a run used x86's lock: another machine's atomics do not join it
		 */
		char asked[32];
		first_value(path, "atomics_requested", asked, sizeof(asked));
		if (asked[0] || !strcmp(atomics, "lock"))
			assert_true(pb > 0);
		assert_true(pp > 0);
	}
}

/* Every shipped reference set is read and compared with today's quick set: the quick ones join
 * on pending-bit (and on the baseline where they ran one); the others hold no configuration of
 * the quick preset (vmalloc, the seeds preset's 1 s runs) and are refused for that alone. */
static void every_reference_set_reads(void **state)
{
	(void)state;
	DIR *d = opendir("results/reference");
	int sets = 0, quick = 0;
	char atomics[32], path[800];
	snprintf(path, sizeof(path), "%s/01-rmw.csv", fresh_quick());
	first_value(path, "atomics", atomics, sizeof(atomics));
	assert_non_null(d);
	for (struct dirent *m; (m = readdir(d));) {
		char mdir[300];
		snprintf(mdir, sizeof(mdir), "results/reference/%s", m->d_name);
		DIR *e = m->d_name[0] != '.' ? opendir(mdir) : NULL;
		for (struct dirent *s; e && (s = readdir(e));) {
			char set[600], probe[700], err[8192];
			struct stat st;
			snprintf(set, sizeof(set), "%s/%s", mdir, s->d_name);
			snprintf(probe, sizeof(probe), "%s/metadata.txt", set);
			int has_meta = !access(probe, R_OK);
			if (s->d_name[0] == '.' || stat(set, &st) || !S_ISDIR(st.st_mode) ||
			    !strcmp(s->d_name, "report"))
				continue;
			sets++;
			int pb, pp, rc = joins(set, &pb, &pp, err, sizeof(err));
			int is_quick = has_meta && strstr(s->d_name, "-quick");
			print_message("%s: exit %d, %d pending-bit rmw line(s), %d pingpong\n", set,
				      rc, pb, pp);
			if (!is_quick) {
				if (rc && !strstr(err, "no configuration in common"))
					fail_msg("%s: %s", set, err);
				continue;
			}
			quick++;
			if (rc && strcmp(atomics, "lock") &&
			    strstr(err, "atomics_requested (A not recorded"))
				/* x86's lock before --atomics: this machine's atomics differ */
				continue;
			if (rc)
				fail_msg("%s: %s", set, err);
			assert_true(pb > 0 || strcmp(atomics, "lock"));
			snprintf(probe, sizeof(probe), "%s/03-baseline.csv", set);
			if (!access(probe, R_OK))
				assert_true(pp > 0);
		}
		if (e)
			closedir(e);
	}
	closedir(d);
	assert_true(sets >= 6);
	assert_true(quick >= 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(schema_6_joins_on_the_node_used),
		cmocka_unit_test(schema_1_joins_by_its_command_line),
		cmocka_unit_test(schema_11_pingpong_joins_12_on_the_request),
		cmocka_unit_test(every_schema_joins_a_fresh_quick_set),
		cmocka_unit_test(every_reference_set_reads),
	};
	return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}
