/* The percpu reserve model's watermark logic (benches/pcpu_reserve.c), without threads or clocks.
 */
#include "benches/refill/pcpu_reserve.h"
#include "lib/util.h" /* before cmocka, which defines a fail() macro */
#include "tests/testutil.h"
#include <string.h>

static struct pcpu_state fresh(long size, long chunk_pages, long empty, long partial)
{
	struct pcpu_cfg c = { size, chunk_pages, empty, partial };
	struct pcpu_state s;
	char err[ERRLEN];
	assert_int_equal(pcpu_cfg_check(&c, err), 0);
	pcpu_init(&s, &c);
	return s;
}

/* The seed's diagram: one 8-byte allocation leaves one empty page and 4088 bytes, and queues the
 * work. */
static void test_first_alloc_matches_seed_diagram(void **state)
{
	(void)state;
	struct pcpu_state s = fresh(8, 64, 2, 0);
	int queue = 0;
	assert_int_equal(s.objs_per_page, 512);
	assert_int_equal(pcpu_alloc_atomic(&s, &queue), 1);
	assert_int_equal(s.nr_empty_pop_pages, 1);
	assert_int_equal(s.cur_free * 8, 4088);
	assert_true(queue);
	/* then 1023 more succeed (each one queueing again: the reserve stays below LOW) */
	for (int i = 0; i < 1023; i++) {
		queue = 0;
		assert_int_equal(pcpu_alloc_atomic(&s, &queue), 1);
		assert_true(queue);
	}
	/* and the next one fails: "atomic alloc failed, no space left" */
	queue = 0;
	assert_int_equal(pcpu_alloc_atomic(&s, &queue), 0);
	assert_true(queue);
	assert_int_equal(s.atomic_failed, 1);
}

/* Above LOW nothing is queued; the work is queued by the allocation that breaks into the page that
 * leaves fewer than LOW empty pages. */
static void test_low_watermark(void **state)
{
	(void)state;
	struct pcpu_state s = fresh(8, 64, 4, 0);
	int queue, first_queue = -1;
	for (int i = 0; i < 4 * 512; i++) {
		queue = 0;
		assert_int_equal(pcpu_alloc_atomic(&s, &queue), 1);
		if (queue && first_queue < 0)
			first_queue = i;
	}
	/* pages are broken into at allocations 0, 512, 1024 (reserve 3, 2, 1): the third one queues
	 */
	assert_int_equal(first_queue, 2 * 512);
	assert_int_equal(s.nr_empty_pop_pages, 0);
}

/* pcpu_balance_populated: HIGH after a failure (clearing the flag), else HIGH - empty, clamped at
 * 0. */
static void test_nr_to_pop(void **state)
{
	(void)state;
	struct pcpu_state s = fresh(8, 64, 1, 0);
	int queue;
	assert_int_equal(pcpu_nr_to_pop(&s), PCPU_EMPTY_POP_PAGES_HIGH - 1);
	s.nr_empty_pop_pages = 6;
	assert_int_equal(pcpu_nr_to_pop(&s), 0);
	s.nr_empty_pop_pages = 0;
	assert_int_equal(pcpu_alloc_atomic(&s, &queue), 0);
	s.nr_empty_pop_pages = 3; /* even with pages in reserve, a failure asks for HIGH */
	assert_int_equal(pcpu_nr_to_pop(&s), PCPU_EMPTY_POP_PAGES_HIGH);
	assert_int_equal(s.atomic_failed, 0);
	assert_int_equal(pcpu_nr_to_pop(&s), 1);
}

/* Population claims unpopulated pages and creates a chunk when the newest is used up. */
static void test_claim_and_chunks(void **state)
{
	(void)state;
	struct pcpu_state s = fresh(8, 3, 2, 5); /* 2 empty + the partial page: the chunk is full */
	assert_int_equal(s.chunk_unpop, 0);
	assert_int_equal(s.cur_free, 5);
	assert_int_equal(pcpu_claim_page(&s), 1);
	assert_int_equal(s.chunks, 2);
	assert_int_equal(s.chunk_unpop, 2);
	assert_int_equal(s.nr_empty_pop_pages, 2); /* not in the reserve until populated */
	pcpu_page_populated(&s);
	assert_int_equal(s.nr_empty_pop_pages, 3);
	assert_int_equal(s.pages_populated, 1);
	assert_int_equal(pcpu_claim_page(&s), 0);
	assert_int_equal(pcpu_claim_page(&s), 0);
	assert_int_equal(pcpu_claim_page(&s), 1);
	assert_int_equal(s.chunks, 3);
}

/* With no worker at all, a burst gets exactly the initial reserve plus the partial page. */
static void test_burst_without_worker_gets_the_reserve(void **state)
{
	(void)state;
	const long cfg[][4] = {{8, 64, 2, 0}, {16, 64, 3, 100}, {4, 8, 0, 7}, {4096, 8, 5, 0}};
	for (size_t k = 0; k < ARRAY_SIZE(cfg); k++) {
		struct pcpu_state s = fresh(cfg[k][0], cfg[k][1], cfg[k][2], cfg[k][3]);
		long ok = 0, expect = cfg[k][2] * (4096 / cfg[k][0]) + cfg[k][3];
		int queue;
		for (int i = 0; i < 20000; i++)
			ok += pcpu_alloc_atomic(&s, &queue);
		assert_int_equal(ok, expect);
	}
}

/* A worker that populates one page per `step` allocations and is re-queued while it runs (PENDING
 * is cleared when it starts) keeps up with zero failures and needs about 2 runs per 3 pages. */
static void test_requeued_worker_keeps_up(void **state)
{
	(void)state;
	struct pcpu_state s = fresh(8, 64, 2, 0);
	int pending = 0, running = 0, queue;
	long to_pop = 0, progress = 0, runs = 0, failed = 0;
	const long step = 10; /* 20 us to populate a page / 2 us per allocation */
	for (long a = 0; a < 131072; a++) {
		if (!pcpu_alloc_atomic(&s, &queue))
			failed++;
		pending |= queue;
		if (!running &&
		    pending) { /* the worker starts: PENDING cleared, nr_to_pop computed */
			pending = 0;
			running = 1;
			runs++;
			to_pop = pcpu_nr_to_pop(&s);
			progress = 0;
		}
		if (running && to_pop && ++progress == step) {
			pcpu_claim_page(&s);
			pcpu_page_populated(&s);
			progress = 0;
			to_pop--;
		}
		if (running && !to_pop)
			running = 0;
	}
	assert_int_equal(failed, 0);
	assert_true(s.pages_populated >= 256 &&
		    s.pages_populated <= 256 + PCPU_EMPTY_POP_PAGES_HIGH);
	/* each refill cycle is one run that populates 3 pages and one re-queued run that finds 0 to
	 * do */
	assert_in_range(runs, 2 * 256 / 3 - 2, 2 * 256 / 3 + 4);
}

static void test_reserve_clock(void **state)
{
	(void)state;
	struct pcpu_state s = fresh(8, 64, 0, 1);
	pcpu_reserve_clock(&s, 100);
	assert_int_equal(s.empty_since, 100);
	pcpu_reserve_clock(&s, 130); /* still empty: the open period is kept */
	assert_int_equal(s.empty_since, 100);
	pcpu_claim_page(&s);
	pcpu_page_populated(&s);
	pcpu_reserve_clock(&s, 250);
	assert_int_equal(s.empty_ns, 150);
	assert_int_equal(s.empty_since, 0);
	s.nr_empty_pop_pages = 0;
	pcpu_reserve_clock(&s, 300);
	pcpu_reserve_clock_end(&s, 400);
	assert_int_equal(s.empty_ns, 250);
	pcpu_reserve_clock_end(&s, 500); /* nothing open: nothing added */
	assert_int_equal(s.empty_ns, 250);
}

static void test_cfg_check_rejects(void **state)
{
	(void)state;
	const struct pcpu_cfg bad[] = {
		{ 0, 64, 2, 0 },   { -8, 64, 2, 0 }, { 6, 64, 2, 0 },  { 8192, 64, 2, 0 },
		{ 8, 64, 2, 512 }, { 8, 64, 2, -1 }, { 8, 0, 2, 0 },   { 8, 2, 2, 1 },
		{ 8, 64, -1, 0 },
	};
	char err[ERRLEN];
	for (size_t k = 0; k < ARRAY_SIZE(bad); k++) {
		err[0] = 0;
		assert_int_equal(pcpu_cfg_check(&bad[k], err), -1);
		assert_true(strstr(err, "accepted") != NULL);
		assert_null(strchr(err, '\n'));
	}
	const struct pcpu_cfg good = { 4096, 3, 2, 0 };
	assert_int_equal(pcpu_cfg_check(&good, err), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_alloc_matches_seed_diagram),
		cmocka_unit_test(test_low_watermark),
		cmocka_unit_test(test_nr_to_pop),
		cmocka_unit_test(test_claim_and_chunks),
		cmocka_unit_test(test_burst_without_worker_gets_the_reserve),
		cmocka_unit_test(test_requeued_worker_keeps_up),
		cmocka_unit_test(test_reserve_clock),
		cmocka_unit_test(test_cfg_check_rejects),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
