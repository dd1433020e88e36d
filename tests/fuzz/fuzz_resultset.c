/* libFuzzer target: a result set's describing files together (issue 39). The input is X.csv,
 * X.columns, X.bench and X.meta, each part after a line "=====" (fewer parts: those files
 * absent), written into a fresh folder and read by the grouping engine compare and report use:
 * the declaration and description against the CSV, the .meta's row count, fingerprint and label.
 * Must never crash, hang, leak or read out of bounds; a bad set is a one-line error. */
#include "analysis/compare.h"
#include "analysis/resultset.h"
#include "cli/bench_fallback.h"
#include "lib/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RS_SEP "\n=====\n"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static const char *const ext[4] = { "csv", "columns", "bench", "meta" };
	char dir[] = "/tmp/c2c-fuzz-set-XXXXXX", path[4][64], err[ERRLEN] = "", lab[512];
	if (!mkdtemp(dir))
		return 0;
	const char *p = (const char *)data, *end = p + size;
	int nparts = 0;
	for (int k = 0; k < 4 && p <= end; k++) {
		const char *q = memmem(p, (size_t)(end - p), RS_SEP, strlen(RS_SEP));
		size_t len = q ? (size_t)(q - p) : (size_t)(end - p);
		snprintf(path[k], sizeof(path[k]), "%s/x.%s", dir, ext[k]);
		FILE *f = fopen(path[k], "wb");
		if (f) {
			if (len && fwrite(p, 1, len, f) != len)
				len = 0;
			if (len && p[len - 1] != '\n' && k < 3)
				fputc('\n', f);
			fclose(f);
		}
		nparts = k + 1;
		if (!q)
			break;
		p = q + strlen(RS_SEP);
	}
	struct groups g;
	groups_set_desc_fallback(bench_fallback);
	int rc = groups_init(&g, NULL, err);
	if (!rc)
		rc = groups_add(&g, path[0], GROUPS_BY_LABEL, err);
	if (!rc)
		rc = groups_finish(&g, err);
	if (rc && strchr(err, '\n'))
		abort(); /* errors are one line */
	for (int i = 0; !rc && i < g.ngroup; i++) {
		int gi = g.order[i];
		const struct grp_bench *b = &g.bench[g.group[gi].bench];
		groups_label(&g, gi, lab, sizeof(lab));
		const struct grp_cell *a = groups_cell(&g, gi, 0);
		for (int s = 0; s < g.nside; s++) {
			const struct grp_cell *c = groups_cell(&g, gi, s);
			for (int m = 0; c && m < b->nmet; m++) {
				struct ts_stat st;
				char v[160];
				cmp_stat(a ? &a->met[m] : NULL, &c->met[m], &st);
				ts_verdict(&st, b->direction[m],
					   ts_is_time(b->metric[m], b->unit[m]), "B", v, sizeof(v));
			}
		}
	}
	groups_free(&g);
	for (int k = 0; k < nparts; k++)
		unlink(path[k]);
	rmdir(dir);
	return 0;
}
