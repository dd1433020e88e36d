#include "lib/replace.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

FILE *replace_open(struct replace *r, const char *path)
{
	const char *slash = strrchr(path, '/');
	int dirlen = slash ? (int)(slash - path + 1) : 0;
	r->f = NULL;
	r->tmp[0] = 0;
	if ((size_t)snprintf(r->path, sizeof(r->path), "%s", path) >= sizeof(r->path) ||
	    (size_t)snprintf(r->tmp, sizeof(r->tmp), "%.*s.%s.XXXXXX", dirlen, path,
			     path + dirlen) >= sizeof(r->tmp)) {
		r->tmp[0] = 0;
		errno = ENAMETOOLONG;
		return NULL;
	}
	int fd = mkstemp(r->tmp);
	if (fd < 0) {
		r->tmp[0] = 0;
		return NULL;
	}
	r->f = !fchmod(fd, 0644) ? fdopen(fd, "w") : NULL;
	if (!r->f) {
		int e = errno;
		close(fd);
		unlink(r->tmp);
		r->tmp[0] = 0;
		errno = e;
	}
	return r->f;
}

int replace_commit(struct replace *r, int how)
{
	int bad = ferror(r->f), e = bad ? EIO : 0;
	if (fclose(r->f) && !bad)
		bad = 1, e = errno;
	r->f = NULL;
	if (!bad && (how == REPLACE_NEW ? link(r->tmp, r->path) : rename(r->tmp, r->path)))
		bad = 1, e = errno;
	if (bad || how == REPLACE_NEW)
		unlink(r->tmp);
	r->tmp[0] = 0;
	errno = e;
	return bad ? -1 : 0;
}

void replace_abort(struct replace *r)
{
	if (r->f)
		fclose(r->f);
	if (r->tmp[0])
		unlink(r->tmp);
	r->f = NULL;
	r->tmp[0] = 0;
}
