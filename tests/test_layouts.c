/* Layouts must put the two fields exactly where their names say, or every comparison is void. */
#include "tests/testutil.h"
#include "layouts/layout.h"
#include <stdint.h>
#include <stdio.h>
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

/* The kernel fix as linked: the work 64-byte aligned in its section, the pointer an ordinary
 * global; the distance is what the linker chose, read from the addresses. */
static void section_is_two_globals(void **s)
{
	(void)s;
	const struct layout *l = layout_find("section");
	struct work_struct *w;
	struct vmap_node **m;
	assert_non_null(l);
	assert_non_null(l->global_work);
	layout_place(l, NULL, &w, &m);
	assert_ptr_equal(w, l->global_work);
	assert_ptr_equal(m, l->global_meta);
	assert_int_equal((uintptr_t)w % 64, 0);
	assert_int_equal(layout_distance(l), (long)((intptr_t)m - (intptr_t)w));
	assert_true((uintptr_t)m / 64 != (uintptr_t)w / 64); /* never the bug's shared line */
	assert_non_null(*m); /* = &single, as the kernel initialises vmap_nodes: .data, not .bss */
}

/* The registry's order, whatever layouts there are: the bug (one 64-byte line) first, then struct
 * layouts by growing distance, layouts of globals last; layout_names, layout_order and layout_find
 * agree with it. Each layout's fields lie inside its object and do not overlap. */
static void registry_orders_by_distance(void **s)
{
	(void)s;
	char names[512] = "";
	int n = layout_count();
	assert_true(n >= 1);
	const struct layout *first = layout_at(0);
	assert_null(first->global_work);
	assert_int_equal(first->work_off / 64, first->meta_off / 64);
	for (int i = 0; i < n; i++) {
		const struct layout *l = layout_at(i), *prev = i ? layout_at(i - 1) : NULL;
		assert_ptr_equal(layout_find(l->name), l);
		assert_string_equal(layout_order[i], l->name);
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s", i ? "," : "",
			 l->name);
		if (prev && !prev->global_work == !l->global_work)
			assert_true(layout_distance(prev) <= layout_distance(l));
		if (prev)
			assert_true(!prev->global_work ||
				    l->global_work); /* globals after every struct */
		long d = layout_distance(l);
		if (!l->global_work) {
			assert_true(l->work_off + sizeof(struct work_struct) <= l->size);
			assert_true(l->meta_off + sizeof(struct vmap_node *) <= l->size);
			assert_int_equal(l->align & (l->align - 1), 0);
		}
		assert_true(d >= (long)sizeof(struct work_struct) ||
			    -d >= (long)sizeof(struct vmap_node *));
	}
	assert_null(layout_order[n]);
	assert_string_equal(layout_names(), names);
	assert_null(layout_find("nonesuch"));
	assert_int_equal(sizeof(struct work_struct), 32);
}

/* What `c2cbench list` prints: "the kernel's fix" is `section` (as linked); `aligned` is its
 * worst case. */
static void only_section_is_the_fix(void **s)
{
	(void)s;
	for (int i = 0; i < layout_count(); i++) {
		const struct layout *l = layout_at(i);
		const char *fix = strstr(l->desc, "the kernel's fix");
		if (!strcmp(l->name, "section"))
			assert_non_null(strstr(l->desc, "(the kernel's fix as linked)"));
		else if (!strcmp(l->name, "aligned"))
			assert_non_null(strstr(l->desc, "worst case of the kernel's fix"));
		else if (fix)
			fail_msg("%s calls itself the kernel's fix: %s", l->name, l->desc);
		assert_null(strstr(l->desc, "kernel fix")); /* the old wording, for aligned */
	}
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(shared_is_one_line),
		cmocka_unit_test(aligned_is_adjacent_line),
		cmocka_unit_test(padded_is_other_block),
		cmocka_unit_test(section_is_two_globals),
		cmocka_unit_test(registry_orders_by_distance),
		cmocka_unit_test(only_section_is_the_fix),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
