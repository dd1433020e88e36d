/* What a name or a path may hold before it reaches a batch script (docs/input.md, "Names in batch
 * scripts"): names (constraints, partitions, the preset's name in the submission id) are labels;
 * text in a #SBATCH line holds nothing sbatch would split, cut, unquote or expand; everything the
 * script's shell reads is single-quoted by shell_quote. One check per kind, used everywhere. */
#include "runner/slurm.h"
#include "schema/label.h"
#include "lib/util.h"
#include <stdio.h>
#include <string.h>

int fleet_name_check(const char *what, const char *s, char *err)
{
	if (label_check(what, s, err))
		return -1;
	if (strlen(s) > FLEET_NAME_MAX)
		return err_set(err, "%s '%s' is longer than %d characters", what, s,
			       FLEET_NAME_MAX);
	return 0;
}

int fleet_id_check(const char *id, char *err)
{
	size_t stamp = strspn(id, "0123456789T.");
	char name_err[ERRLEN];
	if (stamp < 15 || id[stamp] != '-' || fleet_name_check("id", id + stamp + 1, name_err))
		return err_set(err,
			       "submission id '%s' is not DATE-PRESET (e.g. "
			       "20261201T112658.123456-quick)",
			       id);
	return 0;
}

int fleet_text_check(const char *what, const char *s, char *err)
{
	if (text_has_control(s))
		return err_set(err, "%s '%s' holds a control character; accepted: printable text",
			       what, s);
	return 0;
}

int fleet_arg_check(const char *what, const char *s, int path, char *err)
{
	const char *bad = path ? FLEET_DIRECTIVE_BAD "%" : FLEET_DIRECTIVE_BAD;
	size_t at = strcspn(s, bad);
	if (text_has_control(s) || s[at])
		return err_set(err,
			       "%s '%s': it reaches a #SBATCH line, which may not hold a control "
			       "character, a space or any of %s",
			       what, s, path ? "# % ' \" \\" : "# ' \" \\");
	return 0;
}

void shell_quote(const char *s, char *out, size_t n)
{
	size_t k = 0;
	if (n < 3) {
		if (n)
			out[0] = 0;
		return;
	}
	out[k++] = '\'';
	for (; *s && k + 5 < n; s++) { /* ' closes, \' is a literal quote, ' reopens */
		if (*s == '\'') {
			memcpy(out + k, "'\\''", 4);
			k += 4;
		} else
			out[k++] = *s;
	}
	out[k++] = '\'';
	out[k] = 0;
}

/* One argument of a #SBATCH line as sbatch reads it (src/sbatch/opt.c, _get_argument): blanks
 * split, '...' and "..." quote, a backslash escapes one character, an unquoted # ends the line. */
static const char *next_arg(const char *p, char *arg, size_t n)
{
	size_t k = 0;
	char q = 0;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p || *p == '\n' || *p == '#')
		return NULL;
	for (; *p && *p != '\n' && (q || (*p != ' ' && *p != '\t')); p++) {
		if (*p == '\\' && p[1] && p[1] != '\n')
			p++;
		else if (q && *p == q) {
			q = 0;
			continue;
		} else if (!q && (*p == '"' || *p == '\'')) {
			q = *p;
			continue;
		} else if (!q && *p == '#')
			break;
		if (k + 1 < n)
			arg[k++] = *p;
	}
	arg[k] = 0;
	return p;
}

int fleet_directives(const char *script, char args[][FLEET_ARG_LEN], int max)
{
	int n = 0;
	for (const char *l = script; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] == '\n')) {
		if (strncmp(l, "#SBATCH", 7)) {
			if (l[strspn(l, " \t")] == '\n' || l[0] == '#')
				continue; /* blank lines and comments: sbatch reads on */
			break; /* the first command ends the directives */
		}
		char arg[FLEET_ARG_LEN];
		for (const char *p = l + 7; (p = next_arg(p, arg, sizeof(arg)));)
			if (n < max)
				snprintf(args[n++], FLEET_ARG_LEN, "%s", arg);
			else
				return -1;
	}
	return n;
}
