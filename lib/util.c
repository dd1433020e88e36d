#include "lib/util.h"
#include "lib/infile.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

int err_accepted(char *err, const char *list, const char *where, const char *fmt, ...)
{
	char what[ERRLEN];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	err_set(err, "%s; accepted: %s", what, list);
	if (strlen(err) > ERR_WIDTH)
		err_set(err, "%s; accepted: %s", what, where);
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

/* Out of memory: one line and exit 1 (not abort's core dump); the run removes what it created. */
static void (*on_oom)(void);

void oom_cleanup(void (*fn)(void))
{
	on_oom = fn;
}

void out_of_memory(size_t bytes)
{
	char msg[120];
	int n =
	    bytes
		? snprintf(msg, sizeof(msg),
			   "c2cbench: error: out of memory (allocating %zu bytes; see ulimit -v)\n",
			   bytes)
		: snprintf(msg, sizeof(msg), "c2cbench: error: out of memory (see ulimit -v)\n");
	if (on_oom)
		on_oom();
	ssize_t w = write(2, msg,
			  n > 0 && (size_t)n < sizeof(msg) ? (size_t)n
							   : 0); /* no stdio: it may need memory */
	(void)w;
	_exit(1);
}

char *xstrdup(const char *s)
{
	char *p = strdup(s ? s : "");
	if (!p)
		out_of_memory(strlen(s ? s : "") + 1);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		out_of_memory((n ? n : 1) * (size ? size : 1));
	return p;
}

void sort_n(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n)
		qsort(base, n, size, cmp);
}

char *file_text(const char *path, size_t max)
{
	FILE *f = fopen_regular(path); /* never a FIFO that blocks or a device that never ends */
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	char *t = xcalloc(cap + 1, 1);
	for (;;) {
		size_t lim = cap < max ? cap : max, got;
		if (n == lim) { /* the buffer is full: grow it, unless max is reached */
			if (lim == max)
				break;
			cap *= 2;
			if (!(t = realloc(t, cap + 1)))
				out_of_memory(cap + 1);
			continue;
		}
		if (!(got = fread(t + n, 1, lim - n, f)))
			break;
		n += got;
	}
	t[n] = 0;
	fclose(f);
	return t;
}

/* The length of the valid UTF-8 sequence of 2 to 4 bytes at p, its code point in *cp; 0 when p
 * starts none (a lone continuation byte, a cut or overlong one, a surrogate, past U+10FFFF). */
static int utf8_seq(const unsigned char *p, unsigned *cp)
{
	static const unsigned least[] = { 0, 0, 0x80, 0x800, 0x10000 };
	int len = p[0] >= 0xf0 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc0 ? 2 : 0;
	if (!len || p[0] > 0xf4)
		return 0;
	unsigned c = p[0] & (0x7fu >> len);
	for (int i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80) /* the string's NUL ends it here too */
			return 0;
		c = c << 6 | (p[i] & 0x3fu);
	}
	if (c < least[len] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

int text_has_control(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		unsigned cp = 0;
		int len = *p < 0x80 ? 1 : utf8_seq(p, &cp);
		if (*p < 0x20 || *p == 0x7f || (len > 1 && cp <= 0x9f) || (!len && *p <= 0x9f))
			return 1;
		p += len > 1 ? len - 1 : 0;
	}
	return 0;
}

void text_escape(const char *s, char *out, size_t n)
{
	size_t k = 0;
	if (!n)
		return;
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p;) {
		char e[16];
		unsigned cp = 0;
		int len = *p < 0x80 ? 1 : utf8_seq(p, &cp), raw = len > 1 && cp > 0x9f;
		size_t m;
		if (raw || (*p >= 0x20 && *p < 0x7f))
			m = (size_t)snprintf(e, sizeof(e), "%.*s", len, (const char *)p);
		else if (len == 2) /* a C1 control, U+0080 to U+009F, as its two bytes */
			m = (size_t)snprintf(e, sizeof(e), "\\x%02x\\x%02x", p[0], p[1]);
		else if (*p == '\n' || *p == '\t' || *p == '\r')
			m = (size_t)snprintf(e, sizeof(e), "%s",
					     *p == '\n' ? "\\n" : *p == '\t' ? "\\t" : "\\r");
		else /* C0, DEL, or a byte of no valid UTF-8 sequence (a raw 0x9b is CSI) */
			m = (size_t)snprintf(e, sizeof(e), "\\x%02x", *p), len = 1;
		if (k + m >= n) /* cut before what does not fit whole, still terminated */
			break;
		memcpy(out + k, e, m);
		k += m;
		p += len;
	}
	out[k] = 0;
}
