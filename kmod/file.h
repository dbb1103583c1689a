/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: open files (what a CREATE makes and a FileId names).
 *
 * A struct smbsrv_file embeds the session's table entry (struct
 * smbsrv_open: FileId, references, "gone" mark; session.h) and holds the
 * struct file, the granted access, the share access and the CreateOptions
 * of the open.  All opens of one inode hang off one struct smbsrv_fnode
 * (fnode.h), where sharing violations are decided and "delete pending"
 * lives, so that the last close of a file marked for deletion removes it.
 *
 * Life cycle: smbsrv_file_open() (CREATE) checks sharing, registers the
 * open with its fnode and in the session's table; it is found by
 * session, tree and FileId with smbsrv_file_lookup() (handlers call
 * smbsrv_req_file(), smb2/fileid.c) and dropped with smbsrv_file_put();
 * CLOSE, tree disconnect, logoff and teardown end it (smbsrv_open_end()),
 * which takes it off its fnode, performs a pending delete when it was the
 * last open, and releases the struct file synchronously.  The memory goes with
 * the last reference, after an RCU grace period.
 */
#ifndef _SMBSRV_FILE_H
#define _SMBSRV_FILE_H

#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include "cache.h"
#include "fnode.h"
#include "session.h"
#include "wtime.h"

struct smbsrv_dirscan;
struct smbsrv_watch;

/* struct smbsrv_file.flags */
#define SMBSRV_FILE_DIR			0x0001	/* a directory */
#define SMBSRV_FILE_DELETE_ON_CLOSE	0x0002	/* FILE_DELETE_ON_CLOSE */
#define SMBSRV_FILE_REPARSE		0x0004	/* a symlink opened itself */
#define SMBSRV_FILE_STREAM		0x0008	/* a named stream (stream.h) */
#define SMBSRV_FILE_SNAPSHOT		0x0010	/* in a snapshot: read-only (snap.h) */
#define SMBSRV_FILE_POSIX		0x0020	/* a POSIX open (smb2/posix.c) */
#define SMBSRV_FILE_REPLACED		0x0040	/* @replaced is set */
#define SMBSRV_FILE_AFPINFO		0x0080	/* AFP_AfpInfo (afp.h) */
#define SMBSRV_FILE_AFP_NETATALK	0x0100	/* ... kept by netatalk */
#define SMBSRV_FILE_AFPRESOURCE		0x0200	/* AFP_Resource on a fruit share */
#define SMBSRV_FILE_OVERWRITE		0x0400	/* opened to be overwritten */

struct smbsrv_file {
	struct smbsrv_open open;	/* FileId and table entry: first */
	struct file *filp;		/* O_PATH for SMBSRV_FILE_REPARSE */
	/*
	 * What an FSCTL_SET_REPARSE_POINT put in the place of the object
	 * this open names (a symlink or special file), for the POSIX
	 * information the client asks of the open next; set once, before
	 * SMBSRV_FILE_REPLACED is set in @flags (smb2/fsctl.c).
	 */
	struct path replaced;
	struct smbsrv_fnode *fnode;
	struct list_head fnode_node;	/* fnode->opens, under fnode->lock */
	const struct cred *cred;	/* the tree's, for the close path */
	u32 access;			/* granted access mask */
	u32 share_access;		/* FILE_SHARE_* */
	u32 options;			/* CreateOptions */
	u32 flags;			/* SMBSRV_FILE_* */
	char *name;			/* share-relative path at open, UTF-8 */
	/* FilePositionInformation: where the last READ or WRITE ended. */
	u64 position;
	/* QUERY_DIRECTORY's enumeration (smb2/dir.c), made by the first. */
	struct smbsrv_dirscan *scan;
	/* FileFullEaInformation queries: the next EA to return (query.c). */
	u32 ea_next;
	/*
	 * A ChangeTime this open set (times.h), 0 for none: what it later
	 * changes through the open keeps it, as on Windows.
	 */
	u64 change_time;
	struct smbsrv_watch *watch;	/* CHANGE_NOTIFY (smb2/notify.c) */
	/* wtime.h, under fnode->lock: wrote since update @wt_wrote - 1. */
	u32 wt_wrote;
	bool wt_hold;			/* LastWriteTime -1: writes keep it */
	struct smbsrv_open_cache cache;	/* oplock or lease (cache.c) */
	struct smbsrv_durable *durable;	/* a durable handle (durable.c) */
	/*
	 * LockSequenceArray (3.3.5.14): per LockSequenceIndex 1-64 the
	 * number of the last LOCK that succeeded with it, with a valid bit;
	 * allocated by the first LOCK verified, kept across a durable
	 * reconnect (the open is the same).  Entries under fnode->lock.
	 */
	u8 *lock_seq;
	/*
	 * Under fnode->brl.mutex: the byte-range locks this open holds, and
	 * the session they count against (NULL while a durable open waits
	 * for its client).
	 */
	struct smbsrv_session *brl_sess;
	unsigned int nr_brl;
	/* SMBSRV_FILE_AUDITED_WRITE: its first WRITE was audited. */
	unsigned long audit_bits;
};

#define SMBSRV_FILE_AUDITED_WRITE	0

/*
 * LockSequence verification (MS-SMB2 3.3.5.14) of a LOCK request on @f
 * with LockSequence @seq: true when @f is verified (durable, or
 * @every_open: the request came on a 3.x connection that offered
 * multichannel) and the request repeats one that succeeded with the same
 * LockSequenceIndex (1-64) and number, which the caller then answers
 * STATUS_SUCCESS without doing it again.  Otherwise that index is
 * forgotten until smbsrv_file_lock_done() records the request's success.
 * Other opens are not checked.  May sleep.
 */
bool smbsrv_file_lock_replay(struct smbsrv_file *f, u32 seq, bool every_open);
void smbsrv_file_lock_done(struct smbsrv_file *f, u32 seq);

static inline struct smbsrv_file *smbsrv_file_of(struct smbsrv_open *op)
{
	return container_of(op, struct smbsrv_file, open);
}

static inline bool smbsrv_file_is_dir(const struct smbsrv_file *f)
{
	return f->flags & SMBSRV_FILE_DIR;
}

static inline bool smbsrv_file_is_stream(const struct smbsrv_file *f)
{
	return f->flags & SMBSRV_FILE_STREAM;
}

/*
 * Register a new open of @filp (consumed: released on failure too) on
 * @tree: take the fnode of its inode, refuse with STATUS_DELETE_PENDING
 * or STATUS_SHARING_VIOLATION what conflicts with the opens there, insert
 * it into the session's table (STATUS_TOO_MANY_OPENED_FILES at `max open
 * files`).  @name is copied.  @stream (copied) is the xattr name of a
 * named stream (SMBSRV_FILE_STREAM in @flags), whose opens share an fnode
 * of their own; NULL for the file itself.  On success *out holds the caller's
 * reference and the open has its FileId.  A CREATE that truncates or
 * supersedes does so only after this succeeded, so never under another
 * open that does not share write access.  SMBSRV_CACHE_WAIT (cluster
 * mode): another node's holders are breaking; wait on *@wait
 * (referenced) for a change after *@gen and run the CREATE again.
 */
u32 smbsrv_file_open(struct smbsrv_tree *tree, struct file *filp,
		     const char *name, const char *stream, u32 access,
		     u32 share_access, u32 options, u32 flags,
		     struct smbsrv_file **out, struct smbsrv_fnode **wait,
		     u32 *gen);

/*
 * The open file of @sess with FileId {@persistent, @volatile_id},
 * referenced: on @tree, or on any tree of the session when @tree is NULL
 * (a server-side copy's source).  NULL when none (the caller answers
 * STATUS_FILE_CLOSED or what its command wants); only opens made by
 * smbsrv_file_open() are found here.  A handler resolves the FileId of
 * its request with smbsrv_req_file() (smb2/), which calls this.
 */
struct smbsrv_file *smbsrv_file_lookup(struct smbsrv_session *sess,
				       struct smbsrv_tree *tree,
				       u64 persistent, u64 volatile_id);

/*
 * The open file @op is (a referenced open: the reference passes to the
 * result), or NULL when @op is NULL or an open of another kind (a named
 * pipe's; its reference is dropped then).
 */
struct smbsrv_file *smbsrv_file_from_open(struct smbsrv_open *op);

/*
 * The open file of @sess after volatile id *@id, referenced, moving *@id
 * to it; NULL after the last (smbsrvctl opens).
 */
struct smbsrv_file *smbsrv_file_next(struct smbsrv_session *sess,
				     unsigned long *id);

static inline void smbsrv_file_put(struct smbsrv_file *f)
{
	smbsrv_open_put(&f->open);
}

/*
 * Set or clear delete-pending on the file of @f (FileDispositionInformation
 * and FILE_DELETE_ON_CLOSE at close).  The caller checked DELETE access
 * and, for directories, emptiness.  Setting it makes new opens fail with
 * STATUS_DELETE_PENDING; the last close removes the file.  In cluster
 * mode the change is recorded and pushed to the other nodes first:
 * STATUS_SUCCESS, or why it could not be (nothing changed).  May sleep.
 */
u32 smbsrv_file_set_delete_pending(struct smbsrv_file *f, bool pending);
bool smbsrv_file_delete_pending(struct smbsrv_file *f);

#endif /* _SMBSRV_FILE_H */
