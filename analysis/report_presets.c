/* The Summary's words on a preset that two inputs ran with different settings for an entry
 * (analysis/preset_diff.h), each input named by its directory. */
#include "analysis/preset_diff.h"
#include "analysis/report_int.h"
#include <stdio.h>
#include <string.h>

static const char *base(const char *path, char *buf, size_t n)
{
	size_t l = strlen(path);
	while (l > 1 && path[l - 1] == '/')
		l--;
	const char *s = path + l;
	while (s > path && s[-1] != '/')
		s--;
	snprintf(buf, n, "%.*s", (int)(path + l - s), s);
	return buf;
}

void rpt_preset_diffs(struct rep *p)
{
	char out[4096], na[256], nb[256];
	for (int i = 0; i < p->ninputs; i++)
		for (int j = i + 1; j < p->ninputs; j++) {
			if (!preset_diff(&p->g, p->inputs[i], p->inputs[j],
					 base(p->inputs[i], na, sizeof(na)),
					 base(p->inputs[j], nb, sizeof(nb)), out, sizeof(out)))
				continue;
			for (char *l = strtok(out, "\n"); l; l = strtok(NULL, "\n"))
				doc_p(&p->doc, "%s.", l);
		}
}
