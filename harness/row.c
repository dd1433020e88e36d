#include "harness/row.h"
#include "lib/util.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The slot of key in r->slot: where it is, or the free one where it goes (FNV-1a, linear probing).
 * A pingpong run writes millions of rows of over a hundred columns: no scan of the columns per set.
 */
static unsigned slot_of(const struct row *r, const char *key)
{
	unsigned h = 2166136261u;
	for (const unsigned char *p = (const unsigned char *)key; *p; p++)
		h = (h ^ *p) * 16777619u;
	for (h &= ROW_SLOTS - 1; r->slot[h] && strcmp(r->key[r->slot[h] - 1], key);
	     h = (h + 1) & (ROW_SLOTS - 1))
		;
	return h;
}

static int find(const struct row *r, const char *key)
{
	return r->slot[slot_of(r, key)] - 1;
}

static void put(struct row *r, const char *key, char *val)
{
	unsigned h = slot_of(r, key);
	int i = r->slot[h] - 1;
	if (i < 0) {
		if (r->n >= ROW_MAX)
			abort(); /* more columns than a row holds is a programming error */
		i = r->n++;
		r->key[i] = xstrdup(key);
		r->slot[h] = (unsigned short)(i + 1);
	} else {
		free(r->val[i]);
	}
	r->val[i] = val;
}

void row_set(struct row *r, const char *key, const char *fmt, ...)
{
	char *buf;
	va_list ap;
	va_start(ap, fmt);
	int n = vasprintf(&buf, fmt, ap); /* any length: na_reason is never cut */
	va_end(ap);
	if (n < 0)
		die(1, "out of memory");
	put(r, key, buf);
}

void row_na_reason(struct row *r, const char *fmt, ...)
{
	char *e;
	va_list ap;
	va_start(ap, fmt);
	int n = vasprintf(&e, fmt, ap);
	va_end(ap);
	if (n < 0)
		die(1, "out of memory");
	size_t len = strlen(r->na_reason);
	if (len + (len ? 2 : 0) + (size_t)n < sizeof(r->na_reason))
		snprintf(r->na_reason + len, sizeof(r->na_reason) - len, "%s%s", len ? "; " : "",
			 e);
	free(e);
}

void row_na(struct row *r, const char *key, const char *reason)
{
	put(r, key, xstrdup("NA"));
	row_na_reason(r, "%s: %s", key, reason);
}

const char *row_get(const struct row *r, const char *key)
{
	int i = find(r, key);
	return i < 0 ? NULL : r->val[i];
}

double row_num(const struct row *r, const char *key, int *ok)
{
	const char *v = row_get(r, key);
	double d;
	*ok = v && strcmp(v, "NA") && !parse_double(v, &d);
	return *ok ? d : 0;
}

void row_copy(struct row *dst, const struct row *src)
{
	memset(dst, 0, sizeof(*dst));
	for (int i = 0; i < src->n; i++)
		put(dst, src->key[i], xstrdup(src->val[i]));
	memcpy(dst->na_reason, src->na_reason, sizeof(dst->na_reason));
}

void row_clear(struct row *r)
{
	for (int i = 0; i < r->n; i++) {
		free(r->key[i]);
		free(r->val[i]);
	}
	memset(r, 0, sizeof(*r));
}
