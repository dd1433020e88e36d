/* The zoo checks' access to a guest's result files, and the checks of tests/system/zoo_benches.c.
 */
#ifndef C2C_ZOO_ROWS_H
#define C2C_ZOO_ROWS_H
#include "lib/csvread.h"
#include "tests/system/zoo_topo.h"
#include <stddef.h>

extern const char *zoo_dir;   /* the guest's folder, build/zoo/NAME */
extern struct zoo_topo zoo;   /* its topo.txt */

/* dir = zoo_dir/CHECK; skips the calling test when the guest did not run that check. */
void zoo_check_dir(char *dir, size_t n, const char *check);
/* Read DIR/NAME as a result CSV (the project's own reader), failing the test when it cannot. */
void zoo_table(struct table *t, const char *dir, const char *name);
/* A cell as a number (the test fails on NA, empty or a missing column). */
long zoo_cell_int(const struct table *t, long row, const char *col);
double zoo_cell_num(const struct table *t, long row, const char *col);
/* DIR/NAME.rc is 0, or 4 (rows written, none valid: emulation's timings), else the test fails
 * printing NAME.err. The zoo judges plans, classes and counts, not timings. */
void zoo_ran(const char *dir, const char *name);

void zoo_pingpong(void **s);
void zoo_concurrent(void **s);
void zoo_concurrent_auto(void **s);
void zoo_vmalloc16(void **s);
void zoo_vmalloc8(void **s);
void zoo_refill(void **s);
void zoo_shepherd(void **s);
void zoo_counters(void **s);
void zoo_suite(void **s);
void zoo_cgroup(void **s);
#endif
