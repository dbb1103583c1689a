// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: LastWriteTime as Windows keeps it (wtime.h).
 */
#include <linux/atomic.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/mount.h>
#include <linux/spinlock.h>
#include <linux/timekeeping.h>

#include "file.h"
#include "fnode.h"
#include "wire/dosattr.h"
#include "wire/info.h"
#include "wtime.h"

/* Files whose LastWriteTime is kept here: none, no lookup at all. */
static atomic_t smbsrv_wtime_files = ATOMIC_INIT(0);

static u64 smbsrv_wtime_nt(struct timespec64 ts)
{
	return smb_nttime(ts.tv_sec, (u32)ts.tv_nsec);
}

static u64 smbsrv_wtime_mtime(struct smbsrv_fnode *fn)
{
	return smbsrv_wtime_nt(inode_get_mtime(fn->inode));
}

/* Under fn->lock: start or stop keeping @wt. */
static void smbsrv_wtime_keep(struct smbsrv_wtime *wt, u64 shown)
{
	if (!wt->shown && shown)
		atomic_inc(&smbsrv_wtime_files);
	else if (wt->shown && !shown)
		atomic_dec(&smbsrv_wtime_files);
	wt->shown = shown;
}

/* Under fn->lock: a pending update happens (now, or when it was due). */
static void smbsrv_wtime_update(struct smbsrv_fnode *fn, bool now)
{
	struct smbsrv_wtime *wt = &fn->wt;
	struct timespec64 ts;

	if (!wt->due || wt->set)
		return;
	if (!now && time_before(jiffies, wt->due))
		return;
	/* Windows' update is to the time it happens (written back last). */
	ktime_get_real_ts64(&ts);
	smbsrv_wtime_keep(wt, smbsrv_wtime_nt(ts));
	wt->due = 0;
	wt->gen++;
}

void smbsrv_wtime_write(struct smbsrv_file *f, struct timespec64 before)
{
	struct smbsrv_fnode *fn = f->fnode;
	struct smbsrv_wtime *wt = &fn->wt;

	if (fn->stream)
		return;
	spin_lock(&fn->lock);
	smbsrv_wtime_update(fn, false);
	if (!wt->shown) {
		/* The first write: as it was, for now. */
		smbsrv_wtime_keep(wt, smbsrv_wtime_nt(before));
		if (!f->wt_hold)
			wt->due = jiffies + SMBSRV_WTIME_DELAY * HZ ?: 1;
	}
	if (!f->wt_hold && !wt->set)
		f->wt_wrote = wt->gen + 1;
	spin_unlock(&fn->lock);
}

void smbsrv_wtime_flush(struct smbsrv_file *f)
{
	struct smbsrv_fnode *fn = f->fnode;

	if (fn->stream)
		return;
	spin_lock(&fn->lock);
	smbsrv_wtime_update(fn, true);
	spin_unlock(&fn->lock);
}

void smbsrv_wtime_set(struct smbsrv_file *f, u64 nt)
{
	struct smbsrv_fnode *fn = f->fnode;
	struct smbsrv_wtime *wt = &fn->wt;
	const struct cred *old = NULL;

	/* A directory's LastWriteTime is its mtime, set as it is. */
	if (fn->stream || !nt ||
	    (f->flags & (SMBSRV_FILE_DIR | SMBSRV_FILE_REPARSE)))
		return;
	spin_lock(&fn->lock);
	if (nt == (u64)-1 || nt == (u64)-2) {
		/* Held: this handle's writes leave the time as it is now. */
		f->wt_hold = nt == (u64)-1;
		if (f->wt_hold && !wt->shown)
			smbsrv_wtime_keep(wt, smbsrv_wtime_mtime(fn));
	} else {
		smbsrv_wtime_keep(wt, nt);
		wt->set = true;
		wt->due = 0;
		old = wt->cred;
		wt->cred = get_cred(current_cred());
	}
	spin_unlock(&fn->lock);
	if (old)
		put_cred(old);
}

/* Write @mtime (NT, or 0 for now) to the inode of @f, with @cred. */
static void smbsrv_wtime_apply(struct smbsrv_file *f, u64 mtime,
			       const struct cred *cred)
{
	const struct path *path = &f->filp->f_path;
	struct inode *inode = d_inode(path->dentry);
	struct iattr ia = { .ia_valid = ATTR_MTIME | ATTR_CTIME };
	const struct cred *old;
	long long sec;
	u32 nsec;
	int err;

	if (mtime) {
		if (smbsrv_wtime_nt(inode_get_mtime(inode)) == mtime)
			return;
		smb_nttime_to_unix(mtime, &sec, &nsec);
		ia.ia_mtime.tv_sec = sec;
		ia.ia_mtime.tv_nsec = nsec;
		ia.ia_valid |= ATTR_MTIME_SET;
	}
	old = override_creds(cred);
	err = mnt_want_write(path->mnt);
	if (!err) {
		inode_lock(inode);
		err = notify_change(mnt_idmap(path->mnt), path->dentry, &ia,
				    NULL);
		inode_unlock(inode);
		mnt_drop_write(path->mnt);
	}
	revert_creds(old);
	if (err)
		pr_debug("smbsrv: LastWriteTime of %s: error %d\n", f->name,
			 err);
}

void smbsrv_wtime_close(struct smbsrv_file *f, bool last, bool gone)
{
	struct smbsrv_fnode *fn = f->fnode;
	struct smbsrv_wtime *wt = &fn->wt;
	const struct cred *cred = NULL;
	bool touch;
	u64 keep = 0;

	if (fn->stream || (f->flags & (SMBSRV_FILE_DIR | SMBSRV_FILE_REPARSE)))
		return;
	spin_lock(&fn->lock);
	smbsrv_wtime_update(fn, false);
	/* Wrote since the last update: LastWriteTime is the close's. */
	touch = f->wt_wrote && f->wt_wrote == wt->gen + 1 && !wt->set;
	if (touch) {
		wt->due = 0;
		wt->gen++;
	}
	if (last) {
		/* What must last goes to the inode; nothing is kept. */
		if (wt->set || (wt->shown && !touch && !wt->due))
			keep = wt->shown;
		cred = wt->cred;
		wt->cred = NULL;
		wt->set = false;
		wt->due = 0;
		smbsrv_wtime_keep(wt, 0);
	}
	spin_unlock(&fn->lock);
	if (touch && !gone)
		smbsrv_wtime_apply(f, 0, f->cred);
	if (keep && !gone)
		smbsrv_wtime_apply(f, keep, cred ?: f->cred);
	if (touch && !last) {
		spin_lock(&fn->lock);
		if (wt->shown && !wt->set)
			smbsrv_wtime_keep(wt, smbsrv_wtime_mtime(fn));
		spin_unlock(&fn->lock);
	}
	if (cred)
		put_cred(cred);
}

u64 smbsrv_wtime_report(struct inode *inode, u64 mtime)
{
	struct smbsrv_fnode *fn;
	u64 nt = mtime;

	if (!atomic_read(&smbsrv_wtime_files))
		return mtime;
	fn = smbsrv_fnode_find(inode, NULL);
	if (!fn)
		return mtime;
	spin_lock(&fn->lock);
	smbsrv_wtime_update(fn, false);
	if (fn->wt.shown)
		nt = fn->wt.shown;
	spin_unlock(&fn->lock);
	smbsrv_fnode_put(fn);
	return nt;
}
