#include "harness/counters/fallback.h"
#include "lib/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

/* Only where the events of the target's rows were checked to encode identically on the used table
 * (events/platforms.tsv says which rows, and against which kernel event list). */
static const struct pmu_fallback fallbacks[] = {
    {"GenuineIntel", 6, 207, 207, "Emerald Rapids", "emr", "spr",
     "same core PMU as Sapphire Rapids (newer libpfm4 gives emr the spr table)"},
    {"GenuineIntel", 6, 173, 174, "Granite Rapids", "gnr", "spr",
     "the gnr rows' events encode as on Sapphire Rapids (kernel graniterapids vs sapphirerapids "
     "lists)"},
    {"AuthenticAMD", 0x1a, 0x00, 0xff, "Zen 5", "amd64_fam1ah_zen5", "amd64_fam19h_zen4",
     "the amd64_fam1ah_zen5 rows encode as on Zen 4 (kernel amdzen5 lists)"},
    {"AuthenticAMD", 0x19, 0x10, 0x1f, "Zen 4 (Genoa/Threadripper 7000)", "amd64_fam19h_zen4",
     "amd64_fam19h_zen4", "libpfm4 4.13.0 detects only model 0x11 as Zen 4"},
    {"AuthenticAMD", 0x19, 0x60, 0x7f, "Zen 4 (Ryzen 7000/Phoenix)", "amd64_fam19h_zen4",
     "amd64_fam19h_zen4", "libpfm4 4.13.0 detects only model 0x11 as Zen 4"},
    {"AuthenticAMD", 0x19, 0xa0, 0xaf, "Zen 4c (Bergamo/Siena)", "amd64_fam19h_zen4",
     "amd64_fam19h_zen4", "libpfm4 4.13.0 detects only model 0x11 as Zen 4"},
};

/* C2C_CPUID=VENDOR:FAMILY:MODEL (numbers decimal or 0x hex): a made-up CPU, so fallbacks can be
 * tested anywhere. */
static int sig_from_env(const char *v, struct cpu_sig *s, char *err)
{
	char vendor[16];
	long fam, mod;
	char *copy = xstrdup(v), *save = NULL, *a = strtok_r(copy, ":", &save),
	     *b = strtok_r(NULL, ":", &save), *c = strtok_r(NULL, ":", &save);
	int bad = !a || !b || !c || strtok_r(NULL, ":", &save) || strlen(a) >= sizeof(vendor);
	if (!bad) {
		snprintf(vendor, sizeof(vendor), "%s", a);
		char *e1, *e2;
		fam = strtol(b, &e1, 0);
		mod = strtol(c, &e2, 0);
		bad = *e1 || *e2 || fam < 0 || fam > 0x10f || mod < 0 || mod > 0xff;
	}
	free(copy);
	if (bad)
		return err_set(err,
			       "C2C_CPUID: '%s' is not accepted; accepted: VENDOR:FAMILY:MODEL, "
			       "e.g. GenuineIntel:6:207",
			       v);
	snprintf(s->vendor, sizeof(s->vendor), "%s", vendor);
	s->family = (int)fam;
	s->model = (int)mod;
	s->fake = 1;
	return 0;
}

int cpu_sig_read(struct cpu_sig *s, char *err)
{
	memset(s, 0, sizeof(*s));
	const char *env = getenv("C2C_CPUID");
	if (env && *env)
		return sig_from_env(env, s, err);
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;
	if (!__get_cpuid(0, &a, &b, &c, &d))
		return 0;
	memcpy(s->vendor, &b, 4);
	memcpy(s->vendor + 4, &d, 4);
	memcpy(s->vendor + 8, &c, 4);
	if (!__get_cpuid(1, &a, &b, &c, &d))
		return 0;
	int fam = (a >> 8) & 0xf, mod = (a >> 4) & 0xf;
	if (fam == 0xf)
		fam += (a >> 20) & 0xff;
	if (fam == 6 || fam >= 0xf)
		mod += ((a >> 16) & 0xf) << 4;
	s->family = fam;
	s->model = mod;
#endif
	(void)err;
	return 0;
}

const struct pmu_fallback *pmu_fallback_for_cpu(const struct cpu_sig *s, char *why, size_t n)
{
	for (size_t i = 0; i < ARRAY_SIZE(fallbacks); i++) {
		const struct pmu_fallback *f = &fallbacks[i];
		if (!strcmp(f->vendor, s->vendor) && f->family == s->family &&
		    s->model >= f->model_lo && s->model <= f->model_hi)
			return f;
	}
	if (!s->vendor[0])
		snprintf(why, n, "no CPUID on this architecture to pick a compatible PMU by");
	else
		snprintf(why, n, "no compatible PMU is known for %s family 0x%x model 0x%x",
			 s->vendor, s->family, s->model);
	return NULL;
}

const struct pmu_fallback *pmu_fallback_for_target(const char *target)
{
	for (size_t i = 0; i < ARRAY_SIZE(fallbacks); i++)
		if (!strcmp(fallbacks[i].target, target))
			return &fallbacks[i];
	return NULL;
}
