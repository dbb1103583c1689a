/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: byte-range locks (MS-SMB2 3.3.5.14, MS-FSA 2.1.5.8 - 2.1.5.9).
 *
 * Every inode's locks live in its fnode (file.h): one list of the locks
 * all SMB opens hold, with Windows semantics (mandatory against the other
 * opens' READ, WRITE and LOCK requests, shared/exclusive, stacking, zero
 * length), and one list of the blocking LOCK requests waiting for a range
 * to free up.  Each open's locks are mirrored into POSIX locks on its own
 * struct file (vfs_lock_file(), the open as lock owner) so that local
 * processes see them and are seen: a range a local process holds is a
 * conflict too.
 */
#ifndef _SMBSRV_BRL_H
#define _SMBSRV_BRL_H

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/types.h>

struct smbsrv_file;
struct smbsrv_req;
struct smb2_lock_req;

/* Embedded in struct smbsrv_fnode. */
struct smbsrv_brl_state {
	struct mutex mutex;		/* everything below, and the waiters */
	struct list_head locks;		/* struct smbsrv_brl */
	struct list_head waiters;	/* struct smbsrv_brl_wait, FIFO */
	unsigned int nr_locks;		/* written under mutex */
};

void smbsrv_brl_init(struct smbsrv_brl_state *s);

/*
 * Carry out a decoded LOCK request on @f: locks (all or none, STATUS_
 * LOCK_NOT_GRANTED when one conflicts and the request must not wait) or
 * unlocks (in order, STATUS_RANGE_NOT_LOCKED at the first that is not
 * held).  A single blocking lock that conflicts goes async and waits
 * (STATUS_PENDING) until it is granted, its open is closed
 * (STATUS_RANGE_NOT_LOCKED) or it is cancelled (STATUS_CANCELLED).
 * Builds the response body on success.
 */
u32 smbsrv_brl_request(struct smbsrv_req *req, struct smbsrv_file *f,
		       const struct smb2_lock_req *r);

/*
 * May @f read (@write false) or write @len bytes at @offset?  STATUS_
 * SUCCESS, or STATUS_FILE_LOCK_CONFLICT when another open's lock (or a
 * shared lock, for a write) covers part of the range.
 */
u32 smbsrv_brl_check_io(struct smbsrv_file *f, u64 offset, u64 len,
			bool write);

/*
 * The open @f is being closed: its locks go (and with them its POSIX
 * locks), its waiting requests complete with STATUS_RANGE_NOT_LOCKED,
 * and requests of other opens waiting on them are granted when they can.
 */
void smbsrv_brl_close(struct smbsrv_file *f);

#endif /* _SMBSRV_BRL_H */
