// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: previous versions of a share (see snap.h).
 */
#include <linux/bitmap.h>
#include <linux/cred.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/namei.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <uapi/linux/smbsrv.h>

#include "readdir.h"
#include "session.h"
#include "snap.h"
#include "upcall.h"
#include "vfs.h"
#include "wire/snap.h"

bool smbsrv_snap_enabled(const struct smbsrv_tree *tree)
{
	const struct smbsrv_share_info *s = tree->share;

	return (tree->share_flags & SMBSRV_SHARE_FLAGS_SHADOW_COPY) &&
	       s->snap_dir && s->snap_format;
}

/* The snapshot directory, with the credentials in force. */
static int smbsrv_snap_dir(const struct smbsrv_tree *tree, struct path *dir)
{
	return kern_path(tree->share->snap_dir,
			 LOOKUP_FOLLOW | LOOKUP_DIRECTORY | LOOKUP_AUTOMOUNT,
			 dir);
}

/* ---- listing ------------------------------------------------------------ */

struct smbsrv_snap_scan {
	struct dir_context ctx;
	const struct smbsrv_share_info *share;
	u64 *times;
	unsigned long *links;	/* bit per entry: not a plain directory */
	u32 n;
	bool full;
};

static bool smbsrv_snap_actor(struct dir_context *ctx, const char *name,
			      int len, loff_t off, u64 ino, unsigned int type)
{
	struct smbsrv_snap_scan *s =
		container_of(ctx, struct smbsrv_snap_scan, ctx);
	u64 t;

	/* A snapshot is a directory, or a link to one (snapper's numbers). */
	if (type != DT_DIR && type != DT_LNK && type != DT_UNKNOWN)
		return true;
	if (len <= 0 ||
	    smb_snap_parse_in(s->share->snap_format, s->share->snap_zone,
			      s->share->snap_zone_n, name, (u32)len, &t))
		return true;
	if (s->n == SMBSRV_SNAP_MAX) {
		s->full = true;
		return false;
	}
	if (type != DT_DIR)
		__set_bit(s->n, s->links);
	s->times[s->n++] = t;
	return true;
}

static int smbsrv_snap_root(const struct smbsrv_tree *tree, u64 t,
			    struct path *root);

/*
 * A link (or what the file system would not type) is a snapshot only if
 * it leads to the share root inside the snapshot directory, as an open of
 * it must (snapper's numbered snapshots behind a directory of links).
 * Checked after the directory was read, not under its lock.
 */
static void smbsrv_snap_check_links(const struct smbsrv_tree *tree,
				    struct smbsrv_snap_scan *s)
{
	struct path root;
	u32 i, n = 0;

	for (i = 0; i < s->n; i++) {
		if (test_bit(i, s->links)) {
			if (smbsrv_snap_root(tree, s->times[i], &root))
				continue;
			path_put(&root);
		}
		s->times[n++] = s->times[i];
	}
	s->n = n;
}

static int smbsrv_snap_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

int smbsrv_snap_list(const struct smbsrv_tree *tree, u64 **times, u32 *n)
{
	struct smbsrv_snap_scan s = {
		.ctx.actor = smbsrv_snap_actor,
		.share = tree->share,
	};
	struct path dir;
	u32 i;
	int err;

	*times = NULL;
	*n = 0;
	err = smbsrv_snap_dir(tree, &dir);
	if (err)
		return err;
	s.times = kvmalloc_array(SMBSRV_SNAP_MAX, sizeof(u64), GFP_KERNEL);
	s.links = bitmap_zalloc(SMBSRV_SNAP_MAX, GFP_KERNEL);
	if (!s.times || !s.links) {
		path_put(&dir);
		err = -ENOMEM;
		goto fail;
	}
	err = smbsrv_readdir_all(&dir, &s.ctx);
	path_put(&dir);
	if (err)
		goto fail;
	smbsrv_snap_check_links(tree, &s);
	bitmap_free(s.links);
	if (s.full)
		pr_warn_ratelimited("smbsrv: share %s: more than %u snapshots in %s; the rest are not listed\n",
				    tree->share->name, SMBSRV_SNAP_MAX,
				    tree->share->snap_dir);
	if (tree->share->snap_sort != SMBSRV_SNAP_SORT_UNSORTED) {
		sort(s.times, s.n, sizeof(u64), smbsrv_snap_cmp, NULL);
		if (tree->share->snap_sort == SMBSRV_SNAP_SORT_DESC)
			for (i = 0; i < s.n / 2; i++)
				swap(s.times[i], s.times[s.n - 1 - i]);
	}
	*times = s.times;
	*n = s.n;
	return 0;

fail:
	bitmap_free(s.links);
	kvfree(s.times);
	return err;
}

/* ---- views -------------------------------------------------------------- */

/* The share root inside the snapshot of @t, beneath the directory. */
static int smbsrv_snap_root(const struct smbsrv_tree *tree, u64 t,
			    struct path *root)
{
	const char *subdir = tree->share->snap_subdir ?: "";
	struct path dir;
	char *rel;
	int len, err;

	rel = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!rel)
		return -ENOMEM;
	len = smb_snap_name_in(tree->share->snap_format, tree->share->snap_zone,
			       tree->share->snap_zone_n, t, rel, NAME_MAX + 1);
	if (len < 0) {
		err = -ENOENT;
		goto out;
	}
	if (*subdir && snprintf(rel + len, PATH_MAX - len, "/%s", subdir) >=
	    PATH_MAX - len) {
		err = -ENAMETOOLONG;
		goto out;
	}
	err = smbsrv_snap_dir(tree, &dir);
	if (err)
		goto out;
	err = vfs_path_lookup(dir.dentry, dir.mnt, rel,
			      LOOKUP_FOLLOW | LOOKUP_DIRECTORY |
			      LOOKUP_AUTOMOUNT | LOOKUP_BENEATH, root);
	path_put(&dir);
out:
	kfree(rel);
	return err;
}

int smbsrv_snap_view(struct smbsrv_tree *tree, u64 t,
		     struct smbsrv_tree **view)
{
	struct smbsrv_tree *v;
	struct path root;
	int err;

	if (!smbsrv_snap_enabled(tree) || !tree->cred)
		return -ENOENT;
	err = smbsrv_snap_root(tree, t, &root);
	if (err == -ENOTDIR || err == -EXDEV)
		err = -ENOENT;
	if (err)
		return err;
	v = kzalloc(sizeof(*v), GFP_KERNEL);
	if (!v) {
		path_put(&root);
		return -ENOMEM;
	}
	refcount_set(&v->ref, 1);
	v->id = tree->id;
	smbsrv_session_get(tree->sess);
	v->sess = tree->sess;
	v->share = smbsrv_share_info_get(tree->share);
	v->share_flags = tree->share_flags;
	v->maximal_access = tree->maximal_access;
	v->cred = get_cred(tree->cred);
	v->sids = smbsrv_sids_get(tree->sids);
	v->root = root;
	v->snapshot = true;
	*view = v;
	return 0;
}
