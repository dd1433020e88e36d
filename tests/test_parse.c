/* The one strict grammar (lib/parse.h): numbers, lists, CPU lists and escaped messages. */
#include "tests/testutil.h"
#include "lib/parse.h"
#include "lib/util.h"
#include <string.h>

static void integers(void **s)
{
	(void)s;
	long v = 99;
	assert_int_equal(parse_long("42", &v), 0);
	assert_int_equal(v, 42);
	assert_int_equal(parse_long("-7", &v), 0);
	assert_int_equal(v, -7);
	assert_int_equal(parse_long("007", &v), 0);
	assert_int_equal(v, 7);
	const char *bad[] = { "",    "-",   "+5",
			      " 5",  "5 ",  "0x10",
			      "1e3", "5.0", "9223372036854775808",
			      "--5", "5\n", "٣" };
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		v = 99;
		assert_int_equal(parse_long(bad[i], &v), -1);
		assert_int_equal(v, 99); /* nothing written on failure */
	}
	assert_int_equal(parse_long(NULL, &v), -1);
	assert_int_equal(parse_long_in("4294967296", 0, 2147483647, &v), -1);
	assert_int_equal(parse_long_in("-1", 0, 10, &v), -1);
	assert_int_equal(parse_long_in("10", 0, 10, &v), 0);
}

static void reals(void **s)
{
	(void)s;
	double d = 0;
	const char *good[] = {"0", "1.5", "-2.25", "1e3", "1E-3", "2.5e+06", "0.000001", "1e-400"};
	const double want[] = { 0, 1.5, -2.25, 1000, 0.001, 2.5e6, 1e-6, 0 };
	for (size_t i = 0; i < ARRAY_SIZE(good); i++) {
		assert_int_equal(parse_double(good[i], &d), 0);
		assert_true(d == want[i] || (i == 7 && d < 1e-300));
	}
	const char *bad[] = {"",     "inf",   "-inf", "nan",   "NaN",    "infinity", "0x1p3",
			     "0x10", " 1",    "1 ",   "+1",    ".5",     "1.",       "1e",
			     "1e+",  "1.5.2", "1,5",  "1e999", "-1e999", "5s",       "1_000"};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		d = 42;
		assert_int_equal(parse_double(bad[i], &d), -1);
		assert_true(d == 42);
	}
}

static void lists(void **s)
{
	(void)s;
	char why[80];
	assert_int_equal(list_count("a", why, sizeof(why)), 1);
	assert_int_equal(list_count("a,b,c", why, sizeof(why)), 3);
	const char *bad[] = { "", ",", "a,", ",a", "a,,b", ",,", "a,b," };
	const int el[] = { 0, 1, 2, 1, 2, 1, 3 };
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		assert_int_equal(list_count(bad[i], why, sizeof(why)), -1);
		if (el[i]) {
			char want[40];
			snprintf(want, sizeof(want), "element %d is empty", el[i]);
			assert_string_equal(why, want);
		}
	}
}

static void cpu_lists(void **s)
{
	(void)s;
	int c[16];
	char why[120];
	assert_int_equal(parse_cpulist("1,0", c, 16, why, sizeof(why)), 2);
	assert_int_equal(c[0], 1); /* order kept: the writer asked for CPU 1 */
	assert_int_equal(c[1], 0);
	assert_int_equal(parse_cpulist("4-6,0", c, 16, why, sizeof(why)), 4);
	assert_int_equal(c[0], 4);
	assert_int_equal(c[2], 6);
	assert_int_equal(c[3], 0);
	assert_int_equal(parse_cpulist("65535", c, 16, why, sizeof(why)), 1);
	const char *bad[] = { "",   "-1",    "-1,0",	    "0,-1",  "1-0", "0,0", "0-2,1",
			      "0,", ",0",    "0,,1",	    "0-",    "-",   "0x1", " 0",
			      "0 ", "65536", "99999999999", "0-3-5", "a",   "1.0", "+1" };
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		why[0] = 0;
		assert_int_equal(parse_cpulist(bad[i], c, 16, why, sizeof(why)), -1);
		assert_true(why[0]);
	}
	assert_int_equal(parse_cpulist("0-16", c, 16, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "more than 16"));
	assert_int_equal(parse_cpulist("0,0", c, 16, why, sizeof(why)), -1);
	assert_string_equal(why, "CPU 0 is named twice");
}

static void escaped_messages(void **s)
{
	(void)s;
	char out[64], err[ERRLEN];
	text_escape("a\nb\tc\rd\x01" "e\x7f", out, sizeof(out));
	assert_string_equal(out, "a\\nb\\tc\\rd\\x01e\\x7f");
	text_escape("0123456789", out, 8); /* cut, still terminated */
	assert_string_equal(out, "0123456");
	/* C1 controls: a raw 0x9b (CSI on an 8-bit terminal), and U+009B, U+009D, U+0080 encoded */
	text_escape("a\x9b" "2J b\xc2\x9b" "2J c\xc2\x9d" "0;t\a d\xc2\x80", out, sizeof(out));
	assert_string_equal(out, "a\\x9b2J b\\xc2\\x9b2J c\\xc2\\x9d0;t\\x07 d\\xc2\\x80");
	/* valid UTF-8 stays: U+00A0, ±, µ, € (a continuation byte 0x82), 😀 (4 bytes) */
	text_escape("\xc2\xa0\xc2\xb1 5 \xc2\xb5s \xe2\x82\xac \xf0\x9f\x98\x80", out, sizeof(out));
	assert_string_equal(out, "\xc2\xa0\xc2\xb1 5 \xc2\xb5s \xe2\x82\xac \xf0\x9f\x98\x80");
	/* no valid sequence: a lone byte, an overlong "/", a surrogate, a cut one at the end */
	text_escape("\xff \xc0\xaf \xed\xa0\x80 \xe2\x82", out, sizeof(out));
	assert_string_equal(out, "\\xff \\xc0\\xaf \\xed\\xa0\\x80 \\xe2\\x82");
	/* what does not fit whole is left out: no half escape, no half character */
	text_escape("ab\xc2\x9b", out, 9);
	assert_string_equal(out, "ab");
	text_escape("ab\xe2\x82\xac", out, 5);
	assert_string_equal(out, "ab");
	text_escape("\a\a\a", out, 4 * 3 + 1); /* 4 bytes a byte, as the callers size it */
	assert_string_equal(out, "\\x07\\x07\\x07");
	/* a control character, as text_escape sees one: C0, DEL, C1 raw or encoded */
	const char *ctl[] = { "a\nb", "\x1b]0;t\a", "x\x7f", "x\x9b", "x\xc2\x9b", "\xc2\x80" };
	for (size_t i = 0; i < sizeof(ctl) / sizeof(ctl[0]); i++)
		assert_true(text_has_control(ctl[i]));
	const char *txt[] = { "", "plain/dir", "\xc2\xb1\xc2\xb5 \xe2\x82\xac", "jos\xe9" };
	for (size_t i = 0; i < sizeof(txt) / sizeof(txt[0]); i++)
		assert_false(text_has_control(txt[i]));
	err_set(err, "--label: '%s' is not accepted", "two\nlines");
	assert_null(strchr(err, '\n'));
	assert_non_null(strstr(err, "two\\nlines"));
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(integers),
		cmocka_unit_test(reals),
		cmocka_unit_test(lists),
		cmocka_unit_test(cpu_lists),
		cmocka_unit_test(escaped_messages),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
