#include "runner/preset.h"
#include "lib/suggest.h"
#include "lib/parse.h"
#include "lib/util.h"
#include "lib/wrap.h"
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef C2C_PRESET_DIR
#define C2C_PRESET_DIR "/usr/local/share/c2cbench/presets"
#endif

/* Search order: $C2C_PRESET_PATH, next to the binary (a build tree), ../share beside it (an
 * install), PREFIX. */
const char *preset_dirs(void)
{
	static char buf[8192];
	char exe[PATH_MAX];
	ssize_t l = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	size_t k = 0;
	buf[0] = 0;
	if (getenv("C2C_PRESET_PATH") && *getenv("C2C_PRESET_PATH"))
		k += (size_t)snprintf(buf, sizeof(buf), "%s:", getenv("C2C_PRESET_PATH"));
	if (l > 0) {
		exe[l] = 0;
		*strrchr(exe, '/') = 0;
		k += (size_t)snprintf(buf + k, sizeof(buf) - k,
				      "%s/presets:%s/../share/c2cbench/presets:", exe, exe);
	}
	snprintf(buf + k, sizeof(buf) - k, "%s", C2C_PRESET_DIR);
	return buf;
}

/* Call fn for each NAME.ini in the search path, the first of each name only. */
static void each_preset(void (*fn)(const char *name, const char *path, void *arg), void *arg)
{
	char *dirs = xstrdup(preset_dirs()), *save = NULL, seen[4096] = ",";
	for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		DIR *dh = opendir(d);
		if (!dh)
			continue;
		char *names[256];
		int n = 0;
		for (struct dirent *e; (e = readdir(dh)) && n < 256;) {
			size_t l = strlen(e->d_name);
			if (e->d_name[0] != '.' && l > 4 && !strcmp(e->d_name + l - 4, ".ini"))
				names[n++] = xstrdup(e->d_name);
		}
		closedir(dh);
		for (int i = 0; i < n; i++) /* sorted, for stable listings */
			for (int j = i + 1; j < n; j++)
				if (strcmp(names[j], names[i]) < 0) {
					char *t = names[i];
					names[i] = names[j];
					names[j] = t;
				}
		for (int i = 0; i < n; i++) {
			char key[300], path[4096];
			names[i][strlen(names[i]) - 4] = 0;
			snprintf(key, sizeof(key), ",%s,", names[i]);
			if (!strstr(seen, key) && strlen(seen) + strlen(key) < sizeof(seen)) {
				strcat(seen, names[i]);
				strcat(seen, ",");
				snprintf(path, sizeof(path), "%s/%s.ini", d, names[i]);
				fn(names[i], path, arg);
			}
			free(names[i]);
		}
	}
	free(dirs);
}

struct find_arg {
	const char *want;
	char *path;
	size_t n;
	int found;
	char names[1024];
};

static void find_cb(const char *name, const char *path, void *arg)
{
	struct find_arg *f = arg;
	size_t k = strlen(f->names);
	snprintf(f->names + k, sizeof(f->names) - k, "%s%s", k ? ", " : "", name);
	if (!f->found && !strcmp(name, f->want)) {
		snprintf(f->path, f->n, "%s", path);
		f->found = 1;
	}
}

int preset_find(const char *name, char *path, size_t n, char *err)
{
	size_t l = strlen(name);
	if (strchr(name, '/') || (l > 4 && !strcmp(name + l - 4, ".ini"))) {
		if (access(name, R_OK))
			return err_set(err, "%s: cannot open the preset: %s", name,
				       strerror(errno));
		snprintf(path, n, "%s", name);
		return 0;
	}
	struct find_arg f = { .want = name, .path = path, .n = n };
	each_preset(find_cb, &f);
	char sug[128];
	if (!f.found)
	{ /* the search path and every preset: `c2cbench list presets` */
		char list[ERRLEN];
		snprintf(list, sizeof(list), "%.900s or an .ini file",
			 f.names[0] ? f.names : "(no presets found)");
		return err_accepted(err, list, "see c2cbench list presets, or an .ini file",
				    "preset '%s' not found%s", name,
				    suggest_list(name, f.names, sug, sizeof(sug)));
	}
	return 0;
}

/* One preset's line (its description wrapped to 100 columns under its first word), and with entries
 * each run beneath it: name, bench, what it can show. */
static void list_one(const char *name, const char *path, FILE *f, int entries)
{
	struct preset p;
	char err[ERRLEN], n[ERRLEN], d0[ERRLEN + 32];
	int col;
	/* a file's name and its description: control bytes escaped */
	text_escape(name, n, sizeof(n));
	if (preset_load(&p, path, err)) {
		snprintf(d0, sizeof(d0), "(not loadable: %s)", err);
		col = fprintf(f, "preset     %-14s ", n);
		text_wrap(f, col, col, TEXT_WIDTH, d0);
		return;
	}
	char *d = xcalloc(1, 4 * strlen(p.description) + 1);
	text_escape(p.description, d, 4 * strlen(p.description) + 1);
	col = fprintf(f, "preset     %-14s ", n);
	text_wrap(f, col, col, TEXT_WIDTH, d);
	free(d);
	for (int i = 0; entries && i < p.n; i++) {
		char line[1024];
		snprintf(line, sizeof(line), "  entry    %-42s %-12s shows: %s", p.run[i].name,
			 p.run[i].bench, p.run[i].shows[0] ? p.run[i].shows : "(not declared)");
		text_fit(f, TEXT_WIDTH, line);
	}
	preset_free(&p);
}

static void list_cb(const char *name, const char *path, void *arg)
{
	list_one(name, path, arg, 0);
}

static void list_entries_cb(const char *name, const char *path, void *arg)
{
	list_one(name, path, arg, 1);
}

void preset_list(FILE *f, int entries)
{
	each_preset(entries ? list_entries_cb : list_cb, f);
	for (const struct preset_shows *v = preset_shows; entries && v->name; v++) {
		int col = fprintf(f, "shows: %-10s ", v->name);
		text_wrap(f, col, col, TEXT_WIDTH, v->meaning);
	}
}
