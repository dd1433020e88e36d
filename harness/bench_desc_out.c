/* A bench's description as data and as FILE.bench (bench_desc_out.h). */
#include "harness/bench_desc_out.h"
#include "harness/bench_columns.h"
#include "lib/replace.h"
#include "lib/util.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void bench_desc_of(const struct bench *b, struct bench_desc *d)
{
	*d = (struct bench_desc){
	    .name = b->name,
	    .variant_col = b->variant_col,
	    .config = bench_config(b),
	    .resolved = bench_resolved(b),
	    .match_by = b->match.by,
	    .match_loose = b->match.loose,
	    .summary = b->summary,
	    .summary_by = b->summary_by,
	    .split_cols = b->split.cols,
	    .split_name = b->split.name,
	    .verdict = b->verdict,
	    .views = b->views,
	    .variant_order = b->variant_order,
	    .summary_note = b->summary_note.text,
	    .summary_note_if = b->summary_note.only_if,
	};
}

char *bench_desc_text(const struct bench *b, char *err)
{
	struct bench_desc d;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		out_of_memory(0);
	bench_desc_of(b, &d);
	int rc = bench_desc_write(f, &d, err);
	if (fclose(f) && !rc)
		rc = err_set(err, "bench %s: its description could not be written", b->name);
	if (rc) {
		free(text);
		return NULL;
	}
	return text;
}

int bench_desc_out(const struct bench *b, const char *columns_path, char *err)
{
	char path[4200];
	size_t n = strlen(columns_path);
	if (n > 8 && !strcmp(columns_path + n - 8, ".columns"))
		n -= 8; /* bench_columns_path's FILE.columns: FILE.bench (schema/meta.h) */
	snprintf(path, sizeof(path), "%.*s.bench", (int)n, columns_path);
	struct bench_desc d;
	struct replace r;
	bench_desc_of(b, &d);
	FILE *f = replace_open(&r, path);
	if (!f)
		return err_set(err, "cannot write the bench description '%s': %s", path,
			       strerror(errno));
	if (bench_desc_write(f, &d, err)) {
		replace_abort(&r);
		return -1;
	}
	if (replace_commit(&r, REPLACE_NEW)) /* one that appeared meanwhile is kept: EEXIST */
		return err_set(err, "cannot write the bench description '%s': %s", path,
			       errno == EEXIST ? "it already exists (never overwritten)"
					       : strerror(errno));
	return 0;
}
