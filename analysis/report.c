/* `c2cbench report INPUT... -o DIR`: Markdown and HTML reports with gnuplot charts from result
 * CSVs, every machine in one chart, drawn as each bench declares (its FILE.bench views). Written
 * into a temporary directory and renamed into place whole; nothing half-written is left. */
#include "analysis/gnuplot.h"
#include "analysis/report.h"
#include "analysis/report_int.h"
#include "lib/infile.h"
#include "lib/util.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* 1 when the file is a whole PNG: the signature first and the IEND chunk last (a full disk or a
 * killed gnuplot leaves a PNG cut short that still has a size). */
static int png_whole(const char *path)
{
	static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'},
				   iend[12] = {0,   0,   0,    0,    'I',  'E',
					       'N', 'D', 0xae, 0x42, 0x60, 0x82};
	unsigned char head[8], tail[12];
	FILE *f = fopen_regular(path);
	int ok = f && fread(head, 1, 8, f) == 8 && !memcmp(head, sig, 8) &&
		 !fseek(f, -12, SEEK_END) && fread(tail, 1, 12, f) == 12 && !memcmp(tail, iend, 12);
	if (f)
		fclose(f);
	return ok;
}

/* Every PNG the script draws must be there and whole: gnuplot may exit 0 having failed one. */
static int check_pngs(struct rep *p, char *err)
{
	for (int i = 0; i < p->plots; i++) {
		char path[PATH_MAX + 300];
		struct stat st;
		out_path(&p->out, p->pngs[i], path, sizeof(path));
		if (stat(path, &st) || st.st_size == 0)
			return err_set(err, "gnuplot did not draw %.300s/%.200s (see its log)",
				       p->out.dir, p->pngs[i]);
		if (!png_whole(path))
			return err_set(err,
				       "gnuplot's %.300s/%.200s is not a whole PNG (%lld bytes, no "
				       "IEND chunk at "
				       "its end: a full disk?); nothing written",
				       p->out.dir, p->pngs[i], (long long)st.st_size);
	}
	return 0;
}

/* Write report.md, report.html and plots.gp with its data into the temporary directory. */
static void write_texts(struct rep *p, char **inputs, int ninputs)
{
	FILE *md = out_open(&p->out, "report.md"), *html = out_open(&p->out, "report.html");
	p->gp = out_open(&p->out, "plots.gp");
	if (!md || !html || !p->gp) {
		out_close(&p->out, md, "report.md");
		out_close(&p->out, html, "report.html");
		out_close(&p->out, p->gp, "plots.gp");
		return;
	}
	fprintf(p->gp, "# c2cbench report: every string below is an escaped literal; the numbers "
		       "are in data/\n");
	doc_open(&p->doc, md, html);
	rpt_machines(p, inputs, ninputs);
	rpt_summary(p);
	rpt_split_summary(p);
	rpt_machines_table(p);
	rpt_unused(p);
	rpt_views(p);
	rpt_na(p);
	doc_end(&p->doc);
	out_close(&p->out, md, "report.md");
	out_close(&p->out, html, "report.html");
	out_close(&p->out, p->gp, "plots.gp");
	p->gp = NULL;
}

int report_write(char **inputs, int ninputs, const char *dir, int force)
{
	struct rep p = { 0 };
	char err[ERRLEN] = "";
	int rc = 0;
	if (rpt_load(&p, inputs, ninputs, err))
		rc = EXIT_BADINPUT;
	else if (gnuplot_find(err)) /* before anything is written: no half report */
		rc = 1;
	else if (out_begin(&p.out, dir, force, &rc, err))
		;
	else {
		rpt_sort(&p);
		write_texts(&p, inputs, ninputs);
		rc = 1;
		if (p.out.failed)
			snprintf(err, sizeof(err), "%.500s", p.out.err);
		else if (p.plots && gnuplot_run(p.out.tmp, "plots.gp", err))
			;
		else if (check_pngs(&p, err) || out_commit(&p.out, err))
			;
		else
			rc = 0;
		if (rc)
			out_abort(&p.out);
	}
	if (rc)
		fprintf(stderr, "c2cbench: error: %s\n", err);
	else
		printf("report: %s/report.md and report.html (%d chart(s), %d machine(s))\n",
		       p.out.dir, p.plots, p.nm);
	for (int i = 0; i < p.plots; i++)
		free(p.pngs[i]);
	free(p.pngs);
	rpt_free(&p);
	return rc;
}
