#include "harness/progress.h"
#include "lib/util.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Monotonic seconds: the wall clock may jump during a long run. */
static double now_s(void)
{
	return (double)now_ns() / 1e9;
}

void progress_start(struct progress *p, FILE *f, int wanted)
{
	p->f = f;
	p->on = wanted && isatty(fileno(f));
	p->lines = !isatty(fileno(f)) && getenv(PROGRESS_ENV) && !strcmp(getenv(PROGRESS_ENV), "1");
	p->shown = 0;
	p->t0 = now_s();
}

void progress_show(struct progress *p, const char *fmt, ...)
{
	va_list ap;
	if (!p->on)
		return;
	fputs("\r\033[K", p->f);
	va_start(ap, fmt);
	vfprintf(p->f, fmt, ap);
	va_end(ap);
	fflush(p->f);
	p->shown = 1;
}

void progress_left(struct progress *p, double seconds, const char *where)
{
	if (!p->lines)
		return;
	fprintf(p->f, PROGRESS_LEFT "%.2f (%s)\n", seconds > 0 ? seconds : 0, where);
	fflush(p->f);
}

void progress_clear(struct progress *p)
{
	if (p->shown) {
		fputs("\r\033[K", p->f);
		fflush(p->f);
		p->shown = 0;
	}
}

double progress_elapsed(const struct progress *p)
{
	return now_s() - p->t0;
}

void fmt_hms(char *b, size_t n, double s)
{
	long t = s > 0 ? (long)(s + 0.5) : 0;
	snprintf(b, n, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
}

double progress_eta(double elapsed, double in, int attempts, int done, int total, int attempt,
		    double est)
{
	if (total <= done)
		return 0;
	double per = attempts > 0 ? elapsed / attempts : est; /* measured pace once there is one */
	int before = attempts - (attempt - 1); /* attempts of the finished repetitions */
	double apr = done > 0 && before > 0 ? (double)before / done : 1;
	/* this repetition: the attempt running, and more where the finished ones took more */
	double here = apr > attempt ? apr - attempt + 1 : 1;
	return per * (apr * (total - done - 1) + here) - (in < per ? in : per);
}

/* The redraw hook of the thread that set it (thread-local: measuring threads never see one). */
static _Thread_local struct {
	void (*draw)(void *arg);
	void *arg;
	double last;
} ticker;

void progress_ticker(void (*draw)(void *arg), void *arg)
{
	ticker.draw = draw;
	ticker.arg = arg;
	ticker.last = now_s();
}

void progress_tick(void)
{
	if (!ticker.draw)
		return;
	double t = now_s();
	if (t - ticker.last < 1.0)
		return;
	ticker.last = t;
	ticker.draw(ticker.arg);
}
