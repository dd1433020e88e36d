/* report's gnuplot side: one script (plots.gp) drawing every PNG from data files of numbers only;
 * every string in the script is an escaped single-quoted literal (esc_gp). */
#include "analysis/report_esc.h"
#include "analysis/report_int.h"
#include "lib/util.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TITLE_LINE 90 /* a title longer than this is broken into lines, never cut */

FILE *rpt_data(struct rep *p, const char *name)
{
	char rel[300];
	snprintf(rel, sizeof(rel), "data/%s", name);
	return out_open(&p->out, rel);
}

void rpt_gpstr(struct rep *p, const char *s)
{
	size_t cap = strlen(s) * 2 + 3;
	char *q = xcalloc(cap, 1);
	esc_gp(q, cap, s);
	fputs(q, p->gp);
	free(q);
}

/* A title as a gnuplot string expression: lines of at most TITLE_LINE bytes (broken after ", "
 * or a space) joined by "\n", each line an escaped literal. */
static void gp_title(struct rep *p, const char *s)
{
	size_t len = strlen(s), at = 0;
	while (at < len) {
		size_t n = len - at;
		if (n > TITLE_LINE) {
			n = TITLE_LINE;
			while (n > TITLE_LINE / 2 && s[at + n] != ' ')
				n--;
			if (s[at + n] != ' ')
				n = TITLE_LINE;
		}
		char *line = xcalloc(n + 1, 1);
		memcpy(line, s + at, n);
		if (at)
			fputs(".\"\\n\".", p->gp);
		rpt_gpstr(p, line);
		free(line);
		at += n;
		while (at < len && s[at] == ' ')
			at++;
	}
	if (!len)
		rpt_gpstr(p, "");
}

void rpt_chart(struct rep *p, const char *png, const char *title, const char *xlabel,
	       const char *ylabel)
{
	fprintf(p->gp,
		"\nreset\nset terminal pngcairo size 960,520 noenhanced font ',10'\nset output ");
	rpt_gpstr(p, png);
	fprintf(p->gp, "\nset datafile missing '?'\nset title ");
	gp_title(p, title);
	fprintf(p->gp, "\nset xlabel ");
	rpt_gpstr(p, xlabel);
	fprintf(p->gp, "\nset ylabel ");
	rpt_gpstr(p, ylabel);
	fprintf(p->gp, "\nset grid ytics\nset key below\n");
	p->pngs = realloc(p->pngs, (size_t)(p->plots + 1) * sizeof(char *));
	if (!p->pngs)
		die(1, "out of memory");
	p->pngs[p->plots++] = xstrdup(png);
}

void rpt_yaxis(struct rep *p, double lo, double hi)
{
	if (lo > 0 &&
	    hi / lo >= 100) { /* spans two decades or more: a log axis, each decade visible */
		fprintf(p->gp, "set logscale y\nset yrange [%.6g:%.6g]\nset format y '%s'\n",
			lo / 2, hi * 2, hi >= 10000 ? "%.3s%c" : "%g");
		return;
	}
	if (!(hi > 0))
		hi = 1;
	if (hi >= 10000) /* counts: 35k, 2M, never 3.5e+08 */
		fprintf(p->gp, "set format y '%%.3s%%c'\n");
	fprintf(p->gp, "set yrange [%.6g:%.6g]\n", lo < 0 ? lo * 1.15 : 0, hi * 1.15);
}

void rpt_unit(const char *unit, double top, double *div, char *label, size_t cap)
{
	static const char *const name[] = { "ns", "\xc2\xb5s", "ms", "s" };
	int k = 0;
	*div = 1;
	if (!strncmp(unit, "ns", 2) &&
	    (unit[2] == 0 || unit[2] == ' ')) /* time in ns: by magnitude */
		for (; k < 3 && top >= 1000 * *div; k++)
			*div *= 1000;
	if (*div == 1) {
		snprintf(label, cap, "%s", unit);
		return;
	}
	snprintf(label, cap, "%s%s", name[k], unit + 2);
}

void rpt_num(double v, const char *unit, char *out, size_t cap)
{
	static const char *const tname[] = { "ns", "\xc2\xb5s", "ms", "s" }, *const si[] = {
		"", "k", "M", "G", "T"
	};
	int ns = unit && !strncmp(unit, "ns", 2) && (unit[2] == 0 || unit[2] == ' '), k = 0;
	double a = fabs(v);
	if (!(a >= 10000) || isinf(a)) { /* %.4g has no exponent below 10,000 */
		snprintf(out, cap, "%.4g", v);
		return;
	}
	for (; k < (ns ? 3 : 4) && a >= 1000; k++)
		a /= 1000, v /= 1000;
	snprintf(out, cap, ns ? "%.4g %s" : "%.4g%s", v, ns ? tname[k] : si[k]);
}
