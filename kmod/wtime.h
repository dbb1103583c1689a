/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: LastWriteTime as Windows keeps it (smbtorture's
 * smb2.timestamps, Windows Server 2016).
 *
 * Linux sets a file's mtime at every write; Windows does not:
 *   - the first write through a handle leaves LastWriteTime as it was
 *     and schedules an update two seconds later; further writes through
 *     that handle update nothing until it closes;
 *   - FLUSH, SET_INFO end of file or allocation, and any SET_INFO of
 *     basic information make a pending update happen at once;
 *   - closing a handle that wrote since the last update sets
 *     LastWriteTime to the time of the close;
 *   - a LastWriteTime a client sets stays, whatever is written, until
 *     the last handle closes (then it is the file's mtime again);
 *     -1 (MS-FSA 2.1.5.14.2) stops the handle's writes from moving it,
 *     -2 lets them again.
 * The time reported is kept per file (struct smbsrv_wtime in the fnode,
 * under its lock) while the file is open, and reported instead of the
 * mtime; an update is to the time it happens.  What must last is
 * written to the inode: the close's time with the closing user's rights,
 * a set time with the setter's, an update's time at the last close (a
 * user who may not set times, not the owner, leaves the mtime of the
 * last write, up to two seconds earlier).  Streams leave their file's
 * LastWriteTime alone.
 */
#ifndef _SMBSRV_WTIME_H
#define _SMBSRV_WTIME_H

#include <linux/fs.h>
#include <linux/types.h>

struct smbsrv_file;
struct smbsrv_fnode;

/* Seconds from a handle's first write to the update of LastWriteTime. */
#define SMBSRV_WTIME_DELAY	2

struct smbsrv_wtime {
	u64 shown;		/* NT time reported; 0: the inode's mtime */
	unsigned long due;	/* jiffies of the pending update; 0: none */
	u32 gen;		/* updates made so far */
	bool set;		/* @shown is a time a client set */
	const struct cred *cred;	/* whose rights write @shown back */
};

/* After @f wrote data; @before is the inode's mtime before the write. */
void smbsrv_wtime_write(struct smbsrv_file *f, struct timespec64 before);

/* FLUSH, SET_INFO basic/end of file/allocation: a pending update now. */
void smbsrv_wtime_flush(struct smbsrv_file *f);

/* SET_INFO basic with LastWriteTime @nt: 0 leaves it, -1/-2 hold it. */
void smbsrv_wtime_set(struct smbsrv_file *f, u64 nt);

/*
 * CLOSE of @f, after it left its fnode's opens (@last: it was the last:
 * nothing is kept after it, the fnode holds no time and no reference).
 * @gone: the file is being removed, nothing is written to it.
 */
void smbsrv_wtime_close(struct smbsrv_file *f, bool last, bool gone);

/* LastWriteTime of @inode whose mtime is @mtime (NT), as reported. */
u64 smbsrv_wtime_report(struct inode *inode, u64 mtime);

#endif /* _SMBSRV_WTIME_H */
