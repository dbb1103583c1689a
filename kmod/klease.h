/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: changes made on the server itself break SMB caching
 * (Documentation/design.md, "Client caching").
 *
 * Every regular file whose SMB holders cache reads or writes carries a
 * kernel lease of the same kind (FL_DELEG, as nfsd's delegations): a
 * local process (or nfsd, or another server) opening, truncating,
 * renaming, linking, unlinking or changing the file breaks it, the break
 * reaches the SMB holders, and the local operation waits until they
 * answered and the lease was lowered.  A directory whose leases cache
 * its listing carries an fsnotify mark instead: an entry created,
 * deleted or renamed in it breaks those leases, after the change.
 *
 * cache.c calls down into this file (raise before it grants, sync after
 * the holders' caching went down); this file reaches cache.c back only
 * through the ops it registered (smbsrv_klease_init()).  The state lives
 * in struct smbsrv_fnode_cache (cache.h), under its kmutex.
 */
#ifndef _SMBSRV_KLEASE_H
#define _SMBSRV_KLEASE_H

#include <linux/list.h>
#include <linux/types.h>

struct path;
struct smbsrv_cache_req;
struct smbsrv_fnode;
struct smbsrv_fnode_cache;
struct task_struct;

struct smbsrv_klease_ops {
	/*
	 * The kernel lease type (F_UNLCK, F_RDLCK, F_WRLCK) the SMB holders
	 * of @fn need covered; takes its lock.
	 */
	int (*want)(struct smbsrv_fnode *fn);
	/*
	 * A local process wants @fn: break its SMB holders (for a writer
	 * to none, for a reader out of write caching).
	 */
	void (*local_break)(struct smbsrv_fnode *fn, bool writer);
	/*
	 * An entry of directory @fn was created, deleted or renamed: break
	 * its leases, but the one of @guid and @key (NULL: none).
	 */
	void (*dir_changed)(struct smbsrv_fnode *fn, const u8 *guid,
			    const u8 *key);
};

int smbsrv_klease_init(const struct smbsrv_klease_ops *ops);
void smbsrv_klease_exit(void);

/* An fnode's part, at its start and at its end. */
void smbsrv_klease_fnode_init(struct smbsrv_fnode_cache *c);
void smbsrv_klease_fnode_exit(struct smbsrv_fnode_cache *c);

/*
 * Before granting caching that needs @type (F_RDLCK, F_WRLCK) on @fn
 * (opened at @path): have the kernel lease (or, for a directory, the
 * mark) cover it.  Returns what is covered now, possibly less: a local
 * break pending, local opens, another lease holder such as nfsd.
 */
int smbsrv_klease_raise(struct smbsrv_fnode *fn, const struct path *path,
			int type);
/* The holders' caching went down: lower the lease (drop the mark). */
void smbsrv_klease_sync(struct smbsrv_fnode *fn);

/*
 * Around a change smbsrv makes to a directory's entries for a CREATE
 * whose v2 lease names a ParentLeaseKey: the same client's lease of that
 * key on the directory is not broken by it (the client knows).
 */
struct smbsrv_dir_actor {
	struct list_head node;
	struct task_struct *task;	/* NULL: no parent key, not listed */
	u8 client_guid[16];
	u8 parent_key[16];
};

void smbsrv_dir_actor_begin(struct smbsrv_dir_actor *a, const u8 *guid,
			    const struct smbsrv_cache_req *r);
void smbsrv_dir_actor_end(struct smbsrv_dir_actor *a);

#endif /* _SMBSRV_KLEASE_H */
