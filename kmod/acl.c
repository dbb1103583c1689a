// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: NT ACLs on shares with vfs objects = acl_xattr (see acl.h).
 */
#include <crypto/sha2.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/mount.h>
#include <linux/posix_acl.h>
#include <linux/slab.h>
#include <linux/uidgid.h>
#include <linux/xattr.h>
#include <uapi/linux/smbsrv.h>

#include "acl.h"
#include "file.h"
#include "session.h"
#include "status.h"
#include "vfs.h"
#include "wire/fscc.h"
#include "wire/ntacl.h"
#include "wire/ntacl_blob.h"
#include "wire/ntstatus.h"

/* ---- credentials and tokens ---------------------------------------------- */

void smbsrv_acl_cred_caps(struct cred *c)
{
	cap_raise(c->cap_effective, CAP_DAC_OVERRIDE);
	cap_raise(c->cap_effective, CAP_DAC_READ_SEARCH);
	cap_raise(c->cap_effective, CAP_FOWNER);
}

struct cred *smbsrv_acl_cred(const struct cred *base)
{
	const struct cred *old;
	struct cred *c;

	old = override_creds(base);
	c = prepare_creds();
	revert_creds(old);
	if (c)
		smbsrv_acl_cred_caps(c);
	return c;
}

/* The tree's credentials with one more capability, for one call. */
struct smbsrv_acl_priv {
	const struct cred *old;
	struct cred *c;
};

static int smbsrv_acl_priv_begin(struct smbsrv_acl_priv *p, int cap)
{
	p->c = prepare_creds();
	if (!p->c)
		return -ENOMEM;
	cap_raise(p->c->cap_effective, cap);
	p->old = override_creds(p->c);
	return 0;
}

static void smbsrv_acl_priv_end(struct smbsrv_acl_priv *p)
{
	revert_creds(p->old);
	put_cred(p->c);
}

static const struct cred *smbsrv_acl_tree_cred(const struct smbsrv_tree *tree)
{
	return tree->cred ? tree->cred : tree->sess->cred;
}

/* group_info keeps its groups sorted (groups_sort()). */
static bool smbsrv_acl_in_group(const void *ctx, u32 id)
{
	const struct group_info *gi = ctx;
	kgid_t gid = make_kgid(&init_user_ns, id);
	unsigned int lo = 0, hi, mid;

	if (!gi || !gid_valid(gid))
		return false;
	hi = gi->ngroups;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (gid_gt(gid, gi->gid[mid]))
			lo = mid + 1;
		else if (gid_lt(gid, gi->gid[mid]))
			hi = mid;
		else
			return true;
	}
	return false;
}

static void smbsrv_acl_token(const struct smbsrv_tree *tree,
			     struct smb_token *tok)
{
	const struct cred *c = smbsrv_acl_tree_cred(tree);
	u32 flags = tree->sess->flags;

	tok->uid = from_kuid(&init_user_ns, c->fsuid);
	tok->gid = from_kgid(&init_user_ns, c->fsgid);
	if (flags & SMBSRV_SESSION_FLAGS_ANONYMOUS)
		tok->flags = SMB_TOKEN_ANONYMOUS;
	else if (flags & SMBSRV_SESSION_FLAGS_GUEST)
		tok->flags = SMB_TOKEN_GUEST;
	else
		tok->flags = SMB_TOKEN_AUTHENTICATED;
	if (uid_eq(c->fsuid, GLOBAL_ROOT_UID))
		tok->flags |= SMB_TOKEN_ADMIN;
	tok->in_group = smbsrv_acl_in_group;
	tok->ctx = c->group_info;
	tok->sids = smbsrv_sids_list(tree->sids, &tok->nsids);
}

/* ---- the POSIX ACL hash ---------------------------------------------------- */

/* An inode's POSIX ACL of @type as the wrapper's entries; NULL: none. */
static struct smb_posix_ace *smbsrv_acl_posix(struct inode *inode, int type,
					      u32 *count, int *err)
{
	struct smb_posix_ace *e = NULL;
	struct posix_acl *pa;
	u32 i;

	*count = 0;
	*err = 0;
	pa = get_inode_acl(inode, type);
	if (IS_ERR_OR_NULL(pa)) {
		/* No ACL, or a file system without them: the same to us. */
		if (IS_ERR(pa) && PTR_ERR(pa) != -EOPNOTSUPP)
			*err = PTR_ERR(pa);
		return NULL;
	}
	e = kmalloc_array(max(pa->a_count, 1u), sizeof(*e), GFP_KERNEL);
	if (!e) {
		*err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < pa->a_count; i++) {
		const struct posix_acl_entry *pe = &pa->a_entries[i];

		e[i].perm = pe->e_perm & 7;
		e[i].id = 0;
		switch (pe->e_tag) {
		case ACL_USER_OBJ:
			e[i].tag = SMB_POSIX_USER_OBJ;
			break;
		case ACL_USER:
			e[i].tag = SMB_POSIX_USER;
			e[i].id = from_kuid(&init_user_ns, pe->e_uid);
			break;
		case ACL_GROUP_OBJ:
			e[i].tag = SMB_POSIX_GROUP_OBJ;
			break;
		case ACL_GROUP:
			e[i].tag = SMB_POSIX_GROUP;
			e[i].id = from_kgid(&init_user_ns, pe->e_gid);
			break;
		case ACL_MASK:
			e[i].tag = SMB_POSIX_MASK;
			break;
		default:
			e[i].tag = SMB_POSIX_OTHER;
			break;
		}
	}
	*count = pa->a_count;
out:
	posix_acl_release(pa);
	return e;
}

/*
 * sys_acl_hash for @inode as it is now, as Samba (@samba) or ksmbd
 * computes it (ntacl_blob.h).  0 or -errno.
 */
struct smbsrv_acl_sys {
	struct smb_posix_ace *acc, *def;
	u32 nacc, ndef;
};

static int smbsrv_acl_sys_get(struct inode *inode, struct smbsrv_acl_sys *s)
{
	int err;

	memset(s, 0, sizeof(*s));
	s->acc = smbsrv_acl_posix(inode, ACL_TYPE_ACCESS, &s->nacc, &err);
	if (err)
		return err;
	if (S_ISDIR(inode->i_mode)) {
		s->def = smbsrv_acl_posix(inode, ACL_TYPE_DEFAULT, &s->ndef,
					  &err);
		if (err) {
			kfree(s->acc);
			return err;
		}
	}
	return 0;
}

static void smbsrv_acl_sys_put(struct smbsrv_acl_sys *s)
{
	kfree(s->acc);
	kfree(s->def);
}

/* The owner, group and st_mode a blob's hash is for. */
struct smbsrv_acl_ids {
	kuid_t uid;
	kgid_t gid;
	umode_t mode;
};

static void smbsrv_acl_ids_of(struct inode *inode, struct smbsrv_acl_ids *ids)
{
	ids->uid = inode->i_uid;
	ids->gid = inode->i_gid;
	ids->mode = inode->i_mode;
}

static int smbsrv_acl_sys_hash(const struct smbsrv_acl_ids *ids,
			       const struct smbsrv_acl_sys *s, bool samba,
			       u8 hash[SMB_NTACL_HASH_SIZE])
{
	u32 mode = ids->mode, uid, gid, n;
	struct smb_posix_ace three[3] = {
		{ SMB_POSIX_USER_OBJ, (mode >> 6) & 7, 0 },
		{ SMB_POSIX_GROUP_OBJ, (mode >> 3) & 7, 0 },
		{ SMB_POSIX_OTHER, mode & 7, 0 },
	};
	struct smb_posix_acl acc = { s->acc, s->nacc };
	struct smb_posix_acl def = { s->def, s->ndef };
	const struct smb_posix_acl *pacc = s->acc ? &acc : NULL;
	const struct smb_posix_acl *pdef = s->def ? &def : NULL;
	u8 *buf;

	if (samba) {
		/* libacl's view: the mode's entries, an empty default ACL. */
		if (!pacc) {
			acc.e = three;
			acc.count = 3;
			pacc = &acc;
		}
		if (S_ISDIR(mode) && !pdef)
			pdef = &def;
	}
	uid = from_kuid(&init_user_ns, ids->uid);
	gid = from_kgid(&init_user_ns, ids->gid);
	n = smb_sys_acl_blob_encode(NULL, 0, uid, gid, mode, pacc, pdef);
	buf = kmalloc(n, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	smb_sys_acl_blob_encode(buf, n, uid, gid, mode, pacc, pdef);
	memset(hash, 0, SMB_NTACL_HASH_SIZE);
	sha256(buf, n, hash);
	kfree(buf);
	return 0;
}

/* Whether a version 3 or 4 blob is still @inode's (acl.h). */
static bool smbsrv_acl_blob_current(struct inode *inode,
				    const struct smb_ntacl_blob *b)
{
	u8 hash[SMB_NTACL_HASH_SIZE];
	struct smbsrv_acl_ids ids;
	struct smbsrv_acl_sys s;
	bool ok = false;

	if (b->hash_type != SMB_NTACL_HASH_SHA256)
		return false;
	/* Version 3 has no hash of the POSIX side to check. */
	if (b->version == 3)
		return true;
	if (smbsrv_acl_sys_get(inode, &s))
		return false;
	smbsrv_acl_ids_of(inode, &ids);
	if (!smbsrv_acl_sys_hash(&ids, &s, true, hash) &&
	    !memcmp(hash, b->sys_acl_hash, SMB_NTACL_HASH_SIZE))
		ok = true;
	else if (!smbsrv_acl_sys_hash(&ids, &s, false, hash) &&
		 !memcmp(hash, b->sys_acl_hash, SMB_NTACL_HASH_SIZE))
		ok = true;
	smbsrv_acl_sys_put(&s);
	return ok;
}

/* ---- descriptors in hand ------------------------------------------------- */

struct smbsrv_sd {
	u8 *buf;		/* kmalloc()ed, self-relative */
	u32 len;
	struct smb_sd sd;	/* decoded from buf */
	bool stored;		/* from security.NTACL */
};

static void smbsrv_sd_free(struct smbsrv_sd *s)
{
	kfree(s->buf);
	s->buf = NULL;
}

/* Keep a copy of the descriptor @p describes in @s. */
static int smbsrv_sd_set(struct smbsrv_sd *s, const struct smb_sd_parts *p)
{
	s->len = smb_sd_encode(NULL, 0, p);
	s->buf = kmalloc(s->len, GFP_KERNEL);
	if (!s->buf)
		return -ENOMEM;
	smb_sd_encode(s->buf, s->len, p);
	if (smb_sd_decode(s->buf, s->len, &s->sd)) {
		smbsrv_sd_free(s);
		return -EINVAL;
	}
	return 0;
}

/* The stored descriptor of @dentry, if it has a current one. */
static int smbsrv_sd_stored(struct dentry *dentry, struct smbsrv_sd *s)
{
	struct inode *inode = d_inode(dentry);
	struct smb_ntacl_blob b;
	struct smb_sd_parts p;
	ssize_t n;
	u8 *blob;
	int err = -ENODATA;

	n = vfs_getxattr(&nop_mnt_idmap, dentry, SMB_NTACL_XATTR, NULL, 0);
	if (n <= 0 || n > SMB_NTACL_MAX)
		return n < 0 ? n : -ENODATA;
	blob = kvmalloc(n, GFP_KERNEL);
	if (!blob)
		return -ENOMEM;
	n = vfs_getxattr(&nop_mnt_idmap, dentry, SMB_NTACL_XATTR, blob, n);
	if (n > 0 && !smb_ntacl_blob_decode(blob, n, &b) &&
	    (b.version < 3 || smbsrv_acl_blob_current(inode, &b))) {
		smb_sd_parts_of(&b.sd, &p);
		err = smbsrv_sd_set(s, &p);
		s->stored = !err;
	} else if (n > 0) {
		pr_debug("smbsrv: security.NTACL of inode %lu is stale or not understood\n",
			 inode->i_ino);
	}
	kvfree(blob);
	return err;
}

/* The descriptor of @dentry: stored, or the one its mode gives. */
static int smbsrv_sd_load(struct dentry *dentry, struct smbsrv_sd *s)
{
	struct inode *inode = d_inode(dentry);
	struct smb_posix_owner po = {
		.uid = from_kuid(&init_user_ns, inode->i_uid),
		.gid = from_kgid(&init_user_ns, inode->i_gid),
		.mode = inode->i_mode & 0777,
		.dir = S_ISDIR(inode->i_mode),
	};
	int err;

	memset(s, 0, sizeof(*s));
	err = smbsrv_sd_stored(dentry, s);
	if (err != -ENODATA && err != -EOPNOTSUPP)
		return err;
	s->len = smb_sd_from_mode(NULL, 0, &po);
	s->buf = kmalloc(s->len, GFP_KERNEL);
	if (!s->buf)
		return -ENOMEM;
	smb_sd_from_mode(s->buf, s->len, &po);
	if (smb_sd_decode(s->buf, s->len, &s->sd)) {
		smbsrv_sd_free(s);
		return -EINVAL;
	}
	return 0;
}

/*
 * Write @sd into @path's security.NTACL for the owner, group and mode
 * @ids (NULL: the inode's now), with its POSIX ACLs as they are now: the
 * hash covers them all.  *@acls tells whether it has POSIX ACLs.
 */
static int smbsrv_sd_store(const struct path *path, const struct smb_sd *sd,
			   const struct smbsrv_acl_ids *ids, bool *acls)
{
	struct inode *inode = d_inode(path->dentry);
	u8 sys[SMB_NTACL_HASH_SIZE];
	struct smbsrv_acl_priv priv;
	struct smbsrv_acl_ids now;
	struct smbsrv_acl_sys s;
	u32 n;
	u8 *blob;
	int err;

	if (!ids) {
		smbsrv_acl_ids_of(inode, &now);
		ids = &now;
	}
	err = smbsrv_acl_sys_get(inode, &s);
	if (err)
		return err;
	if (acls)
		*acls = s.acc || s.def;
	err = smbsrv_acl_sys_hash(ids, &s, true, sys);
	smbsrv_acl_sys_put(&s);
	if (err)
		return err;
	n = smb_ntacl_blob_encode(NULL, 0, sd, sys);
	if (n > SMB_NTACL_MAX)
		return -E2BIG;
	blob = kvmalloc(n, GFP_KERNEL);
	if (!blob)
		return -ENOMEM;
	smb_ntacl_blob_encode(blob, n, sd, sys);
	sha256(blob + SMB_NTACL_V4_SD, n - SMB_NTACL_V4_SD,
	       blob + SMB_NTACL_V4_HASH);
	err = mnt_want_write(path->mnt);
	if (!err) {
		/* security.* takes CAP_SYS_ADMIN; the checks were ours. */
		err = smbsrv_acl_priv_begin(&priv, CAP_SYS_ADMIN);
		if (!err) {
			err = vfs_setxattr(mnt_idmap(path->mnt), path->dentry,
					   SMB_NTACL_XATTR, blob, n, 0);
			smbsrv_acl_priv_end(&priv);
		}
		mnt_drop_write(path->mnt);
	}
	kvfree(blob);
	return err;
}

/* chown/chgrp (with CAP_CHOWN: checked here first) and chmod. */
static int smbsrv_acl_setattr(const struct path *path, struct iattr *ia)
{
	struct inode *inode = d_inode(path->dentry);
	struct smbsrv_acl_priv priv;
	bool chown = ia->ia_valid & (ATTR_UID | ATTR_GID);
	int err;

	if (!ia->ia_valid)
		return 0;
	ia->ia_valid |= ATTR_CTIME;
	err = mnt_want_write(path->mnt);
	if (err)
		return err;
	if (chown)
		err = smbsrv_acl_priv_begin(&priv, CAP_CHOWN);
	if (!err) {
		inode_lock(inode);
		err = notify_change(mnt_idmap(path->mnt), path->dentry, ia,
				    NULL);
		inode_unlock(inode);
		if (chown)
			smbsrv_acl_priv_end(&priv);
	}
	mnt_drop_write(path->mnt);
	return err;
}

/* The permission bits @sd's DACL stands for on @inode (acl.h). */
static umode_t smbsrv_acl_mode(const struct smb_sd *sd, struct inode *inode,
			       kuid_t uid, kgid_t gid)
{
	struct smb_posix_owner po = {
		.uid = from_kuid(&init_user_ns, uid),
		.gid = from_kgid(&init_user_ns, gid),
		.dir = S_ISDIR(inode->i_mode),
	};
	u32 mode;

	if (smb_sd_to_mode(sd, &po, &mode))
		return inode->i_mode & 07777;
	if (mode & ~0777)
		return mode & 07777;	/* an S-1-5-88-3 ACE's mode */
	return mode | (inode->i_mode & 07000);
}

/* ---- access ---------------------------------------------------------------- */

static u32 smbsrv_acl_rights(const struct smbsrv_tree *tree,
			     struct dentry *dentry, int *err)
{
	struct smb_token tok;
	struct smbsrv_sd s;
	u32 a;

	*err = smbsrv_sd_load(dentry, &s);
	if (*err)
		return 0;
	smbsrv_acl_token(tree, &tok);
	a = smb_sd_maximal(&s.sd, &tok);
	smbsrv_sd_free(&s);
	return a;
}

u32 smbsrv_acl_maximal_access(const struct smbsrv_tree *tree,
			      const struct path *path)
{
	struct dentry *dentry = path->dentry, *parent;
	u32 a;
	int err;

	a = smbsrv_acl_rights(tree, dentry, &err);
	if (err)
		return 0;
	/* SACL access is never part of what MAXIMUM_ALLOWED grants. */
	a = (a & ~ACCESS_SYSTEM_SECURITY) | FILE_READ_ATTRIBUTES;
	/* DELETE_CHILD on the parent allows a delete (never the root). */
	if (!(a & DELETE) && dentry != tree->root.dentry && !IS_ROOT(dentry)) {
		parent = dget_parent(dentry);
		if (smbsrv_acl_rights(tree, parent, &err) & FILE_DELETE_CHILD)
			a |= DELETE;
		dput(parent);
	}
	if (tree->share_flags & SMBSRV_SHARE_FLAGS_READ_ONLY)
		a &= ~FILE_MODIFY_ACCESS;
	return a;
}

bool smbsrv_acl_may_see(const struct smbsrv_tree *tree,
			const struct path *path)
{
	const u32 need = FILE_READ_DATA | FILE_READ_EA | FILE_READ_ATTRIBUTES |
			 READ_CONTROL;
	int err;

	return (smbsrv_acl_rights(tree, path->dentry, &err) & need) == need &&
	       !err;
}

u32 smbsrv_acl_may_create(const struct smbsrv_tree *tree,
			  const struct path *parent, bool dir)
{
	u32 need = dir ? FILE_ADD_SUBDIRECTORY : FILE_ADD_FILE;
	int err;

	if (tree->share_flags & SMBSRV_SHARE_FLAGS_READ_ONLY)
		return STATUS_ACCESS_DENIED;
	if (!(smbsrv_acl_rights(tree, parent->dentry, &err) & need))
		return err ? smbsrv_errno_status(err) : STATUS_ACCESS_DENIED;
	return STATUS_SUCCESS;
}

/* ---- owners ---------------------------------------------------------------- */

/*
 * An owner a user may give a file: its own SID, or a SID that is no Unix
 * user (Everyone, BUILTIN\Administrators, a domain's SID, a Unix group's
 * SID: kept in the descriptor, the file's POSIX owner stays); never
 * another Unix user (that would be chown, a privilege).  Root may give
 * any.  Windows lets a user without privileges give only itself; but one
 * that holds WRITE_OWNER and WRITE_DAC can already grant anyone anything,
 * so naming a SID that is no Unix user gives nobody more than that.
 */
static u32 smbsrv_acl_check_owner(const struct smb_token *tok,
				  const struct smb_sid *sid)
{
	u32 uid;

	if ((tok->flags & SMB_TOKEN_ADMIN) || !smb_sid_to_uid(sid, &uid) ||
	    uid == tok->uid)
		return STATUS_SUCCESS;
	return STATUS_INVALID_OWNER;
}

/*
 * The owner and group changes @sd makes to @inode: a Unix user's SID is
 * the owner; a Unix group's the group when the user is in it (or root).
 * Other SIDs stay in the descriptor only.
 */
static void smbsrv_acl_ids(const struct smb_token *tok, const struct smb_sd *sd,
			   struct inode *inode, struct iattr *ia)
{
	u32 id;

	if (sd->has_owner && smb_sid_to_uid(&sd->owner, &id) &&
	    uid_valid(make_kuid(&init_user_ns, id)) &&
	    !uid_eq(make_kuid(&init_user_ns, id), inode->i_uid)) {
		ia->ia_valid |= ATTR_UID;
		ia->ia_uid = make_kuid(&init_user_ns, id);
	}
	if (sd->has_group && smb_sid_to_gid(&sd->group, &id) &&
	    gid_valid(make_kgid(&init_user_ns, id)) &&
	    !gid_eq(make_kgid(&init_user_ns, id), inode->i_gid) &&
	    ((tok->flags & SMB_TOKEN_ADMIN) || id == tok->gid ||
	     tok->in_group(tok->ctx, id))) {
		ia->ia_valid |= ATTR_GID;
		ia->ia_gid = make_kgid(&init_user_ns, id);
	}
}

/* ---- new objects ----------------------------------------------------------- */

u32 smbsrv_acl_check_secd(const struct smbsrv_tree *tree, const u8 *secd,
			  u32 len)
{
	struct smb_token tok;
	struct smb_sd sd;

	if (smb_sd_decode(secd, len, &sd))
		return STATUS_INVALID_SECURITY_DESCR;
	smbsrv_acl_token(tree, &tok);
	if (sd.has_owner && smbsrv_acl_check_owner(&tok, &sd.owner))
		return STATUS_INVALID_OWNER;
	if ((sd.control & SE_SACL_PRESENT) && !(tok.flags & SMB_TOKEN_ADMIN))
		return STATUS_PRIVILEGE_NOT_HELD;
	return STATUS_SUCCESS;
}

u32 smbsrv_acl_new_object(const struct smbsrv_tree *tree,
			  const struct path *parent, const struct path *obj,
			  bool dir, const u8 *secd, u32 len, umode_t mask,
			  umode_t force)
{
	struct inode *inode = d_inode(obj->dentry);
	struct smb_sd creator, *pcreator = NULL;
	struct smbsrv_sd psd, nsd = {};
	struct smbsrv_acl_ids ids;
	bool acls = false;
	struct smb_sid owner, group;
	struct iattr ia = {};
	struct smb_token tok;
	kuid_t uid = inode->i_uid;
	kgid_t gid = inode->i_gid;
	umode_t mode;
	int n, err;

	if (secd) {
		if (smb_sd_decode(secd, len, &creator))
			return STATUS_INVALID_SECURITY_DESCR;
		pcreator = &creator;
	}
	err = smbsrv_sd_load(parent->dentry, &psd);
	if (err)
		return smbsrv_errno_status(err);
	smb_sid_unix_user(&owner, from_kuid(&init_user_ns, uid));
	smb_sid_unix_group(&group, from_kgid(&init_user_ns, gid));
	n = smb_sd_create(NULL, 0, &psd.sd, pcreator, dir, &owner, &group);
	if (n > 0) {
		nsd.len = n;
		nsd.buf = kmalloc(n, GFP_KERNEL);
		if (!nsd.buf)
			n = -ENOMEM;
		else
			smb_sd_create(nsd.buf, n, &psd.sd, pcreator, dir,
				      &owner, &group);
	}
	smbsrv_sd_free(&psd);
	if (n < 0)
		return n == -ENOMEM ? STATUS_INSUFFICIENT_RESOURCES :
				      STATUS_INVALID_SECURITY_DESCR;
	if (smb_sd_decode(nsd.buf, nsd.len, &nsd.sd)) {
		smbsrv_sd_free(&nsd);
		return STATUS_INVALID_SECURITY_DESCR;
	}
	smbsrv_acl_token(tree, &tok);
	smbsrv_acl_ids(&tok, &nsd.sd, inode, &ia);
	if (ia.ia_valid & ATTR_UID)
		uid = ia.ia_uid;
	if (ia.ia_valid & ATTR_GID)
		gid = ia.ia_gid;
	mode = (smbsrv_acl_mode(&nsd.sd, inode, uid, gid) & mask & 0777) |
	       force;
	if ((inode->i_mode & 07777) != mode) {
		ia.ia_valid |= ATTR_MODE;
		ia.ia_mode = mode | (inode->i_mode & S_IFMT);
	}
	/*
	 * The object was made with mode 0: until the descriptor is in place
	 * it gives nobody anything.  The blob is written for the owner,
	 * group and mode it is about to have (stale, so still nobody), then
	 * those are set; POSIX ACLs inherited from the parent change with
	 * the mode, and the blob is written again for them.
	 */
	ids.uid = uid;
	ids.gid = gid;
	ids.mode = (ia.ia_valid & ATTR_MODE) ? ia.ia_mode : inode->i_mode;
	err = smbsrv_sd_store(obj, &nsd.sd, &ids, &acls);
	if (!err)
		err = smbsrv_acl_setattr(obj, &ia);
	if (!err && acls)
		err = smbsrv_sd_store(obj, &nsd.sd, NULL, NULL);
	smbsrv_sd_free(&nsd);
	if (err)
		pr_debug("smbsrv: descriptor of a new object: error %d\n", err);
	return smbsrv_errno_status(err);
}

/* ---- QUERY_INFO and SET_INFO ------------------------------------------------ */

int smbsrv_acl_query(const struct smbsrv_tree *tree, struct smbsrv_file *f,
		     u32 info, u8 **buf, u32 *len)
{
	struct smbsrv_sd s;
	int err;

	err = smbsrv_sd_load(f->filp->f_path.dentry, &s);
	if (err)
		return err;
	*len = smb_sd_select(NULL, 0, &s.sd, info);
	*buf = kmalloc(*len, GFP_KERNEL);
	if (*buf)
		smb_sd_select(*buf, *len, &s.sd, info);
	else
		err = -ENOMEM;
	smbsrv_sd_free(&s);
	return err;
}

u32 smbsrv_acl_set(const struct smbsrv_tree *tree, struct smbsrv_file *f,
		   u32 info, const u8 *sd, u32 len)
{
	const struct path *path = &f->filp->f_path;
	struct inode *inode = d_inode(path->dentry);
	struct smbsrv_sd cur, nsd = {};
	struct smb_token tok;
	struct iattr ia = {};
	struct smb_sd req;
	kuid_t uid;
	kgid_t gid;
	umode_t mode;
	int err;

	info &= OWNER_SECURITY_INFORMATION | GROUP_SECURITY_INFORMATION |
		DACL_SECURITY_INFORMATION | SACL_SECURITY_INFORMATION;
	if (smb_sd_decode(sd, len, &req))
		return STATUS_INVALID_SECURITY_DESCR;
	if (!info)
		return STATUS_SUCCESS;
	err = smbsrv_sd_load(path->dentry, &cur);
	if (err)
		return smbsrv_errno_status(err);
	/* A new owner must be one the user may give (the same one is). */
	smbsrv_acl_token(tree, &tok);
	if ((info & OWNER_SECURITY_INFORMATION) && req.has_owner &&
	    !(cur.sd.has_owner && smb_sid_equal(&req.owner, &cur.sd.owner)) &&
	    smbsrv_acl_check_owner(&tok, &req.owner)) {
		smbsrv_sd_free(&cur);
		return STATUS_INVALID_OWNER;
	}
	nsd.len = smb_sd_merge(NULL, 0, &cur.sd, &req, info);
	nsd.buf = kmalloc(nsd.len, GFP_KERNEL);
	if (nsd.buf) {
		smb_sd_merge(nsd.buf, nsd.len, &cur.sd, &req, info);
		if (smb_sd_decode(nsd.buf, nsd.len, &nsd.sd))
			err = -EINVAL;
	} else {
		err = -ENOMEM;
	}
	smbsrv_sd_free(&cur);
	if (err)
		goto out;
	smbsrv_acl_ids(&tok, &nsd.sd, inode, &ia);
	uid = ia.ia_valid & ATTR_UID ? ia.ia_uid : inode->i_uid;
	gid = ia.ia_valid & ATTR_GID ? ia.ia_gid : inode->i_gid;
	if ((info & DACL_SECURITY_INFORMATION) && !S_ISLNK(inode->i_mode)) {
		mode = smbsrv_acl_mode(&nsd.sd, inode, uid, gid);
		if (mode != (inode->i_mode & 07777)) {
			ia.ia_valid |= ATTR_MODE;
			ia.ia_mode = mode | (inode->i_mode & S_IFMT);
		}
	}
	err = smbsrv_acl_setattr(path, &ia);
	if (!err)
		err = smbsrv_sd_store(path, &nsd.sd, NULL, NULL);
out:
	smbsrv_sd_free(&nsd);
	return smbsrv_errno_status(err);
}
