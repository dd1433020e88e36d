/* A preset's INI text read and checked (runner/preset.c finds and lists presets): each [RUN]
 * section becomes the argv of one `c2cbench run BENCH`, every value checked by that bench's own
 * option table; errors are one line, "FILE:LINE: what; accepted: ...". What it allocates,
 * preset_free frees. */
#include "runner/preset.h"
#include "harness/bench.h"
#include "lib/util.h"
#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define KV_MAX 64

const struct preset_shows preset_shows[] = {
    {"seed", "reproduces a seed's own setting, where the machine has the CPUs (skipped, saying "
	     "why, where not)"},
    {"mechanism", "shows the seed's mechanism on a small machine, at a setting that is not the "
		  "seed's: its size is not the seed's"},
    {"control", "a control: the mechanism cannot show at this setting, so it should show no "
		"change"},
    {"baseline", "a platform measurement with no before and after (pingpong's line transfers)"},
    {NULL, NULL},
};
#define SECTIONS_MAX (PRESET_RUNS_MAX + 8)

struct kv {
	char key[64];
	char *val;
	int line;
};

struct sect {
	char name[64];
	int line, used;
	char bench[64];
	char shows[16];
	int optional;
	struct kv kv[KV_MAX];
	int nkv;
};

/* Parse state: inih gives no line numbers to handlers, so the reader counts lines itself. */
struct pstate {
	const char *path, *text;
	size_t len, pos;
	int line;
	char *err;
	int failed;
	struct sect *sec;
	int nsec;
	char *description;
};

static int perr(struct pstate *s, int line, const char *fmt, const char *a, const char *b)
{
	if (!s->failed) {
		char msg[4 * ERRLEN];
		if (snprintf(msg, sizeof(msg), fmt, a, b) >= (int)sizeof(msg))
			msg[sizeof(msg) - 1] = 0;
		char raw[ERRLEN];
		if (snprintf(raw, ERRLEN, "%s:%d: %s", s->path, line, msg) >=
		    ERRLEN) /* cut, still one line */
			raw[ERRLEN - 1] = 0;
		text_escape(raw, s->err,
			    ERRLEN); /* a key or value with control bytes stays on the line */
		s->failed = 1;
	}
	return 0;
}

static struct sect *sect_find(struct pstate *s, const char *name)
{
	for (int i = 0; i < s->nsec; i++)
		if (!strcmp(s->sec[i].name, name))
			return &s->sec[i];
	return NULL;
}

/* Record [section] headers with their lines: inih reports sections only through their keys. */
static void note_section(struct pstate *s, const char *line)
{
	while (*line == ' ' || *line == '\t')
		line++;
	if (*line != '[')
		return;
	const char *end = strchr(line, ']');
	char name[64];
	if (!end || end - line - 1 >= (long)sizeof(name)) {
		perr(s, s->line,
		     "section name too long or not closed; accepted: [NAME], up to 63 "
		     "characters%s%s",
		     "", "");
		return;
	}
	snprintf(name, sizeof(name), "%.*s", (int)(end - line - 1), line + 1);
	struct sect *old = sect_find(s, name);
	char first[32];
	if (old) {
		snprintf(first, sizeof(first), "%d", old->line);
		perr(s, s->line,
		     "section [%s] appears twice (first at line %s); accepted: one section per run",
		     name, first);
		return;
	}
	if (s->nsec >= SECTIONS_MAX) {
		perr(s, s->line, "more than %s sections%s", "256", "");
		return;
	}
	struct sect *n = &s->sec[s->nsec++];
	memset(n, 0, sizeof(*n));
	snprintf(n->name, sizeof(n->name), "%s", name);
	n->line = s->line;
}

/* inih's line reader, over the file text in memory; refuses lines longer than inih keeps. */
static char *reader(char *str, int num, void *stream)
{
	struct pstate *s = stream;
	/* a UTF-8 byte order mark (editors on Windows write one): not part of the first line */
	if (!s->pos && s->len >= 3 && !memcmp(s->text, "\xef\xbb\xbf", 3))
		s->pos = 3;
	if (s->pos >= s->len)
		return NULL;
	const char *p = s->text + s->pos, *nl = memchr(p, '\n', s->len - s->pos);
	size_t l = nl ? (size_t)(nl - p) + 1 : s->len - s->pos;
	s->pos += l;
	s->line++;
	if (memchr(p, 0, l))
		perr(s, s->line, "NUL byte in the file; accepted: a text INI file%s%s", "", "");
	if (l >= (size_t)num) {
		char max[16];
		snprintf(max, sizeof(max), "%d", num - 2);
		perr(s, s->line, "line longer than %s characters; accepted: shorter lines%s", max,
		     "");
		l = 0;
	}
	memcpy(str, p, l);
	str[l] = 0;
	/* inih ends a value at " ;" (an inline comment): "layout = shared ; padded" would run
	 * shared alone, silently; a key line holding one is refused */
	const char *t = str + strspn(str, " \t");
	for (const char *c = t; *t && !strchr(";#[", *t) && (c = strchr(c + 1, ';'));)
		if (c[-1] == ' ' || c[-1] == '\t') {
			perr(s, s->line,
			     "' ;' inside a value (inih would end the value there, dropping the "
			     "rest%s); accepted: a comment on a line of its own, starting with ; "
			     "or #%s",
			     "", "");
			break;
		}
	note_section(s, str);
	return str;
}

static int valid_name(const char *n)
{
	if (!*n || strlen(n) > 48)
		return 0;
	for (const char *c = n; *c; c++)
		if (!(*c >= 'a' && *c <= 'z') && !(*c >= 'A' && *c <= 'Z') &&
		    !(*c >= '0' && *c <= '9') && !strchr("._+-", *c))
			return 0;
	return 1;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct pstate *s = user;
	if (s->failed)
		return 0;
	if (!*section)
		return perr(s, s->line,
			    "'%s' is outside any section; accepted: [preset], [defaults] or "
			    "[RUN-NAME] before keys%s",
			    name, "");
	struct sect *sec = sect_find(s, section);
	if (!sec)
		return perr(s, s->line, "internal: section [%s] not seen by the reader%s", section,
			    "");
	sec->used = 1;
	if (!strcmp(section, "preset")) {
		if (strcmp(name, "description"))
			return perr(s, s->line,
				    "unknown key '%s' in [preset]; accepted: description%s", name,
				    "");
		if (s->description)
			return perr(s, s->line, "key 'description' given twice in [preset]%s%s", "",
				    "");
		s->description = xstrdup(value);
		return 1;
	}
	if (strcmp(section, "defaults") && !valid_name(section))
		return perr(s, sec->line,
			    "run name '%s' is not accepted; accepted: up to 48 letters, digits and "
			    ". _ + -%s",
			    section, "");
	if (strcmp(section, "defaults") && !strcmp(name, "bench")) {
		if (sec->bench[0])
			return perr(s, s->line, "key 'bench' given twice in [%s]%s", section, "");
		if (!*value || strlen(value) >= sizeof(sec->bench))
			return perr(s, s->line, "bench '%s' is not accepted; accepted: %s", value,
				    bench_names());
		snprintf(sec->bench, sizeof(sec->bench), "%s", value);
		return 1;
	}
	if (strcmp(section, "defaults") && !strcmp(name, "shows")) {
		int ok = 0;
		char acc[128] = "";
		for (const struct preset_shows *v = preset_shows; v->name; v++) {
			ok |= !strcmp(value, v->name);
			snprintf(acc + strlen(acc), sizeof(acc) - strlen(acc), "%s%s",
				 *acc ? ", " : "", v->name);
		}
		if (sec->shows[0])
			return perr(s, s->line, "key 'shows' given twice in [%s]%s", section, "");
		if (!ok)
			return perr(s, s->line, "shows = '%s' is not accepted; accepted: %s", value,
				    acc);
		snprintf(sec->shows, sizeof(sec->shows), "%s", value);
		return 1;
	}
	if (strcmp(section, "defaults") && !strcmp(name, "optional")) {
		if (strcmp(value, "yes") && strcmp(value, "no"))
			return perr(s, s->line,
				    "optional = '%s' is not accepted; accepted: yes, no%s", value,
				    "");
		sec->optional = !strcmp(value, "yes");
		return 1;
	}
	for (int i = 0; i < sec->nkv; i++)
		if (!strcmp(sec->kv[i].key, name)) {
			char first[32];
			snprintf(first, sizeof(first), "%d", sec->kv[i].line);
			return perr(s, s->line,
				    "key '%s' given twice in this section (first at line %s)", name,
				    first);
		}
	if (sec->nkv >= KV_MAX || strlen(name) >= sizeof(sec->kv[0].key))
		return perr(s, s->line,
			    "key '%s' is not accepted (too many keys or too long a name)%s", name,
			    "");
	struct kv *kv = &sec->kv[sec->nkv++];
	snprintf(kv->key, sizeof(kv->key), "%s", name);
	kv->val = xstrdup(value);
	kv->line = s->line;
	return 1;
}

static const char *const reserved[] = { "out", "dry-run", "topology", "label", NULL };

/* Keys the preset command decides itself (reserved): refused in a preset, never offered as
 * accepted. */
static int is_reserved(const char *key)
{
	for (int i = 0; reserved[i]; i++)
		if (!strcmp(key, reserved[i]))
			return 1;
	return 0;
}

/* A run's `flag = no` switches off a flag its [defaults] switched on: drop --flag from the run's
 * argv. */
static int flag_off(struct preset_run *r, const char *key)
{
	char opt[80];
	snprintf(opt, sizeof(opt), "--%s", key);
	for (int i = 0; i < r->nargs; i++)
		if (!strcmp(r->argv[i], opt)) {
			free(r->argv[i]);
			memmove(&r->argv[i], &r->argv[i + 1],
				(size_t)(r->nargs - i - 1) * sizeof(r->argv[0]));
			r->nargs--;
			break;
		}
	return 1;
}

/* Check one key = value with the bench's own option table, then append it to argv (replacing a
 * default). */
/* Whether name is a flag of o's tables (it takes no value in a run's arguments). */
static int is_flag(const struct opts *o, const char *name)
{
	for (int i = 0; i < o->n; i++)
		if (!strcmp(o->v[i].spec->name, name))
			return o->v[i].spec->type == OPT_FLAG;
	return 0;
}

static int apply(struct pstate *s, struct opts *o, struct preset_run *r, const struct kv *kv,
		 const struct bench *b, int from_defaults)
{
	char e[ERRLEN];
	const char *bench = b->name;
	if (bench_refuses(b, kv->key, NULL)) /* [defaults] serve the runs whose bench takes them */
		return from_defaults ? 1
				     : perr(s, kv->line,
					    "bench %s does not take %s; accepted: the options its "
					    "--help lists",
					    bench, kv->key);
	if (is_reserved(kv->key))
		return perr(s, kv->line,
			    "'%s' cannot be set in a preset (the preset command decides it); "
			    "accepted: the other options of %s",
			    kv->key, bench);
	const char *val = kv->val;
	int flag = is_flag(o, kv->key);
	if (flag) {
		if (!strcmp(val, "yes"))
			val = "1";
		else if (!strcmp(val, "no"))
			return flag_off(r, kv->key);
		else
			return perr(s, kv->line, "%s = '%s' is not accepted; accepted: yes, no",
				    kv->key, val);
	}
	if (opt_set(o, kv->key, val, e)) {
		if (!strncmp(e, "unknown option", 14)) {
			char acc[2048];
			size_t k = 0;
			for (int i = 0; i < o->n && k < sizeof(acc); i++)
				if (!is_reserved(
					o->v[i].spec->name)) /* name only keys a preset accepts */
					k += (size_t)snprintf(acc + k, sizeof(acc) - k, ", %s",
							      o->v[i].spec->name);
			char what[ERRLEN];
			if (snprintf(what, sizeof(what), "unknown key '%s' for bench %s", kv->key,
				     bench) < 0)
				what[0] = 0;
			return perr(s, kv->line, "%s; accepted: bench, optional, shows%s", what,
				    acc);
		}
		return perr(s, kv->line, "%s%s", e, "");
	}
	char opt[80];
	snprintf(opt, sizeof(opt), "--%s", kv->key);
	/* a run's own value replaces the default: options only, never a value that looks like one
	 * (mem-node = --seed), stepping over each option's value */
	for (int i = 0; i < r->nargs; i += is_flag(o, r->argv[i] + 2) ? 1 : 2)
		if (!strcmp(r->argv[i], opt)) {
			if (!flag && i + 1 < r->nargs) {
				free(r->argv[i + 1]);
				r->argv[i + 1] = xstrdup(val);
			}
			return 1;
		}
	if (r->nargs + 2 > PRESET_ARGS_MAX)
		return perr(s, kv->line, "too many options in one run%s%s", "", "");
	r->argv[r->nargs++] = xstrdup(opt);
	if (!flag)
		r->argv[r->nargs++] = xstrdup(val);
	return 1;
}

static void build_run(struct pstate *s, struct preset *p, const struct sect *def,
		      const struct sect *sec)
{
	struct preset_run *r = &p->run[p->n++];
	snprintf(r->name, sizeof(r->name), "%s", sec->name);
	snprintf(r->bench, sizeof(r->bench), "%s", sec->bench);
	snprintf(r->shows, sizeof(r->shows), "%s", sec->shows);
	r->line = sec->line;
	if (!sec->bench[0]) {
		perr(s, sec->line, "run [%s] has no bench key; accepted: bench = one of %s",
		     sec->name, bench_names());
		return;
	}
	const struct bench *b = bench_find(sec->bench);
	if (!b) {
		char why[ERRLEN];
		if (snprintf(why, sizeof(why), "bench '%s' is not in this build (it has: %s)",
			     sec->bench, bench_names()) < 0)
			why[0] = 0;
		if (sec->optional)
			r->skip = xstrdup(why);
		else
			perr(s, sec->line,
			     "%s; add optional = yes to skip this run with a reason instead", why,
			     "");
		return;
	}
	struct opt_spec htab[HARNESS_OPTS_MAX];
	const struct opt_spec *tables[] = {bench_harness_opts(b, htab, HARNESS_OPTS_MAX), b->opts,
					   NULL};
	char *argv0[] = { "preset", NULL }, e[ERRLEN];
	struct opts o;
	if (opts_parse(&o, tables, 1, argv0, e)) {
		perr(s, sec->line, "%s%s", e, "");
		opts_free(&o);
		return;
	}
	for (int i = 0; def && i < def->nkv && !s->failed; i++)
		apply(s, &o, r, &def->kv[i], b, 1);
	for (int i = 0; i < sec->nkv && !s->failed; i++)
		apply(s, &o, r, &sec->kv[i], b, 0);
	opts_free(&o);
}

static char *read_text(const char *path, size_t *len, char *err)
{
	struct stat st;
	FILE *f = fopen(path, "rb");
	if (!f) {
		err_set(err, "%s: cannot open the preset: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode) || st.st_size > (1 << 20)) {
		fclose(f);
		err_set(err, "%s: not a preset file (a regular file of at most 1 MiB)", path);
		return NULL;
	}
	char *t = xcalloc((size_t)st.st_size + 1, 1);
	*len = fread(t, 1, (size_t)st.st_size, f);
	fclose(f);
	return t;
}

int preset_load(struct preset *p, const char *path, char *err)
{
	size_t len;
	memset(p, 0, sizeof(*p));
	char *text = read_text(path, &len, err);
	if (!text)
		return -1;
	return preset_parse(p, path, text, len, err);
}

int preset_parse(struct preset *p, const char *path, char *text, size_t len, char *err)
{
	memset(p, 0, sizeof(*p));
	struct pstate s = { .path = path, .err = err, .len = len };
	s.text = text;
	s.sec = xcalloc(SECTIONS_MAX, sizeof(struct sect));
	int rc = ini_parse_stream(reader, &s, handler, &s);
	if (rc > 0 && !s.failed)
		perr(&s, rc,
		     "not an INI line; accepted: [section], key = value, or a comment starting "
		     "with ; or #%s%s",
		     "", "");
	if (rc < 0 && !s.failed)
		perr(&s, 0, "cannot parse the file%s%s", "", "");
	const struct sect *def = sect_find(&s, "defaults");
	for (int i = 0; i < s.nsec && !s.failed; i++) {
		const struct sect *sec = &s.sec[i];
		if (!sec->used)
			perr(&s, sec->line,
			     "section [%s] has no keys; accepted: a run section with bench = NAME "
			     "and its options%s",
			     sec->name, "");
		else if (strcmp(sec->name, "preset") && strcmp(sec->name, "defaults"))
			build_run(&s, p, def, sec);
	}
	if (!s.failed && p->n == 0)
		perr(&s, s.line,
		     "no runs; accepted: one or more [RUN-NAME] sections with bench = NAME%s%s", "",
		     "");
	for (int i = 0; i < s.nsec; i++)
		for (int k = 0; k < s.sec[i].nkv; k++)
			free(s.sec[i].kv[k].val);
	free(s.sec);
	p->path = xstrdup(path);
	p->text = text;
	p->description = s.description ? s.description : xstrdup("");
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	p->name = xstrdup(base);
	char *dot = strrchr(p->name, '.');
	if (dot && !strcmp(dot, ".ini"))
		*dot = 0;
	/* the name reaches the result directory's name and its metadata, as a run's name does; the
	 * path, the plan's first line and metadata.txt (slurm submit refuses the same) */
	if (!s.failed && text_has_control(p->name))
		s.failed = err_set(err,
				   "the preset's name '%s' (its file name without .ini) holds a "
				   "control character; accepted: printable text",
				   p->name) != 0;
	else if (!s.failed && text_has_control(path))
		s.failed = err_set(err,
				   "the preset's path '%s' holds a control character; accepted: "
				   "printable text",
				   path) != 0;
	if (s.failed) {
		preset_free(p);
		return -1;
	}
	return 0;
}

void preset_free(struct preset *p)
{
	for (int i = 0; i < p->n; i++) {
		for (int k = 0; k < p->run[i].nargs; k++)
			free(p->run[i].argv[k]);
		free(p->run[i].skip);
	}
	free(p->path);
	free(p->name);
	free(p->description);
	free(p->text);
	memset(p, 0, sizeof(*p));
}
