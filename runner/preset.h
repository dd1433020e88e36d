/* Presets: INI files (parsed by inih), one per preset, each a list of runs with their options.
 * Every value is checked by the options machinery of the run's bench before anything runs. */
#ifndef C2C_PRESET_H
#define C2C_PRESET_H
#include <stddef.h>
#include <stdio.h>

#define PRESET_RUNS_MAX 256
#define PRESET_ARGS_MAX 80

struct preset_run {
	char name[64];  /* the section name; names the CSV file */
	char bench[64];
	int line;       /* line of the [section] header */
	int nargs;
	char *argv[PRESET_ARGS_MAX]; /* "--key" ["value"] ... for `c2cbench run BENCH` */
	char *skip;     /* why it is not run (a bench this build lacks), or NULL */
	char shows[16]; /* its `shows` declaration (preset_shows), or "" where it gives none */
};

/* What a run can show, as its `shows` key declares: the accepted values with their meanings, in
 * the order `list presets` explains them. */
struct preset_shows {
	const char *name, *meaning;
};
extern const struct preset_shows preset_shows[];

struct preset {
	char *path, *name, *description, *text;
	char validity[512]; /* the validity options `preset` was given, set in every run (or "") */
	int n;
	struct preset_run run[PRESET_RUNS_MAX];
};

/* Resolve NAME (searched in the preset directories) or a path to an .ini file. */
int preset_find(const char *name, char *path, size_t n, char *err);
/* Load and validate; errors are one line: "FILE:LINE: what; accepted: ...". */
int preset_load(struct preset *p, const char *path, char *err);
/* The same from text in memory (len bytes + a NUL; any bytes): takes text, freed by preset_free. */
int preset_parse(struct preset *p, const char *path, char *text, size_t len, char *err);
void preset_free(struct preset *p);
/* "preset NAME description" lines for `c2cbench list`; with entries, each run's name, bench and
 * what it can show beneath its preset (`c2cbench list presets`). */
void preset_list(FILE *f, int entries);
/* The directories searched, colon-separated, for messages and docs. */
const char *preset_dirs(void);
#endif
