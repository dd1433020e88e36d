/* c2cbench: command dispatch. Each command lives in its own file; this only routes. */
#include "harness/bench.h"
#include "cli/commands.h"
#include "layouts/layout.h"
#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f,
		"usage: c2cbench COMMAND [options]\n"
		"Cache-line false sharing and workqueue pathologies, measured on real machines.\n\n"
		"commands:\n"
		"  run BENCH [options]   run one bench (BENCH: %s); `c2cbench run BENCH --help`\n"
		"  help                  this text\n"
		"  version               print the version\n",
		bench_names());
	for (int i = 0; command_at(i); i++)
		fprintf(f, "  %-21s %s\n", command_at(i)->usage, command_at(i)->desc);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_BADINPUT;
	}
	const char *cmd = argv[1];
	if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
		printf("c2cbench %s (schema_version %d)\n", C2C_VERSION, SCHEMA_VERSION);
		return 0;
	}
	if (!strcmp(cmd, "run")) {
		if (argc < 3 || argv[2][0] == '-') {
			if (argc >= 3 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
				usage(stdout);
				return 0;
			}
			fprintf(stderr, "c2cbench: error: run needs a bench name; accepted: %s\n", bench_names());
			return EXIT_BADINPUT;
		}
		const struct bench *b = bench_find(argv[2]);
		if (!b) {
			fprintf(stderr, "c2cbench: error: unknown bench '%s'; accepted: %s\n", argv[2], bench_names());
			return EXIT_BADINPUT;
		}
		return bench_main(b, argc - 2, argv + 2);
	}
	const struct command *c = command_find(cmd);
	if (c)
		return c->main(argc - 1, argv + 1);
	fprintf(stderr, "c2cbench: error: unknown command '%s'; accepted: run, help, version", cmd);
	for (int i = 0; command_at(i); i++)
		fprintf(stderr, ", %s", command_at(i)->name);
	fputc('\n', stderr);
	return EXIT_BADINPUT;
}
