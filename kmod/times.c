// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: ChangeTimes clients set (times.h).
 */
#include <linux/hashtable.h>
#include <linux/list.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "times.h"

struct smbsrv_time_set {
	struct hlist_node hash;
	struct list_head lru;
	struct super_block *sb;
	unsigned long ino;
	u32 gen;
	struct timespec64 ctime;	/* the inode's, after the set */
	u64 change_time;
};

static DEFINE_HASHTABLE(smbsrv_times, 8);
static LIST_HEAD(smbsrv_times_lru);
static unsigned int smbsrv_times_nr;
static DEFINE_SPINLOCK(smbsrv_times_lock);

static struct smbsrv_time_set *smbsrv_times_find(struct inode *inode)
{
	struct smbsrv_time_set *t;

	hash_for_each_possible(smbsrv_times, t, hash, inode->i_ino)
		if (t->sb == inode->i_sb && t->ino == inode->i_ino &&
		    t->gen == inode->i_generation)
			return t;
	return NULL;
}

void smbsrv_times_set_change(struct inode *inode, u64 nt)
{
	struct smbsrv_time_set *t, *fresh, *old = NULL;

	fresh = kmalloc(sizeof(*fresh), GFP_KERNEL);
	spin_lock(&smbsrv_times_lock);
	t = smbsrv_times_find(inode);
	if (!t) {
		t = fresh;
		fresh = NULL;
		if (!t)
			goto out;	/* out of memory: the real ctime shows */
		t->sb = inode->i_sb;
		t->ino = inode->i_ino;
		t->gen = inode->i_generation;
		hash_add(smbsrv_times, &t->hash, t->ino);
		list_add(&t->lru, &smbsrv_times_lru);
		if (++smbsrv_times_nr > SMBSRV_TIMES_MAX) {
			old = list_last_entry(&smbsrv_times_lru,
					      struct smbsrv_time_set, lru);
			hash_del(&old->hash);
			list_del(&old->lru);
			smbsrv_times_nr--;
		}
	} else {
		list_move(&t->lru, &smbsrv_times_lru);
	}
	t->ctime = inode_get_ctime(inode);
	t->change_time = nt;
out:
	spin_unlock(&smbsrv_times_lock);
	kfree(fresh);
	kfree(old);
}

u64 smbsrv_times_change(struct inode *inode, struct timespec64 ctime)
{
	struct smbsrv_time_set *t;
	u64 nt = 0;

	if (!READ_ONCE(smbsrv_times_nr))
		return 0;
	spin_lock(&smbsrv_times_lock);
	t = smbsrv_times_find(inode);
	if (t && timespec64_equal(&t->ctime, &ctime))
		nt = t->change_time;
	spin_unlock(&smbsrv_times_lock);
	return nt;
}

void smbsrv_times_exit(void)
{
	struct smbsrv_time_set *t, *n;

	list_for_each_entry_safe(t, n, &smbsrv_times_lru, lru)
		kfree(t);
}
