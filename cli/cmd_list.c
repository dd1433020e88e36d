/* `c2cbench list`: benches, layouts, placements and presets, a line each. */
#include "harness/bench.h"
#include "cli/commands.h"
#include "harness/placement.h"
#include "layouts/layout.h"
#include "runner/preset.h"
#include <stdio.h>
#include <string.h>

static int list_main(int argc, char **argv)
{
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("usage: c2cbench list\nlists the benches, layouts, placements and presets "
		       "of this build, a line each\n");
		return 0;
	}
	if (argc > 1) {
		fprintf(stderr, "c2cbench: error: list takes no arguments\n");
		return EXIT_BADINPUT;
	}
	for (int i = 0; bench_at(i); i++)
		printf("bench      %-14s %s\n", bench_at(i)->name, bench_at(i)->desc);
	for (int i = 0; layout_at(i); i++)
		printf("layout     %-14s %s\n", layout_at(i)->name, layout_at(i)->desc);
	for (const struct placement_def *d = placement_defs; d->name; d++)
		printf("placement  %-14s %s\n", d->name, d->desc);
	preset_list(stdout);
	return 0;
}

static const struct command list_cmd = {"list", "list",
					"list benches, layouts, placements and presets", list_main};
COMMAND_REGISTER(list_cmd)
