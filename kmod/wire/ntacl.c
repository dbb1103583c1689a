// SPDX-License-Identifier: GPL-2.0
/*
 * NT ACLs: access checks, inheritance, descriptors set and queried.
 */
#include "compat.h"
#include "fscc.h"
#include "ntacl.h"

/* ---- SIDs and tokens ----------------------------------------------------- */

#define SMB_AUTH_WORLD		1
#define SMB_AUTH_CREATOR	3
#define SMB_AUTH_NT		5

void smb_sid_creator_owner(struct smb_sid *sid)
{
	smb_sid_make(sid, SMB_AUTH_CREATOR, 1, 0, 0, 0);
}

void smb_sid_creator_group(struct smb_sid *sid)
{
	smb_sid_make(sid, SMB_AUTH_CREATOR, 1, 1, 0, 0);
}

void smb_sid_system(struct smb_sid *sid)
{
	smb_sid_make(sid, SMB_AUTH_NT, 1, 18, 0, 0);
}

/* S-1-@auth-@rid */
static bool smb_sid_is1(const struct smb_sid *sid, u8 auth, u32 rid)
{
	return smb_sid_is(sid, auth, 1) && sid->sub[0] == rid;
}

static bool smb_sid_is_creator(const struct smb_sid *sid, u32 rid)
{
	return smb_sid_is1(sid, SMB_AUTH_CREATOR, rid);
}

/* S-1-3-4: what the owner gets, when a DACL says it. */
static bool smb_sid_is_owner_rights(const struct smb_sid *sid)
{
	return smb_sid_is_creator(sid, 4);
}

/* S-1-5-32-@rid: a BUILTIN alias. */
static bool smb_sid_is_builtin(const struct smb_sid *sid, u32 rid)
{
	return smb_sid_is(sid, SMB_AUTH_NT, 2) && sid->sub[0] == 32 &&
	       sid->sub[1] == rid;
}

bool smb_sids_sorted(const struct smb_sid *sids, u32 n)
{
	u32 i;

	for (i = 1; i < n; i++)
		if (smb_sid_cmp(&sids[i - 1], &sids[i]) >= 0)
			return false;
	return true;
}

bool smb_sids_find(const struct smb_sid *sids, u32 n,
		   const struct smb_sid *sid)
{
	u32 lo = 0, hi = n, mid;
	int c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = smb_sid_cmp(sid, &sids[mid]);
		if (!c)
			return true;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return false;
}

/* The SIDs a token has by its Unix identity and logon kind. */
static bool smb_token_has_unix_sid(const struct smb_token *tok,
				   const struct smb_sid *sid)
{
	bool authed = tok->flags & SMB_TOKEN_AUTHENTICATED;
	u32 id;

	if (smb_sid_to_uid(sid, &id))
		return id == tok->uid;
	if (smb_sid_to_gid(sid, &id))
		return id == tok->gid ||
		       (tok->in_group && tok->in_group(tok->ctx, id));
	if (smb_sid_is1(sid, SMB_AUTH_WORLD, 0))	/* Everyone */
		return true;
	if (smb_sid_is1(sid, SMB_AUTH_NT, 2))		/* NETWORK */
		return true;
	if (smb_sid_is1(sid, SMB_AUTH_NT, 11))		/* Authenticated Users */
		return authed;
	if (smb_sid_is1(sid, SMB_AUTH_NT, 7))		/* ANONYMOUS LOGON */
		return tok->flags & SMB_TOKEN_ANONYMOUS;
	if (smb_sid_is_builtin(sid, 545))		/* Users */
		return authed;
	if (smb_sid_is_builtin(sid, 546))		/* Guests */
		return tok->flags & SMB_TOKEN_GUEST;
	if (smb_sid_is_builtin(sid, 544))		/* Administrators */
		return tok->flags & SMB_TOKEN_ADMIN;
	return false;
}

bool smb_token_has_sid(const struct smb_token *tok, const struct smb_sid *sid)
{
	return smb_token_has_unix_sid(tok, sid) ||
	       smb_sids_find(tok->sids, tok->nsids, sid);
}

/* ---- access checks (MS-DTYP 2.5.3.2) -------------------------------------- */

u32 smb_access_map_generic(u32 mask)
{
	if (mask & GENERIC_READ)
		mask |= FILE_GENERIC_READ;
	if (mask & GENERIC_WRITE)
		mask |= FILE_GENERIC_WRITE;
	if (mask & GENERIC_EXECUTE)
		mask |= FILE_GENERIC_EXECUTE;
	if (mask & GENERIC_ALL)
		mask |= FILE_ALL_ACCESS;
	return mask & ~(GENERIC_READ | GENERIC_WRITE | GENERIC_EXECUTE |
			GENERIC_ALL);
}

static bool smb_ace_counts(const struct smb_ace *ace)
{
	return ace->has_sid && !(ace->flags & INHERIT_ONLY_ACE) &&
	       (ace->type == ACCESS_ALLOWED_ACE_TYPE ||
		ace->type == ACCESS_DENIED_ACE_TYPE);
}

u32 smb_sd_maximal(const struct smb_sd *sd, const struct smb_token *tok)
{
	u32 granted = 0, denied = 0, pos = 0, mask;
	bool owner, owner_rights = false;
	struct smb_ace ace;

	if (tok->flags & SMB_TOKEN_ADMIN)
		return FILE_ALL_ACCESS | ACCESS_SYSTEM_SECURITY;
	if (!sd->dacl)
		return FILE_ALL_ACCESS;
	owner = sd->has_owner && smb_token_has_sid(tok, &sd->owner);
	if (owner) {
		while (smb_acl_next(sd->dacl, sd->dacl_len, &pos, &ace) > 0)
			if (smb_ace_counts(&ace) &&
			    smb_sid_is_owner_rights(&ace.sid))
				owner_rights = true;
		if (!owner_rights)
			granted = READ_CONTROL | WRITE_DAC;
		pos = 0;
	}
	while (smb_acl_next(sd->dacl, sd->dacl_len, &pos, &ace) > 0) {
		if (!smb_ace_counts(&ace))
			continue;
		if (!smb_token_has_sid(tok, &ace.sid) &&
		    !(owner && smb_sid_is_owner_rights(&ace.sid)))
			continue;
		mask = smb_access_map_generic(ace.mask);
		if (ace.type == ACCESS_ALLOWED_ACE_TYPE)
			granted |= mask & ~denied;
		else
			denied |= mask & ~granted;
	}
	return granted;
}

/* ---- building ACLs and descriptors ------------------------------------- */

/* A bounded writer: counts everything, writes only with a buffer. */
struct smb_wr {
	u8 *buf;
	u32 len;
};

static void smb_wr_put(struct smb_wr *w, const void *p, u32 n)
{
	if (w->buf)
		memcpy(w->buf + w->len, p, n);
	w->len += n;
}

static void smb_wr_sid(struct smb_wr *w, const struct smb_sid *sid)
{
	u8 b[8 + 4 * SMB_SID_MAX_SUB];

	smb_sid_encode(b, sid);
	smb_wr_put(w, b, smb_sid_size(sid));
}

/* An ACL under construction in a writer: its start and ACE count. */
struct smb_acl_wr {
	struct smb_wr *w;
	u32 start;
	u32 count;
};

static void smb_acl_begin(struct smb_acl_wr *a, struct smb_wr *w)
{
	static const u8 hdr[SMB_ACL_HDR_SIZE];

	a->w = w;
	a->start = w->len;
	a->count = 0;
	smb_wr_put(w, hdr, sizeof(hdr));
}

static void smb_acl_ace(struct smb_acl_wr *a, u8 type, u8 flags, u32 mask,
			const struct smb_sid *sid)
{
	u8 h[8];

	h[0] = type;
	h[1] = flags;
	put_unaligned_le16((u16)(8 + smb_sid_size(sid)), h + 2);
	put_unaligned_le32(mask, h + 4);
	smb_wr_put(a->w, h, sizeof(h));
	smb_wr_sid(a->w, sid);
	a->count++;
}

/* An ACE as it is (types this code does not interpret). */
static void smb_acl_raw(struct smb_acl_wr *a, const u8 *acl,
			const struct smb_ace *ace)
{
	smb_wr_put(a->w, acl + ace->off, ace->size);
	a->count++;
}

/* Close the ACL: its header.  -EINVAL when it outgrew 64 KiB. */
static int smb_acl_end(struct smb_acl_wr *a, u8 revision)
{
	u32 size = a->w->len - a->start;
	u8 *h;

	if (size > SMB_ACL_MAX || a->count > 0xffff)
		return -EINVAL;
	if (a->w->buf) {
		h = a->w->buf + a->start;
		h[0] = revision;
		h[1] = 0;
		put_unaligned_le16((u16)size, h + 2);
		put_unaligned_le16((u16)a->count, h + 4);
		put_unaligned_le16(0, h + 6);
	}
	return 0;
}

/*
 * Copy an ACL, generic rights mapped in the allow, deny and audit ACEs
 * that are not inherit-only (the others as they are).  It was validated
 * when its descriptor was decoded; no ACE grows.
 */
static void smb_acl_copy_mapped(struct smb_wr *w, const u8 *acl, u32 len)
{
	struct smb_acl_wr a;
	struct smb_ace ace;
	u32 pos = 0;

	smb_acl_begin(&a, w);
	while (smb_acl_next(acl, len, &pos, &ace) > 0) {
		if (ace.has_sid && !(ace.flags & INHERIT_ONLY_ACE) &&
		    ace.type <= SYSTEM_AUDIT_ACE_TYPE)
			smb_acl_ace(&a, ace.type, ace.flags,
				    smb_access_map_generic(ace.mask), &ace.sid);
		else
			smb_acl_raw(&a, acl, &ace);
	}
	smb_acl_end(&a, acl[0]);
}

static void smb_sd_write(struct smb_wr *w, const struct smb_sd_parts *p)
{
	u8 hdr[SMB_SD_HDR_SIZE] = { 1 };
	u16 control = p->control | SE_SELF_RELATIVE;
	u32 at = w->len;

	smb_wr_put(w, hdr, sizeof(hdr));
	if (p->owner) {
		put_unaligned_le32(w->len - at, hdr + 4);
		smb_wr_sid(w, p->owner);
	}
	if (p->group) {
		put_unaligned_le32(w->len - at, hdr + 8);
		smb_wr_sid(w, p->group);
	}
	if ((control & SE_SACL_PRESENT) && p->sacl) {
		put_unaligned_le32(w->len - at, hdr + 12);
		if (p->map_sacl)
			smb_acl_copy_mapped(w, p->sacl, p->sacl_len);
		else
			smb_wr_put(w, p->sacl, p->sacl_len);
	}
	if ((control & SE_DACL_PRESENT) && p->dacl) {
		put_unaligned_le32(w->len - at, hdr + 16);
		if (p->map_dacl)
			smb_acl_copy_mapped(w, p->dacl, p->dacl_len);
		else
			smb_wr_put(w, p->dacl, p->dacl_len);
	}
	put_unaligned_le16(control, hdr + 2);
	if (w->buf)
		memcpy(w->buf + at, hdr, sizeof(hdr));
}

u32 smb_sd_encode(u8 *buf, u32 cap, const struct smb_sd_parts *p)
{
	struct smb_wr w = {};

	smb_sd_write(&w, p);
	if (buf && w.len <= cap) {
		w.buf = buf;
		w.len = 0;
		smb_sd_write(&w, p);
	}
	return w.len;
}

void smb_sd_parts_of(const struct smb_sd *sd, struct smb_sd_parts *p)
{
	memset(p, 0, sizeof(*p));
	p->control = sd->control & ~SE_SELF_RELATIVE;
	p->owner = sd->has_owner ? &sd->owner : NULL;
	p->group = sd->has_group ? &sd->group : NULL;
	p->dacl = sd->dacl;
	p->dacl_len = sd->dacl_len;
	p->sacl = sd->sacl;
	p->sacl_len = sd->sacl_len;
}

#define SMB_DACL_CONTROL	(SE_DACL_PRESENT | SE_DACL_DEFAULTED | \
				 SE_DACL_AUTO_INHERITED | SE_DACL_PROTECTED | \
				 SE_DACL_AUTO_INHERIT_REQ)
#define SMB_SACL_CONTROL	(SE_SACL_PRESENT | 0x0020 /* defaulted */ | \
				 SE_SACL_AUTO_INHERITED | SE_SACL_PROTECTED | \
				 SE_SACL_AUTO_INHERIT_REQ)

u32 smb_sd_select(u8 *buf, u32 cap, const struct smb_sd *sd, u32 info)
{
	struct smb_sd_parts p;

	smb_sd_parts_of(sd, &p);
	if (!(info & OWNER_SECURITY_INFORMATION)) {
		p.owner = NULL;
		p.control &= ~SE_OWNER_DEFAULTED;
	}
	if (!(info & GROUP_SECURITY_INFORMATION)) {
		p.group = NULL;
		p.control &= ~SE_GROUP_DEFAULTED;
	}
	if (!(info & DACL_SECURITY_INFORMATION))
		p.control &= ~SMB_DACL_CONTROL;
	if (!(info & SACL_SECURITY_INFORMATION))
		p.control &= ~SMB_SACL_CONTROL;
	return smb_sd_encode(buf, cap, &p);
}

/* SET_INFO's rules for the control bits of an ACL sent (see ntacl.h). */
static u16 smb_control_set(u16 sent, u16 present, u16 protected,
			   u16 inherited, u16 req)
{
	u16 c = present | (sent & protected);

	if ((sent & inherited) && (sent & req))
		c |= inherited;
	return c;
}

u32 smb_sd_merge(u8 *buf, u32 cap, const struct smb_sd *cur,
		 const struct smb_sd *req, u32 info)
{
	struct smb_sd_parts p;

	smb_sd_parts_of(cur, &p);
	if ((info & OWNER_SECURITY_INFORMATION) && req->has_owner) {
		p.owner = &req->owner;
		p.control &= ~SE_OWNER_DEFAULTED;
	}
	if ((info & GROUP_SECURITY_INFORMATION) && req->has_group) {
		p.group = &req->group;
		p.control &= ~SE_GROUP_DEFAULTED;
	}
	if (info & DACL_SECURITY_INFORMATION) {
		p.control &= ~SMB_DACL_CONTROL;
		p.control |= smb_control_set(req->control, SE_DACL_PRESENT,
					     SE_DACL_PROTECTED,
					     SE_DACL_AUTO_INHERITED,
					     SE_DACL_AUTO_INHERIT_REQ);
		p.dacl = req->dacl;
		p.dacl_len = req->dacl_len;
		p.map_dacl = true;
	}
	if (info & SACL_SECURITY_INFORMATION) {
		p.control &= ~SMB_SACL_CONTROL;
		p.control |= smb_control_set(req->control, SE_SACL_PRESENT,
					     SE_SACL_PROTECTED,
					     SE_SACL_AUTO_INHERITED,
					     SE_SACL_AUTO_INHERIT_REQ);
		p.sacl = req->sacl;
		p.sacl_len = req->sacl_len;
		p.map_sacl = true;
	}
	return smb_sd_encode(buf, cap, &p);
}

/* ---- inheritance (MS-DTYP 2.5.3.4) --------------------------------------- */

static bool smb_ace_inheritable(const struct smb_ace *ace, bool container)
{
	if (!ace->has_sid || ace->type > SYSTEM_AUDIT_ACE_TYPE)
		return false;
	if (!container)
		return ace->flags & OBJECT_INHERIT_ACE;
	if (ace->flags & CONTAINER_INHERIT_ACE)
		return true;
	return (ace->flags & OBJECT_INHERIT_ACE) &&
	       !(ace->flags & NO_PROPAGATE_INHERIT_ACE);
}

#define SMB_GENERIC_ALL_BITS	(GENERIC_READ | GENERIC_WRITE | \
				 GENERIC_EXECUTE | GENERIC_ALL)

static int smb_acl_inherit_write(struct smb_wr *w, const u8 *acl, u32 len,
				 bool container, bool auto_inherited,
				 const struct smb_sid *owner,
				 const struct smb_sid *group)
{
	u8 inh = auto_inherited ? INHERITED_ACE : 0, flags;
	const struct smb_sid *sid;
	struct smb_acl_wr a;
	struct smb_ace ace;
	u32 pos = 0;
	bool creator, effective, passed_on;

	smb_acl_begin(&a, w);
	while (smb_acl_next(acl, len, &pos, &ace) > 0) {
		if (!smb_ace_inheritable(&ace, container))
			continue;
		creator = smb_sid_is_creator(&ace.sid, 0) ||
			  smb_sid_is_creator(&ace.sid, 1);
		sid = smb_sid_is_creator(&ace.sid, 0) ? owner :
		      smb_sid_is_creator(&ace.sid, 1) ? group : &ace.sid;
		if (!container) {
			/* A file: an effective ACE, nothing passed on. */
			smb_acl_ace(&a, ace.type, inh,
				    smb_access_map_generic(ace.mask), sid);
			continue;
		}
		/* What the directory passes on, and whether it applies to it. */
		effective = ace.flags & CONTAINER_INHERIT_ACE;
		passed_on = !(ace.flags & NO_PROPAGATE_INHERIT_ACE);
		flags = ace.flags & (OBJECT_INHERIT_ACE | CONTAINER_INHERIT_ACE);
		if (!effective) {
			/* OBJECT_INHERIT only: kept for files further down. */
			smb_acl_ace(&a, ace.type, flags | INHERIT_ONLY_ACE | inh,
				    ace.mask, &ace.sid);
			continue;
		}
		if (!passed_on) {
			smb_acl_ace(&a, ace.type, inh,
				    smb_access_map_generic(ace.mask), sid);
			continue;
		}
		if (creator || (ace.mask & SMB_GENERIC_ALL_BITS)) {
			/* Split: what applies here, and the original. */
			smb_acl_ace(&a, ace.type, inh,
				    smb_access_map_generic(ace.mask), sid);
			smb_acl_ace(&a, ace.type, flags | INHERIT_ONLY_ACE | inh,
				    ace.mask, &ace.sid);
			continue;
		}
		smb_acl_ace(&a, ace.type, flags | inh, ace.mask, sid);
	}
	if (smb_acl_end(&a, SMB_ACL_REVISION))
		return -EINVAL;
	return (int)a.count;
}

int smb_acl_inherit(u8 *buf, u32 cap, u32 *size, const u8 *acl, u32 len,
		    bool container, bool auto_inherited,
		    const struct smb_sid *owner, const struct smb_sid *group)
{
	struct smb_wr w = {};
	int n;

	n = smb_acl_inherit_write(&w, acl, len, container, auto_inherited,
				  owner, group);
	if (n < 0)
		return n;
	*size = w.len;
	if (buf && w.len <= cap) {
		w.buf = buf;
		w.len = 0;
		smb_acl_inherit_write(&w, acl, len, container, auto_inherited,
				      owner, group);
	}
	return n;
}

/* The default DACL: full control for the owner and SYSTEM. */
static void smb_acl_default(struct smb_wr *w, const struct smb_sid *owner)
{
	struct smb_acl_wr a;
	struct smb_sid system;

	smb_sid_system(&system);
	smb_acl_begin(&a, w);
	smb_acl_ace(&a, ACCESS_ALLOWED_ACE_TYPE, 0, FILE_ALL_ACCESS, owner);
	smb_acl_ace(&a, ACCESS_ALLOWED_ACE_TYPE, 0, FILE_ALL_ACCESS, &system);
	smb_acl_end(&a, SMB_ACL_REVISION);
}

static int smb_sd_create_write(struct smb_wr *w, const struct smb_sd *parent,
			       const struct smb_sd *creator, bool container,
			       const struct smb_sid *owner,
			       const struct smb_sid *group)
{
	u8 hdr[SMB_SD_HDR_SIZE] = { 1 };
	u16 control = SE_SELF_RELATIVE | SE_DACL_PRESENT;
	u32 at = w->len, acl_len;
	bool auto_inh;
	int n;

	if (creator && creator->has_owner)
		owner = &creator->owner;
	if (creator && creator->has_group)
		group = &creator->group;
	smb_wr_put(w, hdr, sizeof(hdr));
	put_unaligned_le32(w->len - at, hdr + 4);
	smb_wr_sid(w, owner);
	put_unaligned_le32(w->len - at, hdr + 8);
	smb_wr_sid(w, group);
	if (creator && (creator->control & SE_SACL_PRESENT)) {
		control |= SE_SACL_PRESENT |
			   (creator->control & SE_SACL_PROTECTED);
		if (creator->sacl) {
			put_unaligned_le32(w->len - at, hdr + 12);
			smb_acl_copy_mapped(w, creator->sacl,
					    creator->sacl_len);
		}
	}
	if (creator && (creator->control & SE_DACL_PRESENT)) {
		/* The creator's DACL as it is (a NULL one too). */
		control |= creator->control &
			   (SE_DACL_PROTECTED | SE_DACL_AUTO_INHERITED);
		if (creator->dacl) {
			put_unaligned_le32(w->len - at, hdr + 16);
			smb_acl_copy_mapped(w, creator->dacl,
					    creator->dacl_len);
		}
	} else {
		put_unaligned_le32(w->len - at, hdr + 16);
		n = 0;
		auto_inh = parent && (parent->control & SE_DACL_AUTO_INHERITED);
		if (parent && parent->dacl) {
			n = smb_acl_inherit(w->buf ? w->buf + w->len : NULL,
					    ~0u, &acl_len, parent->dacl,
					    parent->dacl_len, container,
					    auto_inh, owner, group);
			if (n < 0)
				return n;
		}
		if (n > 0) {
			w->len += acl_len;
			if (auto_inh)
				control |= SE_DACL_AUTO_INHERITED;
		} else {
			smb_acl_default(w, owner);
		}
	}
	put_unaligned_le16(control, hdr + 2);
	if (w->buf)
		memcpy(w->buf + at, hdr, sizeof(hdr));
	return 0;
}

int smb_sd_create(u8 *buf, u32 cap, const struct smb_sd *parent,
		  const struct smb_sd *creator, bool container,
		  const struct smb_sid *owner, const struct smb_sid *group)
{
	struct smb_wr w = {};
	int err;

	err = smb_sd_create_write(&w, parent, creator, container, owner,
				  group);
	if (err)
		return err;
	if (buf && w.len <= cap) {
		w.buf = buf;
		w.len = 0;
		smb_sd_create_write(&w, parent, creator, container, owner,
				    group);
	}
	return (int)w.len;
}

/* ---- objects without a stored descriptor --------------------------------- */

static u32 smb_rwx_rights(u32 rwx, bool dir)
{
	u32 a = 0;

	if ((rwx & 7) == 7)
		return FILE_ALL_ACCESS;
	if (rwx & 4)
		a |= FILE_GENERIC_READ;
	if (rwx & 2)
		a |= FILE_GENERIC_WRITE | (dir ? FILE_DELETE_CHILD : 0);
	if (rwx & 1)
		a |= FILE_GENERIC_EXECUTE;
	return a;
}

static void smb_sd_from_mode_write(struct smb_wr *w,
				   const struct smb_posix_owner *po)
{
	u8 hdr[SMB_SD_HDR_SIZE] = { 1 };
	struct smb_sid owner, group, world, cowner, cgroup;
	u32 u = (po->mode >> 6) & 7, g = (po->mode >> 3) & 7, o = po->mode & 7;
	u8 inh = OBJECT_INHERIT_ACE | CONTAINER_INHERIT_ACE | INHERIT_ONLY_ACE;
	struct smb_acl_wr a;
	u32 at = w->len;

	smb_sid_unix_user(&owner, po->uid);
	smb_sid_unix_group(&group, po->gid);
	smb_sid_everyone(&world);
	smb_sid_creator_owner(&cowner);
	smb_sid_creator_group(&cgroup);
	smb_wr_put(w, hdr, sizeof(hdr));
	put_unaligned_le32(w->len - at, hdr + 4);
	smb_wr_sid(w, &owner);
	put_unaligned_le32(w->len - at, hdr + 8);
	smb_wr_sid(w, &group);
	put_unaligned_le32(w->len - at, hdr + 16);
	smb_acl_begin(&a, w);
	if (u)
		smb_acl_ace(&a, ACCESS_ALLOWED_ACE_TYPE, 0,
			    smb_rwx_rights(u, po->dir), &owner);
	if (g)
		smb_acl_ace(&a, ACCESS_ALLOWED_ACE_TYPE, 0,
			    smb_rwx_rights(g, po->dir), &group);
	if (o)
		smb_acl_ace(&a, ACCESS_ALLOWED_ACE_TYPE, 0,
			    smb_rwx_rights(o, po->dir), &world);
	if (po->dir) {
		if (u)
			smb_acl_ace(&a, ACCESS_ALLOWED_ACE_TYPE, inh,
				    smb_rwx_rights(u, true), &cowner);
		if (g)
			smb_acl_ace(&a, ACCESS_ALLOWED_ACE_TYPE, inh,
				    smb_rwx_rights(g, true), &cgroup);
		if (o)
			smb_acl_ace(&a, ACCESS_ALLOWED_ACE_TYPE, inh,
				    smb_rwx_rights(o, true), &world);
	}
	smb_acl_end(&a, SMB_ACL_REVISION);
	put_unaligned_le16(SE_SELF_RELATIVE | SE_DACL_PRESENT, hdr + 2);
	if (w->buf)
		memcpy(w->buf + at, hdr, sizeof(hdr));
}

u32 smb_sd_from_mode(u8 *buf, u32 cap, const struct smb_posix_owner *po)
{
	struct smb_wr w = {};

	smb_sd_from_mode_write(&w, po);
	if (buf && w.len <= cap) {
		w.buf = buf;
		w.len = 0;
		smb_sd_from_mode_write(&w, po);
	}
	return w.len;
}
