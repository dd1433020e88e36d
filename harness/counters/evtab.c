#include "harness/counters/evtab.h"
#include "harness/counters/pmu.h"
#include "lib/infile.h"
#include "lib/util.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const char c2c_platforms_tsv[];

const struct metric_def metric_defs[] = {
    {"cycles", "core cycles, unhalted", NULL, 0},
    {"instructions", "instructions retired", NULL, 0},
    {"hitm_local",
     "loads served by a Modified line in another core of the same socket (Intel, POWER)", NULL, 1},
    {"hitm_remote", "loads served by a Modified line in another socket's cache (Intel, POWER)",
     NULL, 1},
    {"rfo_hitm",
     "demand RFOs (stores) that found the line Modified in another core of the same socket (Intel)",
     NULL, 0},
    {"c2c_fill_local",
     "AMD stand-in: L1D demand fills from another core complex's cache, same NUMA node (no line "
     "state)",
     "hitm_local", 1},
    {"c2c_fill_remote",
     "AMD stand-in: L1D demand fills from another core complex's cache, other NUMA node",
     "hitm_remote", 1},
    {"c2c_fill_ccx",
     "AMD Zen 3+: L1D demand fills from the own core complex, an L3 hit or another core's L2 (not "
     "core-to-core alone)",
     NULL, 0},
    {"coh_writeback",
     "Arm stand-in: L1D write-backs caused by another CPU's coherency request (owner side of a "
     "HITM)",
     "hitm_local", 1},
    {"coh_inval",
     "Arm stand-in, unverified: explicit L1D invalidations (CMOs by VA, broadcast "
     "coherency ops from another CPU); snoop invalidations by another core's store not shown",
     "rfo_hitm", 0},
};
const int nmetric_defs = (int)ARRAY_SIZE(metric_defs);

const struct metric_def *metric_find(const char *name)
{
	for (int i = 0; i < nmetric_defs; i++)
		if (!strcmp(metric_defs[i].name, name))
			return &metric_defs[i];
	return NULL;
}

/* Split one line into exactly want tab-separated fields (in place). */
static int split_tabs(char *line, char **f, int want)
{
	int n = 0;
	for (char *p = line; n < want; n++) {
		f[n] = p;
		char *tab = strchr(p, '\t');
		if (!tab)
			return n + 1;
		*tab = 0;
		p = tab + 1;
	}
	return n + 1; /* more fields than wanted */
}

static int parse_table(struct evtab *t, const char *text, char *err)
{
	char *copy = xstrdup(text), *save = NULL;
	int lineno = 0, cap = 0;
	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f[8];
		lineno++; /* strtok_r skips empty lines: line numbers count non-empty lines */
		if (line[0] == '#')
			continue;
		int nf = split_tabs(line, f, 7);
		if (nf == 6) /* the older 6-column form: what the event sees is not said */
			f[6] = "-";
		if ((nf != 6 && nf != 7) || !f[0][0] || !f[1][0] || !f[2][0] ||
		    strncmp(f[3], "config=", 7)) {
			free(copy);
			return err_set(
			    err,
			    "events table %s, line %d: expected 7 tab-separated fields pmu, "
			    "metric, event, encoding (config=...), verified_with, note, sees",
			    t->source, lineno);
		}
		if (!metric_find(f[1])) {
			free(copy);
			return err_set(err, "events table %s, line %d: unknown metric '%s'",
				       t->source, lineno, f[1]);
		}
		if (evtab_find(t, f[0], f[1])) {
			free(copy);
			return err_set(err, "events table %s, line %d: second row for %s %s",
				       t->source, lineno, f[0], f[1]);
		}
		if (t->n == cap) {
			cap = cap ? 2 * cap : 64;
			t->row = realloc(t->row, sizeof(*t->row) * (size_t)cap);
			if (!t->row)
				out_of_memory(0);
		}
		t->row[t->n++] =
		    (struct evrow){xstrdup(f[0]), xstrdup(f[1]), xstrdup(f[2]), xstrdup(f[3]),
				   xstrdup(f[4]), xstrdup(f[5]), xstrdup(f[6]), lineno};
	}
	free(copy);
	if (!t->n)
		return err_set(err, "events table %s has no rows", t->source);
	return 0;
}

int evtab_load(struct evtab *t, char *err)
{
	const char *path = getenv("C2C_EVENTS_TABLE");
	memset(t, 0, sizeof(*t));
	if (!path || !*path) {
		snprintf(t->source, sizeof(t->source), "built-in");
		return parse_table(t, c2c_platforms_tsv, err);
	}
	snprintf(t->source, sizeof(t->source), "%s", path);
	FILE *f = fopen_regular(path); /* never a FIFO or a device that never ends (/dev/zero) */
	if (!f)
		return err_set(
			err, "C2C_EVENTS_TABLE=%s: %s; accepted: a regular file of at most %d KiB",
			path, errno == EINVAL ? "not a regular file" : strerror(errno),
			EVTAB_MAX_BYTES >> 10);
	size_t cap = 1 << 16, n = 0;
	char *buf = xcalloc(1, cap);
	size_t k;
	while ((k = fread(buf + n, 1, cap - 1 - n, f)) > 0) {
		n += k;
		if (n > EVTAB_MAX_BYTES) {
			fclose(f);
			free(buf);
			return err_set(
				err,
				"C2C_EVENTS_TABLE=%s: larger than %d KiB; accepted: a regular file "
				"of at most %d KiB",
				path, EVTAB_MAX_BYTES >> 10, EVTAB_MAX_BYTES >> 10);
		}
		if (n + 1 == cap) {
			buf = realloc(buf, cap *= 2);
			if (!buf)
				out_of_memory(0);
		}
	}
	buf[n] = 0;
	fclose(f);
	int rc = parse_table(t, buf, err);
	free(buf);
	return rc;
}

void evtab_free(struct evtab *t)
{
	for (int i = 0; i < t->n; i++) {
		struct evrow *r = &t->row[i];
		free(r->pmu);
		free(r->metric);
		free(r->event);
		free(r->encoding);
		free(r->verified_with);
		free(r->note);
		free(r->sees);
	}
	free(t->row);
	memset(t, 0, sizeof(*t));
}

const struct evrow *evtab_find(const struct evtab *t, const char *pmu, const char *metric)
{
	for (int i = 0; i < t->n; i++)
		if (!strcmp(t->row[i].pmu, pmu) && !strcmp(t->row[i].metric, metric))
			return &t->row[i];
	return NULL;
}

int evtab_has_pmu(const struct evtab *t, const char *pmu)
{
	for (int i = 0; i < t->n; i++)
		if (!strcmp(t->row[i].pmu, pmu))
			return 1;
	return 0;
}

const char *evtab_pmus(const struct evtab *t)
{
	static char buf[1024];
	size_t k = 0;
	buf[0] = 0;
	for (int i = 0; i < t->n; i++) {
		int seen = 0;
		for (int j = 0; j < i && !seen; j++)
			seen = !strcmp(t->row[j].pmu, t->row[i].pmu);
		if (!seen && k < sizeof(buf))
			k += (size_t)snprintf(buf + k, sizeof(buf) - k, "%s%s", k ? "," : "",
					      t->row[i].pmu);
	}
	return buf;
}

int evtab_hitm_sees(const struct evtab *t, const char *pmu, const char *sees)
{
	int n = 0;
	for (int i = 0; i < t->n; i++) {
		const struct metric_def *m = metric_find(t->row[i].metric);
		if (strcmp(t->row[i].pmu, pmu) || !m || !m->hitm ||
		    !strcmp(t->row[i].sees, "other-socket") ||
		    !strcmp(t->row[i].sees, "other-node"))
			continue;
		if (strcmp(t->row[i].sees, sees))
			return 0;
		n++;
	}
	return n > 0;
}

const char *evrow_event(const struct evrow *r, char *buf, size_t n)
{
	char enc[128], why[128];
	const char *p = r->event;
	for (;;) {
		size_t len = strcspn(p, "|");
		snprintf(buf, n, "%.*s", (int)len, p);
		if (!pmu_encode(buf, enc, sizeof(enc), why, sizeof(why)) || !p[len])
			break;
		p += len + 1;
	}
	if (strchr(r->event, '|') &&
	    pmu_encode(buf, enc, sizeof(enc), why, sizeof(why))) /* none encodes: show the first */
		snprintf(buf, n, "%.*s", (int)strcspn(r->event, "|"), r->event);
	return buf;
}
