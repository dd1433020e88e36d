#include "import/topospec.h"
#include "lib/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define LINUX_FORM "linux:PxCxT[/L] (P packages, C cores each, T threads per core, L cores per L3)"

/* A whole positive number at *p, up to a byte of stop (or the end); advances *p. */
static long number(const char **p, const char *stop)
{
	const char *s = *p;
	long v = 0;
	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9' && v <= TOPO_MAX_PUS; s++)
		v = v * 10 + (*s - '0');
	if (*s && !strchr(stop, *s))
		return -1;
	*p = s;
	return v;
}

char *topospec_linux(const char *shorthand, char *err)
{
	const char *p = shorthand + strlen("linux:");
	long P = number(&p, "x"), C = P > 0 && *p == 'x' ? (p++, number(&p, "x")) : -1;
	long T = C > 0 && *p == 'x' ? (p++, number(&p, "/")) : -1, L = C;
	if (T > 0 && *p == '/')
		p++, L = number(&p, "");
	if (P <= 0 || C <= 0 || T <= 0 || L <= 0 || *p) {
		err_set(err, "--topology '%s' is not accepted; accepted: %s, each a whole number "
			     "from 1",
			shorthand, LINUX_FORM);
		return NULL;
	}
	if (P * C * T > TOPO_MAX_PUS || C % L) {
		err_set(err, "--topology '%s': %s; accepted: %s",
			shorthand, C % L ? "L does not divide C" : "more PUs than 8192",
			LINUX_FORM);
		return NULL;
	}
	size_t cap = 128 + (size_t)(P * C * T) * 6, n;
	char *s = xcalloc(cap, 1);
	n = (size_t)snprintf(s, cap, "pack:%ld numa:1 l3:%ld core:%ld pu:%ld(indexes=", P, C / L,
			     L, T);
	/* hwloc lists PUs in topological order: package, core, thread */
	for (long q = 0; q < P; q++)
		for (long c = 0; c < C; c++)
			for (long t = 0; t < T; t++)
				n += (size_t)snprintf(s + n, cap - n, "%s%ld",
						      q || c || t ? "," : "",
						      t * P * C + q * C + c);
	snprintf(s + n, cap - n, ")");
	return s;
}

int topospec_load(struct topo *t, const char *topo, char *err)
{
	struct stat st;
	char *spec = NULL;
	if (!topo || !*topo)
		return err_set(err, "import: --topology is required; accepted: %s", TOPOSPEC_FORMS);
	if (!strncmp(topo, "linux:", 6)) {
		char *desc = topospec_linux(topo, err);
		if (!desc)
			return -1;
		spec = xcalloc(strlen(desc) + 16, 1);
		sprintf(spec, "synthetic:%s", desc);
		free(desc);
	} else if (!strncmp(topo, "synthetic:", 10) || !strncmp(topo, "xml:", 4)) {
		spec = xstrdup(topo);
	} else {
		size_t n = strlen(topo);
		int file = !stat(topo, &st) || (n > 4 && !strcmp(topo + n - 4, ".xml"));
		spec = xcalloc(strlen(topo) + 16, 1);
		sprintf(spec, "%s:%s", file ? "xml" : "synthetic", topo);
	}
	int rc = topo_load(t, spec, err);
	free(spec);
	return rc;
}
