/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: previous versions of a share (vfs objects = shadow_copy2).
 *
 * A share's snapshots are the directories of its snapshot directory whose
 * names its `shadow:format` makes of a time (wire/snap.h); the daemon
 * resolved where that directory is and where the share root lies inside
 * each snapshot (snap-dir, snap-subdir).  A CREATE that asks for the
 * snapshot of a time works on a view of its tree: the same share, session
 * and credentials, rooted at the share root inside that snapshot, so the
 * confined lookups of vfs.c keep a client inside that snapshot of the
 * share exactly as they keep it inside the share.  The snapshot directory
 * and the names in it belong to whoever makes snapshots; only names that
 * parse as times are listed, and from the snapshot directory down to the
 * share root inside a snapshot the walk stays beneath the snapshot
 * directory (LOOKUP_BENEATH).
 */
#ifndef _SMBSRV_SNAP_H
#define _SMBSRV_SNAP_H

#include <linux/types.h>

struct smbsrv_tree;

/* Most snapshots a share lists; more are left out (and logged). */
#define SMBSRV_SNAP_MAX		4096

/* Whether @tree's share has previous versions. */
bool smbsrv_snap_enabled(const struct smbsrv_tree *tree);

/*
 * The times of the snapshots of @tree's share (UTC seconds), sorted as
 * `shadow:sort` says, read from the snapshot directory with the tree's
 * credentials: *@times (kvfree() it; NULL when none) and *@n.  Returns 0
 * or -errno (-ENOENT: no snapshot directory).
 */
int smbsrv_snap_list(const struct smbsrv_tree *tree, u64 **times, u32 *n);

/*
 * The view of @tree in its snapshot of time @t (referenced: put it with
 * smbsrv_tree_put()): not in the session's table, root the share root in
 * that snapshot, marked `snapshot`.  Returns 0, -ENOENT when there is no
 * such snapshot (or the share root is not in it), or another -errno.
 */
int smbsrv_snap_view(struct smbsrv_tree *tree, u64 t,
		     struct smbsrv_tree **view);

#endif /* _SMBSRV_SNAP_H */
