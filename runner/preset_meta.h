/* DIR/metadata.txt of a preset run directory: INI (the format of every .meta), read back with inih.
 * [c2cbench] the build, [preset] what ran and its state, [machine] where, a [run NAME] section per
 * run. The preset text goes verbatim into DIR/preset.ini beside it. */
#ifndef C2C_PRESET_META_H
#define C2C_PRESET_META_H
#include "harness/context.h"
#include "runner/preset.h"

/* What the runner knows of one run of the preset. */
struct planned {
	double est;   /* estimated seconds, from the bench's own dry-run */
	char *skip;   /* why it is not run */
	char *csv;    /* file name in the run directory */
	int status;   /* exit status of the run; -1: not run */
	long rows;
	double took;
	int done;     /* complete in an earlier invocation (--resume): not run again */
	int sig;      /* the run was stopped by this signal */
	char *nothing; /* exit 4: the run's end-of-run lines on what measured nothing */
};

/* What DIR/metadata.txt says that a new invocation keeps. */
struct resumed {
	char started[256]; /* when the preset first started */
	char resumed[512]; /* earlier resumptions, comma-separated, or "" */
};

/* The facts of metadata.txt that --resume checks. */
struct meta_read {
	char preset[128], schema[32], started[256], resumed[512], label[128];
	char validity[512]; /* validity options given to preset ("": none, or an older directory) */
	char machine[7][192]; /* META_MACHINE_KEYS, in order */
	int is_ini;           /* 0: not INI (an older c2cbench's "key: value" file) */
};
#define META_MACHINE_KEYS                                                                          \
	{                                                                                          \
		"host", "cpu_model", "packages", "cores", "pus", "numa_nodes", "line_size"         \
	}

/* Rewrite DIR/metadata.txt whole (tmp + rename) and, the first time, DIR/preset.ini. Returns 0, or
 * -1 after an error line on stderr (the old metadata.txt stays whole). */
int meta_write(const char *dir, const struct preset *p, const struct planned *pl,
	       const struct context *ctx, const struct resumed *rs, const char *state);
/* Read DIR/metadata.txt; -1 when it cannot be opened (errno says why). */
int meta_read(const char *dir, struct meta_read *m);
/* "c2cbench run BENCH --opt val ..." of one run, for plans and metadata. */
void meta_args_text(const struct preset_run *r, char *b, size_t n);
#endif
