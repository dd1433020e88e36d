/* The per-CPU allocator's populated-page reserve (mm/percpu.c), as pure bookkeeping for the refill
 * bench. No locking and no clocks here: the bench holds its pcpu_lock around every call, so the
 * watermark logic can be unit-tested on its own. */
#ifndef C2C_PCPU_RESERVE_H
#define C2C_PCPU_RESERVE_H
#include <stdint.h>

#define PCPU_PAGE_SIZE 4096
#define PCPU_MIN_ALLOC_SIZE 4 /* 1 << PCPU_MIN_ALLOC_SHIFT: the allocator's bitmap granularity */
#define PCPU_EMPTY_POP_PAGES_LOW 2
#define PCPU_EMPTY_POP_PAGES_HIGH 4

struct pcpu_cfg {
	long obj_size; /* bytes per allocation, a multiple of PCPU_MIN_ALLOC_SIZE, <= PCPU_PAGE_SIZE
			*/
	long chunk_pages;     /* pages per chunk (populated or not) */
	long initial_empty;   /* populated pages nobody has allocated from, at the start */
	long initial_partial; /* free objects left in a partly used page at the start (< objs per
				 page) */
};

struct pcpu_state {
	long objs_per_page;
	long chunk_pages;
	long cur_free;           /* free objects in the page being filled */
	long nr_empty_pop_pages; /* the reserve: populated pages with no object allocated */
	long chunk_unpop;        /* unpopulated pages left in the newest chunk */
	long chunks;             /* chunks created, the first one included */
	long pages_populated;    /* pages the balance work populated */
	int atomic_failed;       /* pcpu_atomic_alloc_failed */
	uint64_t empty_since;    /* when the reserve last became empty (0: it is not empty) */
	uint64_t empty_ns;       /* total time the reserve was empty, closed periods only */
};

/* Check a configuration; 0, or -1 with a one-line message naming the value and what is accepted. */
int pcpu_cfg_check(const struct pcpu_cfg *c, char *err);
/* The state at the start of a burst: one chunk holding the initial reserve and partial page. */
void pcpu_init(struct pcpu_state *s, const struct pcpu_cfg *c);
/* Objects per page for an allocation size. */
long pcpu_objs_per_page(long obj_size);

/* An atomic allocation (pcpu_alloc_noprof without __GFP_DIRECT_RECLAIM): only populated pages.
 * Returns 1 on success, 0 on failure. *queue is set when the caller must schedule the balance work:
 * after a success that leaves the reserve below LOW, and after every failure (which also sets
 * atomic_failed). */
int pcpu_alloc_atomic(struct pcpu_state *s, int *queue);

/* pcpu_balance_populated(): how many pages this run populates; clears atomic_failed. */
long pcpu_nr_to_pop(struct pcpu_state *s);
/* Claim one unpopulated page for population, creating a chunk when the newest is used up.
 * Returns 1 when a chunk was created. The page is in the reserve only after pcpu_page_populated. */
int pcpu_claim_page(struct pcpu_state *s);
/* The claimed page is populated: it joins the reserve. */
void pcpu_page_populated(struct pcpu_state *s);

/* Account reserve-empty time at now; call after anything that may change nr_empty_pop_pages. */
void pcpu_reserve_clock(struct pcpu_state *s, uint64_t now);
/* Close an open empty period at the end of the burst. */
void pcpu_reserve_clock_end(struct pcpu_state *s, uint64_t now);
#endif
