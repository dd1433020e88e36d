#include "lib/opts.h"
#include "lib/suggest.h"
#include "lib/util.h"
#include "lib/wrap.h"
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char *spec_choices(const struct opt_spec *s)
{
	return s->choices_fn ? s->choices_fn() : s->choices;
}

/* Why a value is refused: what it is not (what, when it does not parse) or out of range (bad
 * is 0: it parsed), and the range accepted. */
static int refuse(char *err, const struct opt_spec *s, const char *v, int bad, const char *what,
		  const char *range)
{
	return err_set(err, "--%s: '%s' is %s%s; accepted: %s", s->name, v,
		       bad ? "not " : "out of range", bad ? what : "", range);
}

/* The accepted choices, or where they are listed when the line would be over ERR_WIDTH. */
static int refuse_choice(char *err, const struct opt_spec *s, const char *v, const char *sug,
			 const char *ch, const char *tail)
{
	char list[ERRLEN];
	snprintf(list, sizeof(list), "%s%s", ch, tail);
	err_accepted(err, list, ch, "--%s: '%s' is not accepted%s", s->name, v, sug);
	if (strlen(err) > ERR_WIDTH)
		err_set(err, "--%s: '%s' is not accepted%s; see --help", s->name, v, sug);
	return -1;
}

/* Why a value is refused, phrased as what is accepted. */
static int check_value(const struct opt_spec *s, const char *v, char *err)
{
	long l = 0;
	double d = 0;
	int bad;
	const char *ch = spec_choices(s);
	switch (s->type) {
	case OPT_FLAG:
	case OPT_TEXT:
		return 0;
	case OPT_COUNT:
		if ((bad = parse_long(v, &l)) || l < 1 || l > 1000000)
			return refuse(err, s, v, bad, "a whole number", "1..1000000");
		return 0;
	case OPT_COUNT_AUTO:
		if (strcmp(v, "auto") && ((bad = parse_long(v, &l)) || l < 1 || l > 1000000))
			return refuse(err, s, v, bad, "a whole number", "1..1000000 or auto");
		return 0;
	case OPT_FACTOR:
		if ((bad = parse_double(v, &d)) || !(d >= 1) || d > 1000)
			return refuse(err, s, v, bad, "a factor", "1..1000");
		return 0;
	case OPT_UINT:
		if ((bad = parse_long(v, &l)) || l < 0 || l > 1000000000L)
			return refuse(err, s, v, bad, "a whole number", "0..1000000000");
		return 0;
	case OPT_SECONDS:
		if ((bad = parse_double(v, &d)) || d <= 0 || d > 86400)
			return refuse(err, s, v, bad, "a number of seconds", "> 0, <= 86400");
		return 0;
	case OPT_OFF:
		if ((bad = parse_double(v, &d)) || d < 0 || d > 1000)
			return refuse(err, s, v, bad, "a percentage", "0..1000 (no % sign)");
		return 0;
	case OPT_PERCENT:
		if ((bad = parse_double(v, &d)) || d < 0 || d > 100)
			return refuse(err, s, v, bad, "a percentage", "0..100 (no % sign)");
		return 0;
	case OPT_CHOICE:
		if (!list_has(ch, v)) {
			char sug[128];
			return refuse_choice(err, s, v, suggest_list(v, ch, sug, sizeof(sug)), ch,
					     "");
		}
		return 0;
	case OPT_CHOICES: {
		char *items[64], why[80];
		int n = list_count(v, why, sizeof(why)), rc = 0;
		if (n < 0)
			return err_set(err,
				       "--%s: '%s' is not accepted (%s); accepted: one or more of "
				       "%s, comma-separated",
				       s->name, v, why, ch);
		if (n > 64)
			return err_set(
			    err, "--%s: '%s' has %d elements; accepted: each of %s at most once",
			    s->name, v, n, ch);
		n = list_split(v, items, 64);
		for (int i = 0; i < n && !rc; i++) {
			char sug[128];
			if (!list_has(ch, items[i]))
				rc = refuse_choice(err, s, items[i],
						   suggest_list(items[i], ch, sug, sizeof(sug)), ch,
						   " (comma-separated)");
			for (int j = 0; j < i && !rc; j++)
				if (!strcmp(items[i], items[j]))
					rc = err_set(err,
						     "--%s: '%s' is given twice; accepted: each of "
						     "%s at most once",
						     s->name, items[i], ch);
		}
		for (int i = 0; i < n; i++)
			free(items[i]);
		return rc;
	}
	}
	return 0;
}

static int find(const struct opts *o, const char *name)
{
	for (int i = 0; i < o->n; i++)
		if (!strcmp(o->v[i].spec->name, name))
			return i;
	return -1;
}

int opt_set(struct opts *o, const char *name, const char *val, char *err)
{
	int i = find(o, name);
	if (i < 0)
		return err_set(err, "unknown option '%s'", name);
	if (check_value(o->v[i].spec, val, err))
		return -1;
	free(o->v[i].val);
	o->v[i].val = xstrdup(val);
	o->v[i].given = 1;
	return 0;
}

/* An unknown option, with the closest declared one when it looks like a typo of it. */
static int unknown_option(const struct opts *o, const char *arg, char *err)
{
	char name[64], sug[128] = "";
	const char *c[OPTS_MAX + 1];
	snprintf(name, sizeof(name), "%.*s",
		 (int)strcspn(arg + (arg[0] == '-') + (arg[1] == '-'), "="),
		 arg + (arg[0] == '-') + (arg[1] == '-'));
	for (int i = 0; i < o->n; i++) {
		c[i] = o->v[i].spec->name;
		if (strchr(arg, '=') && !strncmp(arg, "--", 2) && !strcmp(c[i], name) &&
		    o->v[i].spec->type == OPT_FLAG)
			return err_set(err,
				       "option --%s is a flag and takes no value ('%.80s'); "
				       "accepted: --%s alone",
				       name, arg, name);
	}
	c[o->n] = "help";
	const char *best = arg[0] == '-' ? suggest_from(name, c, o->n + 1) : NULL;
	if (best)
		snprintf(sug, sizeof(sug), " (did you mean '--%s'?)", best);
	return err_set(err, "unknown option '%s'%s; see --help for the accepted options", arg, sug);
}

/* getopt_long takes any unambiguous prefix (--dur for --duration); presets could not, and a prefix
 * silently changes meaning when an option is added. Only the full name is accepted, everywhere. */
static int exact_name(const char *token, const char *name, char *err)
{
	size_t n = strcspn(token + 2, "=");
	if (strncmp(token, "--", 2) || (n == strlen(name) && !strncmp(token + 2, name, n)))
		return 0;
	return err_set(
	    err, "option '%.*s' is not accepted; accepted: the full name --%s (no abbreviations)",
	    (int)n + 2, token, name);
}

int opts_parse(struct opts *o, const struct opt_spec *const *tables, int argc, char **argv,
	       char *err)
{
	struct option lo[OPTS_MAX + 2];
	memset(o, 0, sizeof(*o));
	for (int t = 0; tables[t]; t++)
		for (const struct opt_spec *s = tables[t]; s->name; s++) {
			if (o->n >= OPTS_MAX)
				abort();
			if (find(o, s->name) >= 0)
				continue; /* first table wins: a bench may not redefine a harness
					     option */
			o->v[o->n].spec = s;
			if (s->def) {
				if (check_value(s, s->def, err))
					abort(); /* a bad default is a programming error */
				o->v[o->n].val = xstrdup(s->def);
			}
			lo[o->n] = (struct option){
			    s->name, s->type == OPT_FLAG ? no_argument : required_argument, NULL,
			    1000 + o->n};
			o->n++;
		}
	lo[o->n] = (struct option){ "help", no_argument, NULL, 'h' };
	lo[o->n + 1] = (struct option){ 0 };
	optind = 0; /* 0: getopt re-initialises, then starts at argv[1] */
	opterr = 0;
	int c, idx, at = 1;
	char seen[OPTS_MAX] = { 0 };
	while ((c = getopt_long(argc, argv, "+:h", lo, &idx)) != -1) {
		if (c == 'h')
			return err_set(err, "help");
		if (c == '?')
			return unknown_option(o, argv[optind - 1], err);
		if (c == ':')
			return err_set(err, "option '%s' needs a value", argv[optind - 1]);
		int i = c - 1000;
		if (exact_name(argv[at], o->v[i].spec->name, err))
			return -1;
		if (seen[i]++)
			return err_set(
			    err, "option --%s is given twice; accepted: each option at most once",
			    o->v[i].spec->name);
		if (opt_set(o, o->v[i].spec->name, o->v[i].spec->type == OPT_FLAG ? "1" : optarg,
			    err))
			return -1;
		at = optind;
	}
	o->args = argv + optind;
	o->nargs = argc - optind;
	return 0;
}

void opts_free(struct opts *o)
{
	for (int i = 0; i < o->n; i++)
		free(o->v[i].val);
	o->n = 0;
}

const char *opt_str(const struct opts *o, const char *name)
{
	int i = find(o, name);
	if (i < 0)
		abort(); /* asking for an undeclared option is a programming error */
	return o->v[i].val;
}

long opt_long(const struct opts *o, const char *name)
{
	long v = 0;
	const char *s = opt_str(o, name);
	if (s)
		parse_long(s, &v);
	return v;
}

double opt_double(const struct opts *o, const char *name)
{
	double v = 0;
	const char *s = opt_str(o, name);
	if (s)
		parse_double(s, &v);
	return v;
}

int opt_flag(const struct opts *o, const char *name)
{
	const char *s = opt_str(o, name);
	return s && !strcmp(s, "1");
}

int opt_given(const struct opts *o, const char *name)
{
	int i = find(o, name);
	return i >= 0 && o->v[i].given;
}

void opts_help(FILE *f, const struct opt_spec *t)
{
	for (const struct opt_spec *s = t; s->name; s++) {
		char left[64];
		snprintf(left, sizeof(left), "--%s%s%s", s->name, s->type == OPT_FLAG ? "" : " ",
			 s->type == OPT_FLAG ? "" : (s->metavar ? s->metavar : "VALUE"));
		char text[4096];
		const char *ch = spec_choices(s);
		int k = snprintf(text, sizeof(text), "%s", s->help);
		if (ch && (s->type == OPT_CHOICE || s->type == OPT_CHOICES) &&
		    k < (int)sizeof(text))
			k += snprintf(text + k, sizeof(text) - (size_t)k, " [%s]", ch);
		if (s->def && s->type != OPT_FLAG && k < (int)sizeof(text))
			snprintf(text + k, sizeof(text) - (size_t)k, " (default %s)", s->def);
		/* the text from column 29, its further lines there too */
		int col = fprintf(f, "  %-26s ", left);
		text_wrap(f, col, 29, TEXT_WIDTH, text);
	}
}
