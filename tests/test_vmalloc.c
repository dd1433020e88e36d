/* vmalloc: the queue path on made-up sequences (the model's own functions), then a short real run
 * of every layout (whole rows, positive rates, the section layout's distance as the linker placed
 * it). */
#include "tests/testutil.h"
#include "analysis/groups_schema.h"
#include "lib/csvread.h"
#include "benches/vmalloc/model.h"
#include "layouts/layout.h"
#include <ini.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fixture {
	struct work_struct work;
	struct vm_node *nodes;
	struct vm_lazy lazy;
	struct vm_pool pool;
	struct vm_model m;
	struct vm_tally t;
};

/* A model with lazy_max 10 pages and an idle work item. */
static struct fixture *fixture_new(void)
{
	struct fixture *f = aligned_alloc(C2C_BLOCK, sizeof(struct fixture));
	assert_non_null(f);
	memset(f, 0, sizeof(*f));
	f->pool.id = 3;
	f->m = (struct vm_model){ &f->work, &f->nodes, &f->lazy, &f->pool, 10 };
	vm_model_init(&f->m);
	return f;
}

/* Below lazy_max no RMW at all; past it, a locked test_and_set on every call, set or not. */
static void rmw_on_every_call_past_lazy_max(void **s)
{
	(void)s;
	struct fixture *f = fixture_new();
	for (int i = 0; i < 5; i++) /* 2, 4, ..., 10: not over 10 */
		assert_int_equal(vm_free_lazy(&f->m, 2, &f->t), VM_BELOW);
	assert_int_equal(f->t.rmw, 0);
	assert_int_equal(vm_free_lazy(&f->m, 2, &f->t), VM_BIT_WAS_CLEAR); /* 12 > 10 */
	for (int i = 0; i < 7; i++)
		assert_int_equal(vm_free_lazy(&f->m, 2, &f->t), VM_ALREADY_PENDING);
	assert_int_equal(f->t.frees, 13);
	assert_int_equal(f->t.over, 8);
	assert_int_equal(f->t.rmw, 8);
	assert_int_equal(f->t.already, 7);
	assert_int_equal(f->lazy.nr, 26);
	assert_true(f->work.data & WORK_STRUCT_PENDING);
	free(f);
}

/* The rest of queue_work_on() runs only for the call that found the bit clear; it writes the entry.
 */
static void full_queue_only_when_bit_was_clear(void **s)
{
	(void)s;
	struct fixture *f = fixture_new();
	f->lazy.nr = 100;
	int full = 0;
	for (int i = 0; i < 20; i++)
		if (vm_free_lazy(&f->m, 2, &f->t) == VM_BIT_WAS_CLEAR) {
			vm_queue_rest(&f->m, &f->t);
			full++;
		}
	assert_int_equal(full, 1);
	assert_int_equal(f->t.queued, 1);
	assert_int_equal(f->t.rmw, 20);
	assert_ptr_equal(f->pool.worklist.next, &f->work.entry);
	assert_ptr_equal(f->work.entry.next, &f->pool.worklist);
	assert_int_equal(f->work.data & (WORK_STRUCT_PENDING | WORK_STRUCT_PWQ),
			 WORK_STRUCT_PENDING | WORK_STRUCT_PWQ);
	assert_true(offsetof(struct work_struct, entry) + sizeof(struct list_head) <=
		    64); /* same line as data */
	free(f);
}

/* The drain takes the work and clears PENDING (the next free queues again for real), and its purge
 * subtracts what was lazy when it began: frees during the purge stay counted. */
static void drain_clears_pending_and_resets_the_count(void **s)
{
	(void)s;
	struct fixture *f = fixture_new();
	f->lazy.nr = 10;
	assert_int_equal(vm_take_work(&f->m), 0); /* nothing queued */
	assert_int_equal(vm_free_lazy(&f->m, 2, &f->t), VM_BIT_WAS_CLEAR);
	vm_queue_rest(&f->m, &f->t);
	assert_int_equal(vm_take_work(&f->m), 1);
	assert_int_equal(f->work.data, 3L << WORK_OFFQ_POOL_SHIFT);
	assert_ptr_equal(f->pool.worklist.next, &f->pool.worklist);
	assert_ptr_equal(f->work.entry.next, &f->work.entry);
	long snap = vm_purge_begin(&f->m);
	assert_int_equal(snap, 12);
	assert_int_equal(vm_free_lazy(&f->m, 2, &f->t),
			 VM_BIT_WAS_CLEAR); /* during the purge: queued again */
	vm_queue_rest(&f->m, &f->t);
	assert_int_equal(vm_free_lazy(&f->m, 2, &f->t), VM_ALREADY_PENDING);
	vm_purge_end(&f->m, snap);
	assert_int_equal(f->lazy.nr, 4);
	assert_int_equal(vm_take_work(&f->m), 1); /* the re-queued work runs once more */
	uint64_t rmw = f->t.rmw;
	assert_int_equal(vm_free_lazy(&f->m, 2, &f->t), VM_BELOW); /* 6 <= 10: no RMW */
	assert_int_equal(f->t.rmw, rmw);
	assert_int_equal(f->t.queued, 2);
	free(f);
}

/* A purge costs what it purges: nothing with nothing lazy (not even the flush), else one flush plus
 * a cost per area detached, so the cost grows with the backlog; split in two, the same areas cost
 * one flush more. */
static void purge_cost_grows_with_the_backlog(void **s)
{
	(void)s;
	struct vm_purge p = vm_purge_cost(0, 2, 10000, 60);
	assert_int_equal(p.areas, 0);
	assert_true(p.ns == 0);
	p = vm_purge_cost(2, 2, 10000, 60); /* one 1-page area and its guard page */
	assert_int_equal(p.areas, 1);
	assert_true(p.ns == 10060);
	p = vm_purge_cost(16384, 2, 10000, 60); /* the 2-CPU lazy_max: 8,192 areas */
	assert_int_equal(p.pages, 16384);
	assert_int_equal(p.areas, 8192);
	assert_true(p.ns == 10000 + 60.0 * 8192);
	assert_int_equal(vm_purge_cost(12, 6, 0, 1).areas, 2); /* --pages 5: 6 pages an area */
	double last = 0;
	for (long pages = 2; pages <= 65536; pages *= 2) {
		double ns = vm_purge_cost(pages, 2, 10000, 60).ns;
		assert_true(ns > last);
		last = ns;
	}
	double whole = vm_purge_cost(2000, 2, 10000, 60).ns,
	       halves = 2 * vm_purge_cost(1000, 2, 10000, 60).ns;
	assert_true(halves - whole == 10000);
	assert_true(vm_purge_cost(-4, 2, 10000, 60).ns == 0); /* never a negative backlog */
}

/* A threshold crossing as the kernel serves it: the purge that found the count past lazy_max is
 * re-queued by the first free during it, and the second drain purges only what came meanwhile, so
 * it costs a fraction of the first. */
static void a_crossing_then_a_short_second_drain(void **s)
{
	(void)s;
	struct fixture *f = fixture_new(); /* lazy_max 10 */
	for (int i = 0; i < 5; i++)
		assert_int_equal(vm_free_lazy(&f->m, 2, &f->t), VM_BELOW);
	assert_int_equal(vm_free_lazy(&f->m, 2, &f->t), VM_BIT_WAS_CLEAR); /* 12 > 10 */
	vm_queue_rest(&f->m, &f->t);
	assert_int_equal(vm_take_work(&f->m), 1);
	long snap = vm_purge_begin(&f->m);
	struct vm_purge first = vm_purge_cost(snap, 2, 1000, 100);
	assert_true(snap > f->m.lazy_max); /* a crossing */
	assert_int_equal(vm_free_lazy(&f->m, 2, &f->t), VM_BIT_WAS_CLEAR); /* 14: re-queued */
	vm_queue_rest(&f->m, &f->t);
	vm_purge_end(&f->m, snap);
	assert_int_equal(vm_take_work(&f->m), 1);
	snap = vm_purge_begin(&f->m);
	struct vm_purge second = vm_purge_cost(snap, 2, 1000, 100);
	assert_false(snap > f->m.lazy_max); /* not a crossing: its backlog is one free */
	assert_int_equal(first.areas, 6);
	assert_int_equal(second.areas, 1);
	assert_true(second.ns < first.ns);
	vm_purge_end(&f->m, snap);
	assert_int_equal(f->lazy.nr, 0);
	assert_int_equal(vm_take_work(&f->m), 0); /* nothing more: two drains for the crossing */
	free(f);
}

/* The drain worker's tallies as the bench keeps them (cycle.c vm_drain_once). */
struct drain_tally {
	int drains, crossings, requeued;
};

/* n frees, each queueing the work for real where it found PENDING clear. */
static void frees(struct fixture *f, int n)
{
	for (int i = 0; i < n; i++)
		if (vm_free_lazy(&f->m, 2, &f->t) == VM_BIT_WAS_CLEAR)
			vm_queue_rest(&f->m, &f->t);
}

/* One run of the drain work, with `during` frees landing during its purge; classified as the
 * bench does. Returns its snapshot, or -1 when the work was not queued. */
static long drain(struct fixture *f, struct drain_tally *d, int during)
{
	if (!vm_take_work(&f->m))
		return -1;
	long snap = vm_purge_begin(&f->m);
	frees(f, during);
	vm_purge_end(&f->m, snap);
	enum vm_drain_kind k = vm_drain_kind(snap, f->m.lazy_max);
	d->drains++;
	d->crossings += k == VM_DRAIN_CROSSING;
	d->requeued += k == VM_DRAIN_REQUEUED;
	return snap;
}

/* The drains a crossing needs by itself do not depend on whether a free lands during its purge:
 * the same three crossings with a free during each purge (a quiet machine: each re-queues the
 * work, whose second run purges that free alone) and with none (a loaded one: one drain each)
 * give 3 crossings and (drains - requeued) / crossings = 1 both times; only the re-queues differ.
 */
static void drains_per_crossing_whatever_lands_during_the_purge(void **s)
{
	(void)s;
	for (int during = 0; during <= 1; during++) {
		struct fixture *f = fixture_new(); /* lazy_max 10 */
		struct drain_tally d = { 0 };
		for (int crossing = 0; crossing < 3; crossing++) {
			frees(f, 6); /* from 0 to 12, past 10 */
			assert_int_equal(drain(f, &d, during), 12);
			long second = drain(f, &d, 0);
			assert_int_equal(second, during ? 2 : -1); /* the free during the purge */
			assert_int_equal(drain(f, &d, 0), -1);      /* then nothing queued */
		}
		assert_int_equal(d.crossings, 3);
		assert_int_equal(d.requeued, during ? 3 : 0);
		assert_int_equal(d.drains, 3 + d.requeued);
		assert_int_equal((d.drains - d.requeued) / d.crossings, 1);
		free(f);
	}
}

/* What decides a drain's kind is the backlog it found, not when it was queued: frees during a
 * purge that bring more than lazy_max of their own make the next drain a crossing of its own;
 * a free that added its pages before a purge's snapshot and called schedule_work() only after
 * the purge ended (off its CPU in between) queues a drain that finds nothing: a re-queue, which
 * costs nothing (the kernel's work "will bail out if nothing to be done"). */
static void a_drain_is_what_its_backlog_was(void **s)
{
	(void)s;
	struct fixture *f = fixture_new(); /* lazy_max 10 */
	struct drain_tally d = { 0 };
	frees(f, 6);
	assert_int_equal(drain(f, &d, 6), 12); /* 6 frees, 12 pages, during the purge */
	assert_int_equal(drain(f, &d, 0), 12); /* queued during the purge, and past lazy_max */
	assert_int_equal(d.crossings, 2);
	assert_int_equal(d.requeued, 0);
	assert_int_equal(drain(f, &d, 0), -1);
	frees(f, 6);
	long nr = vm_lazy_add(&f->m, 2, &f->t); /* the late free's add: 14, purged next */
	assert_int_equal(drain(f, &d, 0), 14);
	/* its schedule_work() after the purge: PENDING clear, queued for a backlog of nothing */
	assert_int_equal(vm_schedule_if_over(&f->m, nr, &f->t), VM_BIT_WAS_CLEAR);
	vm_queue_rest(&f->m, &f->t);
	assert_int_equal(drain(f, &d, 0), 0);
	assert_true(vm_purge_cost(0, 2, 10000, 60).ns == 0); /* and costs nothing */
	assert_int_equal(d.crossings, 3);
	assert_int_equal(d.requeued, 1);
	assert_int_equal(vm_drain_kind(11, 10), VM_DRAIN_CROSSING);
	assert_int_equal(vm_drain_kind(10, 10), VM_DRAIN_REQUEUED); /* at lazy_max: not past it */
	assert_int_equal(vm_drain_kind(2, 1), VM_DRAIN_CROSSING);   /* --lazy-max 1: every drain */
	free(f);
}

/* A set of schema 12 or before counted the re-queues in drains_per_crossing: compare reads its
 * column as not recorded, never as today's; from 13 on it is today's. */
static void drains_per_crossing_before_13_is_not_todays(void **s)
{
	(void)s;
	const struct grp_schema_change *ch;
	assert_null(grp_schema_col(12, "vmalloc", "drains_per_crossing", &ch));
	assert_non_null(ch);
	assert_int_equal(ch->since, 13);
	assert_string_equal(grp_schema_col(13, "vmalloc", "drains_per_crossing", &ch),
			    "drains_per_crossing");
	assert_string_equal(grp_schema_col(12, "vmalloc", "crossings", &ch), "crossings");
	assert_null(ch);
}

/* Where the linker put a symbol of the c2cbench binary (nm), or -1. */
static long symbol_addr(const char *name)
{
	char cmd[512], line[256];
	const char *bin = getenv("C2C_ELF") ? getenv("C2C_ELF")
		: getenv("C2C_BIN")	    ? getenv("C2C_BIN")
					    : "./c2cbench";
	const char *nm = getenv("C2C_NM") ? getenv("C2C_NM")
					  : "nm"; /* the arm64 build under qemu: its own nm */
	long addr = -1;
	snprintf(cmd, sizeof(cmd), "%s '%s'", nm, bin);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p)) {
		char sym[200], type;
		unsigned long a;
		if (sscanf(line, "%lx %c %199s", &a, &type, sym) == 3 && !strcmp(sym, name))
			addr = (long)a;
	}
	pclose(p);
	return addr;
}

static double num(const struct table *t, long r, const char *col)
{
	const char *v = table_get(t, r, col);
	if (!v)
		fail_msg("column %s missing", col);
	return atof(v);
}

/* The text with its wrapped lines joined again ("\n" and the continuation indent: one space). */
static const char *unwrapped(const char *out)
{
	static char buf[1 << 16];
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

/* Every layout, short: whole rows, every rate positive, the distance as placed. */
static void every_layout_end_to_end(void **s)
{
	(void)s;
	struct cmd_result r;
	struct table t;
	char path[300], err[512];
	snprintf(path, sizeof(path), "%s/vm.csv", test_dir);
	run_c2c(&r, "run", "vmalloc", "--duration", "0.1", "--warmup", "0.02", "--max-attempts",
		"1", LENIENT, "--reps", "2", "--lazy-max", "2000", "--out",
		path, NULL);
	if (!RAN(r.status)) /* 4: a layout whose attempts were all invalid (a loaded host) */
		fail_msg("vmalloc run failed: %s", r.err);
	assert_non_null(strstr(r.out, "cycle_ns"));
	/* the summary: each layout's change against shared with its interval and p, then the seed's
	 * figures where the rows say the run had the seed's setting, else why not; where every
	 * layout measured */
	if (every_config_measured(path, "layout")) {
		const char *ch = strstr(r.out, "change against 'shared'");
		assert_non_null(ch);
		assert_non_null(strstr(ch, "\nsection "));
		assert_non_null(strstr(ch, "p="));
		/* two workers on this machine are not the seed's setting: its figures are left
		 * out, and the rows say why (the seed's 16 workers, its lazy_max, two packages) */
		assert_null(strstr(ch, "beside: seed 003"));
		assert_null(strstr(ch, "-12.61%"));
		assert_non_null(strstr(unwrapped(ch),
				       "the seed's figures are left out, the setting differs: "
				       "workers 2 (seed 16); lazy_max 2000 (seed 49152)"));
	}
	assert_int_equal(table_read(&t, path, err), 0); /* a short row is an error here */
	assert_int_equal(t.nrows, 2 * layout_count());
	for (long i = 0; i < t.nrows; i++) {
		const char *name = table_get(&t, i, "layout");
		const struct layout *l = layout_find(name);
		assert_non_null(l);
		const char *rates[] = { "cycle_ns", "cycles_per_s", "cycles", "frees" };
		for (size_t k = 0; k < 4 && row_measured(&t, i); k++)
			if (!(num(&t, i, rates[k]) > 0))
				fail_msg("%s: %s is '%s'", name, rates[k],
					 table_get(&t, i, rates[k]));
		if (row_measured(&t, i)) /* lazy_max 2000 is crossed in 0.1 s */
			assert_true(num(&t, i, "frees_over_lazy_max") > 0);
		assert_true(num(&t, i, "pending_rmw") == num(&t, i, "frees_over_lazy_max"));
		const char *seed = "no: workers 2 (seed 16); lazy_max 2000 (seed 49152)";
		assert_int_equal(strncmp(table_get(&t, i, "seed_setting"), seed, strlen(seed)), 0);
		/* every drain is a crossing's or a re-queue, and a crossing needs one drain by
		 * itself, whatever landed during its purge */
		assert_true(num(&t, i, "drains") ==
			    num(&t, i, "crossings") + num(&t, i, "requeued"));
		if (num(&t, i, "crossings") > 0) {
			assert_string_equal(table_get(&t, i, "drains_per_crossing"), "1.000");
			assert_true(fabs(num(&t, i, "requeued_per_crossing") -
					 num(&t, i, "requeued") / num(&t, i, "crossings")) < 1e-3);
		} else {
			assert_string_equal(table_get(&t, i, "drains_per_crossing"), "NA");
			assert_string_equal(table_get(&t, i, "requeued_per_crossing"), "NA");
		}
		if (num(&t, i, "crossings") > 0) /* a crossing's drain detached its backlog (a
						   re-queue may find nothing) */
			assert_true(num(&t, i, "purge_us_modelled") > 0);
		/* placement auto: vmalloc's own (spread), and the row says so */
		assert_string_equal(table_get(&t, i, "placement_requested"), "auto");
		assert_non_null(strstr(table_get(&t, i, "placement_auto_why"),
				       "vmalloc's auto is spread"));
		double share = num(&t, i, "over_on_drainer_cpu_pct");
		assert_true(share >= 0 && share <= 100);
		long dist = (long)num(&t, i, "distance");
		long wa = strtol(table_get(&t, i, "work_addr"), NULL, 16),
		     ma = strtol(table_get(&t, i, "meta_addr"), NULL, 16);
		assert_int_equal(dist, ma - wa);
		if (l->global_work) { /* as linked into the binary that ran */
			long w = symbol_addr("section_drain_vmap_work"),
			     m = symbol_addr("section_vmap_nodes");
			assert_true(w > 0 && m > 0);
			assert_int_equal(dist, m - w);
			assert_int_equal(wa % 64, 0);
			assert_string_equal(table_get(&t, i, "placed_as"), "globals");
		} else {
			assert_int_equal(dist, (long)l->meta_off - (long)l->work_off);
		}
	}
	table_free(&t);
}

/* One worker shares the drain worker's CPU (schedule_work() queues on the caller's CPU), so every
 * free past lazy_max is attributed to that CPU: 100%, whatever the machine. */
static void one_worker_frees_on_the_drainer_cpu(void **s)
{
	(void)s;
	struct cmd_result r;
	struct table t;
	char path[300], err[512];
	snprintf(path, sizeof(path), "%s/vm1.csv", test_dir);
	run_c2c(&r, "run", "vmalloc", "--threads", "1", "--layout", "shared", "--duration", "0.1",
		"--warmup", "0.02", "--max-attempts", "1", LENIENT, "--reps", "1",
		"--lazy-max", "2000", "--out", path, NULL);
	if (!RAN(r.status)) /* 4: its one attempt invalid (a loaded host) */
		fail_msg("vmalloc run failed: %s", r.err);
	assert_int_equal(table_read(&t, path, err), 0);
	assert_int_equal(t.nrows, 1);
	assert_string_equal(table_get(&t, 0, "worker_cpus"), table_get(&t, 0, "drainer_cpu"));
	if (row_measured(&t, 0)) {
		assert_true(num(&t, 0, "frees_over_lazy_max") > 0);
		assert_true(num(&t, 0, "over_on_drainer_cpu_pct") == 100.0);
	}
	table_free(&t);
}

/* The seeds preset's small-machine entry, as its options. */
struct entry {
	char opt[12][32], val[12][64];
	int n;
};

static int entry_key(void *user, const char *section, const char *name, const char *value)
{
	struct entry *e = user;
	if (strcmp(section, "vmalloc-lazy-max-1") || !strcmp(name, "bench") ||
	    !strcmp(name, "shows"))
		return 1;
	if (e->n == 12)
		return 0;
	snprintf(e->opt[e->n], sizeof(e->opt[0]), "--%s", name);
	snprintf(e->val[e->n++], sizeof(e->val[0]), "%s", value);
	return 1;
}

/* presets/seeds.ini [vmalloc-lazy-max-1], run as the preset gives it but with short repetitions:
 * it completes with valid rows, every free past lazy_max. Its effect is make bench's to show. */
static void small_machine_entry_runs(void **s)
{
	(void)s;
	struct entry e = { .n = 0 };
	struct cmd_result r;
	struct table t;
	char path[300], err[512];
	assert_int_equal(ini_parse("presets/seeds.ini", entry_key, &e), 0);
	assert_true(e.n >= 2); /* the entry exists: its layouts and lazy-max at least */
	snprintf(path, sizeof(path), "%s/small.csv", test_dir);
	const char *argv[64] = { "run", "vmalloc" };
	int n = 2;
	for (int i = 0; i < e.n; i++) {
		int timing = !strcmp(e.opt[i], "--reps") || !strcmp(e.opt[i], "--duration") ||
			     !strcmp(e.opt[i], "--warmup");
		if (!timing) { /* the entry's own settings; its repetitions are shortened below */
			argv[n++] = e.opt[i];
			argv[n++] = e.val[i];
		}
	}
	/* relaxed rules, and invalid attempts (a window overrun on a busy machine) run again */
	const char *tail[] = { "--reps", "2", "--duration", "0.1", "--warmup", "0.02",
			       "--max-attempts", "3", LENIENT, "--out", path, NULL };
	for (size_t i = 0; tail[i]; i++)
		argv[n++] = tail[i];
	argv[n] = NULL;
	run_c2cv(&r, argv);
	if (!RAN(r.status)) /* 4: a layout with no valid repetition (a loaded host) */
		fail_msg("the small-machine entry failed (%d): %s", r.status, r.err);
	assert_int_equal(table_read(&t, path, err), 0);
	int valid = 0;
	for (long i = 0; i < t.nrows; i++) {
		if (strcmp(table_get(&t, i, "valid"), "yes"))
			continue;
		valid++;
		assert_string_equal(table_get(&t, i, "lazy_max"), "1");
		assert_true(num(&t, i, "cycle_ns") > 0 && num(&t, i, "cycle_cpu_ns") > 0);
		assert_true(num(&t, i, "over_pct") == 100.0); /* every free past lazy_max */
	}
	if (!r.status) /* every layout (two or more) has a valid repetition */
		assert_true(valid >= 2);
	table_free(&t);
}

/* Bad input: one line naming the value, exit 2, no CSV. */
static void bad_pages_refused(void **s)
{
	(void)s;
	struct cmd_result r;
	char path[300];
	snprintf(path, sizeof(path), "%s/bad.csv", test_dir);
	run_c2c(&r, "run", "vmalloc", "--pages", "99999999", "--out", path, NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "--pages"));
	assert_false(file_exists(path));
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(rmw_on_every_call_past_lazy_max),
		cmocka_unit_test(full_queue_only_when_bit_was_clear),
		cmocka_unit_test(drain_clears_pending_and_resets_the_count),
		cmocka_unit_test(purge_cost_grows_with_the_backlog),
		cmocka_unit_test(a_crossing_then_a_short_second_drain),
		cmocka_unit_test(drains_per_crossing_whatever_lands_during_the_purge),
		cmocka_unit_test(a_drain_is_what_its_backlog_was),
		cmocka_unit_test(drains_per_crossing_before_13_is_not_todays),
		cmocka_unit_test(every_layout_end_to_end),
		cmocka_unit_test(one_worker_frees_on_the_drainer_cpu),
		cmocka_unit_test(small_machine_entry_runs),
		cmocka_unit_test(bad_pages_refused),
	};
	return cmocka_run_group_tests(t, test_dir_setup, test_dir_teardown);
}
