/* The run context's facts table: a fact set, or NA with the reason; and the sysfs reader its
 * collectors share (harness/context_facts.h). */
#include "harness/context_facts.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ctx_fact *fact_new(struct context *c, const char *key)
{
	if (c->nfacts >= CTX_FACTS)
		abort(); /* more facts than the table holds is a programming error */
	struct ctx_fact *f = &c->fact[c->nfacts++];
	snprintf(f->key, sizeof(f->key), "%s", key);
	return f;
}

void fact_set(struct context *c, const char *key, const char *fmt, ...)
{
	struct ctx_fact *f = fact_new(c, key);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(f->val, sizeof(f->val), fmt, ap);
	va_end(ap);
}

void fact_na(struct context *c, const char *key, const char *why)
{
	struct ctx_fact *f = fact_new(c, key);
	snprintf(f->val, sizeof(f->val), "NA");
	snprintf(f->why, sizeof(f->why), "%s", why);
}

int ctx_read_line(const char *path, char *out, size_t n)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	int ok = fgets(out, (int)n, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	out[strcspn(out, "\n")] = 0;
	return 0;
}
