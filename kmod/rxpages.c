// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: a WRITE's data received into pages (see rxpages.h).
 */
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/net.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/uio.h>
#include <net/sock.h>

#include "rxpages.h"

/* Entries first allocated: a 1 MiB WRITE over loopback needs about 32. */
#define SMBSRV_RX_BV_FIRST	64

struct smbsrv_rxpages *smbsrv_rxpages_new(u32 len)
{
	struct smbsrv_rxpages *rx;

	rx = kzalloc(sizeof(*rx), GFP_KERNEL);
	if (!rx)
		return NULL;
	rx->len = len;
	return rx;
}

void smbsrv_rxpages_free(struct smbsrv_rxpages *rx)
{
	unsigned int i;

	if (!rx)
		return;
	for (i = 0; i < rx->nr; i++)
		put_page(rx->bv[i].bv_page);
	if (rx->stage)
		put_page(rx->stage);
	kvfree(rx->bv);
	kfree(rx);
}

bool smbsrv_rxpages_can(const struct socket *sock)
{
	return sock->ops && sock->ops->read_sock;
}

void smbsrv_rxpages_iter(struct smbsrv_rxpages *rx, struct iov_iter *it)
{
	iov_iter_bvec(it, ITER_SOURCE, rx->bv, rx->nr, rx->got);
}

void smbsrv_rxpages_dest(struct smbsrv_rxpages *rx, struct iov_iter *it)
{
	iov_iter_bvec(it, ITER_DEST, rx->bv, rx->nr, rx->got);
}

/* Room for one more entry. */
static int smbsrv_rx_room(struct smbsrv_rxpages *rx)
{
	unsigned int max;
	struct bio_vec *bv;

	if (rx->nr < rx->max)
		return 0;
	max = rx->max ? rx->max * 2 : SMBSRV_RX_BV_FIRST;
	bv = kvmalloc_array(max, sizeof(*bv), GFP_KERNEL);
	if (!bv)
		return -ENOMEM;
	if (rx->nr)
		memcpy(bv, rx->bv, rx->nr * sizeof(*bv));
	kvfree(rx->bv);
	rx->bv = bv;
	rx->max = max;
	return 0;
}

/*
 * Append @len bytes of @page at @off, taking a reference unless they
 * continue the last entry's bytes in the same page.
 */
static int smbsrv_rx_add(struct smbsrv_rxpages *rx, struct page *page,
			 u32 off, u32 len)
{
	struct bio_vec *last = rx->nr ? &rx->bv[rx->nr - 1] : NULL;
	int err;

	if (last && last->bv_page == page &&
	    last->bv_offset + last->bv_len == off) {
		last->bv_len += len;
		return 0;
	}
	err = smbsrv_rx_room(rx);
	if (err)
		return err;
	get_page(page);
	bvec_set_page(&rx->bv[rx->nr++], page, len, off);
	return 0;
}

/* Copy @len bytes from @src into the staging page(s). */
static int smbsrv_rx_copy(struct smbsrv_rxpages *rx, const void *src, u32 len)
{
	u32 n;
	int err;

	while (len) {
		if (!rx->stage || rx->stage_used == PAGE_SIZE) {
			struct page *page = alloc_page(GFP_KERNEL);

			if (!page)
				return -ENOMEM;
			if (rx->stage)
				put_page(rx->stage);
			rx->stage = page;
			rx->stage_used = 0;
		}
		n = min_t(u32, len, PAGE_SIZE - rx->stage_used);
		memcpy(page_address(rx->stage) + rx->stage_used, src, n);
		err = smbsrv_rx_add(rx, rx->stage, rx->stage_used, n);
		if (err)
			return err;
		rx->stage_used += n;
		src += n;
		len -= n;
	}
	return 0;
}

/* @len bytes of a fragment: @page (maybe compound) from @off. */
static int smbsrv_rx_frag(struct smbsrv_rxpages *rx, struct page *page,
			  u32 off, u32 len)
{
	u32 n;
	int err;

	page += off >> PAGE_SHIFT;
	off &= ~PAGE_MASK;
	if (len >= SMBSRV_RX_REF_MIN)
		return smbsrv_rx_add(rx, page, off, len);
	while (len) {
		void *va = kmap_local_page(page);

		n = min_t(u32, len, PAGE_SIZE - off);
		err = smbsrv_rx_copy(rx, va + off, n);
		kunmap_local(va);
		if (err)
			return err;
		page++;
		off = 0;
		len -= n;
	}
	return 0;
}

/*
 * Take @len bytes of @skb from @offset, as skb_copy_bits() walks it: the
 * linear part (copied), the page fragments (referenced), the fragment
 * list.
 */
static int smbsrv_rx_skb(struct smbsrv_rxpages *rx, const struct sk_buff *skb,
			 int offset, int len)
{
	int start = skb_headlen(skb), copy, i, err;
	struct sk_buff *frag_iter;

	if (!skb_frags_readable(skb))
		return -EFAULT;
	copy = start - offset;
	if (copy > 0) {
		copy = min(copy, len);
		err = smbsrv_rx_copy(rx, skb->data + offset, copy);
		if (err)
			return err;
		offset += copy;
		len -= copy;
	}
	for (i = 0; len && i < skb_shinfo(skb)->nr_frags; i++) {
		const skb_frag_t *f = &skb_shinfo(skb)->frags[i];
		int end = start + skb_frag_size(f);

		copy = end - offset;
		if (copy > 0) {
			copy = min(copy, len);
			err = smbsrv_rx_frag(rx, skb_frag_page(f),
					     skb_frag_off(f) + offset - start,
					     copy);
			if (err)
				return err;
			offset += copy;
			len -= copy;
		}
		start = end;
	}
	skb_walk_frags(skb, frag_iter) {
		int end;

		if (!len)
			break;
		end = start + frag_iter->len;
		copy = end - offset;
		if (copy > 0) {
			copy = min(copy, len);
			err = smbsrv_rx_skb(rx, frag_iter, offset - start, copy);
			if (err)
				return err;
			offset += copy;
			len -= copy;
		}
		start = end;
	}
	return len ? -EFAULT : 0;
}

/* ->read_sock()'s actor: up to desc->count bytes of one socket buffer. */
static int smbsrv_rx_actor(read_descriptor_t *desc, struct sk_buff *skb,
			   unsigned int offset, size_t len)
{
	struct smbsrv_rxpages *rx = desc->arg.data;
	size_t n = min(len, desc->count);
	int err;

	if (!n)
		return 0;
	err = smbsrv_rx_skb(rx, skb, offset, n);
	if (err) {
		desc->error = err;
		return err;
	}
	desc->count -= n;
	return n;
}

int smbsrv_rxpages_put(struct smbsrv_rxpages *rx, const void *src, u32 len)
{
	int err;

	if (len > rx->len - rx->got)
		return -EINVAL;
	err = smbsrv_rx_copy(rx, src, len);
	if (!err)
		rx->got += len;
	return err;
}

int smbsrv_rxpages_recv(struct socket *sock, struct smbsrv_rxpages *rx,
			bool wait)
{
	struct sock *sk = sock->sk;
	read_descriptor_t desc = { .arg.data = rx };
	long timeo = wait ? READ_ONCE(sk->sk_rcvtimeo) : 0;
	bool eof = false;
	int got = 0, n, err = -EAGAIN;

	lock_sock(sk);
	while (rx->got < rx->len) {
		desc.count = rx->len - rx->got;
		desc.error = 0;
		n = sock->ops->read_sock(sk, &desc, smbsrv_rx_actor);
		if (desc.error || n < 0) {
			/* Part of a buffer may be in @rx: the stream is lost. */
			err = desc.error ? desc.error : n;
			got = 0;
			break;
		}
		if (n > 0) {
			rx->got += n;
			got += n;
			continue;
		}
		if (sk->sk_err) {
			err = sock_error(sk);
			break;
		}
		if ((sk->sk_shutdown & RCV_SHUTDOWN) ||
		    sock_flag(sk, SOCK_DONE) || sk->sk_state == TCP_CLOSE) {
			eof = true;
			break;
		}
		if (!timeo) {
			err = -EAGAIN;
			break;
		}
		sk_wait_data(sk, &timeo, NULL);
	}
	release_sock(sk);
	if (got)
		return got;
	return eof ? 0 : err;
}

/*
 * Allocated in pieces of up to 32 KiB (compound pages, one entry each),
 * order 0 when those are not to be had at once.
 */
#define SMBSRV_RX_ALLOC_ORDER	3

struct smbsrv_rxpages *smbsrv_rxpages_alloc(u32 len)
{
	struct smbsrv_rxpages *rx = smbsrv_rxpages_new(len);
	unsigned int order;
	struct page *page;
	u32 n;

	if (!rx)
		return NULL;
	while (rx->got < len) {
		n = len - rx->got;
		order = min_t(unsigned int, get_order(n), SMBSRV_RX_ALLOC_ORDER);
		page = NULL;
		if (order)
			page = alloc_pages(GFP_KERNEL | __GFP_COMP |
					   __GFP_NORETRY | __GFP_NOWARN, order);
		if (!page) {
			order = 0;
			page = alloc_page(GFP_KERNEL);
		}
		if (!page || smbsrv_rx_room(rx)) {
			if (page)
				put_page(page);
			smbsrv_rxpages_free(rx);
			return NULL;
		}
		n = min_t(u32, n, PAGE_SIZE << order);
		bvec_set_page(&rx->bv[rx->nr++], page, n, 0);
		rx->got += n;
	}
	return rx;
}
