/* libFuzzer target: the result-set reader compare reads result files with (analysis/resultset.h):
 * the streaming CSV reader, the hashed join, labels, then every cell's statistics and verdict.
 * Must never crash, hang, leak or read out of bounds; a bad file is a one-line error. */
#include "analysis/compare.h"
#include "analysis/resultset.h"
#include "cli/bench_fallback.h"
#include "lib/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char path[] = "/tmp/c2c-fuzz-groups-XXXXXX", err[ERRLEN] = "", lab[512];
	int fd = mkstemp(path);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		unlink(path);
		return 0;
	}
	close(fd);
	struct groups g;
	groups_set_desc_fallback(bench_fallback); /* older sets: this build's description */
	int rc = groups_init(&g, NULL, err);
	if (!rc)
		rc = groups_add(&g, path, GROUPS_BY_LABEL, err);
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
	unlink(path);
	return 0;
}
