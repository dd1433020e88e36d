#include "harness/outfile.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

FILE *outfile_open(struct outfile *o, const char *path)
{
	const char *slash = strrchr(path, '/');
	int dl = slash ? (int)(slash - path + 1) : 0;
	o->f = NULL;
	o->tmp[0] = 0;
	if (strlen(path) >= sizeof(o->path) - 10) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	snprintf(o->path, sizeof(o->path), "%s", path);
	snprintf(o->tmp, sizeof(o->tmp), "%.*s.%s.XXXXXX", dl, path, path + dl);
	int fd = mkstemp(o->tmp);
	if (fd < 0) {
		o->tmp[0] = 0;
		return NULL;
	}
	if (fchmod(fd, 0644) || !(o->f = fdopen(fd, "w"))) {
		int e = errno;
		close(fd);
		unlink(o->tmp);
		o->tmp[0] = 0;
		errno = e;
	}
	return o->f;
}

int outfile_commit(struct outfile *o, int how)
{
	if (!o->f) {
		errno = EBADF;
		return -1;
	}
	errno = 0;
	int bad = fflush(o->f) || ferror(o->f), e = errno ? errno : EIO;
	if (fclose(o->f) && !bad)
		bad = 1, e = errno;
	o->f = NULL;
	if (!bad && (how == OUTFILE_NEW ? link(o->tmp, o->path) : rename(o->tmp, o->path)))
		bad = 1, e = errno;
	if (bad || how == OUTFILE_NEW) /* after link the temporary is a second name: drop it */
		unlink(o->tmp);
	o->tmp[0] = 0;
	errno = bad ? e : 0;
	return bad ? -1 : 0;
}

void outfile_abort(struct outfile *o)
{
	if (o->f)
		fclose(o->f);
	if (o->tmp[0])
		unlink(o->tmp);
	o->f = NULL;
	o->tmp[0] = 0;
}

FILE *fopen_regular(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC |
				    O_NOCTTY); /* a FIFO: no wait for a writer */
	struct stat st;
	if (fd < 0)
		return NULL;
	int got = !fstat(fd, &st);
	if (!got || !S_ISREG(st.st_mode)) {
		int e = got ? EINVAL : errno;
		close(fd);
		errno = e;
		return NULL;
	}
	int fl = fcntl(fd, F_GETFL);
	FILE *f = fl >= 0 && !fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) ? fdopen(fd, "rb") : NULL;
	if (!f) {
		int e = errno;
		close(fd);
		errno = e;
	}
	return f;
}

const char *file_kind(mode_t mode)
{
	return S_ISREG(mode)    ? "a regular file"
	       : S_ISDIR(mode)  ? "a directory"
	       : S_ISFIFO(mode) ? "a FIFO"
	       : S_ISCHR(mode)  ? "a character device"
	       : S_ISBLK(mode)  ? "a block device"
	       : S_ISSOCK(mode) ? "a socket"
	       : S_ISLNK(mode)  ? "a symbolic link"
				: "not a regular file";
}
