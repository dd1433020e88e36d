/* A preset's version travels with its results: two result directories that ran the same preset
 * name, compared entry by entry from their metadata.txt (the command each entry ran), and each
 * changed entry said in words (analysis/preset_diff.h). */
#include "analysis/preset_diff.h"
#include "lib/csvstream.h"
#include "lib/infile.h"
#include "lib/util.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define ENTRIES_MAX 64

struct entry {
	char name[128], cmd[2048], csv[256];
};

struct pset {
	char dir[4200], preset[128];
	struct entry e[ENTRIES_MAX];
	int n;
};

static void trim(char *s)
{
	s[strcspn(s, "\r\n")] = 0;
	size_t l = strlen(s);
	while (l && s[l - 1] == ' ')
		s[--l] = 0;
}

/* The result directory's preset and entries: the INI form ([preset] name, [run NAME] command and
 * csv) or the older "preset: NAME", "run: NAME | CMD | ... | FILE". 0: not a preset's directory. */
static int read_set(const char *dir, struct pset *p)
{
	char path[4300], line[2400], sect[160] = "";
	memset(p, 0, sizeof(*p));
	snprintf(p->dir, sizeof(p->dir), "%s", dir);
	snprintf(path, sizeof(path), "%.4200s/metadata.txt", dir);
	FILE *f = fopen_regular(path);
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		trim(line);
		struct entry *e = p->n ? &p->e[p->n - 1] : NULL;
		if (line[0] == '[') {
			snprintf(sect, sizeof(sect), "%.159s", line);
			if (!strncmp(line, "[run ", 5) && p->n < ENTRIES_MAX) {
				e = &p->e[p->n++];
				snprintf(e->name, sizeof(e->name), "%.*s",
					 (int)strcspn(line + 5, "]"), line + 5);
			}
		} else if (!strcmp(sect, "[preset]") && !strncmp(line, "name = ", 7)) {
			snprintf(p->preset, sizeof(p->preset), "%.127s", line + 7);
		} else if (!strncmp(sect, "[run ", 5) && e && !strncmp(line, "command = ", 10)) {
			snprintf(e->cmd, sizeof(e->cmd), "%.2047s", line + 10);
		} else if (!strncmp(sect, "[run ", 5) && e && !strncmp(line, "csv = ", 6)) {
			snprintf(e->csv, sizeof(e->csv), "%.255s", line + 6);
		} else if (!sect[0] && !strncmp(line, "preset: ", 8)) {
			snprintf(p->preset, sizeof(p->preset), "%.127s", line + 8);
		} else if (!sect[0] && !strncmp(line, "run: ", 5) && p->n < ENTRIES_MAX) {
			char *f1 = strchr(line, '|'), *f2 = f1 ? strchr(f1 + 1, '|') : NULL;
			char *fl = strrchr(line, '|');
			if (!f1 || !f2 || !fl)
				continue;
			e = &p->e[p->n++];
			*f1 = *f2 = 0;
			snprintf(e->name, sizeof(e->name), "%.127s", line + 5);
			trim(e->name);
			snprintf(e->cmd, sizeof(e->cmd), "%.2047s", f1 + 1 + (f1[1] == ' '));
			trim(e->cmd);
			snprintf(e->csv, sizeof(e->csv), "%.255s", fl + 1 + (fl[1] == ' '));
		}
	}
	fclose(f);
	return p->preset[0] != 0;
}

/* The value of option opt in cmd ("--drain-us 500"), or NULL; "" for a flag. */
static const char *opt_in(const char *cmd, const char *opt, char *buf, size_t n)
{
	size_t l = strlen(opt);
	for (const char *p = strstr(cmd, opt); p; p = strstr(p + 1, opt)) {
		if ((p != cmd && p[-1] != ' ') || (p[l] && p[l] != ' '))
			continue;
		const char *v = p + l + (p[l] == ' ');
		size_t k = strcspn(v, " ");
		if (!p[l] || !strncmp(v, "--", 2))
			k = 0;
		snprintf(buf, n, "%.*s", (int)k, v);
		return buf;
	}
	return NULL;
}

/* What an entry ran without --opt: its CSV's value of the option's column (drain-us: drain_us),
 * else "not given". */
static void absent_value(const struct pset *s, const struct entry *e, const char *opt, char *out,
			 size_t n)
{
	char path[4600], col[128], err[ERRLEN];
	struct csvs r;
	snprintf(out, n, "not given");
	snprintf(col, sizeof(col), "%s", opt + 2);
	for (char *c = col; *c; c++)
		*c = *c == '-' ? '_' : *c;
	snprintf(path, sizeof(path), "%.4200s/%.250s", s->dir, e->csv);
	if (!e->csv[0] || csvs_open(&r, path, err))
		return;
	int at = -1;
	if (csvs_next(&r, err) > 0)
		for (int i = 0; i < r.nf; i++)
			if (!strcmp(csvs_field(&r, i), col))
				at = i;
	if (at >= 0 && csvs_next(&r, err) > 0 && at < r.nf)
		snprintf(out, n, "%.60s", csvs_field(&r, at));
	csvs_close(&r);
}

/* Is the option's column one the join keys on (its configuration), for bench in g? */
static int joins_on(const struct groups *g, const char *bench, const char *opt)
{
	char col[128], req[160];
	snprintf(col, sizeof(col), "%s", opt + 2);
	for (char *c = col; *c; c++)
		*c = *c == '-' ? '_' : *c;
	snprintf(req, sizeof(req), "%s_requested", col);
	for (int b = 0; g && b < g->nbench; b++) {
		if (strcmp(g->bench[b].name, bench))
			continue;
		for (int k = 0; k < g->bench[b].nkey; k++)
			if (!strcmp(g->bench[b].key_col[k], col) ||
			    !strcmp(g->bench[b].key_col[k], req))
				return 1;
	}
	return 0;
}

/* One entry of both sets whose command differs: "quick's test-then-set differs: drain-us 0 in A,
 * 500 in B; not compared" at out (n bytes); the bytes written. */
static size_t entry_diff(const struct groups *g, const struct pset *sa, const struct entry *a,
			 const struct pset *sb, const struct entry *b, const char *na,
			 const char *nb, char *out, size_t n)
{
	size_t k = (size_t)snprintf(out, n, "%s's %s differs:", sa->preset, a->name);
	int keyed = 0, any = 0;
	char bench[64] = "";
	sscanf(a->cmd, "%*s run %63s", bench);
	for (int side = 0; side < 2; side++) { /* every option of A, then those only B has */
		const char *cmd = side ? b->cmd : a->cmd;
		for (const char *p = strstr(cmd, " --"); p && k < n; p = strstr(p + 1, " --")) {
			char opt[64], va[128], vb[128];
			snprintf(opt, sizeof(opt), "%.*s", (int)strcspn(p + 1, " "), p + 1);
			const char *x = opt_in(a->cmd, opt, va, sizeof(va));
			const char *y = opt_in(b->cmd, opt, vb, sizeof(vb));
			if ((side && x) || (x && y && !strcmp(x, y)))
				continue; /* said already, or the same */
			if (!x)
				absent_value(sa, a, opt, va, sizeof(va));
			if (!y)
				absent_value(sb, b, opt, vb, sizeof(vb));
			if (!strcmp(va, vb))
				continue; /* given on one side as the other's value */
			keyed |= joins_on(g, bench, opt) || !strcmp(opt, "--duration") ||
				 !strcmp(opt, "--warmup");
			k += (size_t)snprintf(out + k, n - k, "%s %s %s in %s, %s in %s",
					      any++ ? ";" : "", opt + 2, va, na, vb, nb);
		}
	}
	if (!any)
		return 0; /* only the order of its options */
	if (k < n)
		k += (size_t)snprintf(out + k, n - k, "%s",
				      keyed ? "; not compared"
					    : "; compared (the change is not in what is joined)");
	return k < n ? k : n;
}

/* The result directories of an input: itself (a preset's directory), its own directory (a CSV of
 * one), or each subdirectory with a metadata.txt (a fleet). */
static int sets_of(const char *input, struct pset **out)
{
	struct stat st;
	int n = 0;
	*out = NULL;
	if (stat(input, &st))
		return 0;
	char dir[4200];
	if (!S_ISDIR(st.st_mode)) {
		const char *sl = strrchr(input, '/');
		snprintf(dir, sizeof(dir), "%.*s", sl ? (int)(sl - input) : 1, sl ? input : ".");
		input = dir;
	}
	struct pset *p = xcalloc(1, sizeof(*p));
	if (read_set(input, p)) {
		*out = p;
		return 1;
	}
	free(p);
	DIR *d = opendir(input);
	for (struct dirent *e; d && (e = readdir(d));) {
		char sub[4400];
		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%.4200s/%.190s", input, e->d_name);
		struct pset q;
		if (!read_set(sub, &q))
			continue;
		*out = realloc(*out, (size_t)(n + 1) * sizeof(**out));
		if (!*out)
			out_of_memory(0);
		(*out)[n++] = q;
	}
	if (d)
		closedir(d);
	return n;
}

int preset_diff(const struct groups *g, const char *a, const char *b, const char *na,
		const char *nb, char *out, size_t n)
{
	struct pset *sa, *sb;
	int ma = sets_of(a, &sa), mb = sets_of(b, &sb), lines = 0;
	size_t k = 0;
	out[0] = 0;
	for (int i = 0; i < ma; i++)
		for (int j = 0; j < mb; j++) {
			if (strcmp(sa[i].preset, sb[j].preset))
				continue;
			for (int x = 0; x < sa[i].n; x++)
				for (int y = 0; y < sb[j].n; y++) {
					const struct entry *ea = &sa[i].e[x], *eb = &sb[j].e[y];
					if (strcmp(ea->name, eb->name) ||
					    !strcmp(ea->cmd, eb->cmd) || k + 2 >= n)
						continue;
					size_t w = entry_diff(g, &sa[i], ea, &sb[j], eb, na, nb,
							      out + k + (k > 0), n - k - 1);
					if (!w)
						continue;
					if (k)
						out[k] = '\n';
					k += w + (k > 0);
					lines++;
				}
		}
	free(sa);
	free(sb);
	return lines;
}
