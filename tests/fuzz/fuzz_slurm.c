/* libFuzzer target: batch scripts from hostile names. The input's NUL-separated fields become a
 * submission (the preset's name in the id, the results path, the partition, constraints, sbatch
 * arguments, the binary, the preset's path, resume directories), unchecked. fleet_script must
 * refuse it in one line, or write a script whose #SBATCH lines read back (as sbatch reads them)
 * exactly as the values were given, and whose shell code, quoted strings and comments aside, is
 * the same as for plain names: nothing from a name is ever code. */
#include "runner/slurm.h"
#include "lib/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The script as bash tokenizes it, with comments dropped and every quoted word replaced by Q. */
static char *code_only(const char *s)
{
	char *o = malloc(strlen(s) + 1), *k = o;
	int word_start = 1;
	while (*s) {
		if (*s == '#' && word_start) {
			s += strcspn(s, "\n");
			continue;
		}
		if (*s == '\\' && s[1]) {
			*k++ = s[0];
			*k++ = s[1];
			s += 2;
			word_start = 0;
			continue;
		}
		if (*s == '\'' || *s == '"') {
			char q = *s++;
			while (*s && *s != q)
				s += (q == '"' && *s == '\\' && s[1]) ? 2 : 1;
			if (!*s)
				abort(); /* an unterminated quote */
			s++;
			if (k - o >= 3 && !strncmp(k - 3, "Q\\'", 3))
				k -= 2; /* 'a'\''b': shell_quote's quote, one word still */
			else
				*k++ = 'Q';
			word_start = 0;
			continue;
		}
		word_start = *s == ' ' || *s == '\t' || *s == '\n' || *s == ';' || *s == '(';
		*k++ = *s++;
	}
	*k = 0;
	return o;
}

static void fill(struct fleet *f, const char *fld[], int nf, int plain)
{
	memset(f, 0, sizeof(*f));
	const char *name = plain ? "p" : fld[0];
	snprintf(f->id, sizeof(f->id), "20261201T112658.000001-%.60s", name);
	snprintf(f->results, sizeof(f->results), "%s", plain ? "/r" : fld[1]);
	snprintf(f->partition, sizeof(f->partition), "%s", plain && fld[2][0] ? "q" : fld[2]);
	snprintf(f->bin, sizeof(f->bin), "%s", plain ? "/b" : fld[3]);
	snprintf(f->preset_file, sizeof(f->preset_file), "%s", plain ? "/p.ini" : fld[4]);
	snprintf(f->created, sizeof(f->created), "2026-12-01T11:26:58+0000");
	for (int i = 5; i < nf && f->ntasks < FLEET_TASKS_MAX; i++) {
		const char *v = fld[i];
		if (v[0] == '-' && f->nsbatch < FLEET_SBATCH_ARGS_MAX) { /* an sbatch argument */
			f->sbatch_arg[f->nsbatch++] = xstrdup(plain ? "--x" : v);
			continue;
		}
		struct fleet_task *t = &f->task[f->ntasks];
		const char *resume = strchr(v, '/'); /* "FEATURE/RESUME_DIR" */
		snprintf(t->constraint, sizeof(t->constraint), "%.*s",
			 (int)(resume ? resume - v : (long)strlen(v)), v);
		if (plain)
			snprintf(t->constraint, sizeof(t->constraint), "c%d", f->ntasks);
		if (resume)
			snprintf(t->resume_dir, sizeof(t->resume_dir), "%s", plain ? "/d" : resume);
		t->submit = 1;
		t->njobs = 0;
		f->ntasks++;
	}
}

static void check_directives(const struct fleet *f, const char *script)
{
	static char got[FLEET_SBATCH_ARGS_MAX + 8][FLEET_ARG_LEN];
	char want[FLEET_ARG_LEN];
	int n = fleet_directives(script, got, FLEET_SBATCH_ARGS_MAX + 8), k = 0;
	snprintf(want, sizeof(want), "--job-name=c2cbench-%s", f->id);
	if (n < 6 || strcmp(got[k++], want))
		abort();
	k += 3; /* --array, --nodes, --exclusive */
	snprintf(want, sizeof(want), "--output=%s/slurm/%s/task-%%A-%%a.out", f->results, f->id);
	if (strcmp(got[k++], want))
		abort();
	k++; /* --error */
	if (f->partition[0]) {
		snprintf(want, sizeof(want), "--partition=%s", f->partition);
		if (k >= n || strcmp(got[k++], want))
			abort();
	}
	for (int i = 0; i < f->nsbatch; i++)
		if (k >= n || strcmp(got[k++], f->sbatch_arg[i]))
			abort();
	if (k != n)
		abort(); /* a directive nobody asked for */
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	if (size > 8192)
		return 0;
	char *text = malloc(size + 1);
	const char *fld[80];
	int nf = 0;
	memcpy(text, data, size);
	text[size] = 0;
	for (size_t i = 0, start = 0; i <= size && nf < 80; i++)
		if (i == size || !text[i]) {
			fld[nf++] = text + start;
			start = i + 1;
		}
	while (nf < 6)
		fld[nf++] = "";
	struct fleet *f = malloc(sizeof(*f)), *plain = malloc(sizeof(*plain));
	char err[ERRLEN] = "";
	fill(f, fld, nf, 0);
	fill(plain, fld, nf, 1);
	char *script = fleet_script(f, err);
	if (!script) {
		if (!err[0] || strchr(err, '\n'))
			abort(); /* a refusal is one line */
	} else {
		check_directives(f, script);
		char *ref = fleet_script(plain, err);
		if (!ref)
			abort(); /* plain names are always accepted */
		char *a = code_only(script), *b = code_only(ref);
		if (strcmp(a, b))
			abort(); /* a name became code */
		free(a);
		free(b);
		free(ref);
		free(script);
	}
	fleet_free(f);
	fleet_free(plain);
	free(f);
	free(plain);
	free(text);
	return 0;
}
