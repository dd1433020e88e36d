/* Subcommands other than `run` register themselves here (topo, list, and later events, preset...).
 */
#ifndef C2C_COMMANDS_H
#define C2C_COMMANDS_H

#include "schema/version.h"

struct command {
	const char *name;
	const char *usage; /* "events [--pmu NAME]" */
	const char *desc;
	int (*main)(int argc,
		    char **argv); /* argv[0] is the command name; returns the exit status */
};

void command_register(const struct command *c);
const struct command *command_find(const char *name);
const struct command *command_at(int i);

#define COMMAND_REGISTER(c) \
	static void __attribute__((constructor)) register_##c(void) { command_register(&c); }
#endif
