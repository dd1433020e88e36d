#include "schema/fingerprint.h"
#include <stdio.h>
#include <string.h>

const char *const fp_keys[] = { "cpu_vendor",
				"cpu_family",
				"cpu_model_number",
				"cpu_stepping",
				"hypervisor",
				"dmi_sys_vendor",
				"dmi_product_name",
				"packages",
				"cores",
				"pus",
				"l3_count",
				"numa_nodes",
				"kernel",
				"numa_per_package",
				NULL };

/* Fields added after ids were first written: hashed only where known, so that an older .meta
 * (without them) still hashes to the id it holds, and a machine that cannot tell keeps its id. */
static int fp_late(const char *key)
{
	return !strcmp(key, "numa_per_package");
}

static unsigned long long fnv(const char *s, unsigned long long h)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

void fp_id(const char *(*get)(void *arg, const char *key), void *arg, char out[FP_ID_LEN + 1])
{
	unsigned long long h = 0xcbf29ce484222325ull;
	for (int i = 0; fp_keys[i]; i++) {
		const char *v = get(arg, fp_keys[i]);
		if (fp_late(fp_keys[i]) && (!v || !v[0] || !strcmp(v, "NA")))
			continue;
		h = fnv(fp_keys[i], h);
		h = fnv("=", h);
		h = fnv(v ? v : "NA", h);
		h = fnv("\n", h);
	}
	snprintf(out, FP_ID_LEN + 1, "%012llx", h & 0xffffffffffffull);
}
