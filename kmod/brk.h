/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: breaks in progress and their deadlines (client caching,
 * cache.h).  A holder being broken - an open's oplock or a lease - is on
 * one server-wide list, in deadline order, until it acknowledges or the
 * 35 s MS-SMB2 gives it run out; then one delayed work expires it
 * through the ops cache.c registers.
 */
#ifndef _SMBSRV_BRK_H
#define _SMBSRV_BRK_H

#include <linux/jiffies.h>
#include <linux/list.h>
#include <linux/types.h>

/* The 35 s MS-SMB2 gives a client to acknowledge a break. */
#define SMBSRV_BREAK_TIMEOUT	(35 * HZ)

enum { SMBSRV_BRK_OPLOCK, SMBSRV_BRK_LEASE };

/* A holder being broken, on the list the timeout work walks. */
struct smbsrv_brk {
	struct list_head node;		/* empty: not breaking */
	unsigned long deadline;
	u8 kind;			/* SMBSRV_BRK_*: an open's oplock, a lease */
};

struct smbsrv_brk_ops {
	/* Under the list's lock: keep @b's holder alive (it is alive now). */
	void (*hold)(struct smbsrv_brk *b);
	/* The break of @b, armed with @deadline, ran out (if still that one). */
	void (*expire)(struct smbsrv_brk *b, unsigned long deadline);
	/* Drop what hold() took. */
	void (*put)(struct smbsrv_brk *b);
};

void smbsrv_brk_init(const struct smbsrv_brk_ops *ops);
/* Every holder is gone by now: no break is in progress. */
void smbsrv_brk_exit(void);

static inline void smbsrv_brk_prep(struct smbsrv_brk *b, u8 kind)
{
	INIT_LIST_HEAD(&b->node);
	b->kind = kind;
}

/* A break starts: its deadline is set, unless it is running already. */
void smbsrv_brk_start(struct smbsrv_brk *b);
/* A break went on with another notification: a new deadline. */
void smbsrv_brk_restart(struct smbsrv_brk *b);
/* Acknowledged, or its holder goes. */
void smbsrv_brk_stop(struct smbsrv_brk *b);

#endif /* _SMBSRV_BRK_H */
