/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: client caching — oplocks and leases (Documentation/design.md,
 * "Client caching").
 *
 * The state hangs off the per-inode struct smbsrv_fnode (fnode.h), under
 * its spinlock: each open has an oplock level or uses a lease; each lease
 * (one per ClientGuid and LeaseKey, server-wide) caches exactly one fnode.
 * The rules themselves (what is granted, what a break goes to, what an
 * acknowledgment may say) are plain functions in wire/oplock.c; cache.c
 * applies them, keeps the lease table, times breaks out and parks the
 * CREATEs that wait for them.  Two neighbours do the rest: klease.c makes
 * changes by local processes break the holders (a kernel lease, an
 * fsnotify mark), and the notifications themselves are built and sent by
 * the protocol layer through struct smbsrv_break_ops (smb2/break.c).
 *
 * CREATE calls smbsrv_cache_open_check() before it opens an existing
 * object (breaking what the new open conflicts with: the CREATE then waits
 * and runs again, smbsrv_cache_park() in smb2/oplock.c, parked on a
 * struct smbsrv_cache_wait here), and smbsrv_cache_grant() once its
 * open is registered.  WRITE-like operations call smbsrv_cache_break_write().
 * CLOSE (the file's close op) calls smbsrv_cache_close().
 */
#ifndef _SMBSRV_CACHE_H
#define _SMBSRV_CACHE_H

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "brk.h"
#include "wire/oplock.h"

struct inode;
struct smbsrv_conn;
struct smbsrv_dirmark;
struct smbsrv_fnode;
struct smbsrv_file;
struct smbsrv_lease;
struct smbsrv_tree;

/* Not an NTSTATUS: the CREATE must wait for breaks. */
#define SMBSRV_CACHE_WAIT	0xfffffffeu

/* An open's caching (in struct smbsrv_file), under its fnode's lock. */
struct smbsrv_open_cache {
	struct smb_oplock_sm sm;	/* level, LEASE for a lease */
	struct smbsrv_lease *lease;	/* level LEASE */
	struct list_head lease_node;	/* lease->opens */
	struct smbsrv_brk brk;		/* an oplock break in progress */
	/* Modified through: its close breaks its directory's leases. */
	bool wrote;
};

/* An fnode's (in struct smbsrv_fnode), under its lock. */
struct smbsrv_fnode_cache {
	struct list_head leases;	/* struct smbsrv_lease.fnode_node */
	struct list_head waiters;	/* requests parked for breaks */
	u32 gen;			/* bumped at every change */
	u32 holders;			/* opens with an oplock, leases */
	/*
	 * klease.c's: the kernel lease (FL_DELEG, as nfsd's delegations)
	 * covering the caching granted, so that local processes break it:
	 * changed only under @kmutex; @klocal (under the lock) is set by its
	 * lm_break (1: a reader, 2: a writer is waiting) until it was given
	 * way.
	 */
	struct mutex kmutex;
	struct file *kfile;		/* O_PATH, carrying the lease */
	int ktype;			/* F_UNLCK, F_RDLCK, F_WRLCK */
	u8 klocal;
	struct work_struct kwork;	/* breaks the SMB holders for it */
	/*
	 * A directory's instead (directory leases): an fsnotify mark that
	 * breaks the leases when an entry is created, deleted or renamed
	 * in it; set and dropped under @kmutex.
	 */
	struct smbsrv_dirmark *dmark;
};

/* What a CREATE asks for. */
struct smbsrv_cache_req {
	u32 access;			/* granted access of the open */
	u32 share;
	u32 disposition;
	u8 oplock;			/* RequestedOplockLevel */
	bool lease;			/* a usable RqLs came with LEASE */
	struct smb2_lease_ctx rqls;
	bool dir;
	bool stream;
};

/* What the CREATE response says. */
struct smbsrv_cache_answer {
	u8 oplock;			/* OplockLevel */
	bool lease;			/* answer RqLs */
	struct smb2_lease_ctx rqls;
};

/* A lease break notification, as the protocol layer sends it. */
struct smbsrv_lease_break {
	u8 client_guid[16];
	u8 key[16];
	u8 version;			/* 1 or 2 */
	u16 epoch;			/* v2 only */
	u32 flags;			/* SMB2_NOTIFY_BREAK_LEASE_FLAG_* */
	u32 from;
	u32 to;
};

/*
 * Break delivery, registered by the protocol layer at its init
 * (smb2/break.c): this file decides who is broken to what, under the
 * fnode's lock, and never builds or sends a message itself.
 */
struct smbsrv_break_ops {
	/*
	 * Under @f's fnode lock: queue on @notes the notification of @f's
	 * oplock break to @level.  False when it cannot be sent (@f's
	 * session has no connection, or memory is short): the break then
	 * runs into its timeout.
	 */
	bool (*oplock)(struct smbsrv_file *f, u8 level,
		       struct list_head *notes);
	/*
	 * Under the fnode's lock: queue on @notes a lease break for @b's
	 * client, sent through one of its connections (or @f's session's,
	 * @f being a connected open of the lease).
	 */
	void (*lease)(struct smbsrv_file *f, const struct smbsrv_lease_break *b,
		      struct list_head *notes);
	/* After the lock: send what was queued, from a worker. */
	void (*send)(struct list_head *notes);
	/*
	 * @f, a disconnected durable open (or one whose connection goes),
	 * was asked to answer a break it cannot answer: it ends (MS-SMB2
	 * 3.3.4.6, 3.3.4.7).  Under the fnode's lock.
	 */
	void (*unanswerable)(struct smbsrv_file *f);
};

int smbsrv_cache_init(void);
void smbsrv_cache_exit(void);
/* The protocol layer's break delivery, or NULL when it goes. */
void smbsrv_cache_set_break_ops(const struct smbsrv_break_ops *ops);

void smbsrv_open_cache_init(struct smbsrv_open_cache *c);

/*
 * Before an existing object is opened: break the caching the open
 * conflicts with.  STATUS_SUCCESS: go on; STATUS_SHARING_VIOLATION;
 * SMBSRV_CACHE_WAIT: wait on *wait (referenced) for a change after *gen
 * (smbsrv_cache_park()).  @retry: the CREATE ran before and waited.
 */
u32 smbsrv_cache_open_check(struct smbsrv_tree *tree, struct inode *inode,
			    const char *stream, const struct smbsrv_cache_req *r,
			    bool retry, struct smbsrv_fnode **wait, u32 *gen);

/*
 * The open @f is registered: grant what the rules allow and fill in @a.
 * STATUS_INVALID_PARAMETER: the lease key caches another file.
 */
u32 smbsrv_cache_grant(struct smbsrv_file *f, const struct smbsrv_cache_req *r,
		       struct smbsrv_cache_answer *a);

/* @f closes: its oplock or its share of a lease goes. */
void smbsrv_cache_close(struct smbsrv_file *f);

/*
 * A write, size change or byte-range lock through @f: every other holder
 * caching reads is broken to none (nobody waits for that).
 */
void smbsrv_cache_break_write(struct smbsrv_file *f);

/*
 * The file of @f is being renamed or deleted: other leases caching handles
 * lose them, so their clients close what they keep open.
 */
void smbsrv_cache_break_handles(struct smbsrv_file *f);

/*
 * Waiting for the caching of an fnode to change (a CREATE that ran into
 * SMBSRV_CACHE_WAIT: smbsrv_cache_park() in smb2/oplock.c, which owns the
 * request).  A struct smbsrv_cache_wait is parked on the fnode; when its
 * caching changes, @work runs (in a worker) and owns it again.
 */
struct smbsrv_cache_wait {
	struct list_head node;		/* fn->cache.waiters */
	struct smbsrv_fnode *fn;	/* referenced while parked */
	bool parked;			/* under the wait lock */
	bool cancelled;			/* ... CANCEL came while running */
	struct work_struct work;	/* runs it again */
};

void smbsrv_cache_wait_init(struct smbsrv_cache_wait *w, work_func_t run);
/*
 * Park @w on @fn until its caching changes after @gen: STATUS_PENDING
 * (parked, or changed already and @work scheduled), or STATUS_CANCELLED
 * when smbsrv_cache_wait_cancel() came first.  Consumes @fn's reference
 * (the parked @w holds it).
 */
u32 smbsrv_cache_wait_park(struct smbsrv_cache_wait *w,
			   struct smbsrv_fnode *fn, u32 gen);
/*
 * Take @w off its fnode: true when it was parked (the caller completes
 * it), false when its @work runs now (it will not park again).
 */
bool smbsrv_cache_wait_cancel(struct smbsrv_cache_wait *w);
/* @w goes: the fnode reference it may hold goes with it. */
void smbsrv_cache_wait_release(struct smbsrv_cache_wait *w);

/*
 * cache.c's side: under @fn's lock, after a change, take its parked
 * requests onto @woken; after the lock, run them again.
 */
void smbsrv_cache_wait_take(struct smbsrv_fnode *fn, struct list_head *woken);
void smbsrv_cache_wait_run(struct list_head *woken);

/* OPLOCK_BREAK acknowledgments (smb2/oplock.c). */
u32 smbsrv_cache_oplock_ack(struct smbsrv_file *f, u8 level, u8 *granted);
u32 smbsrv_cache_lease_ack(struct smbsrv_conn *conn, const u8 key[16],
			   u32 state);

/* What @f caches now, as a CREATE response says it (reconnect, replay). */
void smbsrv_cache_current(struct smbsrv_file *f, struct smbsrv_cache_answer *a);

/* For smbsrvctl: the caching of @f, as an oplock level and lease state. */
void smbsrv_cache_describe(struct smbsrv_file *f, u8 *oplock, u32 *lease,
			   u8 key[16], u16 *epoch, bool *breaking);

#endif /* _SMBSRV_CACHE_H */
