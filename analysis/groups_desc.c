/* Each bench's description for the grouping engine: the one its result set carries (FILE.bench),
 * else the fallback's text for an older set, read by the same parser (groups.h). */
#include "analysis/groups.h"
#include "analysis/groups_decl.h"
#include "lib/util.h"
#include "schema/desc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static groups_desc_fn fallback;

void groups_set_desc_fallback(groups_desc_fn fn)
{
	fallback = fn;
}

/* The fallback's description of name: NULL when it has none, or (said on stderr) when its text
 * does not parse. */
static struct bench_desc *from_fallback(struct groups *g, const char *name,
					const char *const *header, int ncols, struct grp_decl **fb)
{
	char *dt = NULL, *ct = NULL, err[ERRLEN], what[200];
	if (!fallback || !fallback(name, header, ncols, &dt, &ct) || !dt) {
		free(dt);
		free(ct);
		return NULL;
	}
	struct bench_desc *d = xcalloc(1, sizeof(*d));
	snprintf(what, sizeof(what), "(this build's description of %.64s)", name);
	int rc = bench_desc_parse(d, what, dt, strlen(dt), err, NULL, 0);
	if (!rc && ct) {
		*fb = xcalloc(1, sizeof(**fb));
		if (grp_decl_parse(*fb, what, ct, strlen(ct), err)) {
			free(*fb);
			*fb = NULL;
			bench_desc_free(d);
			rc = -1;
		}
	}
	free(dt);
	free(ct);
	if (rc) {
		g->warnings++;
		fprintf(stderr, "c2cbench: warning: %s\n", err);
		free(d);
		return NULL;
	}
	return d;
}

struct bench_desc *grp_desc_of(struct groups *g, const char *name, struct bench_desc *file,
			       const char *const *header, int ncols, struct grp_decl **fb)
{
	*fb = NULL;
	if (file && file->name && !strcmp(file->name, name)) {
		struct bench_desc *d = xcalloc(1, sizeof(*d));
		*d = *file;
		memset(file, 0, sizeof(*file)); /* the bench holds its memory now */
		return d;
	}
	return from_fallback(g, name, header, ncols, fb);
}

void grp_desc_free(struct bench_desc *d, struct grp_decl *fb)
{
	if (d) {
		bench_desc_free(d);
		free(d);
	}
	if (fb) {
		grp_decl_free(fb);
		free(fb);
	}
}

struct bench_desc *grp_desc_fallback(struct groups *g, const char *name,
				     const char *const *header, int ncols)
{
	struct grp_decl *fb = NULL;
	struct bench_desc *d = from_fallback(g, name, header, ncols, &fb);
	grp_desc_free(NULL, fb);
	return d;
}
