// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: fruit shares beyond the AAPL context (see fruit.h).
 */
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/slab.h>
#include <linux/xattr.h>

#include "afp.h"
#include "ea.h"
#include "fruit.h"
#include "readdir.h"
#include "stream.h"
#include "vfs.h"
#include "wire/fscc.h"
#include "wire/info.h"
#include "wire/stream.h"

char *smbsrv_fruit_afp_xname(const struct smbsrv_tree *tree,
			     const struct path *path, bool *exists)
{
	bool netatalk = smbsrv_fruit_has(tree,
					 SMBSRV_FRUIT_FLAGS_METADATA_NETATALK);
	u8 val[SMB_AFPINFO_SIZE];
	char *xname;
	int err;

	if (netatalk)
		xname = kstrdup(SMBSRV_AFP_NETATALK_XATTR, GFP_KERNEL);
	else
		xname = smbsrv_stream_resolve(path->dentry, SMB_AFPINFO_STREAM,
					      strlen(SMB_AFPINFO_STREAM),
					      exists);
	if (!xname)
		return ERR_PTR(-ENOMEM);
	if (IS_ERR(xname))
		return xname;
	if (!netatalk && !*exists)
		return xname;
	err = smbsrv_afp_get(path->dentry, xname, netatalk, val);
	*exists = !err;
	if (err == -ENOENT && !netatalk)
		smbsrv_stream_remove(path, xname);	/* no AfpInfo */
	else if (err && err != -ENOENT) {
		kfree(xname);
		return ERR_PTR(err);
	}
	return xname;
}

/* Remove the stream @name (@len bytes) of @path. */
static void smbsrv_fruit_drop(const struct path *path, const char *name,
			      u32 len)
{
	char xname[SMB_STREAM_XATTR_NAME_MAX + 1];

	if (smb_stream_xattr_name(name, len, xname, sizeof(xname)) >= 0)
		smbsrv_stream_remove(path, xname);
}

u32 smbsrv_fruit_streams(const struct smbsrv_tree *tree, bool aapl,
			 const struct path *path, struct smb_stream_ent *ents,
			 u32 n, u32 cap)
{
	bool netatalk = smbsrv_fruit_has(tree,
					 SMBSRV_FRUIT_FLAGS_METADATA_NETATALK);
	u8 val[SMB_AFPINFO_SIZE];
	u32 i, j = 0;
	bool info;

	for (i = 0; i < n; i++) {
		struct smb_stream_ent *e = &ents[i];

		info = e->name_len &&
		       smb_afp_stream_kind(e->name, e->name_len) ==
		       SMB_AFP_INFO;
		if (info && netatalk)
			continue;	/* netatalk keeps it elsewhere */
		if (info) {
			/* Samba's 60 bytes and a NUL, or ours; else none. */
			if (e->size != SMB_AFPINFO_SIZE &&
			    e->size != SMB_AFPINFO_SIZE + 1) {
				smbsrv_fruit_drop(path, e->name, e->name_len);
				continue;
			}
			e->size = SMB_AFPINFO_SIZE;
			e->allocation = smbsrv_stream_allocation(e->size);
		}
		/* A Mac is not shown empty streams (Samba's rule). */
		if (aapl && e->name_len && !e->size)
			continue;
		ents[j++] = *e;
	}
	if (netatalk && j < cap &&
	    !smbsrv_afp_get(path->dentry, SMBSRV_AFP_NETATALK_XATTR, true,
			    val) &&
	    memchr_inv(val + SMB_AFPINFO_FINDER_OFF, 0, SMB_AFP_FINDER_SIZE)) {
		ents[j].name = SMB_AFPINFO_STREAM;
		ents[j].name_len = strlen(SMB_AFPINFO_STREAM);
		ents[j].size = SMB_AFPINFO_SIZE;
		ents[j].allocation = smbsrv_stream_allocation(SMB_AFPINFO_SIZE);
		j++;
	}
	return j;
}

int smbsrv_fruit_copy_streams(const struct path *src, const struct path *dst)
{
	char *list, *p;
	ssize_t n, v;
	u32 slen;
	u8 *val;
	int err, want;

	n = smbsrv_ea_names(src->dentry, &list);
	if (n <= 0)
		return n;
	val = kvmalloc(XATTR_SIZE_MAX, GFP_KERNEL);
	if (!val) {
		kvfree(list);
		return -ENOMEM;
	}
	want = mnt_want_write(dst->mnt);
	err = want;
	for (p = list; !err && p < list + n; p += strlen(p) + 1) {
		if (!smb_stream_of_xattr(p, strnlen(p, list + n - p), &slen))
			continue;
		v = vfs_getxattr(&nop_mnt_idmap, src->dentry, p, val,
				 XATTR_SIZE_MAX);
		if (v == -ENODATA)
			continue;
		err = v < 0 ? v :
		      vfs_setxattr(mnt_idmap(dst->mnt), dst->dentry, p, val, v,
				   0);
	}
	if (!want)
		mnt_drop_write(dst->mnt);
	kvfree(val);
	kvfree(list);
	return err;
}

/* ---- AppleDouble "._" files ----------------------------------------- */

/*
 * Largest "._" file converted: its header with the packed xattrs, and a
 * resource fork that fits a stream (an xattr).
 */
#define SMBSRV_AD_CONVERT_MAX	(SMB_AD_HDR_MAX + XATTR_SIZE_MAX)

/* Set the stream @name (@len bytes) of @path to @val. */
static int smbsrv_fruit_set_stream(const struct path *path, const char *name,
				   u32 len, const void *val, u32 vlen)
{
	bool exists;
	char *xname;
	int err;

	xname = smbsrv_stream_resolve(path->dentry, name, len, &exists);
	if (IS_ERR(xname))
		return PTR_ERR(xname);
	err = mnt_want_write(path->mnt);
	if (!err) {
		err = vfs_setxattr(mnt_idmap(path->mnt), path->dentry, xname,
				   val, vlen, 0);
		mnt_drop_write(path->mnt);
	}
	kfree(xname);
	return err;
}

/*
 * The packed xattrs of the "._" blob @buf as streams of @path, its Finder
 * info as AFP_AfpInfo, and a resource fork (@rfork_len bytes left, the
 * blank one dropped already) as AFP_Resource unless @path has one, then
 * *@rfork_len is 0 (what is left in the "._" file).  0 or -errno.
 */
static int smbsrv_fruit_convert_parts(const struct smbsrv_tree *tree,
				      const struct path *path, const u8 *buf,
				      u32 len, const struct smb_adouble *ad,
				      u32 *rfork_len)
{
	char sname[SMB_STREAM_NAME_MAX];
	struct smb_ad_xattr x;
	u8 val[SMB_AFPINFO_SIZE];
	bool netatalk = smbsrv_fruit_has(tree,
					 SMBSRV_FRUIT_FLAGS_METADATA_NETATALK);
	u32 index = 0, pos = ad->xattr_pos;
	bool exists;
	char *xname;
	int n, err = 0;

	while (!err && ad->xattr_count &&
	       smb_adouble_xattr(buf, len, ad, &index, &pos, &x) == 1) {
		n = smb_adouble_stream_name(x.name, x.name_len, sname,
					    sizeof(sname));
		if (n < 0)
			continue;	/* no stream can have this name */
		err = smbsrv_fruit_set_stream(path, sname, n, buf + x.off,
					      x.len);
		if (err == -EINVAL)
			err = 0;	/* nor this one */
	}
	if (err)
		return err;
	if (memchr_inv(buf + ad->finder_off, 0, SMB_AFP_FINDER_SIZE)) {
		xname = smbsrv_fruit_afp_xname(tree, path, &exists);
		if (IS_ERR(xname))
			return PTR_ERR(xname);
		smb_afpinfo_init(val, buf + ad->finder_off);
		err = smbsrv_afp_put(path, xname, netatalk, val);
		kfree(xname);
		if (err)
			return err;
	}
	if (!*rfork_len)
		return 0;
	xname = smbsrv_stream_resolve(path->dentry, SMB_AFPRESOURCE_STREAM,
				      strlen(SMB_AFPRESOURCE_STREAM), &exists);
	if (IS_ERR(xname))
		return PTR_ERR(xname);
	kfree(xname);
	if (exists)
		return 0;	/* the Mac's own stream wins: keep the file's */
	err = smbsrv_fruit_set_stream(path, SMB_AFPRESOURCE_STREAM,
				      strlen(SMB_AFPRESOURCE_STREAM),
				      buf + ad->rfork_off, *rfork_len);
	if (!err)
		*rfork_len = 0;
	return err;
}

/* Rewrite the "._" file @filp as a plain header and @rfork_len bytes. */
static int smbsrv_fruit_convert_rewrite(struct file *filp, const u8 *buf,
					const struct smb_adouble *ad,
					u32 rfork_len)
{
	u8 hdr[SMB_AD_DOT_UND_SIZE];
	loff_t pos = 0;
	ssize_t n;
	int err;

	smb_adouble_dot_und_init(hdr, buf + ad->finder_off, rfork_len);
	n = kernel_write(filp, hdr, sizeof(hdr), &pos);
	if (n == sizeof(hdr) && rfork_len)
		n = kernel_write(filp, buf + ad->rfork_off, rfork_len, &pos) ==
		    rfork_len ? (ssize_t)sizeof(hdr) : -EIO;
	if (n != sizeof(hdr))
		return n < 0 ? n : -EIO;
	err = vfs_truncate(&filp->f_path, pos);
	return err;
}

void smbsrv_fruit_convert(const struct smbsrv_tree *tree,
			  const struct path *path)
{
	const struct qstr *name = &path->dentry->d_name;
	struct path adp = { .mnt = path->mnt };
	struct smb_adouble ad;
	struct dentry *parent;
	struct file *filp;
	char adname[NAME_MAX + 1];
	loff_t size, pos = 0;
	u32 rfork_len;
	ssize_t n;
	u8 *buf;
	int err;

	if (!smbsrv_fruit_has(tree, SMBSRV_FRUIT_FLAGS_CONVERT_ADOUBLE) ||
	    !d_is_reg(path->dentry) || name->len > NAME_MAX - 2 ||
	    (name->len >= 2 && name->name[0] == '.' && name->name[1] == '_'))
		return;
	adname[0] = '.';
	adname[1] = '_';
	memcpy(adname + 2, name->name, name->len);
	parent = dget_parent(path->dentry);
	adp.dentry = lookup_one_unlocked(mnt_idmap(path->mnt), adname, parent,
					 name->len + 2);
	dput(parent);
	if (IS_ERR(adp.dentry))
		return;
	/* A regular file only: never through a symlink out of the share. */
	if (!d_is_reg(adp.dentry))
		goto put;
	size = i_size_read(d_inode(adp.dentry));
	if (size < SMB_AD_HEADER_LEN || size > SMBSRV_AD_CONVERT_MAX)
		goto put;
	filp = dentry_open(&adp, O_RDWR | O_LARGEFILE, current_cred());
	if (IS_ERR(filp))
		goto put;	/* not the user's to convert */
	buf = kvmalloc(size, GFP_KERNEL);
	if (!buf)
		goto close;
	n = kernel_read(filp, buf, size, &pos);
	/* Only what macOS wrote ("Mac OS X"): once converted, it is not. */
	if (n != size || smb_adouble_parse(buf, n, n, true, &ad) || !ad.osx ||
	    !ad.finder_len)
		goto free;
	rfork_len = ad.rfork_len;
	if (smbsrv_fruit_has(tree, SMBSRV_FRUIT_FLAGS_WIPE_BLANK_RFORK) &&
	    smb_rfork_is_blank(buf + ad.rfork_off, rfork_len))
		rfork_len = 0;
	err = smbsrv_fruit_convert_parts(tree, path, buf, n, &ad, &rfork_len);
	if (!err)
		err = smbsrv_fruit_convert_rewrite(filp, buf, &ad, rfork_len);
	if (!err && !rfork_len &&
	    smbsrv_fruit_has(tree, SMBSRV_FRUIT_FLAGS_DELETE_EMPTY_ADFILES))
		err = smbsrv_vfs_remove(&adp);
	if (err)
		pr_warn_ratelimited("smbsrv: converting ._%.*s: error %d\n",
				    name->len, name->name, err);
free:
	kvfree(buf);
close:
	fput(filp);
put:
	dput(adp.dentry);
}

/* NT time (100 ns since 1601) to UNIX seconds. */
static s64 smbsrv_fruit_unix_time(u64 nt)
{
	return (s64)(nt / 10000000) - 11644473600LL;
}

void smbsrv_fruit_dirent(const struct smbsrv_tree *tree,
			 const struct path *path,
			 const struct smbsrv_fattr *fa,
			 struct smb_aapl_dirent *out)
{
	u8 val[SMB_AFPINFO_SIZE];
	bool exists, have = false, netatalk;
	char *xname;
	ssize_t n;

	memset(out, 0, sizeof(*out));
	if (smbsrv_fruit_has(tree, SMBSRV_FRUIT_FLAGS_RSIZE)) {
		xname = smbsrv_stream_resolve(path->dentry,
					      SMB_AFPRESOURCE_STREAM,
					      strlen(SMB_AFPRESOURCE_STREAM),
					      &exists);
		if (!IS_ERR(xname) && exists) {
			n = __vfs_getxattr(path->dentry, d_inode(path->dentry),
					   xname, NULL, 0);
			if (n > 0)
				out->rfork_size = n;
		}
		if (!IS_ERR(xname))
			kfree(xname);
	}
	netatalk = smbsrv_fruit_has(tree, SMBSRV_FRUIT_FLAGS_METADATA_NETATALK);
	if (smbsrv_fruit_has(tree, SMBSRV_FRUIT_FLAGS_FINDER_INFO)) {
		xname = smbsrv_fruit_afp_xname(tree, path, &exists);
		if (!IS_ERR(xname)) {
			have = exists && !smbsrv_afp_get(path->dentry, xname,
							 netatalk, val);
			kfree(xname);
		}
	}
	smb_aapl_finder_compress(out->finder, have ? val : NULL,
				 S_ISREG(fa->mode),
				 smbsrv_fruit_unix_time(fa->creation_time));
	if (smbsrv_fruit_has(tree, SMBSRV_FRUIT_FLAGS_NFS_ACES))
		out->mode = (u16)fa->mode;
	out->max_access = smbsrv_fruit_has(tree, SMBSRV_FRUIT_FLAGS_MAX_ACCESS) ?
			  smbsrv_vfs_maximal_access(tree, path) :
			  FILE_ALL_ACCESS;
}

/* ---- Time Machine ------------------------------------------------------- */

/* Sparse bundles looked at, at most (a Time Machine share has a few). */
#define SMBSRV_TM_BUNDLES_MAX	64
/* Largest Info.plist read (Samba's limit). */
#define SMBSRV_TM_PLIST_MAX	(64 * 1024)
#define SMBSRV_TM_SUFFIX	"sparsebundle"

struct smbsrv_tm_scan {
	struct dir_context ctx;
	char (*names)[NAME_MAX + 1];
	u32 n;
	u64 count;		/* entries, when counting bands */
	bool counting;
};

static bool smbsrv_tm_actor(struct dir_context *ctx, const char *name,
			    int len, loff_t off, u64 ino, unsigned int type)
{
	struct smbsrv_tm_scan *s = container_of(ctx, struct smbsrv_tm_scan,
						ctx);
	const char *p;
	int sl = strlen(SMBSRV_TM_SUFFIX);

	if (s->counting) {
		if (!(len == 1 && name[0] == '.') &&
		    !(len == 2 && name[0] == '.' && name[1] == '.'))
			s->count++;
		return true;
	}
	/* Samba's rule: the first "sparsebundle" ends the name. */
	p = strnstr(name, SMBSRV_TM_SUFFIX, len);
	if (!p || p + sl != name + len || len > NAME_MAX)
		return true;
	if (s->n >= SMBSRV_TM_BUNDLES_MAX)
		return false;
	memcpy(s->names[s->n], name, len);
	s->names[s->n][len] = 0;
	s->n++;
	return true;
}

/* Band size times bands of the bundle @name; 0 when it has none yet. */
static u64 smbsrv_tm_bundle(const struct smbsrv_tree *tree, const char *name,
			    char *buf)
{
	struct smbsrv_tm_scan s = { .ctx.actor = smbsrv_tm_actor,
				    .counting = true };
	struct path p;
	struct file *filp;
	loff_t pos = 0;
	ssize_t n;
	u64 band;
	int err;

	snprintf(buf, PATH_MAX, "%s/Info.plist", name);
	err = smbsrv_vfs_resolve(tree, buf, &p);
	if (err)
		return 0;
	filp = dentry_open(&p, O_RDONLY, current_cred());
	path_put(&p);
	if (IS_ERR(filp))
		return 0;
	n = kernel_read(filp, buf, SMBSRV_TM_PLIST_MAX, &pos);
	fput(filp);
	/* A bundle a client is still writing is no failure: skip it. */
	if (n <= 0 || smb_tm_band_size(buf, n, &band))
		return 0;
	snprintf(buf, PATH_MAX, "%s/bands", name);
	err = smbsrv_vfs_resolve(tree, buf, &p);
	if (err)
		return 0;
	err = smbsrv_readdir_all(&p, &s.ctx);
	path_put(&p);
	if (err || (s.count && band > U64_MAX / s.count))
		return 0;
	return band * s.count;
}

int smbsrv_fruit_tm_used(const struct smbsrv_tree *tree, u64 *used)
{
	struct smbsrv_tm_scan s = { .ctx.actor = smbsrv_tm_actor };
	u64 total = 0, b;
	char *buf;
	u32 i;
	int err;

	s.names = kvmalloc_array(SMBSRV_TM_BUNDLES_MAX, sizeof(*s.names),
				 GFP_KERNEL);
	buf = kvmalloc(SMBSRV_TM_PLIST_MAX, GFP_KERNEL);
	err = -ENOMEM;
	if (!s.names || !buf)
		goto out;
	err = smbsrv_readdir_all(&tree->root, &s.ctx);
	if (err)
		goto out;
	for (i = 0; i < s.n; i++) {
		b = smbsrv_tm_bundle(tree, s.names[i], buf);
		total = total + b < total ? U64_MAX : total + b;
	}
	*used = total;
out:
	kvfree(buf);
	kvfree(s.names);
	return err;
}
