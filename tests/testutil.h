/* Helpers shared by the cmocka tests: run the real c2cbench binary and capture what it says. */
#ifndef C2C_TESTUTIL_H
#define C2C_TESTUTIL_H
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

struct cmd_result {
	int status;      /* exit status, or 128+signal */
	char out[65536]; /* stdout */
	char err[8192];  /* stderr */
};

/* Run $C2C_BIN (or ./c2cbench) with the NULL-terminated arguments. */
void run_c2c(struct cmd_result *r, const char *arg0, ...);
/* The same with a NULL-terminated argument array (arguments built at run time). */
void run_c2cv(struct cmd_result *r, const char *const *args);
/* Wrapped text joined again in place: a newline and the indent after it become one space. */
void text_unwrap(char *s);
/* Number of lines in s (a final line without newline counts). */
int count_lines(const char *s);
/* Wait until the CSV at path holds n data rows (header excluded), polling every 2 ms for at most
 * max_s seconds (a loaded machine or an emulated guest may take seconds); 0 when it does, -1 when
 * the run pid ended first (it is reaped) or the time ran out. */
int wait_csv_rows(const char *path, int n, int pid, double max_s);
/* A fresh temporary directory (mkdtemp), removed by rm_rf. */
char *temp_dir(void);
void rm_rf(const char *path);
/* One scratch directory per test group: test_dir_setup makes test_dir, test_dir_teardown removes it
 * (usable as the group setup/teardown, or called from a group's own setup). */
extern char *test_dir;
int test_dir_setup(void **state);
int test_dir_teardown(void **state);
int file_exists(const char *path);
/* Read a whole file into a malloc'ed string (NULL if unreadable). */
char *slurp(const char *path);
/* A result CSV read whole through the one reader (lib/csvread.h), from a file or from text
 * (named name in messages); the test fails with the reader's message if it is not a whole CSV.
 * csv_cell: row r's (0: the first data row) value in column col; fails when either is absent. */
struct table;
void csv_load(struct table *t, const char *path);
void csv_load_text(struct table *t, const char *name, const char *text);
const char *csv_cell(const struct table *t, long r, const char *col);
/* Row r of a run's CSV measured (valid = yes): 1. An invalid row must give its reason (a test
 * failure otherwise): 0. Under load any attempt may be invalid (LENIENT keeps the ops and window
 * rules), so a test whose subject is not the validity rules asserts metrics on measured rows. */
int row_measured(const struct table *t, long r);
/* Every value of column col in the CSV at path has a measured row (each configuration has a
 * valid repetition): what a test may then assert of the whole set's summary or report. */
int every_config_measured(const char *path, const char *col);
/* Run a shell command, keeping (the start of) its stdout in out (n bytes); returns its exit status
 * (128 when it did not exit). */
int sh_capture(char *out, size_t n, const char *cmd);
/* CPUs this process may run on (its affinity mask). */
int usable_cpus(void);
/* The first two CPUs this process may run on (a, b may be NULL); -1 where it may run on fewer. */
int two_usable_cpus(int *a, int *b);
/* "cpus:A,B" on those two CPUs: a placement that a real run can use on any machine with two CPUs,
 * whatever its packages, caches or SMT; NULL where there are fewer. */
const char *two_cpus(void);
struct bench;
/* Appends to argv (at *n) what a short run of bench b takes, from its declaration alone, never a
 * list of benches: "--placement PL" where it is BENCH_PLACED, "--duration DUR --warmup 0.01"
 * where it takes a window (pingpong counts samples). 1 when b needs two CPUs and pl is NULL. */
int short_args(const struct bench *b, const char *pl, const char *dur, const char **argv, int *n);
/* This machine's facts read from sysfs, not from c2cbench's topology code: the package of a CPU
 * (topology/physical_package_id; -1 if unreadable), the number of distinct packages of the online
 * CPUs, and a NUMA node number that does not exist (one past the highest node; 1 without nodes). */
int sysfs_cpu_package(int cpu);
int sysfs_packages(void);
int sysfs_missing_node(void);
/* Under qemu-user (make test-arm64 sets C2C_UNDER_QEMU): print why and skip the calling test. */
#define SKIP_UNDER_QEMU(why)                                                                \
	do {                                                                                \
		if (getenv("C2C_UNDER_QEMU")) {                                             \
			print_message("skipped under qemu-user: %s\n", why);               \
			skip();                                                             \
		}                                                                           \
	} while (0)
/* s with every run of spaces and newlines as one space (malloc'd): what a phrase is looked for in,
 * where lines are broken at spaces to fit 100 columns (a preset's plan, its end lines). */
char *one_spaced(const char *s);
/* s with every line that continues the one before (broken at 100 columns, indented by
 * NOVALID_MORE) joined back to it with one space; malloc'd. */
char *joined_lines(const char *s);
/* A run's end-of-run lines on what measured nothing (harness/novalid.c), in err, against its CSV:
 * the configuration named, and the rule said to be broken most is one that the most rows'
 * invalid_reason name, with that count and the rows' total. Returns the rule's name (static). */
const char *check_measured_nothing(const char *err, const char *csv, const char *config);
/* Validity rules that pass any attempt whose co-running threads measured together
 * (docs/validity.md; no operation, no window or windows with nothing in common stay invalid): for
 * tests of real runs that check rows or the summary but not the rules themselves (the machine
 * running the tests may be loaded, or be qemu-user): such a test takes RAN(status) and asserts
 * its subject on the rows whatever their validity. --valid-setting takes whole percent without
 * bound: a 20 us shepherd tick is late by more than 100%. */
#define LENIENT                                                                                    \
	"--valid-oncpu", "0", "--valid-overlap", "0", "--valid-window", "1000", "--valid-steal",   \
		"100", "--valid-probe", "1000", "--valid-setting", "1000000"
/* A run that ran to its end: 0, or 4 where a configuration got no valid repetition even so (a
 * thread that did not get to run in a short window: a loaded host, an emulated guest). For tests
 * that check the output, not the rules. */
#define RAN(status) ((status) == 0 || (status) == 4)
/* The run summary s as summary_print writes it (malloc'ed), then s and its options o freed. */
struct summary;
struct opts;
char *summary_printed(struct summary *s, struct opts *o);
#endif
