/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: a WRITE's data received into pages (Documentation/design.md,
 * "The WRITE path").
 *
 * The receiver (recv.c) reads the header and fixed part of a large plain
 * WRITE into a small buffer and the data straight from the socket's
 * receive queue (the protocol's ->read_sock, as sunrpc once did): each
 * segment of a socket buffer's page fragments is referenced, not copied;
 * the rare short segment and bytes in a buffer's linear part are copied
 * into a page of their own.  The WRITE handler writes from these pages
 * (an ITER_BVEC), which is the data's one copy.  Bounded: the data is at
 * most one frame, as a message buffer would be, and every reference is
 * to at least SMBSRV_RX_REF_MIN bytes, so the vector has at most a few
 * entries per KiB.
 */
#ifndef _SMBSRV_RXPAGES_H
#define _SMBSRV_RXPAGES_H

#include <linux/bvec.h>
#include <linux/types.h>

struct iov_iter;
struct page;
struct socket;

/* Segments shorter than this are copied rather than referenced. */
#define SMBSRV_RX_REF_MIN	1024

struct smbsrv_rxpages {
	u32 len;		/* the data's length */
	u32 got;		/* bytes received so far */
	unsigned int nr;	/* bv[] entries used */
	unsigned int max;	/* bv[] entries allocated */
	struct bio_vec *bv;	/* each entry holds one page reference */
	struct page *stage;	/* where short segments are copied, or NULL */
	u32 stage_used;		/* bytes of @stage used */
};

struct smbsrv_rxpages *smbsrv_rxpages_new(u32 len);
void smbsrv_rxpages_free(struct smbsrv_rxpages *rx);

/*
 * Receive more of @rx's data from @sock: what is there, or with @wait all
 * of it, each wait bounded by the socket's receive timeout.  >0 bytes
 * received, 0 end of stream, -EAGAIN nothing (yet), -errno (the stream
 * is unusable).
 */
int smbsrv_rxpages_recv(struct socket *sock, struct smbsrv_rxpages *rx,
			bool wait);

/*
 * @len more bytes of @rx's data from @src, read from the socket before
 * (copied): 0 or -ENOMEM.
 */
int smbsrv_rxpages_put(struct smbsrv_rxpages *rx, const void *src, u32 len);

/* Whether @sock can be read this way (its protocol has ->read_sock). */
bool smbsrv_rxpages_can(const struct socket *sock);

/* An ITER_SOURCE over all of @rx's data (received in full). */
void smbsrv_rxpages_iter(struct smbsrv_rxpages *rx, struct iov_iter *it);

/*
 * Pages of our own for @len bytes (a sealed WRITE's plaintext, decrypted
 * into them through smbsrv_rxpages_dest()), counted as received in full;
 * NULL when there is no memory.
 */
struct smbsrv_rxpages *smbsrv_rxpages_alloc(u32 len);

/* An ITER_DEST over all of @rx's bytes. */
void smbsrv_rxpages_dest(struct smbsrv_rxpages *rx, struct iov_iter *it);

#endif /* _SMBSRV_RXPAGES_H */
