/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: the byte-range lock table (MS-FSA 2.1.5.8 - 2.1.5.9).
 *
 * Every inode's locks live in its fnode (fnode.h): one list of the locks
 * all SMB opens hold, with Windows semantics (mandatory against the other
 * opens' READ, WRITE and LOCK requests, shared/exclusive, stacking, zero
 * length), and one list of the blocking lock requests waiting for a range
 * to free up.  Each open's locks are mirrored into POSIX locks on its own
 * struct file (vfs_lock_file(), the open as lock owner) so that local
 * processes see them and are seen: a range a local process holds is a
 * conflict too.
 *
 * The LOCK request itself (going async, cancelling, the response) is
 * smb2/lock.c's: a waiting request is a struct smbsrv_brl_waiter it
 * embeds, and the table calls back through the waiter's ops.
 */
#ifndef _SMBSRV_BRL_H
#define _SMBSRV_BRL_H

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "wire/lock.h"

struct smbsrv_file;
struct smbsrv_session;
struct smbsrv_brl_waiter;

/*
 * The byte-range locks one session may hold over all its opens; one more
 * is refused with STATUS_INSUFFICIENT_RESOURCES.  Each costs a lock here
 * and its POSIX mirror (about 0.3 KiB), and the conflict checks walk a
 * file's locks.
 */
#define SMBSRV_BRL_MAX_PER_SESSION	16384

struct smbsrv_brl_cluster;

/* Embedded in struct smbsrv_fnode. */
struct smbsrv_brl_state {
	struct mutex mutex;		/* everything below, and the waiters */
	struct list_head locks;		/* struct smbsrv_brl */
	struct list_head waiters;	/* struct smbsrv_brl_wait, FIFO */
	unsigned int nr_locks;		/* written under mutex */
	/*
	 * Cluster mode: the other nodes' locks of the file (made at the
	 * first one, never in single-node mode).
	 */
	struct smbsrv_brl_cluster *cluster;
};

void smbsrv_brl_init(struct smbsrv_brl_state *s);
/* The fnode goes: what cluster mode kept goes with it. */
void smbsrv_brl_exit(struct smbsrv_brl_state *s);

/*
 * Cluster mode (cluster-view): @node's locks of the file are now the
 * @n entries of @locks (wire/cluster.h, checked), as of the record's
 * @version; an older version than the one held is ignored.  Never
 * sleeps on the table's mutex (the request that changed the locks on
 * @node may be waiting for this one's answer); the requests waiting here
 * look again from a work item.  0 or -ENOMEM.
 */
int smbsrv_brl_remote(struct smbsrv_brl_state *s, const char *node,
		      u64 version, const void *locks, size_t n);

struct smbsrv_brl_waiter_ops {
	/*
	 * Under the table's mutex: the lock @w waits for was just taken for
	 * it.  Get ready to answer (build the response); false: not now
	 * (the lock goes back and @w keeps waiting).
	 */
	bool (*grant)(struct smbsrv_brl_waiter *w);
	/*
	 * Without the mutex: @w left the table for good with @status,
	 * STATUS_SUCCESS (granted) or STATUS_RANGE_NOT_LOCKED (its open
	 * closed).  May free @w.
	 */
	void (*done)(struct smbsrv_brl_waiter *w, u32 status);
};

/* A lock request waiting for its range (smbsrv_brl_waiter_init()). */
struct smbsrv_brl_waiter {
	struct list_head node;		/* state->waiters, while waiting */
	struct smbsrv_file *f;		/* the open asking (its owner's ref) */
	struct smb2_lock_elem e;
	bool exclusive;
	bool waiting;			/* on the list (under the mutex) */
	struct delayed_work retry;	/* while a local POSIX lock blocks it */
	const struct smbsrv_brl_waiter_ops *ops;
};

/*
 * Called under the table's mutex when the single lock @e of a request
 * that may wait conflicts: STATUS_PENDING with *@w set up
 * (smbsrv_brl_waiter_init()) makes it wait; any other status fails the
 * request with it.
 */
typedef u32 (*smbsrv_brl_wait_fn)(void *arg, struct smbsrv_file *f,
				  const struct smb2_lock_elem *e,
				  bool exclusive, struct smbsrv_brl_waiter **w);

void smbsrv_brl_waiter_init(struct smbsrv_brl_waiter *w,
			    struct smbsrv_file *f,
			    const struct smb2_lock_elem *e, bool exclusive,
			    const struct smbsrv_brl_waiter_ops *ops);

/*
 * @f's locks count against @sess from now on (NULL: none, a durable open
 * without its client); they stop counting against the session before.
 */
void smbsrv_brl_account(struct smbsrv_file *f, struct smbsrv_session *sess);

/*
 * 3.3.5.14.2: take the locks of @r for @f, all or none.  Several locks
 * must all fail immediately (else STATUS_INVALID_PARAMETER); one that
 * conflicts is STATUS_LOCK_NOT_GRANTED, or, when it may wait, @wait
 * decides (STATUS_PENDING: it waits until granted, its open closes or it
 * is cancelled).  Past the session's SMBSRV_BRL_MAX_PER_SESSION:
 * STATUS_INSUFFICIENT_RESOURCES (a lock granted after waiting counts but
 * is never refused: a connection's waiting requests are bounded already).
 */
u32 smbsrv_brl_lock(struct smbsrv_file *f, const struct smb2_lock_req *r,
		    smbsrv_brl_wait_fn wait, void *arg);

/*
 * 3.3.5.14.1: release the locks of @r in order; STATUS_RANGE_NOT_LOCKED
 * at the first that @f does not hold (those before stay released).
 */
u32 smbsrv_brl_unlock(struct smbsrv_file *f, const struct smb2_lock_req *r);

/*
 * Take @w off the waiters (CANCEL): true when it was still waiting, and
 * the caller answers it; false when it was granted or ended meanwhile.
 */
bool smbsrv_brl_wait_cancel(struct smbsrv_brl_waiter *w);

/* @w goes (after its answer, never under the mutex): stop its retries. */
void smbsrv_brl_waiter_release(struct smbsrv_brl_waiter *w);

/*
 * May @f read (@write false) or write @len bytes at @offset?  STATUS_
 * SUCCESS, or STATUS_FILE_LOCK_CONFLICT when another open's lock (or a
 * shared lock, for a write) covers part of the range.
 */
u32 smbsrv_brl_check_io(struct smbsrv_file *f, u64 offset, u64 len,
			bool write);

/*
 * The open @f is being closed: its locks go (and with them its POSIX
 * locks), its waiting requests end with STATUS_RANGE_NOT_LOCKED, and
 * requests of other opens waiting on them are granted when they can.
 */
void smbsrv_brl_close(struct smbsrv_file *f);

#endif /* _SMBSRV_BRL_H */
