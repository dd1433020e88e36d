/* The man page `make` generates (build/c2cbench.1: scripts/man-page.sh, from docs/c2cbench.1.in
 * and --help; C2C_MANPAGE names another build's) lists exactly the options the binary's --help
 * lists: the harness options, a section per bench with its own, and each command's. What this
 * checks is the generator: an option line of --help it cannot read fails here. */
#include "tests/testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *page;

/* The text of man page section `.SH name` (to the next .SH), or of `.SS name` inside it. */
static char *section(const char *sh, const char *ss)
{
	char key[128];
	snprintf(key, sizeof(key), "\n.SH %s\n", sh);
	char *a = strstr(page, key);
	if (!a)
		return NULL;
	a += strlen(key);
	char *end = strstr(a, "\n.SH ");
	size_t n = end ? (size_t)(end - a) : strlen(a);
	char *s = strndup(a, n);
	if (!ss)
		return s;
	snprintf(key, sizeof(key), ".SS %s\n", ss);
	char *b = !strncmp(s, key, strlen(key)) ? s : strstr(s, key + 0);
	if (b && b != s && b[-1] != '\n')
		b = NULL;
	if (!b) {
		free(s);
		return NULL;
	}
	b += strlen(key);
	char *e = strstr(b, "\n.SS ");
	char *r = strndup(b, e ? (size_t)(e - b) : strlen(b));
	free(s);
	return r;
}

/* The option names of a man page text: ".B \-\-name" or ".BI "\-\-name " ..." lines, as " name "
 * words. */
static void man_opts(const char *t, char *out, size_t n)
{
	size_t k = 0;
	out[0] = 0;
	for (const char *l = t; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *p = !strncmp(l, ".B \\-\\-", 7) ? l + 7
			: !strncmp(l, ".BI \"\\-\\-", 9)    ? l + 9
							    : NULL;
		if (!p)
			continue;
		char name[64];
		size_t j = 0;
		for (; *p && j + 1 < sizeof(name) && *p != ' ' && *p != '"' && *p != '\n'; p++)
			if (*p != '\\')
				name[j++] = *p;
		name[j] = 0;
		k += (size_t)snprintf(out + k, k < n ? n - k : 0, " %s ", name);
	}
}

/* The option names of a --help text from the line `from` to the next unindented line. */
static void help_opts(const char *text, const char *from, char *out, size_t n)
{
	const char *p = from ? strstr(text, from) : text;
	size_t k = 0;
	out[0] = 0;
	if (!p)
		return;
	if (from)
		p += strlen(from);
	for (; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (from && p[0] != ' ')
			break;
		char name[64];
		if (!strncmp(p, "  --", 4) && sscanf(p + 4, "%63[a-z0-9-]", name) == 1)
			k += (size_t)snprintf(out + k, k < n ? n - k : 0, " %s ", name);
	}
}

/* Every word of a is in b (both " w " lists). */
static void each_in(const char *a, const char *b, const char *what)
{
	char w[70];
	for (const char *p = a; (p = strchr(p, ' ')) && p[1];) {
		if (sscanf(p + 1, "%63s", w) != 1)
			break;
		char key[72];
		snprintf(key, sizeof(key), " %s ", w);
		if (!strstr(b, key))
			fail_msg("%s: --%s is in one list but not the other (%s | %s)", what, w, a,
				 b);
		p += strlen(w) + 2;
	}
}

static void same_set(const char *help, const char *man, const char *what)
{
	each_in(help, man, what);
	each_in(man, help, what);
}

static void page_matches_help(void **s)
{
	(void)s;
	struct cmd_result *r = malloc(sizeof(*r));
	char *hopts = malloc(8192), *mopts = malloc(8192), *harness_seen = calloc(1, 8192),
	     benches[1024] = "";
	char *harness = section("HARNESS OPTIONS", NULL), *mharness = malloc(8192);
	assert_non_null(harness);
	man_opts(harness, mharness, 8192);
	run_c2c(r, "list", NULL);
	for (char *l = r->out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		char name[64];
		if (!strncmp(l, "bench ", 6) && sscanf(l + 6, "%63s", name) == 1)
			strcat(strcat(benches, name), " ");
	}
	for (char *save = NULL, *b = strtok_r(benches, " ", &save); b;
	     b = strtok_r(NULL, " ", &save)) {
		char from[80], *sec = section("BENCHES", b);
		if (!sec)
			fail_msg("the man page has no .SS %s under BENCHES", b);
		run_c2c(r, "run", b, "--help", NULL);
		snprintf(from, sizeof(from), "%s options:\n", b);
		help_opts(r->out, from, hopts, 8192);
		man_opts(sec, mopts, 8192);
		same_set(hopts, mopts, b);
		help_opts(r->out, "harness options:\n", hopts, 8192);
		each_in(hopts, mharness, "harness options");
		strcat(harness_seen, hopts);
		free(sec);
	}
	each_in(mharness, harness_seen, "harness options in the page but in no bench's --help");
	const char *cmds[][2] = {{"compare", NULL},         {"events", NULL}, {"import", NULL},
				 {"list", NULL},
				 {"preset", NULL},          {"report", NULL}, {"topo", NULL},
				 {"slurm submit", "submit"}};
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		char *sec = section("COMMAND OPTIONS", cmds[i][0]);
		if (!sec)
			fail_msg("the man page has no .SS %s under COMMAND OPTIONS",
				 cmds[i][0]);
		if (cmds[i][1])
			run_c2c(r, "slurm", cmds[i][1], "--help", NULL);
		else
			run_c2c(r, cmds[i][0], "--help", NULL);
		help_opts(r->out, NULL, hopts, 8192);
		man_opts(sec, mopts, 8192);
		same_set(hopts, mopts, cmds[i][0]);
		free(sec);
	}
	free(harness);
	free(mharness);
	free(harness_seen);
	free(hopts);
	free(mopts);
	free(r);
}

int main(void)
{
	const char *path = getenv("C2C_MANPAGE") ? getenv("C2C_MANPAGE") : "build/c2cbench.1";
	page = slurp(path);
	if (!page) {
		fprintf(stderr, "cannot read %s (`make` generates it; run from the top)\n", path);
		return 1;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(page_matches_help),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	free(page);
	return rc;
}
