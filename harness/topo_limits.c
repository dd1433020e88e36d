/* The caps on a foreign topology, checked before hwloc reads it: hwloc's XML parser recurses once
 * per nested object (a 20,000-deep file overflows its stack) and a synthetic description is built
 * whole (pack:1000000 pu:1000 is a billion objects). A lexical scan, not a second XML parser:
 * it counts what hwloc would build, and refuses what no machine has. */
#include "harness/topo.h"
#include "lib/util.h"
#include <ctype.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define XML_MAX_BYTES (256L << 20)

int topo_synthetic_check(const char *desc, char *err)
{
	unsigned long long width = 1, objects = 0;
	int paren = 0;
	for (const char *s = desc; *s; s++) {
		if (*s == '(' || *s == '[')
			paren++;
		else if ((*s == ')' || *s == ']') && paren)
			paren--;
		if (paren || *s != ':' || !isdigit((unsigned char)s[1]))
			continue;
		unsigned long long k = strtoull(s + 1, NULL, 10);
		width = k && width > (1ull << 40) / k ? (1ull << 40) : width * k;
		objects += width;
		if (width > TOPO_MAX_PUS || objects > 16ull * TOPO_MAX_PUS)
			return err_set(
				err,
				"--topology: synthetic:'%s' makes %s%llu objects at one level "
				"(%llu in all); "
				"accepted: at most %d at any level (so %d PUs) and %d in all",
				desc, width >= (1ull << 40) ? "over " : "", width, objects,
				TOPO_MAX_PUS, TOPO_MAX_PUS, 16 * TOPO_MAX_PUS);
	}
	return 0;
}

/* The value of attribute name inside one tag [tag, end), or NULL. */
static const char *attr(const char *tag, const char *end, const char *name, size_t *len)
{
	size_t n = strlen(name);
	for (const char *s = tag; s + n + 2 < end; s++)
		if (isspace((unsigned char)s[0]) && !strncmp(s + 1, name, n) && s[n + 1] == '=' &&
		    s[n + 2] == '"') {
			const char *v = s + n + 3, *q = memchr(v, '"', (size_t)(end - v));
			*len = q ? (size_t)(q - v) : 0;
			return q ? v : NULL;
		}
	return NULL;
}

static int cmp_int(const void *a, const void *b)
{
	return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

static int read_whole(const char *path, char **buf, char *err)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > XML_MAX_BYTES) {
		int big = fd >= 0 && S_ISREG(st.st_mode);
		if (fd >= 0)
			close(fd);
		return err_set(err,
			       "--topology: xml:'%s' is %s; accepted: a regular hwloc XML file of "
			       "at most %ld MiB",
			       path, big ? "too large" : "not a readable regular file",
			       XML_MAX_BYTES >> 20);
	}
	*buf = xcalloc((size_t)st.st_size + 1, 1);
	ssize_t got = 0, r = 1;
	while (got < st.st_size && (r = read(fd, *buf + got, (size_t)(st.st_size - got))) > 0)
		got += r;
	close(fd);
	if (r < 0) {
		free(*buf);
		return err_set(err, "--topology: cannot read hwloc XML file '%s'", path);
	}
	return 0;
}

/* Depth, PU count and duplicate PU numbers, in one pass over the tags. */
static int scan(const char *path, const char *s, int *major, char *err)
{
	int depth = 0, npu = 0, nos = 0, cap = 1024, rc = 0,
	    *os = xcalloc((size_t)cap, sizeof(int));
	for (const char *p = strchr(s, '<'); p && !rc; p = strchr(p + 1, '<')) {
		const char *end = strchr(p, '>');
		size_t n;
		if (!end)
			break;
		if (!strncmp(p, "<topology", 9) && attr(p, end, "version", &n))
			*major = atoi(attr(p, end, "version", &n));
		if (!strncmp(p, "</object", 8))
			depth--;
		if (strncmp(p, "<object", 7) || !isspace((unsigned char)p[7]))
			continue;
		if (end[-1] != '/' && ++depth > TOPO_MAX_DEPTH)
			rc = err_set(err,
				     "--topology: xml:'%s' nests objects more than %d deep; "
				     "accepted: at most %d levels",
				     path, TOPO_MAX_DEPTH, TOPO_MAX_DEPTH);
		const char *ty = attr(p, end, "type", &n), *ix;
		if (rc || !ty || n != 2 || strncmp(ty, "PU", 2))
			continue;
		if (++npu > TOPO_MAX_PUS)
			rc = err_set(err,
				     "--topology: xml:'%s' has more than %d PUs; accepted: at most "
				     "%d PUs",
				     path, TOPO_MAX_PUS, TOPO_MAX_PUS);
		else if ((ix = attr(p, end, "os_index", &n))) {
			if (nos == cap && !(os = realloc(os, (size_t)(cap *= 2) * sizeof(int))))
				out_of_memory(0);
			os[nos++] = atoi(ix);
		}
	}
	qsort(os, (size_t)nos, sizeof(int), cmp_int);
	for (int i = 1; !rc && i < nos; i++)
		if (os[i] == os[i - 1])
			rc = err_set(err,
				     "--topology: xml:'%s' has two PUs with os_index %d; accepted: "
				     "an XML whose PUs have "
				     "distinct OS numbers",
				     path, os[i]);
	free(os);
	return rc;
}

int topo_xml_check(const char *path, int *major, char *err)
{
	char *buf = NULL;
	if (read_whole(path, &buf, err))
		return -1;
	int rc = scan(path, buf, major, err);
	free(buf);
	return rc;
}
