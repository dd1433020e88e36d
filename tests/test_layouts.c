/* Layouts must put the two fields exactly where their names say, or every comparison is void. */
#include "tests/testutil.h"
#include "layouts/layout.h"
#include <string.h>

static void shared_is_one_line(void **s)
{
	(void)s;
	const struct layout *l = layout_find("shared");
	assert_non_null(l);
	assert_int_equal(l->work_off, 0);
	assert_int_equal(l->meta_off, 32);
	assert_int_equal(l->work_off / 64, l->meta_off / 64);
	assert_true(l->align >= 64);
}

static void aligned_is_adjacent_line(void **s)
{
	(void)s;
	const struct layout *l = layout_find("aligned");
	assert_non_null(l);
	assert_int_equal(l->meta_off, 64);
	assert_int_not_equal(l->work_off / 64, l->meta_off / 64);
	assert_int_equal(l->work_off / 128, l->meta_off / 128);
	assert_int_equal(l->align % 64, 0);
}

static void padded_is_other_block(void **s)
{
	(void)s;
	const struct layout *l = layout_find("padded");
	assert_non_null(l);
	assert_int_equal(l->meta_off - l->work_off, 128);
	assert_int_not_equal(l->work_off / 128, l->meta_off / 128);
}

static void registry_orders_by_distance(void **s)
{
	(void)s;
	assert_string_equal(layout_names(), "shared,aligned,padded");
	assert_null(layout_find("nonesuch"));
	assert_int_equal(sizeof(struct work_struct), 32);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(shared_is_one_line),
		cmocka_unit_test(aligned_is_adjacent_line),
		cmocka_unit_test(padded_is_other_block),
		cmocka_unit_test(registry_orders_by_distance),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
