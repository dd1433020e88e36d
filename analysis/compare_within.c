/* compare's within-side part: each input file's own run summary (analysis/runsum.c), the one
 * analysis a run prints of the CSV it has just written and `c2cbench summary FILE` reprints: each
 * variant against its bench's baseline, adjusted over that run's family, in the same words, with
 * the bench's note (seed 003's figures, or why they are left out). One path, so a side's layout
 * effect never reads one way here and another in its run's output. */
#include "analysis/compare.h"
#include "analysis/runsum.h"
#include <stdio.h>

/* Files on side A (alone or on both) first, then those on B alone, each in reading order. */
void cmp_print_within(FILE *f, const struct cmp *c)
{
	const char *path;
	int any = 0;
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0, sides; (sides = cmp_ctx_input(c, i, &path)); i++) {
			if ((sides & 1) == pass)
				continue;
			if (!any++) {
				fputc('\n', f);
				cmp_wrap(f, 0, 0,
					 "within each side, each input file's own run summary, as "
					 "`c2cbench summary FILE` prints it and a run of this "
					 "revision printed it (each variant against its bench's "
					 "baseline, adjusted over that run's family: "
					 "docs/validity.md)");
			}
			fprintf(f, "\n== %s: %s\n", sides == 3 ? "A and B" : sides == 2 ? "B" : "A",
				path);
			char err[512];
			groups_quiet(1); /* compare has warned of its inputs once */
			int rc = runsum_print(f, path, err);
			groups_quiet(0);
			if (rc)
				fprintf(f, "no summary: %s\n", err);
		}
}
