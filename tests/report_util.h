/* Shared by the report tests: made-up result CSVs with known answers, and checks of a report. */
#ifndef C2C_TEST_REPORT_UTIL_H
#define C2C_TEST_REPORT_UTIL_H
#include <stdio.h>

/* Begin a made-up pending-bit CSV at path (header written); the caller adds rows with pb_row. */
FILE *pb_csv(const char *path);
/* One row: machine label/host/cpu, layout, policy, rep, writer and reader ns/op, valid. */
void pb_row(FILE *f, const char *label, const char *host, const char *cpu, const char *layout,
	    const char *policy, int rep, double w, double r, int valid);
/* Every PNG the report names exists, is a PNG and is over 1 KB; return how many. */
/* Run report on in1 (and in2, when not NULL) into out; the test fails with its message when it
 * does not exit 0. The report's Markdown, malloc'ed. */
char *report_md_of(const char *out, const char *in1, const char *in2);
int report_pngs_ok(const char *dir);
/* gnuplot.log in dir holds no warning. */
void report_no_gnuplot_warning(const char *dir);
/* Every Markdown table in text has the same number of unescaped | on each of its lines. */
void md_tables_well_formed(const char *text);
/* Load dir/report.html in headless chromium at a 1,400 px window; return the number of images
 * loaded. Fails the test when an <img> did not load, when a table is wider than 1,200 px, or when
 * the first section (h2) is not the Summary. */
int html_images_load(const char *dir);
/* Every chart the report names has a data file (data/NAME.dat) holding a value other than 0 or NA;
 * return how many charts. */
int report_charts_have_data(const char *dir);
#endif
