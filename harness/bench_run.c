/* What a bench's run gets from the harness: its threads started and summed, memory on the planned
 * node, the columns of where it ran, and the free. */
#include "harness/bench.h"
#include "harness/driver_setup.h"
#include "harness/memnode.h"
#include <stdlib.h>
#include <string.h>

struct bench_block {
	void *p;
	size_t size;
};

int bench_threads(struct bench_ctx *c, void (*body)(struct thr *, void *), void *arg, char *err)
{
	int nroles = c->plan.nroles;
	for (int i = 0; i < c->plan.n; i++)
		if (c->plan.slot[i].role >= nroles)
			nroles = c->plan.slot[i].role + 1;
	if (nroles > BENCH_ROLES)
		abort(); /* the plan names more roles than c->sum holds: a programming error */
	free(c->thr);
	c->thr = thr_alloc(c->plan.n);
	/* the bench's setup wrote into its blocks from the main thread: their lines go back to the
	 * first worker's CPU, so no third core holds one when the workers start */
	for (int i = 0; i < c->nmem && c->plan.n > 0; i++)
		mem_own_by(c->mem[i].p, c->mem[i].size, c->plan.slot[0].os);
	if (threads_run(c->topo, &c->plan, c->thr, c->warmup, c->duration, body, arg, c->hooks,
			err))
		return -1;
	bench_evidence(c, c->thr, c->plan.n);
	for (int r = 0; r < nroles; r++)
		thr_sum_role(c->thr, c->plan.n, r, &c->sum[r]);
	return 0;
}

/* bench_drive's batch function and its argument: read-only while the threads run. */
struct drive {
	batch_fn fn;
	void *arg;
} C2C_ALIGNED;

static void drive_body(struct thr *t, void *arg)
{
	const struct drive *d = arg;
	thr_drive(t, d->fn, d->arg);
}

int bench_drive(struct bench_ctx *c, batch_fn fn, void *arg, char *err)
{
	struct drive *d = aligned_alloc(C2C_BLOCK, sizeof(*d));
	if (!d)
		out_of_memory(0);
	*d = (struct drive){ fn, arg };
	int rc = bench_threads(c, drive_body, d, err);
	free(d);
	return rc;
}

void bench_ns_per_op(struct bench_ctx *c, struct row *r, const char *col, int role)
{
	const struct thr_sum *s = &c->sum[role];
	if (s->ops)
		row_set(r, col, "%.3f", (double)s->ns / (double)s->ops);
	else
		row_na(r, col, "no operations completed");
}

void *bench_mem(struct bench_ctx *c, size_t size, char *err)
{
	/* first touched on the first worker's CPU, by a thread pinned there: never by the main
	 * thread, whose core would then hold the lines when the workers start */
	int touch = -1, cpu = c->plan.n > 0 ? c->plan.slot[0].os : -1;
	void *p = mem_on_node_by(c->plan.mem_node, size, cpu, &touch, err);
	if (!p)
		return NULL;
	if (!c->nmem)
		c->mem_touch_cpu = touch;
	c->mem = realloc(c->mem, (size_t)(c->nmem + 1) * sizeof(*c->mem));
	if (!c->mem)
		out_of_memory(0);
	c->mem[c->nmem++] = (struct bench_block){ p, size };
	if (!c->mem_at)
		c->mem_at = p;
	return p;
}

void bench_where_to_row(struct bench_ctx *c, struct row *r)
{
	const char *req = opt_str(c->o, "placement");
	row_set(r, "placement", "%s", c->plan.used);
	row_set(r, "placement_requested", "%s", req);
	if (c->plan.auto_why[0])
		row_set(r, "placement_auto_why", "%s", c->plan.auto_why);
	else if (strcmp(req, "auto"))
		row_na(r, "placement_auto_why", "placement not auto");
	else if (c->b->auto_placement.name) /* the bench's own auto, planned as the policy named */
		row_set(r, "placement_auto_why", "%s's auto is %s: %s", c->b->name,
			c->b->auto_placement.name,
			c->b->auto_placement.why ? c->b->auto_placement.why : "");
	else
		row_na(r, "placement_auto_why", "the planner gave no reason");
	row_set(r, "mem_node_requested", "%s", opt_str(c->o, "mem-node"));
	row_set(r, "mem_node", "%d", c->plan.mem_node);
	if (c->mem_at)
		row_set(r, "mem_node_actual", "%d", mem_node_of((void *)c->mem_at));
	else
		row_na(r, "mem_node_actual", "the bench placed no memory (bench_mem)");
	if (!c->nmem)
		row_na(r, "first_touch_cpu", "the bench placed no memory (bench_mem)");
	else if (c->mem_touch_cpu < 0)
		row_na(r, "first_touch_cpu",
		       "no thread could be pinned on the first worker's CPU: the main thread "
		       "touched the memory first");
	else
		row_set(r, "first_touch_cpu", "%d", c->mem_touch_cpu);
}

void bench_run_release(struct bench_ctx *c)
{
	for (int i = 0; i < c->nmem; i++)
		mem_free(c->mem[i].p, c->mem[i].size);
	free(c->mem);
	c->mem = NULL;
	c->nmem = 0;
	c->mem_at = NULL;
	free(c->thr);
	c->thr = NULL;
	memset(c->sum, 0, sizeof(c->sum));
}
