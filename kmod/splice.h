/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: page payloads for spliced READ responses.
 *
 * A READ of a regular file can answer with the file's page-cache pages
 * themselves: smbsrv_pages_read() has the file system's splice_read put
 * them into the worker's private pipe (splice_direct_to_actor(), as nfsd
 * does) and takes a reference on each page it collects into a bio_vec
 * array.  The frame then goes out in one sendmsg(MSG_SPLICE_PAGES) over
 * [head fragment, pages] (send.c), after which the references are
 * dropped: TCP took its own.  See Documentation/design.md, "The READ path".
 *
 * The head fragment is page-allocator memory (MSG_SPLICE_PAGES refuses
 * slab memory) laid out for both kinds of frame:
 *
 *   [0, 4)      transport header of an encrypted frame
 *   [4, 56)     TRANSFORM header
 *   [52, 56)    transport header of a plain frame (the same bytes: a frame
 *               is one or the other)
 *   [56, 136)   SMB2 header and READ response fixed part
 */
#ifndef _SMBSRV_SPLICE_H
#define _SMBSRV_SPLICE_H

#include <linux/bvec.h>
#include <linux/fs.h>
#include <linux/types.h>

#define SMBSRV_HEAD_TF		4	/* TRANSFORM header */
#define SMBSRV_HEAD_PLAIN	52	/* transport header of a plain frame */
#define SMBSRV_HEAD_RSP		56	/* SMB2 header + READ fixed part */
#define SMBSRV_HEAD_RSP_MAX	80	/* 64 + 16 */
#define SMBSRV_HEAD_SIZE	(SMBSRV_HEAD_RSP + SMBSRV_HEAD_RSP_MAX)

struct smbsrv_pages {
	u8 *head;		/* the head fragment */
	/*
	 * bv[0] is the frame head (filled in when the frame is sent);
	 * bv[1..nr-1] the payload, one page reference each.
	 */
	struct bio_vec *bv;
	unsigned int nr;
	unsigned int max;
	size_t len;		/* payload bytes */
};

/*
 * Whether @filp can hand out page-cache pages for splicing: not O_DIRECT,
 * not DAX, and its file operations have splice_read.
 */
bool smbsrv_pages_can_splice(struct file *filp);

/*
 * Every byte of [@pos, @pos + @len) (cut at the end of the file) is in
 * up-to-date page-cache folios: reading it will not wait for I/O.
 */
bool smbsrv_pages_resident(struct file *filp, loff_t pos, size_t len);

/*
 * Collect up to @len bytes of @filp at @pos.  Returns the number of bytes
 * collected (0 at the end of the file, fewer than @len at the end of the
 * file or when the file system returned an error after some data) with
 * *pp holding them, or a negative errno with *pp NULL.  Runs with the
 * caller's credentials (rw_verify_area(), the file system's splice_read).
 * Sleeps.
 */
ssize_t smbsrv_pages_read(struct file *filp, loff_t pos, size_t len,
			  struct smbsrv_pages **pp);

/* Drop the page references and free @p (NULL is fine). */
void smbsrv_pages_free(struct smbsrv_pages *p);

/*
 * Pages for a frame's freshly made content (an encrypted READ's
 * ciphertext): @nr_pages order-0 pages in bv[1..]; bv[0] left for the
 * head.  NULL when out of memory.  Freed by smbsrv_pages_free().
 */
struct smbsrv_pages *smbsrv_pages_alloc(unsigned int nr_pages);

/* Page references the module holds now (READ payloads being built or sent). */
s64 smbsrv_pages_inflight(void);

#endif /* _SMBSRV_SPLICE_H */
