// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * smbsrv-connflood: hold many idle TCP connections to an SMB server, the
 * way a careless or hostile client fills a server's connection table.
 *
 *   smbsrv-connflood [-n] [-r] HOST PORT COUNT
 *
 * Opens COUNT connections, up to 128 at a time; with -n each sends an
 * SMB2 NEGOTIATE request first (and reads whatever comes back), otherwise
 * it just connects.  Then it sits.  Every line read on standard input
 * asks for a status line on standard output:
 *
 *   open=N closed=N opened=N
 *
 * (connections open now, closed by the server so far, opened in all).
 * With -r a connection the server closed is opened again at the next
 * status request, as an attacker refilling the table would.  At the end
 * of standard input every connection is closed and the program exits.
 * "ready open=N ..." is printed once all COUNT connections were tried.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* SMB2 NEGOTIATE for 2.1, 3.0 and 3.0.2 (3.1.1 would need contexts). */
static unsigned char negotiate[] = {
	0x00, 0x00, 0x00, 0x00,				/* Direct TCP length, set below */
	0xfe, 'S', 'M', 'B', 64, 0, 0, 0,		/* ProtocolId, StructureSize, CreditCharge */
	0, 0, 0, 0, 0, 0, 1, 0,				/* Status, Command 0, Credits 1 */
	0, 0, 0, 0, 0, 0, 0, 0,				/* Flags, NextCommand */
	0, 0, 0, 0, 0, 0, 0, 0,				/* MessageId 0 */
	0, 0, 0, 0, 0, 0, 0, 0,				/* Reserved, TreeId */
	0, 0, 0, 0, 0, 0, 0, 0,				/* SessionId */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* Signature */
	36, 0, 3, 0, 1, 0, 0, 0,			/* StructureSize, DialectCount, SecurityMode, Reserved */
	0, 0, 0, 0,					/* Capabilities */
	'c', 'o', 'n', 'n', 'f', 'l', 'o', 'o', 'd', 0, 0, 0, 0, 0, 0, 1,	/* ClientGuid */
	0, 0, 0, 0, 0, 0, 0, 0,				/* ClientStartTime */
	0x10, 0x02, 0x00, 0x03, 0x02, 0x03,		/* 2.1, 3.0, 3.0.2 */
};

struct conn {
	int fd;
	int attempts;
};

static struct sockaddr_storage addr;
static socklen_t addrlen;
static int send_negotiate;

/* Connections being opened at once, and how long one may take. */
#define IN_FLIGHT	256
#define ATTEMPT_MS	3000
#define MAX_ATTEMPTS	1000

/* Start a non-blocking connect; the fd, or -1. */
static int start_one(void)
{
	int fd = socket(addr.ss_family,
			SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);

	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&addr, addrlen) < 0 &&
	    errno != EINPROGRESS) {
		close(fd);
		return -1;
	}
	return fd;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Open every slot of c[0..count) that has no connection, IN_FLIGHT at a
 * time.  One after the other, a listener with a backlog of 1 (QEMU's
 * user-mode port forwarding) lets about two through per second, the rest
 * waiting for SYN retransmissions; and a connect that completed on this
 * side may not have been accepted on the other (its ACK dropped while
 * the accept queue was full).  So with -n a connection counts once the
 * NEGOTIATE response came back, and an attempt that takes longer than
 * ATTEMPT_MS starts over with a fresh SYN.  Returns the number opened.
 */
static long open_many(struct conn *c, long count)
{
	struct pollfd pfd[IN_FLIGHT];
	long slot[IN_FLIGHT], deadline[IN_FLIGHT];
	long next = 0, opened = 0, t;
	int n = 0, i;
	char buf[512];

	for (;;) {
		while (n < IN_FLIGHT && next < count) {
			/* -1: to open; -2: being opened. */
			if (c[next].fd != -1 || c[next].attempts >= MAX_ATTEMPTS) {
				next++;
				continue;
			}
			c[next].attempts++;
			pfd[n].fd = start_one();
			if (pfd[n].fd < 0) {
				next++;
				continue;
			}
			c[next].fd = -2;
			pfd[n].events = POLLOUT;
			deadline[n] = now_ms() + ATTEMPT_MS;
			slot[n++] = next++;
		}
		if (!n)
			return opened;
		if (poll(pfd, n, 100) < 0 && errno != EINTR)
			return opened;
		t = now_ms();
		for (i = 0; i < n; i++) {
			int done = 0, fail = 0, err = 0;
			socklen_t len = sizeof(err);

			if (pfd[i].revents & POLLOUT) {
				if (getsockopt(pfd[i].fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0 ||
				    err)
					fail = 1;
				else if (!send_negotiate)
					done = 1;
				else if (send(pfd[i].fd, negotiate, sizeof(negotiate),
					      MSG_NOSIGNAL) != (ssize_t)sizeof(negotiate))
					fail = 1;
				else
					pfd[i].events = POLLIN;
			} else if (pfd[i].revents & (POLLIN | POLLHUP | POLLERR)) {
				ssize_t got = recv(pfd[i].fd, buf, sizeof(buf), MSG_DONTWAIT);

				if (got > 0)
					done = 1;
				else if (got == 0 || (errno != EAGAIN && errno != EINTR))
					fail = 1;
			} else if (t > deadline[i]) {
				fail = 1;
			}
			if (!done && !fail)
				continue;
			if (done) {
				c[slot[i]].fd = pfd[i].fd;
				opened++;
			} else {
				close(pfd[i].fd);
				/* Start over, from this slot. */
				c[slot[i]].fd = -1;
				if (slot[i] < next)
					next = slot[i];
			}
			pfd[i] = pfd[--n];
			slot[i] = slot[n];
			deadline[i] = deadline[n];
			i--;
		}
	}
}

/* Drain what the server sent; -1 when it closed the connection. */
static int drain(int fd)
{
	char buf[4096];

	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);

		if (n > 0)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;
		return -1;
	}
}

int main(int argc, char **argv)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai;
	struct pollfd *pfd;
	struct conn *c;
	struct rlimit rl;
	long count, i, open_now = 0, closed = 0, opened = 0;
	int refill = 0, opt;
	char line[256];

	while ((opt = getopt(argc, argv, "nr")) != -1) {
		if (opt == 'n')
			send_negotiate = 1;
		else if (opt == 'r')
			refill = 1;
		else
			goto usage;
	}
	if (argc - optind != 3)
		goto usage;
	count = strtol(argv[optind + 2], NULL, 10);
	if (count <= 0 || count > 1000000)
		goto usage;
	if (getaddrinfo(argv[optind], argv[optind + 1], &hints, &ai) || !ai) {
		fprintf(stderr, "connflood: cannot resolve %s\n", argv[optind]);
		return 1;
	}
	negotiate[3] = sizeof(negotiate) - 4;
	memcpy(&addr, ai->ai_addr, ai->ai_addrlen);
	addrlen = ai->ai_addrlen;
	freeaddrinfo(ai);

	rl.rlim_cur = rl.rlim_max = (rlim_t)count + 64;
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0) {
		perror("connflood: setrlimit");
		return 1;
	}
	c = calloc(count, sizeof(*c));
	pfd = calloc(count + 1, sizeof(*pfd));
	if (!c || !pfd)
		return 1;
	for (i = 0; i < count; i++)
		c[i].fd = -1;
	open_now = opened = open_many(c, count);
	printf("ready open=%ld closed=%ld opened=%ld\n", open_now, closed, opened);
	fflush(stdout);

	for (;;) {
		pfd[0].fd = 0;
		pfd[0].events = POLLIN;
		for (i = 0; i < count; i++) {
			pfd[i + 1].fd = c[i].fd;
			pfd[i + 1].events = POLLIN;
			pfd[i + 1].revents = 0;
		}
		if (poll(pfd, count + 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			perror("connflood: poll");
			return 1;
		}
		for (i = 0; i < count; i++) {
			if (c[i].fd < 0 || !pfd[i + 1].revents)
				continue;
			if (drain(c[i].fd) < 0) {
				close(c[i].fd);
				c[i].fd = -1;
				c[i].attempts = 0;
				open_now--;
				closed++;
			}
		}
		if (!(pfd[0].revents & (POLLIN | POLLHUP)))
			continue;
		if (!fgets(line, sizeof(line), stdin))
			break;
		if (refill) {
			long more = open_many(c, count);

			open_now += more;
			opened += more;
		}
		printf("open=%ld closed=%ld opened=%ld\n", open_now, closed, opened);
		fflush(stdout);
	}
	for (i = 0; i < count; i++)
		if (c[i].fd >= 0)
			close(c[i].fd);
	return 0;
usage:
	fprintf(stderr, "usage: smbsrv-connflood [-n] [-r] HOST PORT COUNT\n");
	return 2;
}
