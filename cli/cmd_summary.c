/* `c2cbench summary FILE...`: a result set's summary from its files (analysis/summary_files.c). */
#include "analysis/resultset.h"
#include "analysis/summary_files.h"
#include "cli/bench_fallback.h"
#include "cli/commands.h"
#include "lib/util.h"
#include <stdio.h>
#include <string.h>

static int summary_main(int argc, char **argv)
{
	char err[ERRLEN];
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		printf("usage: c2cbench summary FILE...\n"
		       "FILE: result CSVs or result directories, read as one set. Prints each\n"
		       "configuration's valid rows and medians, then each variant against its "
		       "bench's\nbaseline with the verdict (docs/validity.md, \"The verdict\"), "
		       "from the files alone.\nExit status 2: bad input.\n");
		return argc < 2 ? EXIT_BADINPUT : 0;
	}
	for (int i = 1; i < argc; i++)
		if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr,
				"c2cbench: error: summary: unknown option '%s'; accepted: result "
				"CSVs or directories\n",
				argv[i]);
			return EXIT_BADINPUT;
		}
	groups_set_desc_fallback(bench_fallback); /* result sets without FILE.bench */
	if (summary_files(stdout, argv + 1, argc - 1, err)) {
		fprintf(stderr, "c2cbench: error: %s\n", err);
		return EXIT_BADINPUT;
	}
	return 0;
}

static const struct command summary_cmd = {"summary", "summary FILE...",
					   "a result set's summary from its files: medians, each "
					   "variant against the baseline, the verdict",
					   summary_main};
COMMAND_REGISTER(summary_cmd)
