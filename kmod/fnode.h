/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: the per-inode state all opens of one file share.
 *
 * All opens (file.h) of one inode hang off one struct smbsrv_fnode, found
 * in a server-wide hash by inode; a named stream's opens hang off an
 * fnode of their own (same inode, the stream's xattr name).  It is where
 * sharing violations are decided (MS-FSA 2.1.5.1.2 share access checks
 * against every other open), where "delete pending" lives, and where the
 * inode's byte-range locks (brl.h) and the LastWriteTime clients see
 * (wtime.h) are kept.  An open holds a reference to its fnode; the last
 * one takes it out of the hash.
 */
#ifndef _SMBSRV_FNODE_H
#define _SMBSRV_FNODE_H

#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/time64.h>
#include <linux/types.h>

#include "brl.h"
#include "cache.h"
#include "wtime.h"

struct dentry;
struct smbsrv_cluster_view;
struct smbsrv_file;

struct smbsrv_fnode {
	refcount_t ref;
	struct hlist_node hash;		/* smbsrv_fnodes, by inode */
	struct inode *inode;		/* the key; pinned by the opens' files */
	spinlock_t lock;		/* opens, delete_pending */
	struct list_head opens;		/* struct smbsrv_file.fnode_node */
	bool delete_pending;		/* removed at the last close */
	/* Who set delete_pending: the removal runs with these rights. */
	const struct cred *delete_cred;
	struct smbsrv_brl_state brl;	/* byte-range locks (brl.c) */
	/* A named stream's: its xattr name (the key with @inode), or NULL. */
	char *stream;
	/*
	 * A stream's: its file was deleted while this stream was open; the
	 * last close of the file's streams removes the file, with these
	 * rights.  New opens of the file or its streams get DELETE_PENDING.
	 */
	const struct cred *base_delete_cred;
	struct mutex stream_mutex;	/* a stream's read-modify-writes */
	struct smbsrv_wtime wt;		/* LastWriteTime (wtime.h), @lock */
	struct smbsrv_fnode_cache cache;	/* oplocks, leases (cache.c) */
	/*
	 * smbsrv's own struct files of the inode open for writing, and
	 * for reading only, until they are released (what they add to
	 * i_writecount and i_readcount): local opens are the rest.
	 */
	atomic_t own_writers;
	atomic_t own_readers;
	/* Cluster mode's view of the file's record (cluster.h), or NULL. */
	struct smbsrv_cluster_view *cview;
	struct rcu_head rcu;
};

/*
 * What the layer above keeps in an fnode (its caching state, cache.c)
 * starts and ends with it: the ops it registers at its init.
 */
struct smbsrv_fnode_ops {
	void (*init)(struct smbsrv_fnode *fn);
	void (*exit)(struct smbsrv_fnode *fn);
};

/* Before any fnode is made, and after the last went (NULL). */
void smbsrv_fnode_set_ops(const struct smbsrv_fnode_ops *ops);

/*
 * The fnode of @inode (@stream: a named stream's xattr name, or NULL for
 * the file itself), made when missing; referenced.  NULL: no memory.
 */
struct smbsrv_fnode *smbsrv_fnode_get(struct inode *inode, const char *stream);
void smbsrv_fnode_put(struct smbsrv_fnode *fn);

/*
 * The fnode of @inode (and named stream @stream, or NULL), referenced, or
 * NULL when it has none (no open); hold another reference.
 */
struct smbsrv_fnode *smbsrv_fnode_find(struct inode *inode, const char *stream);
/*
 * Cluster mode: the fnode with a cluster view of inode number @ino (the
 * same on every node) and @stream, held; NULL if none.  Walks every
 * fnode: for the pushes of other nodes only.
 */
struct smbsrv_fnode *smbsrv_fnode_find_ino(u64 ino, const char *stream);
void smbsrv_fnode_hold(struct smbsrv_fnode *fn);

/*
 * Add the new open @f to the opens of @fn unless it conflicts with them
 * (STATUS_SHARING_VIOLATION) or with the inode's other fnodes, or the
 * file is pending deletion (STATUS_DELETE_PENDING).  The caller takes it
 * off again (under fn->lock) when it closes.
 */
u32 smbsrv_fnode_add(struct smbsrv_fnode *fn, struct smbsrv_file *f);

/*
 * The file of @fn (its last open closing, delete pending) has streams
 * open: they inherit the deletion, to be done with @cred.  Returns
 * whether any did, so the file is not removed yet.
 */
bool smbsrv_fnode_defer_delete(struct smbsrv_fnode *fn,
			       const struct cred *cred);

/*
 * Give the stream of @fn (and all its opens) the xattr name @xname
 * (consumed; the old name is returned through it, kfree() it).  -EBUSY
 * when that stream has opens of its own.
 */
int smbsrv_fnode_rekey(struct smbsrv_fnode *fn, char **xname);

/* Number of opens of the file of @f (this one included). */
u32 smbsrv_file_open_count(struct smbsrv_file *f);

/* Number of opens of @inode (0 when it has none). */
u32 smbsrv_inode_open_count(struct inode *inode);

/*
 * How many struct files smbsrv's opens of @inode hold open for writing,
 * and for reading only (what i_writecount and i_readcount count of them).
 */
void smbsrv_inode_own_opens(struct inode *inode, u32 *writers, u32 *readers);

/*
 * Whether an open of @inode with @access and @share would be a sharing
 * violation with an open there other than @except (which may be NULL).
 */
bool smbsrv_inode_share_conflict(struct inode *inode, u32 access, u32 share,
				 const struct smbsrv_file *except);

/*
 * Whether anything below the directory @dir (not @dir itself) is open:
 * such a directory cannot be renamed (MS-FSA 2.1.5.14.11).
 */
bool smbsrv_file_open_below(struct dentry *dir);

/*
 * Cluster mode: whether anything is open below a directory of inode
 * number @ino (the same on every node), which another node renames.
 */
bool smbsrv_ino_open_below(u64 ino);

#endif /* _SMBSRV_FNODE_H */
