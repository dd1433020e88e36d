/* Option parsing: typed values, defaults, choices, one-line errors that say what is accepted. */
#include "tests/testutil.h"
#include "lib/opts.h"
#include "lib/util.h"
#include <string.h>

static const struct opt_spec spec[] = {
	{ "count", OPT_COUNT, "1", "N", "", NULL, NULL },
	{ "secs", OPT_SECONDS, "0.5", "S", "", NULL, NULL },
	{ "mode", OPT_CHOICE, "a", "M", "", "a,b", NULL },
	{ "modes", OPT_CHOICES, "a,b", "L", "", "a,b,c", NULL },
	{ "flag", OPT_FLAG, NULL, NULL, "", NULL, NULL },
	{ 0 },
};

static int parse(struct opts *o, char *err, int argc, char **argv)
{
	const struct opt_spec *tables[] = { spec, NULL };
	return opts_parse(o, tables, argc, argv, err);
}

static void defaults_and_values(void **s)
{
	(void)s;
	struct opts o;
	char err[ERRLEN];
	char *argv[] = { "x", "--count", "3", "--secs=2.5", "--modes", "c,a", "--flag", "pos" };
	assert_int_equal(parse(&o, err, 8, argv), 0);
	assert_int_equal(opt_long(&o, "count"), 3);
	assert_true(opt_double(&o, "secs") == 2.5);
	assert_string_equal(opt_str(&o, "mode"), "a");
	assert_false(opt_given(&o, "mode"));
	assert_string_equal(opt_str(&o, "modes"), "c,a");
	assert_true(opt_flag(&o, "flag"));
	assert_int_equal(o.nargs, 1);
	assert_string_equal(o.args[0], "pos");
	opts_free(&o);
}

static void refusals(void **s)
{
	(void)s;
	struct opts o;
	char err[ERRLEN];
	struct { const char *opt, *val, *says;
	} bad[] = {
	    {"--count", "0", "out of range; accepted: 1.."},
	    {"--count", "-2", "out of range; accepted: 1.."},
	    {"--count", "abc", "'abc'"},      {"--secs", "0", "> 0"},
	    {"--secs", "-1", "> 0"},          {"--secs", "nan", "'nan'"},
	    {"--mode", "z", "accepted: a,b"}, {"--modes", "a,a", "twice"},
	    {"--modes", "a,q", "'q'"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *argv[] = { "x", (char *)bad[i].opt, (char *)bad[i].val };
		assert_int_equal(parse(&o, err, 3, argv), -1);
		assert_non_null(strstr(err, bad[i].says));
		assert_null(strchr(err, '\n'));
		opts_free(&o);
	}
	char *unknown[] = { "x", "--bogus" };
	assert_int_equal(parse(&o, err, 2, unknown), -1);
	assert_non_null(strstr(err, "--bogus"));
	opts_free(&o);
	char *novalue[] = { "x", "--count" };
	assert_int_equal(parse(&o, err, 2, novalue), -1);
	assert_non_null(strstr(err, "needs a value"));
	opts_free(&o);
}

static void lists(void **s)
{
	(void)s;
	assert_true(list_has("a,bb,c", "bb"));
	assert_false(list_has("a,bb,c", "b"));
	assert_false(list_has("", "a"));
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(defaults_and_values),
		cmocka_unit_test(refusals),
		cmocka_unit_test(lists),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
