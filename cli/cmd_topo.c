/* `c2cbench topo`: what hwloc sees, so users can check placement before trusting a run. */
#include "cli/commands.h"
#include "harness/topo.h"
#include "lib/opts.h"
#include "lib/util.h"
#include <stdio.h>
#include <string.h>

static const struct opt_spec topo_opts[] = {
	{ "topology", OPT_TEXT, NULL, "SPEC",
	  "synthetic:\"pack:2 numa:1 core:8 pu:2\" or xml:FILE instead of this machine", NULL,
	  NULL },
	{ 0 },
};

static int topo_main(int argc, char **argv)
{
	const struct opt_spec *tables[] = { topo_opts, NULL };
	struct opts o;
	struct topo t;
	char err[ERRLEN] = "";
	int rc = opts_parse(&o, tables, argc, argv, err);
	if (!rc && o.nargs)
		rc = err_set(err, "unexpected argument '%s'", o.args[0]);
	if (rc && !strcmp(err, "help")) {
		printf("usage: c2cbench topo [options]\n");
		opts_help(stdout, topo_opts);
		opts_free(&o);
		return 0;
	}
	if (!rc)
		rc = topo_load(&t, opt_str(&o, "topology"), err);
	opts_free(&o);
	if (rc) {
		fprintf(stderr, "c2cbench: error: %s\n", err);
		return EXIT_BADINPUT;
	}
	topo_print(&t, stdout);
	topo_free(&t);
	return 0;
}

static const struct command topo_cmd = { "topo", "topo [--topology SPEC]",
					 "print the topology c2cbench sees (hwloc)", topo_main };
COMMAND_REGISTER(topo_cmd)
