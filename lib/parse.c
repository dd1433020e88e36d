#include "lib/parse.h"
#include "lib/util.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Length of the run of digits at s. */
static size_t digits(const char *s)
{
	size_t k = 0;
	while (is_digit(s[k]))
		k++;
	return k;
}

int parse_long(const char *s, long *out)
{
	if (!s)
		return -1;
	const char *p = s + (*s == '-');
	size_t k = digits(p);
	if (!k || p[k])
		return -1; /* the grammar first, so strtol's leniency (spaces, '+', 0x) never
			      applies */
	errno = 0;
	char *end;
	long v = strtol(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

int parse_long_in(const char *s, long lo, long hi, long *out)
{
	long v;
	if (parse_long(s, &v) || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

int parse_double(const char *s, double *out)
{
	if (!s)
		return -1;
	const char *p = s + (*s == '-');
	size_t k = digits(p);
	if (!k)
		return -1;
	p += k;
	if (*p == '.') {
		if (!(k = digits(++p)))
			return -1;
		p += k;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		p += *p == '+' || *p == '-';
		if (!(k = digits(p)))
			return -1;
		p += k;
	}
	if (*p)
		return -1;
	errno = 0;
	char *end;
	double v = strtod(s, &end);
	if (*end || (errno == ERANGE && (v > 1 || v < -1)) || v != v || v - v != 0)
		return -1; /* overflow to inf fails; an underflow to 0 or a denormal is a value */
	*out = v;
	return 0;
}

int list_count(const char *s, char *why, size_t n)
{
	int k = 1;
	if (!s || !*s) {
		snprintf(why, n, "the list is empty");
		return -1;
	}
	for (const char *p = s;; p++, k++) {
		const char *c = strchr(p, ',');
		if ((c ? c : p + strlen(p)) == p) {
			snprintf(why, n, "element %d is empty", k);
			return -1;
		}
		if (!c)
			return k;
		p = c;
	}
}

/* One CPU number at *p (advanced past it), or -1. */
static long cpu_number(const char **p)
{
	size_t k = digits(*p);
	if (!k || k > 5)
		return -1;
	long v = strtol(*p, NULL, 10);
	*p += k;
	return v <= CPU_NUMBER_MAX ? v : -1;
}

int parse_cpulist(const char *s, int *cpus, int max, char *why, size_t n)
{
	int k = 0, el = 1;
	unsigned char seen[(CPU_NUMBER_MAX + 8) / 8] = {
	    0}; /* a bit per CPU number: duplicates in O(1) */
	if (!s || !*s) {
		snprintf(why, n, "the list is empty");
		return -1;
	}
	for (const char *p = s;; el++) {
		long a = cpu_number(&p), b = a;
		if (a >= 0 && *p == '-') {
			p++;
			b = cpu_number(&p);
		}
		if (a < 0 || b < 0 || (*p && *p != ',')) {
			snprintf(why, n, "element %d is not a CPU number <= %d or N-M", el,
				 CPU_NUMBER_MAX);
			return -1;
		}
		if (b < a) {
			snprintf(
			    why, n,
			    "element %d is a range from %ld down to %ld; accepted: N-M with N <= M",
			    el, a, b);
			return -1;
		}
		for (long c = a; c <= b; c++) {
			if (seen[c / 8] & (1u << (c % 8))) {
				snprintf(why, n, "CPU %ld is named twice", c);
				return -1;
			}
			if (k >= max) {
				snprintf(why, n, "more than %d CPUs", max);
				return -1;
			}
			seen[c / 8] |= (unsigned char)(1u << (c % 8));
			cpus[k++] = (int)c;
		}
		if (!*p)
			return k;
		p++; /* the comma; an empty element after it fails as not a number */
	}
}

int list_has(const char *list, const char *item)
{
	size_t n = strlen(item);
	for (const char *p = list; p && *p;) {
		const char *c = strchr(p, ',');
		size_t len = c ? (size_t)(c - p) : strlen(p);
		if (len == n && !strncmp(p, item, n))
			return 1;
		p = c ? c + 1 : NULL;
	}
	return 0;
}

int list_split(const char *list, char **out, int max)
{
	int k = 0;
	char *dup = xstrdup(list), *save = NULL;
	for (char *t = strtok_r(dup, ",", &save); t && k < max; t = strtok_r(NULL, ",", &save))
		out[k++] = xstrdup(t);
	free(dup);
	return k;
}
