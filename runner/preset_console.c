/* What a preset says (runner/preset_run.c runs it): to the terminal and to the console log, the
 * plan, each run's output relayed as it comes under the live line, and at the end the runs that
 * measured nothing. */
#include "runner/preset_run_int.h"
#include "runner/preset_child.h"
#include "harness/novalid.h"
#include "lib/parse.h"
#include "lib/util.h"
#include "lib/wrap.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Print to the terminal stream and to the console log. */
void __attribute__((format(printf, 3, 4)))
say(struct console *c, FILE *to, const char *fmt, ...)
{
	va_list ap;
	progress_clear(&c->pg);
	va_start(ap, fmt);
	vfprintf(to, fmt, ap);
	va_end(ap);
	fflush(to);
	if (c->log) {
		va_start(ap, fmt);
		vfprintf(c->log, fmt, ap);
		va_end(ap);
		fflush(c->log);
	}
}

/* One line of the plan, broken at spaces to TEXT_WIDTH, its further lines indented by indent. */
static void __attribute__((format(printf, 4, 5)))
say_plan(struct console *c, FILE *to, int indent, const char *fmt, ...)
{
	char *line = NULL, *out = NULL;
	size_t n = 0;
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&line, fmt, ap) < 0)
		out_of_memory(0);
	va_end(ap);
	FILE *m = open_memstream(&out, &n);
	if (!m)
		out_of_memory(0);
	text_lines(m, TEXT_WIDTH, indent, line);
	fclose(m);
	say(c, to, "%s", out);
	free(out);
	free(line);
}

double print_plan(struct console *c, const struct preset *p, const struct planned *pl,
		  const char *where)
{
	double total = 0;
	int runs = 0;
	char a[2048], d[32];
	for (int i = 0; i < p->n; i++)
		if (!pl[i].skip) {
			total += pl[i].done ? 0 : pl[i].est;
			runs++;
		}
	fmt_hms(d, sizeof(d), total);
	say_plan(c, stdout, 2,
		 "preset %s (%s): %d run(s), %d skipped, on %s; estimated duration %s (h:mm:ss)",
		 p->name, p->path, runs, p->n - runs, where, d);
	if (p->description[0]) { /* a description's control bytes escaped: BEL, OSC never raw */
		char *d = xcalloc(1, 4 * strlen(p->description) + 1);
		text_escape(p->description, d, 4 * strlen(p->description) + 1);
		say_plan(c, stdout, 4, "  %s", d);
		free(d);
	}
	for (int i = 0, k = 0; i < p->n; i++) {
		meta_args_text(&p->run[i], a, sizeof(a));
		if (pl[i].skip) {
			say_plan(c, stdout, 8, "  skip  [%s] %s", p->run[i].name, a);
			say_plan(c, stdout, 10, "        skipped: %s", pl[i].skip);
		} else {
			char about[64] = "complete: kept from the earlier invocation";
			if (!pl[i].done) {
				fmt_hms(d, sizeof(d), pl[i].est);
				snprintf(about, sizeof(about), "about %s", d);
			}
			const char *name = p->run[i].name;
			say_plan(c, stdout, 8, "  %2d/%-2d [%s] %s  (%s)", ++k, runs, name, a,
				 about);
		}
	}
	return total;
}

/* What the live line and the relay of one run need. */
struct relay {
	struct console *c;
	const char *name;
	int i, n;
	double start, left_after, est;
	/* the run's stderr line being read: relayed whole, its progress lines read */
	char line[1024];
	size_t len;
	/* what the run said is left of it, and when (left_at < 0: nothing yet) */
	double left, left_at;
	int keep;        /* within the run's measured-nothing lines */
	char **nothing;  /* those lines, appended */
};

/* One whole stderr line of the run (whole: newline, else the buffer's size): its progress (what
 * is left of it, counting its retries) is read, not relayed; the others are relayed, and kept from
 * NOVALID_HEAD through the indented lines after it. */
static void relay_line(struct relay *r, int nl)
{
	r->line[r->len] = 0;
	if (nl && !strncmp(r->line, PROGRESS_LEFT, strlen(PROGRESS_LEFT))) {
		r->left = strtod(r->line + strlen(PROGRESS_LEFT), NULL);
		r->left_at = progress_elapsed(&r->c->pg);
		r->len = 0;
		return;
	}
	say(r->c, stderr, "%s%s", r->line, nl ? "\n" : "");
	if (!strncmp(r->line, NOVALID_HEAD, strlen(NOVALID_HEAD)))
		r->keep = 1;
	else if (strncmp(r->line, "  ", 2))
		r->keep = 0;
	if (r->keep) {
		size_t had = *r->nothing ? strlen(*r->nothing) : 0;
		char *t = realloc(*r->nothing, had + r->len + 2);
		if (!t)
			out_of_memory(0);
		snprintf(t + had, r->len + 2, "%s\n", r->line);
		*r->nothing = t;
	}
	r->len = 0;
}

/* The progress line: which run, elapsed for the whole preset, and about how long is left. */
static void relay_tick(void *arg)
{
	struct relay *r = arg;
	char e[32], l[32];
	double el = progress_elapsed(&r->c->pg), in_run = el - r->start;
	/* the run's own word (its retries counted), else its plan */
	double run_left = r->left_at >= 0 ? r->left - (el - r->left_at) : r->est - in_run;
	fmt_hms(e, sizeof(e), el);
	fmt_hms(l, sizeof(l), r->left_after + (run_left > 0 ? run_left : 0));
	progress_show(&r->c->pg, "[run %d of %d] %s  elapsed %s, about %s left", r->i, r->n,
		      r->name, e, l);
}

/* The run's output goes to the terminal and the console log as it comes. */
static void relay_out(void *arg, int stream, const char *buf, size_t n)
{
	struct relay *r = arg;
	if (!stream) {
		say(r->c, stdout, "%.*s", (int)n, buf);
		return;
	}
	for (size_t k = 0; k < n; k++) {
		if (buf[k] == '\n')
			relay_line(r, 1);
		else {
			r->line[r->len++] = buf[k];
			if (r->len == sizeof(r->line) - 1)
				relay_line(r, 0);
		}
	}
}

/* Run one, relaying its output to the terminal and the log, redrawing progress every second. */
int run_one(struct console *c, const struct preset_run *r, const char *csv, const char *label,
	    int i, int n, double left_after, double est, char **nothing)
{
	const char *extra[] = { "--out", csv, "--label", label, NULL };
	struct relay rl = { c, r->name, i, n, progress_elapsed(&c->pg), left_after, est, "", 0,
			    0, -1, 0, nothing };
	struct child_io io = { relay_out, relay_tick, 1000, &rl };
	int st = child_run(r, extra, 1, &io);
	if (rl.len) /* a last line without its newline */
		relay_line(&rl, 0);
	return st;
}

/* At the preset's end: each run that measured nothing, with its configurations, why and what to try
 * (its own end-of-run lines, indented under its name). */
void print_nothing(struct console *c, const struct preset *p, const struct planned *pl, int n,
		   int nothing)
{
	say(c, stderr,
	    "c2cbench: measured nothing in %d of %d run(s): a configuration got no valid "
	    "repetition\n",
	    nothing, n);
	for (int k = 0; k < p->n; k++) {
		if (pl[k].status != EXIT_NOVALID)
			continue;
		if (!pl[k].nothing)
			say(c, stderr, "  [%s] (its end-of-run lines were not seen)\n",
			    p->run[k].name);
		/* the run's lines, their continuations joined back, each wrapped again indented */
		char *all = pl[k].nothing ? xstrdup(pl[k].nothing) : NULL, *w = all;
		for (const char *r = all; r && *r; r++)
			if (*r == '\n' && !strncmp(r + 1, "    ", NOVALID_MORE)) {
				*w++ = ' ';
				r += NOVALID_MORE;
			} else
				*w++ = *r;
		if (w)
			*w = 0;
		for (char *l = all; l && *l;) {
			size_t len = strcspn(l, "\n");
			int more = l[len] == '\n';
			l[len] = 0;
			if (!strncmp(l, NOVALID_HEAD, strlen(NOVALID_HEAD)))
				say_plan(c, stderr, 6, "  [%s] %s", p->run[k].name,
					 l + strlen(NOVALID_HEAD));
			else if (strncmp(l, "  exit status", 13))
				say_plan(c, stderr, 6, "  %s", l);
			l += len + more;
		}
		free(all);
	}
	say(c, stderr,
	    "  preset takes --max-attempts and --valid-* too and gives them to every run; exit "
	    "status %d\n",
	    EXIT_NOVALID);
}
