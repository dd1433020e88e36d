/* --label DIR=NAME for compare and report: a machine named at compare time (resultset.h). */
#include "analysis/groups_int.h"
#include "lib/util.h"
#include "schema/label.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RELABEL_MAX 64

static struct {
	char *spec, *dir, *name; /* dir: the real path */
	int used;
} relabel[RELABEL_MAX];
static int nrelabel;

int groups_relabel(const char *spec, char *err)
{
	const char *eq = strrchr(spec, '=');
	char dir[PATH_MAX], lerr[ERRLEN];
	if (!eq || eq == spec)
		return err_set(
			err,
			"--label '%.200s': accepted: DIR=NAME (an input, its rows' machine label)",
			spec);
	if (label_check("label", eq + 1, lerr))
		return err_set(err,
			       "--label '%.200s': name '%.80s' is not accepted; accepted: 1 to %d "
			       "letters, digits, '.', '_' or '-', starting with a letter or digit",
			       spec, eq + 1, LABEL_MAX);
	snprintf(dir, sizeof(dir), "%.*s", (int)(eq - spec), spec);
	char *real = realpath(dir, NULL);
	if (!real)
		return err_set(err,
			       "--label '%.200s': %.200s: no such file or directory; accepted: "
			       "DIR=NAME, DIR one of the inputs",
			       spec, dir);
	if (nrelabel == RELABEL_MAX) {
		free(real);
		return err_set(err, "--label '%.200s': more than %d; accepted: at most %d", spec,
			       RELABEL_MAX, RELABEL_MAX);
	}
	for (int i = 0; i < nrelabel; i++)
		if (!strcmp(relabel[i].dir, real)) {
			free(real);
			return err_set(err, "--label '%.200s': %.200s is given a name twice; "
					    "accepted: one --label per input",
				       spec, dir);
		}
	relabel[nrelabel].spec = xstrdup(spec);
	relabel[nrelabel].dir = real;
	relabel[nrelabel].name = xstrdup(eq + 1);
	relabel[nrelabel++].used = 0;
	return 0;
}

void groups_relabel_clear(void)
{
	for (int i = 0; i < nrelabel; i++) {
		free(relabel[i].spec);
		free(relabel[i].dir);
		free(relabel[i].name);
	}
	nrelabel = 0;
}

const char *grp_relabel_of(const char *path)
{
	if (!nrelabel)
		return NULL;
	char *real = realpath(path, NULL);
	const char *name = NULL;
	size_t best = 0;
	for (int i = 0; real && i < nrelabel; i++) { /* the deepest DIR that holds it */
		size_t l = strlen(relabel[i].dir);
		if (!strncmp(real, relabel[i].dir, l) && (!real[l] || real[l] == '/') &&
		    l >= best) {
			best = l;
			name = relabel[i].name;
			relabel[i].used = 1;
		}
	}
	free(real);
	return name;
}

const char *grp_relabel_unused(void)
{
	for (int i = 0; i < nrelabel; i++)
		if (!relabel[i].used)
			return relabel[i].spec;
	return NULL;
}
