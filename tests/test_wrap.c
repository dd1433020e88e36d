/* lib/wrap.c: lines fitted to a width, a long word cut after a comma or a '|' (a list, an event's
 * alternative spellings), a line that fits left as it is. */
#include "lib/wrap.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

/* What text_fit writes for text at width w, in a buffer the caller frees. */
static char *fit(const char *text, int w)
{
	char *out = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&out, &n);
	assert_non_null(f);
	text_fit(f, w, text);
	fclose(f);
	return out;
}

static void long_word_cut_after_bar_or_comma(void **s)
{
	(void)s;
	char *o = fit("  c2c_fill  AAAAAAAA:NEAR|BBBBBBBB:FAR config=0x443\n", 30);
	assert_string_equal(o, "  c2c_fill  AAAAAAAA:NEAR|\n"
			       "            BBBBBBBB:FAR\n"
			       "            config=0x443\n");
	free(o);
	o = fit("list: aaaa,bbbb,cccc,dddd\n", 16);
	assert_string_equal(o, "list:\n  aaaa,bbbb,\n  cccc,dddd\n");
	free(o);
}

static void a_line_that_fits_is_kept(void **s)
{
	(void)s;
	const char *t = "  cycles   CPU_CYCLES      ok config=0x11\n";
	char *o = fit(t, 100);
	assert_string_equal(o, t); /* its alignment spaces too */
	free(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(long_word_cut_after_bar_or_comma),
		cmocka_unit_test(a_line_that_fits_is_kept),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
