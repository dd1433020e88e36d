/* Machine fingerprints for the grouping engine: each result file's fingerprint fields, read from
 * its .meta (schema/fingerprint.h), compared field by field so that two machines under one label
 * are told apart, and so that a set written before the fingerprint still is by the fields it has.
 */
#include "analysis/groups_int.h"
#include "lib/infile.h"
#include "schema/meta.h"
#include "schema/fingerprint.h"
#include "lib/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fp_index(const char *key)
{
	for (int i = 0; fp_keys[i] && i < GRP_FP_KEYS; i++)
		if (!strcmp(fp_keys[i], key))
			return i;
	return -1;
}

static const char *fp_get(void *arg, const char *key)
{
	const struct grp_fp *fp = arg;
	int i = fp_index(key);
	return i >= 0 ? fp->val[i] : NULL;
}

void grp_fp_read(const char *csv, const char *row_id, struct grp_fp *fp)
{
	char meta[4200], *line = NULL;
	size_t cap = 0;
	int in_ctx = 0, any = 0, own = 0; /* own: the .meta holds its id */
	memset(fp, 0, sizeof(*fp));
	context_meta_path(csv, meta, sizeof(meta));
	FILE *m = fopen_regular(meta); /* never a FIFO or a device (groups_read refuses them) */
	/* whole lines: a long one is never split into a forged key */
	while (m && getline(&line, &cap, m) > 0) {
		line[strcspn(line, "\r\n")] = 0;
		if (line[0] == '[') {
			in_ctx = !strcmp(line, "[context]");
			continue;
		}
		char *eq = strstr(line, " = ");
		if (!in_ctx || !eq)
			continue;
		*eq = 0;
		const char *v = eq + 3;
		int i = fp_index(line);
		if (!strcmp(line, "fingerprint"))
			own = snprintf(fp->id, sizeof(fp->id), "%s", v) > 0;
		else if (i >= 0 && v[0] && strcmp(v, "NA") && !fp->val[i]) {
			fp->val[i] = xstrdup(v);
			any = 1;
		}
	}
	free(line);
	if (m)
		fclose(m);
	if (!fp->id[0] && row_id && row_id[0] && strcmp(row_id, "NA"))
		snprintf(fp->id, sizeof(fp->id), "%s", row_id);
	char id[FP_ID_LEN + 1] = "";
	if (any)
		fp_id(fp_get, fp, id);
	if (!fp->id[0] && any) /* an older .meta: the id of the fields it has */
		snprintf(fp->id, sizeof(fp->id), "%s", id);
	else if (any && own && strcmp(fp->id, id)) { /* the id no longer says what its fields say */
		fprintf(grp_warn_to(),
			"c2cbench: warning: %s: fingerprint %.24s does not match its fields (they "
			"hash to %s): an edited or corrupt .meta; its machine is told by its "
			"fields, as %s\n",
			meta, fp->id, id, id);
		snprintf(fp->id, sizeof(fp->id), "%s", id);
	}
}

void grp_fp_copy(struct grp_fp *dst, const struct grp_fp *src)
{
	memset(dst, 0, sizeof(*dst));
	snprintf(dst->id, sizeof(dst->id), "%s", src->id);
	for (int i = 0; i < GRP_FP_KEYS; i++)
		dst->val[i] = src->val[i] ? xstrdup(src->val[i]) : NULL;
}

void grp_fp_free(struct grp_fp *fp)
{
	for (int i = 0; i < GRP_FP_KEYS; i++)
		free(fp->val[i]);
	memset(fp, 0, sizeof(*fp));
}

int grp_fp_differ(const struct grp_fp *a, const struct grp_fp *b, char *out, size_t n)
{
	int d = 0, both = 0;
	size_t k = 0;
	if (out && n)
		out[0] = 0;
	for (int i = 0; fp_keys[i] && i < GRP_FP_KEYS; i++) {
		if (!a->val[i] || !b->val[i])
			continue;
		both++;
		if (!strcmp(a->val[i], b->val[i]))
			continue;
		d++;
		if (out && k < n)
			k += (size_t)snprintf(out + k, n - k, "%s%s %.40s vs %.40s", k ? ", " : "",
					      fp_keys[i], a->val[i], b->val[i]);
	}
	if (!both && a->id[0] && b->id[0] &&
	    strcmp(a->id, b->id)) { /* ids only (a CSV without its .meta) */
		d = 1;
		if (out && n)
			snprintf(out, n, "fingerprint %s vs %s", a->id, b->id);
	}
	return d;
}

void grp_fp_absorb(struct grp_fp *into, const struct grp_fp *from)
{
	int added = 0;
	for (int i = 0; i < GRP_FP_KEYS; i++)
		if (!into->val[i] && from->val[i]) {
			into->val[i] = xstrdup(from->val[i]);
			added = 1;
		}
	if (!into->id[0] || (added && from->id[0]))
		snprintf(into->id, sizeof(into->id), "%s", from->id);
}

const char *grp_fp_field(const struct grp_fp *fp, const char *key)
{
	return fp_get((void *)fp, key);
}
