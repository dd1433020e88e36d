#include "lib/cmdargs.h"
#include "lib/util.h"
#include <stdlib.h>
#include <string.h>

/* Does --name (without "=value") take a value? Unknown names are left for opts_parse to refuse. */
static int takes_value(const struct opt_spec *const *tables, const char *arg)
{
	if (strncmp(arg, "--", 2) || strchr(arg, '='))
		return 0;
	for (int t = 0; tables[t]; t++)
		for (const struct opt_spec *s = tables[t]; s->name; s++)
			if (!strcmp(s->name, arg + 2))
				return s->type != OPT_FLAG;
	return 0;
}

int opts_parse_mixed(struct opts *o, const struct opt_spec *const *tables, int argc, char **argv,
		     char ***copy, char *err)
{
	char **v = xcalloc((size_t)argc + 2, sizeof(char *)),
	     **pos = xcalloc((size_t)argc + 1, sizeof(char *));
	int n = 0, np = 0, i = 1, rc;
	v[n++] = argv[0];
	for (; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (!strcmp(argv[i], "--help")) {
			v[n++] = "-h"; /* opts_parse answers -h with "help" */
		} else if (argv[i][0] == '-' && argv[i][1]) {
			v[n++] = argv[i];
			if (takes_value(tables, argv[i]) && i + 1 < argc)
				v[n++] = argv[++i];
		} else {
			pos[np++] = argv[i];
		}
	}
	for (; i < argc; i++)
		pos[np++] = argv[i];
	v[n++] = "--";
	for (int k = 0; k < np; k++)
		v[n++] = pos[k];
	free(pos);
	*copy = v;
	rc = opts_parse(o, tables, n, v, err);
	o->args = v + (n - np);
	o->nargs = np;
	return rc;
}
