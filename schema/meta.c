/* The names of a result set's files (meta.h). */
#include "schema/meta.h"
#include <stdio.h>
#include <string.h>

const char *const harness_config[] = { "duration_requested_s", "warmup_requested_s", NULL };

void context_meta_path(const char *csv, char *out, size_t n)
{
	size_t len = strlen(csv);
	if (len > 4 && !strcmp(csv + len - 4, ".csv"))
		len -= 4;
	snprintf(out, n, "%.*s.meta", (int)len, csv);
}

/* FILE.meta -> FILE.EXT (any other name: NAME.EXT). */
static void beside(const char *meta, const char *ext, char *out, size_t n)
{
	size_t len = strlen(meta);
	if (len > 5 && !strcmp(meta + len - 5, ".meta"))
		len -= 5;
	snprintf(out, n, "%.*s%s", (int)len, meta, ext);
}

void bench_columns_path(const char *meta, char *out, size_t n)
{
	beside(meta, ".columns", out, n);
}

void bench_desc_path(const char *meta, char *out, size_t n)
{
	beside(meta, ".bench", out, n);
}
