#include "analysis/report_esc.h"
#include <string.h>

/* Append n bytes of piece if they fit with the closing bytes (keep), else stop: truncation never
 * cuts an escape sequence in half. Return 0 when it did not fit. */
static int put(char *out, size_t cap, size_t *len, size_t keep, const char *piece, size_t n)
{
	if (*len + n + keep + 1 > cap)
		return 0;
	memcpy(out + *len, piece, n);
	*len += n;
	out[*len] = 0;
	return 1;
}

/* Control bytes (and DEL) end lines or confuse terminals in every output format. */
static int is_ctl(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

void esc_gp(char *out, size_t cap, const char *s)
{
	size_t len = 0;
	if (cap < 3) {
		if (cap)
			out[0] = 0;
		return;
	}
	out[len++] = '\'';
	out[len] = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		const char *piece = *p == '\'' ? "''" : is_ctl(*p) ? " " : (const char *)p;
		if (!put(out, cap, &len, 1, piece, *p == '\'' ? 2 : 1))
			break;
	}
	out[len++] = '\'';
	out[len] = 0;
}

void esc_md(char *out, size_t cap, const char *s)
{
	size_t len = 0;
	if (!cap)
		return;
	out[0] = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		char bs[3] = { '\\', (char)*p, 0 };
		const char *piece = (const char *)p;
		size_t n = 1;
		if (*p == '&')
			piece = "&amp;", n = 5;
		else if (*p == '<')
			piece = "&lt;", n = 4;
		else if (*p == '>')
			piece = "&gt;", n = 4;
		else if (is_ctl(*p))
			piece = " ";
		else if (strchr("|\\`*_[]#!", *p))
			piece = bs, n = 2;
		if (!put(out, cap, &len, 0, piece, n))
			break;
	}
}

void esc_html(char *out, size_t cap, const char *s)
{
	size_t len = 0;
	if (!cap)
		return;
	out[0] = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		const char *piece = (const char *)p;
		size_t n = 1;
		switch (*p) {
		case '&': piece = "&amp;", n = 5; break;
		case '<': piece = "&lt;", n = 4; break;
		case '>': piece = "&gt;", n = 4; break;
		case '"': piece = "&quot;", n = 6; break;
		case '\'': piece = "&#39;", n = 5; break;
		default:
			if (is_ctl(*p))
				piece = " ";
		}
		if (!put(out, cap, &len, 0, piece, n))
			break;
	}
}
