#include "lib/infile.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
