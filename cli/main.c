/* c2cbench: command dispatch. Each command lives in its own file; this only routes. */
#include "harness/bench.h"
#include "schema/meta.h"
#include "harness/context.h"
#include "lib/suggest.h"
#include "cli/commands.h"
#include "cli/env.h"
#include "layouts/layout.h"
#include "lib/wrap.h"
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

static void usage(FILE *out)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return;
	fprintf(f,
		"usage: c2cbench COMMAND [options]\n"
		"Cache-line false sharing and workqueue pathologies, measured on real machines.\n\n"
		"commands:\n"
		"  %-21s %s\n  %-21s %s\n  %-21s %s\n",
		"run BENCH [options]",
		"run one bench; `c2cbench run --help` lists them, `c2cbench run BENCH --help` its "
		"options",
		"help", "this text", "version",
		"print the version and git revision (also -V, --version)");
	for (int i = 0; command_at(i); i++) /* a long usage gets its own line, the text below it */
		if (strlen(command_at(i)->usage) > 21)
			fprintf(f, "  %s\n  %-21s %s\n", command_at(i)->usage, "",
				command_at(i)->desc);
		else
			fprintf(f, "  %-21s %s\n", command_at(i)->usage, command_at(i)->desc);
	fprintf(f,
		"\n`c2cbench COMMAND --help` describes a command; man c2cbench has the whole "
		"reference.\n");
	fclose(f);
	text_fit(out, TEXT_WIDTH, text);
	free(text);
}

/* `c2cbench run --help`: the benches, one line each. */
static void run_usage(FILE *f)
{
	fprintf(f,
		"usage: c2cbench run BENCH [options]\n\nbenches (`c2cbench run BENCH --help` lists "
		"a bench's options):\n");
	for (int i = 0; bench_at(i); i++)
		text_wrap(f, fprintf(f, "  %-12s ", bench_at(i)->name), 15, TEXT_WIDTH,
			  bench_at(i)->desc);
}

static int is_help(const char *a)
{
	return !strcmp(a, "--help") || !strcmp(a, "-h") || !strcmp(a, "help");
}

/* An unknown bench, with the closest name when it looks like a typo. */
static int unknown_bench(const char *name)
{
	char sug[128], err[ERRLEN];
	err_accepted(err, bench_names(), "those `c2cbench list` names", "unknown bench '%.200s'%s",
		     name, suggest_list(name, bench_names(), sug, sizeof(sug)));
	/* escaped: one line whatever was typed */
	fprintf(stderr, "c2cbench: error: %s\n", err);
	return EXIT_BADINPUT;
}

static int run_main(int argc, char **argv)
{
	if (argc >= 3 && is_help(argv[2])) {
		run_usage(stdout);
		return 0;
	}
	if (argc < 3 || argv[2][0] == '-') {
		char err[ERRLEN];
		if (argc < 3)
			err_accepted(err, bench_names(), "see c2cbench list",
				     "run needs a bench name first");
		else /* escaped: one line whatever was typed */
			err_accepted(err, bench_names(), "see c2cbench list",
				     "run: '%.200s' is not a bench", argv[2]);
		fprintf(stderr, "c2cbench: error: %s\n", err);
		return EXIT_BADINPUT;
	}
	const struct bench *b = bench_find(argv[2]);
	if (!b)
		return unknown_bench(argv[2]);
	return bench_main(b, argc - 2, argv + 2);
}

/* An unknown command, with the closest name when it looks like a typo. */
static int unknown_command(const char *cmd)
{
	char names[1024] = "run,help,version", sug[128];
	size_t k = strlen(names);
	for (int i = 0; command_at(i) && k < sizeof(names); i++)
		k += (size_t)snprintf(names + k, sizeof(names) - k, ",%s", command_at(i)->name);
	char err[ERRLEN];
	err_accepted(err, names, "those `c2cbench --help` names", "unknown command '%.200s'%s", cmd,
		     suggest_list(cmd, names, sug, sizeof(sug)));
	fprintf(stderr, "c2cbench: error: %s\n", err); /* escaped: one line whatever was typed */
	return EXIT_BADINPUT;
}

/* Whatever a command printed on stdout reached it whole (a full disk, a closed pipe), or the
 * command fails: the last buffered bytes are written here, not unseen at exit. */
static int stdout_whole(int rc)
{
	errno = 0;
	if (!fflush(stdout) && !ferror(stdout))
		return rc;
	if (rc) /* the command failed and said why already */
		return rc;
	fprintf(stderr, "c2cbench: error: cannot write the standard output: %s\n",
		errno ? strerror(errno) : "write error");
	return 1;
}

static int dispatch(int argc, char **argv)

{
	if (argc < 2) {
		usage(stderr);
		return EXIT_BADINPUT;
	}
	const char *cmd = argv[1];
	if (is_help(cmd)) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(cmd, "version") || !strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
		printf("c2cbench %s (git %s, CSV schema_version %d)\n", C2C_VERSION,
		       context_git_rev(), SCHEMA_VERSION);
		return 0;
	}
	char err[ERRLEN];
	if (env_check(err)) { /* the environment's options, as the command line's */
		fprintf(stderr, "c2cbench: error: %s\n", err);
		return EXIT_BADINPUT;
	}
	if (!strcmp(cmd, "run"))
		return run_main(argc, argv);
	const struct command *c = command_find(cmd);
	if (c)
		return c->main(argc - 1, argv + 1);
	return unknown_command(cmd);
}

int main(int argc, char **argv)
{
	return stdout_whole(dispatch(argc, argv));
}
