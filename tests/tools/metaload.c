// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * smbsrv-metaload: the metadata benchmark's loops (tools/bench/guest/meta.sh),
 * one system call after another, no process per file, so that what is
 * measured is the file system (a client mount or a local tmpfs) rather
 * than the shell.  The tree is shaped like an unpacked source tree: TOP
 * directories d00.., each with SUB directories s00.., the files spread
 * over these evenly, FILES in all, each SIZE bytes.
 *
 *   create ROOT FILES TOP SUB SIZE   mkdir the tree, then create, write
 *                                    and close every file (O_EXCL)
 *   stat ROOT                        walk the tree: readdir every directory,
 *                                    lstat every entry
 *   rename ROOT FILES TOP SUB        rename every file NAME to NAME.o in its
 *                                    directory
 *   check ROOT FILES TOP SUB SIZE NAMES
 *                                    read every file (NAMES "new": the names
 *                                    of create, "old": those of rename) and
 *                                    compare it byte for byte with what
 *                                    create wrote; exits 1 on a difference
 *   delete ROOT FILES TOP SUB        unlink every file (renamed names),
 *                                    rmdir every directory
 *
 * Each phase prints one line "PHASE OPS NS" (operations done and the
 * CLOCK_MONOTONIC nanoseconds they took: under the instruction-count clock
 * a guest instruction each) and exits 0, or prints the failing call's
 * errno and exits 1.  An operation is a file created, an entry stat'ed
 * (directories included), a file renamed, a file or directory removed.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char root[1024];
static long nfiles, ntop, nsub, fsize;

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void fail(const char *what, const char *path)
{
	fprintf(stderr, "metaload: %s %s: %s\n", what, path, strerror(errno));
	exit(1);
}

/* File I's directory and name; file i lives in directory i % dirs. */
static void file_path(char *buf, size_t len, long i, const char *suffix)
{
	long dirs = ntop * nsub, d = i % dirs;

	snprintf(buf, len, "%s/d%02ld/s%02ld/f%05ld.c%s", root, d / nsub,
		 d % nsub, i, suffix);
}

/* File I's content: a 16-byte line naming it, repeated. */
static void fill(char *buf, long i)
{
	char line[32];
	long o;

	snprintf(line, sizeof(line), "file %09ld\n", i % 1000000000L);
	for (o = 0; o < fsize; o++)
		buf[o] = line[o % 16];
}

static long long phase_create(char *buf)
{
	char p[1200];
	long t, s, i;
	long long ops = 0;

	for (t = 0; t < ntop; t++) {
		snprintf(p, sizeof(p), "%s/d%02ld", root, t);
		if (mkdir(p, 0755))
			fail("mkdir", p);
		for (s = 0; s < nsub; s++) {
			snprintf(p, sizeof(p), "%s/d%02ld/s%02ld", root, t, s);
			if (mkdir(p, 0755))
				fail("mkdir", p);
		}
	}
	for (i = 0; i < nfiles; i++) {
		int fd;

		file_path(p, sizeof(p), i, "");
		fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd < 0)
			fail("create", p);
		fill(buf, i);
		if (write(fd, buf, fsize) != fsize)
			fail("write", p);
		if (close(fd))
			fail("close", p);
		ops++;
	}
	return ops;
}

static long long walk(const char *dir)
{
	char p[1200];
	struct dirent *de;
	struct stat st;
	long long ops = 0;
	DIR *d = opendir(dir);

	if (!d)
		fail("opendir", dir);
	while ((errno = 0, de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, de->d_name);
		if (lstat(p, &st))
			fail("lstat", p);
		ops++;
		if (S_ISDIR(st.st_mode))
			ops += walk(p);
	}
	if (errno)
		fail("readdir", dir);
	closedir(d);
	return ops;
}

static long long phase_rename(void)
{
	char a[1200], b[1200];
	long i;

	for (i = 0; i < nfiles; i++) {
		file_path(a, sizeof(a), i, "");
		file_path(b, sizeof(b), i, ".o");
		if (rename(a, b))
			fail("rename", a);
	}
	return nfiles;
}

static long long phase_check(char *buf, const char *names)
{
	char p[1200];
	char *got = malloc(fsize + 1);
	long i;

	if (!got)
		fail("malloc", "");
	for (i = 0; i < nfiles; i++) {
		int fd;
		ssize_t n;

		file_path(p, sizeof(p), i, strcmp(names, "old") ? "" : ".o");
		fd = open(p, O_RDONLY);
		if (fd < 0)
			fail("open", p);
		n = read(fd, got, fsize + 1);
		if (n < 0)
			fail("read", p);
		close(fd);
		fill(buf, i);
		if (n != fsize || memcmp(got, buf, fsize)) {
			fprintf(stderr, "metaload: %s: %zd bytes, not the %ld written, or other bytes\n",
				p, n, fsize);
			exit(1);
		}
	}
	free(got);
	return nfiles;
}

static long long phase_delete(void)
{
	char p[1200];
	long t, s, i;

	for (i = 0; i < nfiles; i++) {
		file_path(p, sizeof(p), i, ".o");
		if (unlink(p))
			fail("unlink", p);
	}
	for (t = 0; t < ntop; t++) {
		for (s = 0; s < nsub; s++) {
			snprintf(p, sizeof(p), "%s/d%02ld/s%02ld", root, t, s);
			if (rmdir(p))
				fail("rmdir", p);
		}
		snprintf(p, sizeof(p), "%s/d%02ld", root, t);
		if (rmdir(p))
			fail("rmdir", p);
	}
	return nfiles + ntop * (nsub + 1);
}

static long num(const char *s, long min, long max)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*end || v < min || v > max) {
		fprintf(stderr, "metaload: %s: not a number in %ld..%ld\n", s, min, max);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	const char *ph = argc > 2 ? argv[1] : "";
	long long t0, ops;
	char *buf;

	if (argc < 3 || strlen(argv[2]) >= sizeof(root) - 64)
		goto usage;
	strcpy(root, argv[2]);
	if (strcmp(ph, "stat")) {
		if (argc < 6)
			goto usage;
		nfiles = num(argv[3], 1, 1000000);
		ntop = num(argv[4], 1, 99);
		nsub = num(argv[5], 1, 99);
		fsize = argc > 6 ? num(argv[6], 0, 1 << 24) : 0;
	}
	buf = malloc(fsize + 1);
	if (!buf)
		fail("malloc", "");
	t0 = now_ns();
	if (!strcmp(ph, "create") && argc == 7)
		ops = phase_create(buf);
	else if (!strcmp(ph, "stat") && argc == 3)
		ops = walk(root);
	else if (!strcmp(ph, "rename") && argc == 6)
		ops = phase_rename();
	else if (!strcmp(ph, "check") && argc == 8)
		ops = phase_check(buf, argv[7]);
	else if (!strcmp(ph, "delete") && argc == 6)
		ops = phase_delete();
	else
		goto usage;
	printf("%s %lld %lld\n", ph, ops, now_ns() - t0);
	free(buf);
	return 0;
usage:
	fprintf(stderr, "usage: smbsrv-metaload create|stat|rename|check|delete ROOT [FILES TOP SUB [SIZE [new|old]]]\n");
	return 2;
}
