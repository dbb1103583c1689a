// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: page payloads for spliced READ responses (see splice.h).
 */
#include <linux/fs.h>
#include <linux/fsnotify.h>
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/pagevec.h>
#include <linux/percpu.h>
#include <linux/pipe_fs_i.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/splice.h>

#include "splice.h"

/* Page references held, per CPU (a CPU's value may go negative). */
static DEFINE_PER_CPU(long, smbsrv_pages_held);

s64 smbsrv_pages_inflight(void)
{
	s64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(*per_cpu_ptr(&smbsrv_pages_held, cpu));
	return sum;
}

bool smbsrv_pages_can_splice(struct file *filp)
{
	const struct file_operations *fop = filp->f_op;

	if ((filp->f_flags & O_DIRECT) || IS_DAX(filp->f_mapping->host))
		return false;
	if (!(filp->f_mode & FMODE_LSEEK) || !fop->splice_read)
		return false;
	/* A file system that copies into fresh pages has no cache to lend. */
	return fop->splice_read != copy_splice_read;
}

bool smbsrv_pages_resident(struct file *filp, loff_t pos, size_t len)
{
	struct address_space *mapping = filp->f_mapping;
	loff_t size = i_size_read(mapping->host);
	pgoff_t next, last;
	struct folio *folio;
	XA_STATE(xas, &mapping->i_pages, 0);

	if (!len || pos >= size)
		return true;		/* the end of the file: nothing to wait for */
	len = min_t(loff_t, len, size - pos);
	next = pos >> PAGE_SHIFT;
	last = (pos + len - 1) >> PAGE_SHIFT;
	xas_set(&xas, next);
	/*
	 * A look, not a hold: no folio reference is taken (taking and
	 * dropping one per page doubled the probe's cost, to 4% of an
	 * inline 1 MiB READ).  A folio evicted after this look makes the
	 * READ wait for I/O, as it would after a look that held and
	 * dropped references.
	 */
	rcu_read_lock();
	xas_for_each(&xas, folio, last) {
		if (xas_retry(&xas, folio))
			continue;
		/* A gap, or a shadow or swap entry: not in memory. */
		if (xas.xa_index > next || xa_is_value(folio) ||
		    !folio_test_uptodate(folio))
			break;
		next = folio_next_index(folio);
		if (next > last)
			break;
	}
	rcu_read_unlock();
	return next > last;
}

static struct smbsrv_pages *smbsrv_pages_new(unsigned int max)
{
	struct smbsrv_pages *p;

	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return NULL;
	p->bv = kvmalloc_array(max, sizeof(*p->bv), GFP_KERNEL);
	if (!p->bv) {
		kfree(p);
		return NULL;
	}
	p->max = max;
	p->nr = 1;		/* bv[0]: the frame head */
	memset(&p->bv[0], 0, sizeof(p->bv[0]));
	return p;
}

void smbsrv_pages_free(struct smbsrv_pages *p)
{
	unsigned int i;

	if (!p)
		return;
	for (i = 1; i < p->nr; i++)
		put_page(p->bv[i].bv_page);
	this_cpu_sub(smbsrv_pages_held, p->nr - 1);
	if (p->head)
		skb_free_frag(p->head);
	kvfree(p->bv);
	kfree(p);
}

struct smbsrv_pages *smbsrv_pages_alloc(unsigned int nr_pages)
{
	struct smbsrv_pages *p;
	struct page *page;

	p = smbsrv_pages_new(nr_pages + 1);
	if (!p)
		return NULL;
	while (p->nr <= nr_pages) {
		page = alloc_page(GFP_KERNEL);
		if (!page) {
			smbsrv_pages_free(p);
			return NULL;
		}
		bvec_set_page(&p->bv[p->nr++], page, PAGE_SIZE, 0);
		this_cpu_inc(smbsrv_pages_held);
		p->len += PAGE_SIZE;
	}
	return p;
}

/* Room for one more payload entry; the array doubles when full. */
static int smbsrv_pages_room(struct smbsrv_pages *p)
{
	struct bio_vec *bv;

	if (p->nr < p->max)
		return 0;
	bv = kvmalloc_array(p->max * 2, sizeof(*bv), GFP_KERNEL);
	if (!bv)
		return -ENOMEM;
	memcpy(bv, p->bv, p->nr * sizeof(*bv));
	kvfree(p->bv);
	p->bv = bv;
	p->max *= 2;
	return 0;
}

struct smbsrv_collect {
	struct smbsrv_pages *p;
	int err;
};

/*
 * One pipe buffer: reference its page and record it.  The pipe's own
 * reference goes when the buffer is consumed; ours stays until the frame
 * was handed to the socket.
 */
static int smbsrv_pages_actor(struct pipe_inode_info *pipe,
			      struct pipe_buffer *buf, struct splice_desc *sd)
{
	struct smbsrv_collect *c = sd->u.data;
	struct smbsrv_pages *p = c->p;
	struct page *page = nth_page(buf->page, buf->offset >> PAGE_SHIFT);

	c->err = smbsrv_pages_room(p);
	if (c->err)
		return c->err;
	get_page(page);
	this_cpu_inc(smbsrv_pages_held);
	bvec_set_page(&p->bv[p->nr++], page, sd->len,
		      offset_in_page(buf->offset));
	p->len += sd->len;
	return sd->len;
}

static int smbsrv_pages_direct(struct pipe_inode_info *pipe,
			       struct splice_desc *sd)
{
	return __splice_from_pipe(pipe, sd, smbsrv_pages_actor);
}

ssize_t smbsrv_pages_read(struct file *filp, loff_t pos, size_t len,
			  struct smbsrv_pages **pp)
{
	struct smbsrv_collect c = {};
	struct splice_desc sd = {
		.total_len = len,
		.pos = pos,
		.u.data = &c,
	};
	ssize_t n;

	*pp = NULL;
	c.p = smbsrv_pages_new(DIV_ROUND_UP(len, PAGE_SIZE) + 2);
	if (!c.p)
		return -ENOMEM;
	c.p->head = netdev_alloc_frag(SMBSRV_HEAD_SIZE);
	if (!c.p->head) {
		n = -ENOMEM;
		goto fail;
	}
	n = rw_verify_area(READ, filp, &pos, len);
	if (n)
		goto fail;
	n = splice_direct_to_actor(filp, &sd, smbsrv_pages_direct);
	/*
	 * A short result because we could not take a page is not the end
	 * of the file: fail, and the caller copies.
	 */
	if (c.err)
		n = c.err;
	if (n < 0)
		goto fail;
	if (WARN_ON_ONCE(n != c.p->len)) {
		n = -EIO;
		goto fail;
	}
	if (n)
		fsnotify_access(filp);
	*pp = c.p;
	return n;
fail:
	smbsrv_pages_free(c.p);
	return n;
}
