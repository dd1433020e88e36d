#include "context.h"
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#ifndef C2C_GIT_REV
#define C2C_GIT_REV "unknown"
#endif

/* First "model name" line of /proc/cpuinfo (x86; other ISAs fall back to the hwloc CPUModel info). */
static void cpu_model(char *out, size_t n, const struct topo *t)
{
	char line[512];
	FILE *f = fopen("/proc/cpuinfo", "r");
	snprintf(out, n, "unknown");
	if (f) {
		while (fgets(line, sizeof(line), f))
			if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
				char *v = strchr(line, ':') + 2;
				v[strcspn(v, "\n")] = 0;
				snprintf(out, n, "%s", v);
				break;
			}
		fclose(f);
	}
	if (!strcmp(out, "unknown") && t && t->h) {
		hwloc_obj_t pkg = hwloc_get_obj_by_type(t->h, HWLOC_OBJ_PACKAGE, 0);
		const char *m = pkg ? hwloc_obj_get_info_by_name(pkg, "CPUModel") : NULL;
		if (m)
			snprintf(out, n, "%s", m);
	}
}

void context_collect(struct context *c, const struct topo *t)
{
	struct utsname u;
	time_t now = time(NULL);
	struct tm tm;
	memset(c, 0, sizeof(*c));
	if (gethostname(c->host, sizeof(c->host) - 1))
		snprintf(c->host, sizeof(c->host), "unknown");
	cpu_model(c->cpu_model, sizeof(c->cpu_model), t);
	snprintf(c->kernel, sizeof(c->kernel), "%s", uname(&u) ? "unknown" : u.release);
	snprintf(c->compiler, sizeof(c->compiler), "gcc %s", __VERSION__);
	snprintf(c->git_rev, sizeof(c->git_rev), "%s", C2C_GIT_REV);
	strftime(c->started, sizeof(c->started), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
	c->packages = t->npackages;
	c->cores = t->ncores;
	c->pus = t->npus;
	c->nodes = t->nnodes;
	c->line_size = t->line_size;
}

void context_to_row(const struct context *c, struct row *r)
{
	row_set(r, "host", "%s", c->host);
	row_set(r, "cpu_model", "%s", c->cpu_model);
	row_set(r, "packages", "%d", c->packages);
	row_set(r, "cores", "%d", c->cores);
	row_set(r, "pus", "%d", c->pus);
	row_set(r, "numa_nodes", "%d", c->nodes);
	row_set(r, "line_size", "%d", c->line_size);
	row_set(r, "kernel", "%s", c->kernel);
	row_set(r, "compiler", "%s", c->compiler);
	row_set(r, "c2cbench_rev", "%s", c->git_rev);
	row_set(r, "started", "%s", c->started);
}
