/* --perf-c2c: each configuration also runs under `perf c2c record` (attached to this process), and
 * its `perf c2c report --stdio` is stored beside the CSV, headed by the contended line's address
 * the row records, so the sampled and the counted view of the same line sit side by side. Where
 * perf or a PMU is missing the run goes on and the row says why. */
#ifndef C2C_PERFC2C_H
#define C2C_PERFC2C_H
#include "harness/row.h"
#include <sys/types.h>

struct perfc2c {
	pid_t pid;          /* perf c2c record, 0 when not running */
	char dir[1200]; /* a fresh directory of ours beside the CSV for perf's own files */
	char data[1300]; /* perf.data of this configuration, in dir */
	char report[1200];  /* the report beside the CSV */
	char why[300];      /* why there is no report ("" while all is well) */
	int made_report; /* this process created report (only then is it removed on failure) */
};

/* Start recording this process for one configuration (csv: the CSV path; n: the row's number). */
void perfc2c_start(struct perfc2c *p, const char *csv, long n);
/* Stop, write the report and add perf_c2c_report (its file name) or NA with the reason to the row.
 */
void perfc2c_stop(struct perfc2c *p, struct row *r);
/* perf_c2c_line and perf_c2c_hitm_total/local/remote: the HITM samples of the row's contended line
 * (line_addr, else meta_addr, else work_addr) in the report's Shared Data Cache Line Table, or NA
 * with why. */
void perfc2c_hitm_to_row(const char *report, struct row *r);
/* No report for this row: perf_c2c_report and the HITM columns NA with why. */
void perfc2c_na(struct row *r, const char *why);
/* C2C_PERF_TIMEOUT, if set, is whole seconds from 1 to 3600; else the one-line error. */
int perfc2c_env_check(char *err);
#endif
