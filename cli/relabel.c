/* compare's and report's --label DIR=NAME: repeatable, so taken out before the option parser. */
#include "cli/relabel.h"
#include "analysis/resultset.h"
#include "lib/util.h"
#include <string.h>

int cli_relabel_args(int *argc, char **argv, char *err)
{
	int n = 1;
	groups_relabel_clear();
	for (int i = 1; i < *argc; i++) {
		const char *v = NULL;
		if (!strcmp(argv[i], "--")) { /* the rest are inputs */
			while (i < *argc)
				argv[n++] = argv[i++];
			break;
		}
		if (!strcmp(argv[i], "--label")) {
			if (i + 1 == *argc)
				return err_set(err, "--label needs a value; accepted: DIR=NAME");
			v = argv[++i];
		} else if (!strncmp(argv[i], "--label=", 8)) {
			v = argv[i] + 8;
		}
		if (!v) {
			argv[n++] = argv[i];
			continue;
		}
		if (groups_relabel(v, err))
			return -1;
	}
	argv[n] = NULL;
	*argc = n;
	return 0;
}
