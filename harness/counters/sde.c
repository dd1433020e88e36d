#include "harness/counters/sde.h"
#include <sde_lib.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define SDE_MAX 32
static const char *exported[SDE_MAX];
static int nexported;
static papi_handle_t handle;
static __thread long long mine[SDE_MAX]; /* this thread's tallies, by slot */

/* libsde reads NAME.this_thread in the thread that reads the event set: that thread's own tally. */
static long long read_mine(void *slot)
{
	return mine[(intptr_t)slot];
}

void sde_add(struct sde_counter *c, uint64_t v)
{
	__atomic_fetch_add(&c->value, (long long)v, __ATOMIC_RELAXED);
	if (c->slot >= 0 && c->slot < SDE_MAX)
		mine[c->slot] += (long long)v;
}

/* Register NAME.this_thread beside NAME (same description, the reading thread's share). */
static void export_mine(const struct sde_counter *c)
{
	char name[160];
	snprintf(name, sizeof(name), "%s" SDE_THREAD_SUFFIX, c->name);
	papi_sde_register_counter_cb(handle, name, PAPI_SDE_RO | PAPI_SDE_DELTA, PAPI_SDE_long_long,
				     read_mine, (void *)(intptr_t)c->slot);
	papi_sde_describe_counter(handle, name, c->desc);
}

void sde_export(struct sde_counter *c, int n)
{
	if (!handle)
		handle = papi_sde_init(SDE_LIB);
	for (int i = 0; i < n; i++) {
		if (sde_known(c[i].name) || nexported >= SDE_MAX)
			continue;
		/* DELTA: PAPI reports the change between start and stop, so reads bracket one run.
		 */
		papi_sde_register_counter(handle, c[i].name, PAPI_SDE_RO | PAPI_SDE_DELTA,
					  PAPI_SDE_long_long, &c[i].value);
		papi_sde_describe_counter(handle, c[i].name, c[i].desc);
		c[i].slot = nexported;
		export_mine(&c[i]);
		exported[nexported++] = c[i].name;
	}
}

int sde_known(const char *name)
{
	for (int i = 0; i < nexported; i++)
		if (!strcmp(exported[i], name))
			return 1;
	return 0;
}

const char *sde_names(void)
{
	static char buf[2048];
	size_t k = 0;
	buf[0] = 0;
	for (int i = 0; i < nexported && k < sizeof(buf); i++)
		k += (size_t)snprintf(buf + k, sizeof(buf) - k, "%s" SDE_PREFIX "%s", k ? "," : "",
				      exported[i]);
	return buf;
}

/* libsde keeps copies of the names until shut down; release them at exit (LeakSanitizer runs in
 * CI). */
static void __attribute__((destructor)) sde_release(void)
{
	if (handle)
		papi_sde_shutdown(handle);
}
