/* Validity rules on made-up thread records, and the --reps auto stopping rule on made-up samples.
 */
#include "tests/testutil.h"
#include "harness/novalid.h"
#include "harness/repsauto.h"
#include "harness/validity.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MS 1000000ull

/* A clean 300 ms repetition: a writer on CPU 0 and a reader on CPU 1, both on a CPU throughout. */
static struct evidence *clean(void)
{
	struct evidence *e = calloc(1, sizeof(*e));
	e->requested_s = 0.3;
	for (int i = 0; i < 2; i++) {
		struct thr t = { 0 };
		t.role = i;
		t.want_cpu = t.cpu_start = t.got_cpu_end = i;
		t.t0 = 1000 * MS;
		t.t1 = 1300 * MS;
		t.cpu_ns0 = 5 * MS;
		t.cpu_ns1 = 5 * MS + 299 * MS;
		t.ops = 1000;
		t.measured = 1;
		t.steal_ns = 0;
		evidence_thread(e, &t, i ? "reader" : "writer", 1);
	}
	e->nprobe = 1;
	e->probe_a[0] = 0;
	e->probe_b[0] = 1;
	e->probe_before[0] = e->probe_after[0] = 65.0;
	return e;
}

static void done(struct evidence *e)
{
	evidence_free(e);
	free(e);
}

/* Assert invalid, with the reason containing want. */
static void expect(struct evidence *e, const char *want)
{
	char why[512];
	assert_int_equal(validity_check(e, &vrules_default, why, sizeof(why)), 0);
	if (!strstr(why, want))
		fail_msg("reason '%s' does not contain '%s'", why, want);
	done(e);
}

static void clean_is_valid(void **s)
{
	(void)s;
	struct evidence *e = clean();
	char why[512];
	assert_int_equal(validity_check(e, &vrules_default, why, sizeof(why)), 1);
	assert_string_equal(why, "");
	assert_true(fabs(ev_oncpu(&e->th[0]) - 299.0 / 300) < 1e-9);
	assert_true(fabs(ev_overlap(e) - 1.0) < 1e-9);
	done(e);
}

static void no_ops(void **s)
{
	(void)s;
	struct evidence *e = clean();
	e->th[0].ops = 0;
	expect(e, "ops: writer completed 0 operations");
}

static void window_off(void **s)
{
	(void)s;
	struct evidence *e = clean(); /* the case: 0.677 s for --duration 0.3 */
	e->th[0].t1 = e->th[0].t0 + 677 * MS;
	e->th[0].cpu_ns = 670 * MS;
	expect(e, "window: writer0 0.677 s for 0.300 s requested (+126%)");
}

static void window_rule_off_for_counted_runs(void **s)
{
	(void)s;
	struct evidence *e = clean(); /* pingpong, refill: run to a count, no requested window */
	char why[512];
	e->requested_s = 0;
	for (int i = 0; i < 2; i++) {
		e->th[i].t1 = e->th[i].t0 + 40 * MS;
		e->th[i].cpu_ns = 40 * MS;
	}
	assert_int_equal(validity_check(e, &vrules_default, why, sizeof(why)), 1);
	done(e);
}

static void off_cpu(void **s)
{
	(void)s;
	struct evidence *e = clean();
	e->th[1].cpu_ns = 150 * MS;
	e->th[1].ivcsw = 40;
	expect(e, "oncpu: reader0 on a CPU 50.0% of its window");
}

static void own_thread_sharing_is_not_off_cpu(void **s)
{
	(void)s;
	struct evidence *e =
	    clean(); /* pending-bit's drainer on the writer's CPU takes 13% of it */
	struct thr d = { 0 };
	char why[512];
	d.role = 2;
	d.want_cpu = d.cpu_start = d.got_cpu_end = 0;
	d.t0 = 1000 * MS;
	d.t1 = 1300 * MS;
	d.cpu_ns1 = 40 * MS;
	d.ops = 5000;
	d.measured = 1;
	evidence_thread(e, &d, "drainer", 0);
	e->th[0].cpu_ns = 258 * MS;
	assert_int_equal(validity_check(e, &vrules_default, why, sizeof(why)), 1);
	e->th[0].cpu_ns = 200 * MS; /* 67% + 13%: something else took the rest */
	expect(e,
	       "oncpu: writer0 on a CPU 66.7% of its window (+13.3% by the bench's other threads "
	       "on CPU 0)");
}

/* Oversubscribed (shepherd --cpus 16 on 2 CPUs): two co-running threads on CPU 0 each get a fair
 * share of half; one that ran 12% of its window fails, though the two together filled it. */
static void oversubscribed_against_fair_share(void **s)
{
	(void)s;
	struct evidence *e = clean();
	char why[512];
	e->th[1].want_cpu = e->th[1].cpu_start = e->th[1].cpu_end = 0; /* on the writer's CPU */
	e->th[0].cpu_ns = 150 * MS;
	e->th[1].cpu_ns = 150 * MS; /* half each: their fair share */
	assert_int_equal(validity_check(e, &vrules_default, why, sizeof(why)), 1);
	e->th[0].cpu_ns = 36 * MS; /* 12%, while the reader took the rest */
	e->th[1].cpu_ns = 264 * MS;
	expect(e, "oncpu: writer0 on a CPU 12.0% of its window, below 90% of its fair share 50.0% "
		  "(CPU 0 shared by 2 co-running threads)");
}

static void sleeper_role_not_checked(void **s)
{
	(void)s;
	struct evidence *e = clean(); /* refill's bound worker: expected not to run, no operation */
	struct thr w = { 0 };
	char why[512];
	w.role = 1;
	w.want_cpu = w.cpu_start = w.got_cpu_end = 0;
	w.t0 = 1000 * MS;
	w.t1 = 1300 * MS;
	w.cpu_ns1 = 10000;
	w.measured = 1;
	evidence_thread(e, &w, "worker", 0);
	assert_int_equal(validity_check(e, &vrules_default, why, sizeof(why)), 1);
	done(e);
}

static void windows_apart(void **s)
{
	(void)s;
	struct evidence *e = clean(); /* the reader ran its window after the writer's */
	struct vrules v = vrules_default;
	e->th[1].t0 += 200 * MS;
	e->th[1].t1 += 200 * MS;
	v.window_tol = 1;
	char why[512];
	assert_int_equal(validity_check(e, &v, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "overlap: co-running windows overlap 33.3% of the longest"));
	done(e);
}

/* Windows with nothing in common measured no co-running: invalid even with --valid-overlap 0 (the
 * suite's LENIENT), where a shepherd run on a loaded host otherwise had no window to report. */
static void disjoint_windows_invalid_at_any_tolerance(void **s)
{
	(void)s;
	struct evidence *e = clean();
	struct vrules v = vrules_default;
	v.window_tol = 10;
	v.overlap_min = 0;
	char why[512];
	e->th[1].t0 += 400 * MS; /* the reader starts 100 ms after the writer ended */
	e->th[1].t1 += 400 * MS;
	assert_int_equal(validity_check(e, &v, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "overlap: co-running windows overlap 0.0% of the longest"));
	e->th[1].t0 -= 399 * MS; /* 1 ms in common: the tolerance 0 passes it */
	e->th[1].t1 -= 399 * MS;
	assert_int_equal(validity_check(e, &v, why, sizeof(why)), 1);
	done(e);
}

static void stolen(void **s)
{
	(void)s;
	struct evidence *e = clean();
	char why[512];
	/* a 0.3 s window: one 10 ms tick is 3.3% of it, more than the 2% bound; one tick passes */
	e->th[1].steal_ns = 10.0 * MS;
	assert_int_equal(validity_check(e, &vrules_default, why, sizeof(why)), 1);
	e->th[1].steal_ns = 20.0 * MS; /* two ticks */
	assert_int_equal(validity_check(e, &vrules_default, why, sizeof(why)), 0);
	if (!strstr(why, "steal: CPU 1 lost 6.7% of reader0's window (coarse: /proc/stat counts "
			 "steal in ticks of 3.3% of this window, so at least two ticks count)"))
		fail_msg("%s", why);
	/* a 1 s window resolves 2%: 3 ticks (3%) fail without the word coarse */
	e->th[1].t1 = e->th[1].t0 + 1000 * MS;
	e->th[0].t1 = e->th[0].t0 + 1000 * MS;
	e->th[0].cpu_ns = e->th[1].cpu_ns = 999 * MS;
	e->th[1].steal_ns = 30.0 * MS;
	assert_int_equal(validity_check(e, &vrules_default, why, sizeof(why)), 0);
	if (!strstr(why, "steal: CPU 1 lost 3.0% of reader0's window") || strstr(why, "coarse"))
		fail_msg("%s", why);
	done(e);
}

static void steal_unknown_is_no_rule(void **s)
{
	(void)s;
	struct evidence *e = clean();
	char why[512];
	e->th[0].steal_ns = e->th[1].steal_ns = -1;
	assert_int_equal(validity_check(e, &vrules_default, why, sizeof(why)), 1);
	assert_true(ev_steal_frac(&e->th[0]) < 0);
	done(e);
}

static void migrated(void **s)
{
	(void)s;
	struct evidence *e = clean();
	e->th[1].cpu_end = 0;
	expect(e, "migration: reader0 bound to CPU 1 ran on 1 then 0");
}

static void host_moved(void **s)
{
	(void)s;
	struct evidence *e = clean(); /* the case: an SMT sibling, then another core */
	e->probe_before[0] = 24.7;
	e->probe_after[0] = 147.0;
	expect(e, "probe: CPUs 0-1 24.7 ns before and 147.0 ns after (x5.95)");
}

static void setting_not_achieved(void **s)
{
	(void)s;
	struct evidence *e = clean(); /* the case: --drain-us 50 drained every 131 us */
	evidence_setting(e, "drain period", 50, 131, "us");
	expect(e, "setting: drain period 131 us achieved for 50 requested (+162%)");
}

static void setting_keeps_worst(void **s)
{
	(void)s;
	struct evidence *e =
	    clean(); /* two threads' work: the one furthest from the request counts */
	evidence_setting_max(e, "work", 500, 520, "ns/op");
	evidence_setting_max(e, "work", 500, 944, "ns/op");
	evidence_setting_max(e, "work", 500, 510, "ns/op");
	assert_int_equal(e->nset, 1);
	expect(e, "setting: work 944 ns/op achieved for 500 requested (+89%)");
}

static void every_broken_rule_named(void **s)
{
	(void)s;
	struct evidence *e = clean();
	char why[512];
	e->th[1].cpu_ns = 100 * MS;
	e->th[0].cpu_end = 1;
	assert_int_equal(validity_check(e, &vrules_default, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "oncpu: reader0"));
	assert_non_null(strstr(why, "; migration: writer0"));
	done(e);
}

static void ci_needs_six(void **s)
{
	(void)s;
	double v[6] = { 5, 3, 4, 1, 2, 6 }, lo, hi;
	assert_int_equal(median_ci95(v, 5, &lo, &hi), -1);
	assert_int_equal(median_ci95(v, 6, &lo, &hi), 0);
	assert_true(lo == 1 && hi == 6);
	double w[20];
	for (int i = 0; i < 20; i++)
		w[i] = i + 1;
	assert_int_equal(median_ci95(w, 20, &lo, &hi), 0);
	assert_true(lo == 6 && hi == 15); /* ranks 6 and 15 of 20: coverage 95.9% */
}

static void auto_stops_on_ci(void **s)
{
	(void)s;
	struct reps_auto a = { 0.05, 30, 600 };
	double v[30], width;
	for (int i = 0; i < 30; i++)
		v[i] = 100 + (i % 3); /* 100..102: a 2% interval */
	for (int n = 1; n < REPS_AUTO_MIN; n++)
		assert_int_equal(reps_auto_stop(v, n, n, 1, &a, &width), REPS_GO);
	assert_int_equal(reps_auto_stop(v, 6, 6, 1, &a, &width), REPS_CI);
	assert_true(width > 0.019 && width < 0.021);
}

static void auto_never_past_caps(void **s)
{
	(void)s;
	struct reps_auto a = { 0.05, 12, 600 };
	double v[40], width;
	int stopped = 0;
	for (int i = 0; i < 40; i++)
		v[i] = i % 2 ? 50 : 150; /* a spread that never narrows */
	for (int n = 1; n <= 40 && !stopped; n++) {
		enum reps_stop st = reps_auto_stop(v, n, n, 1, &a, &width);
		if (st != REPS_GO) {
			assert_int_equal(st, REPS_MAX);
			assert_int_equal(n, 12);
			stopped = 1;
		}
	}
	assert_true(stopped);
	assert_int_equal(reps_auto_stop(v, 3, 4, 601, &a, &width), REPS_TIME);
	assert_int_equal(reps_auto_stop(v, 2, 12, 1, &a, &width),
			 REPS_MAX); /* invalid ones count as repetitions */
	assert_true(width < 0);
}

/* A configuration whose every attempt had its threads on a CPU about a third of the window: the end
 * of the run names it (not the one with a valid repetition), says why in words with the mean value,
 * and the --valid-oncpu bound that lets its best attempt pass; every configuration valid: nothing.
 */
static void measured_nothing_in_words(void **s)
{
	(void)s;
	static const struct bench b = { .name = "pending-bit", .variant_col = "layout" };
	struct variant var[2] = { { "shared", 0 }, { "padded", 0 } };
	struct bench_ctx *c = calloc(1, sizeof(*c));
	char why[1024], *text = NULL;
	size_t len = 0;
	c->b = &b;
	c->var = var;
	c->nvar = 2;
	struct vrules rules = vrules_default;
	c->rules = &rules;
	c->attempts = 3;
	struct novalid *nv = novalid_new(2);
	novalid_add(nv, 1, 1, NULL);
	FILE *f = open_memstream(&text, &len);
	novalid_print(nv, c, f, "x.csv");
	fclose(f);
	assert_int_equal(novalid_count(nv), 0);
	assert_string_equal(text, "");
	free(text);
	const double oncpu[3] = { 0.30, 0.35, 0.40 };
	for (int a = 0; a < 3; a++) {
		struct evidence *e = clean();
		struct vbroken vb = { 0 };
		for (int i = 0; i < e->n; i++)
			e->th[i].cpu_ns = (uint64_t)(oncpu[a] * (i ? 1.0 : 1.1) * 300 * MS);
		assert_int_equal(validity_judge(e, &vrules_default, why, sizeof(why), &vb), 0);
		assert_int_equal(vb.hit[VR_ONCPU], 2); /* both threads, the reader's the lowest */
		assert_true(fabs(vb.worst[VR_ONCPU] - oncpu[a]) < 1e-6);
		novalid_add(nv, 0, 0, &vb);
		done(e);
	}
	f = open_memstream(&text, &len);
	novalid_print(nv, c, f, "x.csv");
	fclose(f);
	assert_int_equal(novalid_count(nv), 1);
	const char *want[] = {
		"c2cbench: measured nothing: 1 of 2 configuration(s) of pending-bit got no valid "
		"repetition: layout shared\n",
		"  why: in 3 of its 3 attempt(s), threads were on a CPU 35% of their windows "
		"(--valid-oncpu asks 90%): the machine is busy "
		"(rule oncpu, docs/validity.md)\n",
		"  try: a quieter machine (no other jobs on these CPUs); --valid-oncpu 40 lets the "
		"best attempt pass this rule (now 90)\n",
		"  try: more attempts per repetition, --max-attempts 6 (now 3)\n",
		"  exit status 4; every attempt is a row in x.csv, with its invalid_reason\n",
	};
	char *one = joined_lines(text); /* lines over 100 columns continue on the next */
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (!strstr(one, want[i]))
			fail_msg("'%s' not in:\n%s", want[i], text);
	assert_null(strstr(text, "padded"));
	for (const char *l = text; *l;) { /* each line within 100 columns */
		size_t n = strcspn(l, "\n");
		assert_in_range(n, 1, 100);
		l += n + (l[n] == '\n');
	}
	free(one);
	free(text);
	novalid_free(nv);
	free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(clean_is_valid),
		cmocka_unit_test(no_ops),
		cmocka_unit_test(window_off),
		cmocka_unit_test(window_rule_off_for_counted_runs),
		cmocka_unit_test(off_cpu),
		cmocka_unit_test(own_thread_sharing_is_not_off_cpu),
		cmocka_unit_test(sleeper_role_not_checked),
		cmocka_unit_test(windows_apart),
		cmocka_unit_test(disjoint_windows_invalid_at_any_tolerance),
		cmocka_unit_test(stolen),
		cmocka_unit_test(steal_unknown_is_no_rule),
		cmocka_unit_test(migrated),
		cmocka_unit_test(host_moved),
		cmocka_unit_test(setting_not_achieved),
		cmocka_unit_test(setting_keeps_worst),
		cmocka_unit_test(every_broken_rule_named),
		cmocka_unit_test(measured_nothing_in_words),
		cmocka_unit_test(ci_needs_six),
		cmocka_unit_test(oversubscribed_against_fair_share),
		cmocka_unit_test(auto_stops_on_ci),
		cmocka_unit_test(auto_never_past_caps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
