#include "harness/counters/sde.h"
#include <sde_lib.h>
#include <stdio.h>
#include <string.h>

#define SDE_MAX 32
static const char *exported[SDE_MAX];
static int nexported;
static papi_handle_t handle;

void sde_export(struct sde_counter *c, int n)
{
	if (!handle)
		handle = papi_sde_init(SDE_LIB);
	for (int i = 0; i < n; i++) {
		if (sde_known(c[i].name) || nexported >= SDE_MAX)
			continue;
		/* DELTA: PAPI reports the change between start and stop, so reads bracket one run. */
		papi_sde_register_counter(handle, c[i].name, PAPI_SDE_RO | PAPI_SDE_DELTA, PAPI_SDE_long_long, &c[i].value);
		papi_sde_describe_counter(handle, c[i].name, c[i].desc);
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
		k += (size_t)snprintf(buf + k, sizeof(buf) - k, "%s" SDE_PREFIX "%s", k ? "," : "", exported[i]);
	return buf;
}

/* libsde keeps copies of the names until shut down; release them at exit (LeakSanitizer runs in CI). */
static void __attribute__((destructor)) sde_release(void)
{
	if (handle)
		papi_sde_shutdown(handle);
}
