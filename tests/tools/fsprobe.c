// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * smbsrv-fsprobe: the few file-system calls the cifs-mount selftests
 * (tests/selftests/host/cifs2.sh) need and the guest's busybox lacks.
 *
 *   lock FILE START LEN r|w nowait|wait [RELEASE]
 *       F_SETLK (nowait) or F_SETLKW (wait) a read or write lock on an
 *       O_RDWR descriptor.  Prints "locked" (exit 0) or the errno name
 *       (EAGAIN exits 11, anything else 1).  With RELEASE, holds the lock
 *       until that path exists, then unlocks with F_UNLCK and prints
 *       "released".
 *   getlk FILE START LEN r|w
 *       F_GETLK: prints "unlocked" or "conflict TYPE START LEN".
 *   seek FILE
 *       Walks the file with SEEK_DATA/SEEK_HOLE and prints one line per
 *       extent, "data START END" or "hole START END", up to its size.
 *   notify DIR FILTER TREE
 *       The cifs client's CIFS_IOC_NOTIFY_INFO ioctl: one CHANGE_NOTIFY
 *       (hex completion filter, TREE 0 or 1) on DIR, waiting for it to
 *       complete, then prints each FILE_NOTIFY_INFORMATION entry as
 *       "ACTION NAME" (NAME converted from UTF-16LE; ASCII only).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* fs/smb/client/cifs_ioctl.h is not a uapi header: its layout, as is. */
struct smb3_notify_info {
	uint32_t completion_filter;
	bool watch_tree;
	uint32_t data_len;
	uint8_t notify_data[];
} __attribute__((packed));

#define CIFS_IOCTL_MAGIC 0xCF
#define CIFS_IOC_NOTIFY_INFO _IOWR(CIFS_IOCTL_MAGIC, 11, struct smb3_notify_info)

static int usage(void)
{
	fprintf(stderr,
		"usage: smbsrv-fsprobe lock FILE START LEN r|w nowait|wait [RELEASE]\n"
		"       smbsrv-fsprobe getlk FILE START LEN r|w\n"
		"       smbsrv-fsprobe seek FILE\n"
		"       smbsrv-fsprobe notify DIR FILTER TREE\n");
	return 2;
}

static int fail(const char *what)
{
	int err = errno;

	printf("%s\n", strerrorname_np(err) ? strerrorname_np(err) : "E?");
	fprintf(stderr, "%s: %s\n", what, strerror(err));
	return err == EAGAIN ? 11 : 1;
}

static int parse_range(char **argv, struct flock *fl)
{
	char *end;

	memset(fl, 0, sizeof(*fl));
	fl->l_whence = SEEK_SET;
	fl->l_start = strtoll(argv[0], &end, 0);
	if (*end)
		return -1;
	fl->l_len = strtoll(argv[1], &end, 0);
	if (*end)
		return -1;
	if (!strcmp(argv[2], "r"))
		fl->l_type = F_RDLCK;
	else if (!strcmp(argv[2], "w"))
		fl->l_type = F_WRLCK;
	else
		return -1;
	return 0;
}

static int do_lock(int argc, char **argv)
{
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	struct flock fl;
	int fd, cmd;

	if (argc < 5 || argc > 6 || parse_range(argv + 1, &fl))
		return usage();
	if (!strcmp(argv[4], "nowait"))
		cmd = F_SETLK;
	else if (!strcmp(argv[4], "wait"))
		cmd = F_SETLKW;
	else
		return usage();
	fd = open(argv[0], O_RDWR);
	if (fd < 0)
		return fail("open");
	if (fcntl(fd, cmd, &fl))
		return fail("fcntl");
	printf("locked\n");
	fflush(stdout);
	if (argc == 6) {
		while (access(argv[5], F_OK))
			nanosleep(&ts, NULL);
		fl.l_type = F_UNLCK;
		if (fcntl(fd, F_SETLK, &fl))
			return fail("unlock");
		printf("released\n");
	}
	close(fd);
	return 0;
}

static int do_getlk(int argc, char **argv)
{
	struct flock fl;
	int fd;

	if (argc != 4 || parse_range(argv + 1, &fl))
		return usage();
	fd = open(argv[0], O_RDWR);
	if (fd < 0)
		return fail("open");
	if (fcntl(fd, F_GETLK, &fl))
		return fail("fcntl");
	if (fl.l_type == F_UNLCK)
		printf("unlocked\n");
	else
		printf("conflict %s %lld %lld\n", fl.l_type == F_WRLCK ? "w" : "r",
		       (long long)fl.l_start, (long long)fl.l_len);
	close(fd);
	return 0;
}

static int do_seek(int argc, char **argv)
{
	struct stat st;
	off_t pos = 0, next;
	int fd;

	if (argc != 1)
		return usage();
	fd = open(argv[0], O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		return fail("open");
	while (pos < st.st_size) {
		next = lseek(fd, pos, SEEK_HOLE);
		if (next < 0)
			return fail("SEEK_HOLE");
		if (next > pos) {
			printf("data %lld %lld\n", (long long)pos, (long long)next);
			pos = next;
			continue;
		}
		next = lseek(fd, pos, SEEK_DATA);
		if (next < 0 && errno != ENXIO)
			return fail("SEEK_DATA");
		if (next < 0)
			next = st.st_size;
		if (next <= pos) {
			fprintf(stderr, "SEEK_DATA at %lld went nowhere\n", (long long)pos);
			return 1;
		}
		printf("hole %lld %lld\n", (long long)pos, (long long)next);
		pos = next;
	}
	close(fd);
	return 0;
}

static int do_notify(int argc, char **argv)
{
	enum { room = 4096 };
	struct smb3_notify_info *ni;
	uint32_t off = 0, next, action, len, i;
	char *end;
	int fd;

	if (argc != 3)
		return usage();
	ni = calloc(1, sizeof(*ni) + room);
	if (!ni)
		return fail("calloc");
	ni->completion_filter = strtoul(argv[1], &end, 16);
	if (*end)
		return usage();
	ni->watch_tree = !strcmp(argv[2], "1");
	ni->data_len = room;
	fd = open(argv[0], O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return fail("open");
	if (ioctl(fd, CIFS_IOC_NOTIFY_INFO, ni))
		return fail("CIFS_IOC_NOTIFY_INFO");
	if (ni->data_len > room) {
		fprintf(stderr, "data_len %u\n", ni->data_len);
		return 1;
	}
	/* FILE_NOTIFY_INFORMATION: NextEntryOffset, Action, FileNameLength, FileName */
	while (off + 12 <= ni->data_len) {
		const uint8_t *e = ni->notify_data + off;

		memcpy(&next, e, 4);
		memcpy(&action, e + 4, 4);
		memcpy(&len, e + 8, 4);
		if (len > ni->data_len - off - 12) {
			fprintf(stderr, "entry at %u overruns\n", off);
			return 1;
		}
		printf("%u ", action);
		for (i = 0; i + 1 < len; i += 2)
			putchar(e[12 + i + 1] ? '?' : e[12 + i]);
		putchar('\n');
		if (!next)
			break;
		off += next;
	}
	close(fd);
	free(ni);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage();
	if (!strcmp(argv[1], "lock"))
		return do_lock(argc - 2, argv + 2);
	if (!strcmp(argv[1], "getlk"))
		return do_getlk(argc - 2, argv + 2);
	if (!strcmp(argv[1], "seek"))
		return do_seek(argc - 2, argv + 2);
	if (!strcmp(argv[1], "notify"))
		return do_notify(argc - 2, argv + 2);
	return usage();
}
