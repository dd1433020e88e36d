/* The per-CPU allocator's populated-page reserve and its watermarks (see pcpu_reserve.h). */
#include "benches/refill/pcpu_reserve.h"
#include "lib/util.h"

long pcpu_objs_per_page(long obj_size)
{
	return PCPU_PAGE_SIZE / obj_size;
}

int pcpu_cfg_check(const struct pcpu_cfg *c, char *err)
{
	if (c->obj_size < PCPU_MIN_ALLOC_SIZE || c->obj_size > PCPU_PAGE_SIZE ||
	    c->obj_size % PCPU_MIN_ALLOC_SIZE)
		return err_set(err,
			       "--size: '%ld' is not accepted; accepted: %d..%d bytes, a multiple "
			       "of %d",
			       c->obj_size, PCPU_MIN_ALLOC_SIZE, PCPU_PAGE_SIZE,
			       PCPU_MIN_ALLOC_SIZE);
	long per_page = pcpu_objs_per_page(c->obj_size);
	if (c->initial_partial < 0 || c->initial_partial >= per_page)
		return err_set(err,
			       "--initial-partial: '%ld' is not accepted; accepted: 0..%ld (--size "
			       "%ld)",
			       c->initial_partial, per_page - 1, c->obj_size);
	long need = c->initial_empty + (c->initial_partial > 0);
	if (c->initial_empty < 0 || c->chunk_pages < 1 || need > c->chunk_pages)
		return err_set(
		    err,
		    "--chunk-pages: '%ld' is not accepted; accepted: %ld or more (--initial-empty, "
		    "+1 with a partial page)",
		    c->chunk_pages, need);
	return 0;
}

void pcpu_init(struct pcpu_state *s, const struct pcpu_cfg *c)
{
	*s = (struct pcpu_state){ 0 };
	s->objs_per_page = pcpu_objs_per_page(c->obj_size);
	s->chunk_pages = c->chunk_pages;
	s->cur_free = c->initial_partial;
	s->nr_empty_pop_pages = c->initial_empty;
	s->chunk_unpop = c->chunk_pages - c->initial_empty - (c->initial_partial > 0);
	s->chunks = 1;
}

int pcpu_alloc_atomic(struct pcpu_state *s, int *queue)
{
	/* Objects are taken from the page being filled first; an empty page is broken into only
	 * when that is used up, which is what makes the reserve drain one page at a time. */
	if (!s->cur_free) {
		if (!s->nr_empty_pop_pages) {
			s->atomic_failed = 1; /* "atomic alloc failed, no space left" */
			*queue = 1;
			return 0;
		}
		s->nr_empty_pop_pages--;
		s->cur_free = s->objs_per_page;
	}
	s->cur_free--;
	/* area_found: re-checked on every success, so the work is queued again while it runs */
	*queue = s->nr_empty_pop_pages < PCPU_EMPTY_POP_PAGES_LOW;
	return 1;
}

long pcpu_nr_to_pop(struct pcpu_state *s)
{
	if (s->atomic_failed) {
		s->atomic_failed = 0;
		return PCPU_EMPTY_POP_PAGES_HIGH;
	}
	long n = PCPU_EMPTY_POP_PAGES_HIGH - s->nr_empty_pop_pages;
	return n < 0 ? 0 : n > PCPU_EMPTY_POP_PAGES_HIGH ? PCPU_EMPTY_POP_PAGES_HIGH : n;
}

int pcpu_claim_page(struct pcpu_state *s)
{
	int created = 0;
	if (!s->chunk_unpop) { /* pcpu_create_chunk(), then populate from the new chunk */
		s->chunks++;
		s->chunk_unpop = s->chunk_pages;
		created = 1;
	}
	s->chunk_unpop--;
	return created;
}

void pcpu_page_populated(struct pcpu_state *s)
{
	s->nr_empty_pop_pages++;
	s->pages_populated++;
}

void pcpu_reserve_clock(struct pcpu_state *s, uint64_t now)
{
	if (!s->nr_empty_pop_pages && !s->empty_since)
		s->empty_since = now ? now : 1;
	else if (s->nr_empty_pop_pages && s->empty_since) {
		s->empty_ns += now - s->empty_since;
		s->empty_since = 0;
	}
}

void pcpu_reserve_clock_end(struct pcpu_state *s, uint64_t now)
{
	if (s->empty_since) {
		s->empty_ns += now - s->empty_since;
		s->empty_since = 0;
	}
}
