/* Run context: the facts users need to compare numbers taken on different machines and builds. */
#ifndef C2C_CONTEXT_H
#define C2C_CONTEXT_H
#include "schema/fingerprint.h"
#include "schema/label.h"
#include "schema/meta.h"
#include "harness/row.h"
#include "harness/topo.h"
#include <stdio.h>

#define CTX_FACTS 48

/* One fact about the platform; an unknown one keeps the reason it is unknown (value "NA"). */
struct ctx_fact {
	char key[32];
	char val[160];
	char why[160]; /* empty when known */
};

#define CTX_VALIDITY 10 /* the [validity] section's keys */

/* One key of the [validity] section: a rule's option as used, or relaxed / relaxed_by. */
struct ctx_kv {
	char key[24];
	char val[200];
};

struct context {
	char label[LABEL_MAX + 1]; /* the name compare and report give this machine (default: from
				      the host name) */
	char host[128], cpu_model[160], kernel[128], compiler[128], git_rev[64], started[32];
	int packages, cores, pus, nodes, line_size;
	char fingerprint[FP_ID_LEN +
			 1]; /* fp_id of the fingerprint fields (schema/fingerprint.h) */
	struct ctx_fact fact[CTX_FACTS]; /* everything else, in the meta file's order */
	int nfacts;
	struct ctx_kv validity[CTX_VALIDITY]; /* how the run judged its attempts (none: no run) */
	int nvalidity;
};

void context_collect(struct context *c, const struct topo *t);
/* The context of a machine known only by its topology t (an imported matrix): its counts and
 * caches, this build, and every fact of the machine itself NA for why ("core-to-core-latency's
 * --csv records no ..."). host, cpu_model and kernel read NA. */
void context_foreign(struct context *c, const struct topo *t, const char *why);
/* --label NAME: check it (one-line message for exit 2) and set it; NULL keeps the default. */
int context_set_label(struct context *c, const char *label, char *err);
/* Append the context columns (host, cpu_model, ... git_rev, then the key facts) to a row. */
void context_to_row(const struct context *c, struct row *r);
/* A fact by key, or NULL if it was never collected. */
const struct ctx_fact *context_fact(const struct context *c, const char *key);
/* Print one "c2cbench: warning: ..." line per setting known to make results noisy; return how many.
 */
int context_warn(const struct context *c, FILE *f);
/* Write every fact as INI (sections [context], [na_reason], and [validity] when the run set it)
 * to a new file; never overwrite. */
int context_write_meta(const struct context *c, const char *path, char *err);
/* Rewrite our own FILE.meta whole (tmp + rename) with how the run ended: [run] status = complete,
 * interrupted or failed, rows, ended, reason, and the run's settings rf (schema/runfacts.h; NULL:
 * none). Written first with status = running. */
struct run_facts;
int context_meta_status(const struct context *c, const char *path, const char *status, long rows,
			const char *reason, const struct run_facts *rf, char *err);
/* The git revision this binary was built from (for --version). */
const char *context_git_rev(void);
#endif
