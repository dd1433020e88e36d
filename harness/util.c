#include "harness/util.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int err_set(char *err, const char *fmt, ...)
{
	char raw[ERRLEN];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	text_escape(raw, err, ERRLEN); /* an error is one line, whatever the user typed: \n, \xNN */
	return -1;
}

void die(int code, const char *fmt, ...)
{
	char raw[4 * ERRLEN], msg[4 * ERRLEN];
	va_list ap;
	fflush(stdout);
	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	text_escape(raw, msg, sizeof(msg));
	fprintf(stderr, "c2cbench: error: %s\n", msg);
	exit(code);
}

void sleep_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull) };
	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s ? s : "");
	if (!p)
		abort();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		abort();
	return p;
}
