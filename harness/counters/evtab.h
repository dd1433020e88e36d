/* The platform table: abstract metrics and, per libpfm4 PMU, the native event that feeds each one.
 * The map is data (events/platforms.tsv, compiled in; C2C_EVENTS_TABLE=FILE reads another copy). */
#ifndef C2C_EVTAB_H
#define C2C_EVTAB_H
#include <stddef.h>

/* An abstract metric: one CSV column stem. stand_in_for names the HITM metric it replaces where
 * that is missing. */
struct metric_def {
	const char *name;
	const char *desc;
	const char *stand_in_for; /* NULL: a metric in its own right */
	int hitm;                 /* counts toward the summary's HITM (or stand-in) figure */
};

extern const struct metric_def metric_defs[];
extern const int nmetric_defs;
const struct metric_def *metric_find(const char *name);

struct evrow {
	char *pmu, *metric, *event, *encoding, *verified_with, *note;
	char *sees; /* which transfers the event can see: any-core, other-llc, same-llc, ... ("-":
		       not a transfer) */
	int line;
};

struct evtab {
	int n;
	struct evrow *row;
	char source[256]; /* "built-in" or the file it came from */
};

/* C2C_EVENTS_TABLE's bound: the built-in table is 16 KiB. */
#define EVTAB_MAX_BYTES (1 << 20)

/* Load the table (built-in unless C2C_EVENTS_TABLE is set: a regular file of at most
 * EVTAB_MAX_BYTES); a malformed row is an error naming its line. */
int evtab_load(struct evtab *t, char *err);
void evtab_free(struct evtab *t);
/* The row feeding metric on pmu, or NULL. */
const struct evrow *evtab_find(const struct evtab *t, const char *pmu, const char *metric);
/* Does the table have rows for pmu? */
int evtab_has_pmu(const struct evtab *t, const char *pmu);
/* Do pmu's in-socket HITM rows (or stand-ins) all see only this kind of transfer ("other-llc")? */
int evtab_hitm_sees(const struct evtab *t, const char *pmu, const char *sees);
/* The spelling of row's event that encodes on the active PMU (NAME|NAME: the first that does), or
 * the first. */
const char *evrow_event(const struct evrow *r, char *buf, size_t n);
/* Comma list of the PMUs the table names, in table order (static buffer). */
const char *evtab_pmus(const struct evtab *t);
#endif
