/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smbsrv: what a fruit share (vfs objects = fruit) does for Macs beyond
 * the AAPL context (smb2/fruit.c): where AFP_AfpInfo lives (afp.h), the
 * streams a Mac is shown, the Mac fields of listings (ReadDirAttr), and
 * the space Time Machine is told about.
 */
#ifndef _SMBSRV_FRUIT_H
#define _SMBSRV_FRUIT_H

#include <linux/path.h>
#include <linux/types.h>
#include <uapi/linux/smbsrv.h>

#include "session.h"
#include "upcall.h"
#include "wire/aapl.h"

struct smbsrv_fattr;
struct smb_stream_ent;

static inline bool smbsrv_fruit_tree(const struct smbsrv_tree *tree)
{
	return tree->share_flags & SMBSRV_SHARE_FLAGS_FRUIT;
}

/* A fruit share with @flag (enum smbsrv_fruit_flags). */
static inline bool smbsrv_fruit_has(const struct smbsrv_tree *tree, u32 flag)
{
	return smbsrv_fruit_tree(tree) && (tree->share->fruit_flags & flag);
}

/*
 * The xattr that keeps AFP_AfpInfo of @dentry (afp.h), and whether it
 * holds one now (*@exists); one left behind that is no AfpInfo (by a
 * share without fruit) is removed first, as Samba does.  kmalloc()ed, or
 * an ERR_PTR.  Runs with the tree's credentials.
 */
char *smbsrv_fruit_afp_xname(const struct smbsrv_tree *tree,
			     const struct path *path, bool *exists);

/*
 * The streams a Mac is shown, from those in the xattrs (@ents, @n of
 * them, room for @cap): AFP_AfpInfo as 60 bytes when it is one (netatalk
 * keeps it elsewhere: added when its Finder info is not empty), and no
 * empty stream once the client negotiated AAPL (@aapl).  Returns the new
 * count.
 */
u32 smbsrv_fruit_streams(const struct smbsrv_tree *tree, bool aapl,
			 const struct path *path, struct smb_stream_ent *ents,
			 u32 n, u32 cap);

/*
 * The Mac fields of @path's FILE_ID_BOTH_DIRECTORY_INFORMATION entry:
 * maximal access, resource fork size, compressed Finder info, mode, as
 * the share's readdir_attr parameters ask.
 */
void smbsrv_fruit_dirent(const struct smbsrv_tree *tree,
			 const struct path *path,
			 const struct smbsrv_fattr *fa,
			 struct smb_aapl_dirent *out);

/*
 * OS X copyfile (fruit:copyfile): the named streams of @src onto @dst,
 * replacing streams of the same name.
 */
int smbsrv_fruit_copy_streams(const struct path *src, const struct path *dst);

/*
 * fruit:convert_adouble (Samba's ad_convert): the AppleDouble "._" file
 * macOS wrote beside the regular file @path (over a share without fruit)
 * becomes @path's streams: its packed xattrs named streams, its Finder
 * info AFP_AfpInfo, its resource fork AFP_Resource (the blank one
 * macOS writes dropped with fruit:wipe_intentionally_left_blank_rfork).
 * The "._" file is left a plain header (Netatalk's filler: not converted
 * again), removed with fruit:delete_empty_adfiles.  Files larger than a
 * header and a stream's 64 KiB are left as they are.  Runs with the
 * tree's credentials; what the user may not change stays.
 */
void smbsrv_fruit_convert(const struct smbsrv_tree *tree,
			  const struct path *path);

/*
 * Time Machine (fruit:time machine max size): what the sparse bundles
 * at the share root use, band size times bands each.  Runs with the
 * tree's credentials.
 */
int smbsrv_fruit_tm_used(const struct smbsrv_tree *tree, u64 *used);

#endif /* _SMBSRV_FRUIT_H */
