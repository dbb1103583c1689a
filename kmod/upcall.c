// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: upcalls to the daemon and the daemon's answers.
 *
 * A pending upcall lives in an xarray under its handle.  Whoever removes
 * it from the xarray owns its outcome: the *-done handler (the daemon
 * answered), the daemon-gone path (smbsrv_upcall_cancel) or the waiter
 * itself (timeout, kill, send failure).  The waiter's stack frame holds
 * the upcall, so a waiter that loses that race waits for the winner's
 * complete() before returning; the winner's work is bounded (parsing one
 * message), never a sleep on the daemon.
 */
#include <linux/completion.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/cred.h>
#include <linux/export.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/xarray.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>
#include <net/netlink.h>

#include "netlink-gen.h"
#include "smbsrv.h"
#include "upcall.h"
#include "wire/ntacl.h"
#include "wire/snap.h"

#define STATUS_SUCCESS 0x00000000

struct smbsrv_upcall {
	u32 portid;		/* the daemon socket it was sent to */
	u8 done_cmd;		/* the command that answers it */
	int err;		/* outcome, valid after @done */
	struct completion done;
	/* Parse the daemon's answer into @res; 0 or -errno with extack. */
	int (*parse)(struct smbsrv_upcall *up, struct genl_info *info);
	void *res;
};

static DEFINE_XARRAY_ALLOC1(smbsrv_upcalls);
static u32 smbsrv_upcall_next;

/* Take ownership of a pending upcall: true if nobody else had. */
static bool smbsrv_upcall_claim(u32 handle, struct smbsrv_upcall *up)
{
	return xa_cmpxchg(&smbsrv_upcalls, handle, up, NULL, 0) == up;
}

/*
 * Send @msg (a *-req event still open at @hdr) with the handle appended
 * as @handle_attr, and wait for the outcome.  Consumes @msg.
 */
static int smbsrv_upcall_run(struct smbsrv_upcall *up, struct sk_buff *msg,
			     void *hdr, int handle_attr)
{
	struct smbsrv_server *srv = &smbsrv_server;
	unsigned long timeout;
	u32 handle;
	long left;
	int err;

	init_completion(&up->done);
	up->err = 0;

	mutex_lock(&srv->lock);
	if (!srv->daemon_attached) {
		mutex_unlock(&srv->lock);
		nlmsg_free(msg);
		return -ENOTCONN;
	}
	up->portid = srv->daemon_portid;
	timeout = READ_ONCE(srv->knobs.upcall_timeout) * HZ;
	/*
	 * Allocated under srv->lock so that a daemon detaching after this
	 * point finds the upcall in smbsrv_upcall_cancel().
	 */
	err = xa_alloc_cyclic(&smbsrv_upcalls, &handle, up,
			      XA_LIMIT(1, U32_MAX), &smbsrv_upcall_next,
			      GFP_KERNEL);
	mutex_unlock(&srv->lock);
	if (err < 0) {
		nlmsg_free(msg);
		return err;
	}

	if (nla_put_u32(msg, handle_attr, handle)) {
		nlmsg_free(msg);
		err = -EMSGSIZE;
		goto give_up;
	}
	genlmsg_end(msg, hdr);
	err = genlmsg_unicast(&init_net, msg, up->portid);
	if (err) {
		/* The daemon's socket is gone or its queue is full. */
		if (err == -ECONNREFUSED)
			err = -ENOTCONN;
		else if (err == -EAGAIN)
			err = -ENOBUFS;
		goto give_up;
	}

	left = wait_for_completion_killable_timeout(&up->done, timeout);
	if (left > 0)
		return up->err;
	err = left ? -EINTR : -ETIMEDOUT;

give_up:
	if (smbsrv_upcall_claim(handle, up))
		return err;
	/* Answered or cancelled concurrently: the winner completes soon. */
	wait_for_completion(&up->done);
	return up->err;
}

/* Start a *-req event; NULL without memory. */
static struct sk_buff *smbsrv_upcall_msg(u8 cmd, size_t payload, void **hdr)
{
	struct sk_buff *msg;

	msg = genlmsg_new(NLMSG_GOODSIZE + payload, GFP_KERNEL);
	if (!msg)
		return NULL;
	*hdr = genlmsg_put(msg, 0, 0, &smbsrv_nl_family, 0, cmd);
	if (!*hdr) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

/*
 * The common half of every *-done handler: find the upcall the answer is
 * for, make sure it comes from the socket the upcall went to, parse it
 * and wake the waiter.
 */
static int smbsrv_upcall_answer(struct genl_info *info, int handle_attr,
				u8 done_cmd)
{
	struct smbsrv_upcall *up;
	u32 handle;
	int err;

	if (genl_info_net(info) != &init_net)
		return -EOPNOTSUPP;
	if (GENL_REQ_ATTR_CHECK(info, handle_attr))
		return -EINVAL;
	handle = nla_get_u32(info->attrs[handle_attr]);

	xa_lock(&smbsrv_upcalls);
	up = xa_load(&smbsrv_upcalls, handle);
	if (!up || up->done_cmd != done_cmd) {
		xa_unlock(&smbsrv_upcalls);
		NL_SET_ERR_MSG_FMT(info->extack,
				   "no upcall %u of this kind is pending (it may have timed out)",
				   handle);
		return -ENOENT;
	}
	if (up->portid != info->snd_portid) {
		xa_unlock(&smbsrv_upcalls);
		NL_SET_ERR_MSG(info->extack,
			       "upcall answered from another socket than the daemon's");
		return -EPERM;
	}
	__xa_erase(&smbsrv_upcalls, handle);
	xa_unlock(&smbsrv_upcalls);

	err = up->parse(up, info);
	up->err = err ? -EPROTO : 0;
	complete(&up->done);
	return err;
}

/*
 * Fail the pending upcalls sent to @portid (all of them if @all).  An
 * upcall is only looked at under the xarray's lock: outside it, its waiter
 * may have claimed it and returned, taking the upcall's memory with it.
 */
static void smbsrv_upcall_fail(u32 portid, bool all)
{
	struct smbsrv_upcall *up;
	unsigned long handle;

	xa_lock(&smbsrv_upcalls);
	xa_for_each(&smbsrv_upcalls, handle, up) {
		if (!all && up->portid != portid)
			continue;
		__xa_erase(&smbsrv_upcalls, handle);
		up->err = -ENOTCONN;
		complete(&up->done);
	}
	xa_unlock(&smbsrv_upcalls);
}

void smbsrv_upcall_cancel(u32 portid)
{
	smbsrv_upcall_fail(portid, false);
}

void smbsrv_upcall_cancel_all(void)
{
	smbsrv_upcall_fail(0, true);
}

/* Put a string the spec bounds to @max bytes (NUL excluded). */
static int smbsrv_put_str(struct sk_buff *msg, int attr, const char *s,
			  size_t max)
{
	if (!s || strnlen(s, max + 1) > max)
		return -EINVAL;
	return nla_put_string(msg, attr, s);
}

/* Duplicate an optional string attribute; "" when absent. */
static int smbsrv_dup_str(char **dst, const struct nlattr *a)
{
	*dst = a ? nla_strdup(a, GFP_KERNEL) : kstrdup("", GFP_KERNEL);
	return *dst ? 0 : -ENOMEM;
}

/* --- session setup ---------------------------------------------------- */

static int smbsrv_auth_groups(struct smbsrv_auth_result *res,
			      struct genl_info *info)
{
	struct nlattr *a;
	int n = 0, i = 0, rem;
	kgid_t gid;

	nlmsg_for_each_attr_type(a, SMBSRV_A_AUTH_GROUPS, info->nlhdr,
				 GENL_HDRLEN, rem)
		n++;
	if (n > NGROUPS_MAX) {
		NL_SET_ERR_MSG_FMT(info->extack, "more than %d groups",
				   NGROUPS_MAX);
		return -EINVAL;
	}
	res->groups = groups_alloc(n);
	if (!res->groups)
		return -ENOMEM;
	nlmsg_for_each_attr_type(a, SMBSRV_A_AUTH_GROUPS, info->nlhdr,
				 GENL_HDRLEN, rem) {
		gid = make_kgid(&init_user_ns, nla_get_u32(a));
		if (!gid_valid(gid)) {
			NL_SET_ERR_MSG_ATTR(info->extack, a, "invalid group id");
			return -EINVAL;
		}
		res->groups->gid[i++] = gid;
	}
	groups_sort(res->groups);
	return 0;
}

struct smbsrv_sids {
	refcount_t ref;
	u32 count;
	struct smb_sid sid[];
};

struct smbsrv_sids *smbsrv_sids_get(struct smbsrv_sids *s)
{
	if (s)
		refcount_inc(&s->ref);
	return s;
}

const struct smb_sid *smbsrv_sids_list(const struct smbsrv_sids *s, u32 *count)
{
	*count = s ? s->count : 0;
	return s ? s->sid : NULL;
}
EXPORT_SYMBOL_NS_GPL(smbsrv_sids_list, SMBSRV_TEST);

void smbsrv_sids_put(struct smbsrv_sids *s)
{
	if (s && refcount_dec_and_test(&s->ref))
		kvfree(s);
}
EXPORT_SYMBOL_NS_GPL(smbsrv_sids_put, SMBSRV_TEST);

/* The token's SIDs: each exactly one SID, sorted, distinct, bounded. */
static int smbsrv_auth_sids(struct smbsrv_auth_result *res,
			    struct genl_info *info)
{
	struct smbsrv_sids *s;
	struct nlattr *a;
	int n = 0, rem;

	nlmsg_for_each_attr_type(a, SMBSRV_A_AUTH_SID, info->nlhdr,
				 GENL_HDRLEN, rem)
		n++;
	if (!n)
		return 0;
	if (n > SMB_TOKEN_SIDS_MAX) {
		NL_SET_ERR_MSG_FMT(info->extack, "more than %d SIDs",
				   SMB_TOKEN_SIDS_MAX);
		return -EINVAL;
	}
	s = kvmalloc(struct_size(s, sid, n), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	refcount_set(&s->ref, 1);
	s->count = 0;
	nlmsg_for_each_attr_type(a, SMBSRV_A_AUTH_SID, info->nlhdr,
				 GENL_HDRLEN, rem) {
		if (smb_sid_decode(nla_data(a), nla_len(a),
				   &s->sid[s->count]) != nla_len(a)) {
			NL_SET_ERR_MSG_ATTR(info->extack, a, "not one SID");
			goto bad;
		}
		s->count++;
	}
	if (!smb_sids_sorted(s->sid, s->count)) {
		NL_SET_ERR_MSG(info->extack, "SIDs not sorted or repeated");
		goto bad;
	}
	res->sids = s;
	return 0;
bad:
	smbsrv_sids_put(s);
	return -EINVAL;
}

static int smbsrv_auth_parse(struct smbsrv_upcall *up, struct genl_info *info)
{
	struct smbsrv_auth_result *res = up->res;
	struct nlattr **tb = info->attrs;
	struct nlattr *a;
	int err;

	memset(res, 0, sizeof(*res));
	res->uid = INVALID_UID;
	res->gid = INVALID_GID;
	if (GENL_REQ_ATTR_CHECK(info, SMBSRV_A_AUTH_STATUS))
		return -EINVAL;
	res->status = nla_get_u32(tb[SMBSRV_A_AUTH_STATUS]);

	a = tb[SMBSRV_A_AUTH_SESSION_KEY];
	if (a) {
		if (nla_len(a) > SMBSRV_SESSION_KEY_MAX) {
			NL_SET_ERR_MSG_ATTR_FMT(info->extack, a,
						"session key longer than %d bytes",
						SMBSRV_SESSION_KEY_MAX);
			return -EINVAL;
		}
		res->session_key_len = nla_len(a);
		memcpy(res->session_key, nla_data(a), nla_len(a));
	}
	a = tb[SMBSRV_A_AUTH_BLOB];
	if (a && nla_len(a)) {
		/* nla_len() is 16 bits: at most SMBSRV_UPCALL_DATA_MAX. */
		res->blob = kmemdup(nla_data(a), nla_len(a), GFP_KERNEL);
		if (!res->blob) {
			err = -ENOMEM;
			goto fail;
		}
		res->blob_len = nla_len(a);
	}
	if (tb[SMBSRV_A_AUTH_FLAGS])
		res->flags = nla_get_u32(tb[SMBSRV_A_AUTH_FLAGS]);

	if (res->status == STATUS_SUCCESS) {
		if (GENL_REQ_ATTR_CHECK(info, SMBSRV_A_AUTH_UID) ||
		    GENL_REQ_ATTR_CHECK(info, SMBSRV_A_AUTH_GID)) {
			err = -EINVAL;
			goto fail;
		}
		res->uid = make_kuid(&init_user_ns,
				     nla_get_u32(tb[SMBSRV_A_AUTH_UID]));
		res->gid = make_kgid(&init_user_ns,
				     nla_get_u32(tb[SMBSRV_A_AUTH_GID]));
		if (!uid_valid(res->uid) || !gid_valid(res->gid)) {
			NL_SET_ERR_MSG(info->extack, "invalid uid or gid");
			err = -EINVAL;
			goto fail;
		}
		err = smbsrv_auth_groups(res, info);
		if (err)
			goto fail;
		err = smbsrv_auth_sids(res, info);
		if (err)
			goto fail;
		err = smbsrv_dup_str(&res->user, tb[SMBSRV_A_AUTH_USER]);
		if (err)
			goto fail;
		err = smbsrv_dup_str(&res->domain, tb[SMBSRV_A_AUTH_DOMAIN]);
		if (err)
			goto fail;
		err = smbsrv_dup_str(&res->principal,
				     tb[SMBSRV_A_AUTH_PRINCIPAL]);
		if (err)
			goto fail;
	}
	return 0;

fail:
	smbsrv_auth_result_free(res);
	return err;
}

void smbsrv_auth_result_free(struct smbsrv_auth_result *res)
{
	kfree(res->blob);
	if (res->groups)
		put_group_info(res->groups);
	kfree(res->user);
	kfree(res->domain);
	kfree(res->principal);
	smbsrv_sids_put(res->sids);
	memzero_explicit(res->session_key, sizeof(res->session_key));
	res->blob = NULL;
	res->blob_len = 0;
	res->session_key_len = 0;
	res->groups = NULL;
	res->user = NULL;
	res->domain = NULL;
	res->principal = NULL;
	res->sids = NULL;
}
EXPORT_SYMBOL_NS_GPL(smbsrv_auth_result_free, SMBSRV_TEST);

int smbsrv_upcall_session_setup(u64 session_id, const char *client_addr,
				u32 dialect, const void *blob, u32 blob_len,
				struct smbsrv_auth_result *res)
{
	struct smbsrv_upcall up = {
		.done_cmd = SMBSRV_CMD_SESSION_SETUP_DONE,
		.parse = smbsrv_auth_parse,
		.res = res,
	};
	struct sk_buff *msg;
	void *hdr;

	if (blob_len > SMBSRV_UPCALL_DATA_MAX)
		return -EMSGSIZE;
	msg = smbsrv_upcall_msg(SMBSRV_CMD_SESSION_SETUP_REQ, blob_len, &hdr);
	if (!msg)
		return -ENOMEM;
	if (nla_put_u64_64bit(msg, SMBSRV_A_AUTH_SESSION_ID, session_id, 0) ||
	    smbsrv_put_str(msg, SMBSRV_A_AUTH_CLIENT_ADDR, client_addr, 64) ||
	    nla_put_u32(msg, SMBSRV_A_AUTH_DIALECT, dialect) ||
	    nla_put(msg, SMBSRV_A_AUTH_BLOB, blob_len, blob)) {
		nlmsg_free(msg);
		return -EINVAL;
	}
	return smbsrv_upcall_run(&up, msg, hdr, SMBSRV_A_AUTH_HANDLE);
}
EXPORT_SYMBOL_NS_GPL(smbsrv_upcall_session_setup, SMBSRV_TEST);

int smbsrv_nl_session_setup_done_doit(struct sk_buff *skb,
				      struct genl_info *info)
{
	return smbsrv_upcall_answer(info, SMBSRV_A_AUTH_HANDLE,
				    SMBSRV_CMD_SESSION_SETUP_DONE);
}

/* --- cluster mode ------------------------------------------------------ */

struct smbsrv_cluster_res {
	u32 *status;
	u32 *allowed;
};

static int smbsrv_cluster_parse(struct smbsrv_upcall *up, struct genl_info *info)
{
	struct smbsrv_cluster_res *res = up->res;

	if (GENL_REQ_ATTR_CHECK(info, SMBSRV_A_CLUSTER_STATUS))
		return -EINVAL;
	*res->status = nla_get_u32(info->attrs[SMBSRV_A_CLUSTER_STATUS]);
	if (res->allowed)
		*res->allowed = info->attrs[SMBSRV_A_CLUSTER_CACHING] ?
			nla_get_u32(info->attrs[SMBSRV_A_CLUSTER_CACHING]) : 0;
	return 0;
}

int smbsrv_upcall_cluster(const struct smbsrv_cluster_q *q, u32 *status)
{
	struct smbsrv_cluster_res res = { .status = status,
					  .allowed = q->allowed };
	struct smbsrv_upcall up = {
		.done_cmd = SMBSRV_CMD_CLUSTER_DONE,
		.parse = smbsrv_cluster_parse,
		.res = &res,
	};
	struct sk_buff *msg;
	void *hdr;

	msg = smbsrv_upcall_msg(SMBSRV_CMD_CLUSTER_REQ, q->locks_len, &hdr);
	if (!msg)
		return -ENOMEM;
	if (nla_put_u32(msg, SMBSRV_A_CLUSTER_OP, q->op) ||
	    nla_put_u64_64bit(msg, SMBSRV_A_CLUSTER_INO, q->ino, 0) ||
	    (q->stream &&
	     smbsrv_put_str(msg, SMBSRV_A_CLUSTER_STREAM, q->stream, 255)) ||
	    nla_put_u32(msg, SMBSRV_A_CLUSTER_ACCESS, q->access) ||
	    nla_put_u32(msg, SMBSRV_A_CLUSTER_SHARE, q->share) ||
	    nla_put_u32(msg, SMBSRV_A_CLUSTER_NODE_ACCESS, q->node_access) ||
	    nla_put_u32(msg, SMBSRV_A_CLUSTER_NODE_SHARE, q->node_share) ||
	    nla_put_u32(msg, SMBSRV_A_CLUSTER_CACHING, q->caching) ||
	    ((q->op == SMBSRV_CLUSTER_OP_LOCK ||
	      q->op == SMBSRV_CLUSTER_OP_UNLOCK) &&
	     nla_put(msg, SMBSRV_A_CLUSTER_LOCKS, q->locks_len, q->locks))) {
		nlmsg_free(msg);
		return -EINVAL;
	}
	return smbsrv_upcall_run(&up, msg, hdr, SMBSRV_A_CLUSTER_HANDLE);
}

int smbsrv_nl_cluster_done_doit(struct sk_buff *skb, struct genl_info *info)
{
	return smbsrv_upcall_answer(info, SMBSRV_A_CLUSTER_HANDLE,
				    SMBSRV_CMD_CLUSTER_DONE);
}

/* --- tree connect ----------------------------------------------------- */

struct smbsrv_tree_res {
	u32 *status;
	struct smbsrv_share_info **share;
};

void smbsrv_share_info_put(struct smbsrv_share_info *share)
{
	if (!share || !refcount_dec_and_test(&share->ref))
		return;
	kfree(share->name);
	kfree(share->path);
	kfree(share->veto_files);
	kfree(share->hide_files);
	kfree(share->snap_dir);
	kfree(share->snap_subdir);
	kfree(share->snap_format);
	kfree(share->snap_zone);
	kfree(share->fruit_model);
	kfree(share);
}
EXPORT_SYMBOL_NS_GPL(smbsrv_share_info_put, SMBSRV_TEST);

static umode_t smbsrv_mode_attr(const struct nlattr *a, umode_t def)
{
	return a ? nla_get_u32(a) & 07777 : def;
}

/*
 * Where the snapshots of a shadow_copy2 share are: an absolute directory,
 * a relative path inside each snapshot and a format that names times.
 */
static int smbsrv_share_parse_snap(struct smbsrv_share_info *s,
				   struct nlattr **tb)
{
	if (!tb[SMBSRV_A_SHARE_SNAP_DIR] || !tb[SMBSRV_A_SHARE_SNAP_FORMAT])
		return -EINVAL;
	s->snap_dir = nla_strdup(tb[SMBSRV_A_SHARE_SNAP_DIR], GFP_KERNEL);
	s->snap_format = nla_strdup(tb[SMBSRV_A_SHARE_SNAP_FORMAT], GFP_KERNEL);
	s->snap_subdir = tb[SMBSRV_A_SHARE_SNAP_SUBDIR] ?
		nla_strdup(tb[SMBSRV_A_SHARE_SNAP_SUBDIR], GFP_KERNEL) :
		kstrdup("", GFP_KERNEL);
	if (!s->snap_dir || !s->snap_format || !s->snap_subdir)
		return -ENOMEM;
	if (tb[SMBSRV_A_SHARE_SNAP_SORT])
		s->snap_sort = nla_get_u32(tb[SMBSRV_A_SHARE_SNAP_SORT]);
	if (tb[SMBSRV_A_SHARE_SNAP_ZONE]) {
		const struct nlattr *z = tb[SMBSRV_A_SHARE_SNAP_ZONE];

		if (nla_len(z) % sizeof(*s->snap_zone) ||
		    nla_len(z) > SMB_SNAP_ZONE_MAX * sizeof(*s->snap_zone))
			return -EINVAL;
		s->snap_zone_n = nla_len(z) / sizeof(*s->snap_zone);
		s->snap_zone = kmemdup(nla_data(z), nla_len(z), GFP_KERNEL);
		if (!s->snap_zone)
			return -ENOMEM;
		if (smb_snap_zone_check(s->snap_zone, s->snap_zone_n))
			return -EINVAL;
	}
	if (s->snap_dir[0] != '/' || s->snap_subdir[0] == '/' ||
	    s->snap_sort > SMBSRV_SNAP_SORT_DESC ||
	    smb_snap_format_check(s->snap_format))
		return -EINVAL;
	return 0;
}

static int smbsrv_share_parse(struct smbsrv_share_info **out,
			      struct genl_info *info)
{
	struct nlattr *tb[SMBSRV_A_SHARE_MAX + 1];
	struct nlattr *nest = info->attrs[SMBSRV_A_TREE_SHARE];
	struct smbsrv_share_info *s;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, SMBSRV_A_TREE_SHARE))
		return -EINVAL;
	err = nla_parse_nested(tb, SMBSRV_A_SHARE_MAX, nest,
			       smbsrv_share_nl_policy, info->extack);
	if (err)
		return err;
	if (!tb[SMBSRV_A_SHARE_NAME]) {
		NL_SET_ERR_MSG_ATTR(info->extack, nest, "share without a name");
		return -EINVAL;
	}

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	refcount_set(&s->ref, 1);
	if (tb[SMBSRV_A_SHARE_FLAGS])
		s->flags = nla_get_u32(tb[SMBSRV_A_SHARE_FLAGS]);
	s->force_uid = INVALID_UID;
	s->force_gid = INVALID_GID;
	if (tb[SMBSRV_A_SHARE_FORCE_UID])
		s->force_uid = make_kuid(&init_user_ns,
					 nla_get_u32(tb[SMBSRV_A_SHARE_FORCE_UID]));
	if (tb[SMBSRV_A_SHARE_FORCE_GID])
		s->force_gid = make_kgid(&init_user_ns,
					 nla_get_u32(tb[SMBSRV_A_SHARE_FORCE_GID]));
	if ((tb[SMBSRV_A_SHARE_FORCE_UID] && !uid_valid(s->force_uid)) ||
	    (tb[SMBSRV_A_SHARE_FORCE_GID] && !gid_valid(s->force_gid))) {
		NL_SET_ERR_MSG_ATTR(info->extack, nest,
				    "invalid force uid or gid");
		err = -EINVAL;
		goto fail;
	}
	s->create_mask = smbsrv_mode_attr(tb[SMBSRV_A_SHARE_CREATE_MASK],
					  0744);
	s->directory_mask = smbsrv_mode_attr(tb[SMBSRV_A_SHARE_DIRECTORY_MASK],
					     0755);
	s->force_create_mode =
		smbsrv_mode_attr(tb[SMBSRV_A_SHARE_FORCE_CREATE_MODE], 0);
	s->force_directory_mode =
		smbsrv_mode_attr(tb[SMBSRV_A_SHARE_FORCE_DIRECTORY_MODE], 0);
	if (tb[SMBSRV_A_SHARE_MAX_CONNECTIONS])
		s->max_connections =
			nla_get_u32(tb[SMBSRV_A_SHARE_MAX_CONNECTIONS]);
	if (tb[SMBSRV_A_SHARE_AUDIT_SUCCESS])
		s->audit_success = nla_get_u32(tb[SMBSRV_A_SHARE_AUDIT_SUCCESS]);
	if (tb[SMBSRV_A_SHARE_AUDIT_FAILURE])
		s->audit_failure = nla_get_u32(tb[SMBSRV_A_SHARE_AUDIT_FAILURE]);

	err = -ENOMEM;
	s->name = nla_strdup(tb[SMBSRV_A_SHARE_NAME], GFP_KERNEL);
	if (!s->name)
		goto fail;
	if (tb[SMBSRV_A_SHARE_PATH]) {
		s->path = nla_strdup(tb[SMBSRV_A_SHARE_PATH], GFP_KERNEL);
		if (!s->path)
			goto fail;
	}
	if (tb[SMBSRV_A_SHARE_VETO_FILES]) {
		s->veto_files = nla_strdup(tb[SMBSRV_A_SHARE_VETO_FILES],
					   GFP_KERNEL);
		if (!s->veto_files)
			goto fail;
	}
	if (tb[SMBSRV_A_SHARE_HIDE_FILES]) {
		s->hide_files = nla_strdup(tb[SMBSRV_A_SHARE_HIDE_FILES],
					   GFP_KERNEL);
		if (!s->hide_files)
			goto fail;
	}
	if (s->flags & SMBSRV_SHARE_FLAGS_SHADOW_COPY) {
		err = smbsrv_share_parse_snap(s, tb);
		if (err) {
			NL_SET_ERR_MSG_ATTR(info->extack, nest,
					    "bad snapshot directory or format");
			goto fail;
		}
	}
	if (s->flags & SMBSRV_SHARE_FLAGS_FRUIT) {
		if (tb[SMBSRV_A_SHARE_FRUIT_FLAGS])
			s->fruit_flags =
				nla_get_u32(tb[SMBSRV_A_SHARE_FRUIT_FLAGS]);
		if (tb[SMBSRV_A_SHARE_FRUIT_TM_MAX_SIZE])
			s->fruit_tm_max_size =
				nla_get_u64(tb[SMBSRV_A_SHARE_FRUIT_TM_MAX_SIZE]);
		s->fruit_model = tb[SMBSRV_A_SHARE_FRUIT_MODEL] ?
			nla_strdup(tb[SMBSRV_A_SHARE_FRUIT_MODEL], GFP_KERNEL) :
			kstrdup("MacSamba", GFP_KERNEL);
		err = -ENOMEM;
		if (!s->fruit_model)
			goto fail;
	}
	if (!(s->flags & SMBSRV_SHARE_FLAGS_IPC) &&
	    (!s->path || s->path[0] != '/')) {
		NL_SET_ERR_MSG_ATTR(info->extack, nest,
				    "share path missing or not absolute");
		err = -EINVAL;
		goto fail;
	}
	*out = s;
	return 0;

fail:
	smbsrv_share_info_put(s);
	return err;
}

static int smbsrv_tree_parse(struct smbsrv_upcall *up, struct genl_info *info)
{
	struct smbsrv_tree_res *res = up->res;
	int err;

	*res->share = NULL;
	if (GENL_REQ_ATTR_CHECK(info, SMBSRV_A_TREE_STATUS))
		return -EINVAL;
	*res->status = nla_get_u32(info->attrs[SMBSRV_A_TREE_STATUS]);
	if (*res->status != STATUS_SUCCESS)
		return 0;
	err = smbsrv_share_parse(res->share, info);
	if (err)
		*res->share = NULL;
	return err;
}

int smbsrv_upcall_tree_connect(u64 session_id, const char *user, kuid_t uid,
			       u32 session_flags, const char *client_addr,
			       const char *share_name, u32 *status,
			       struct smbsrv_share_info **share)
{
	struct smbsrv_tree_res res = { .status = status, .share = share };
	struct smbsrv_upcall up = {
		.done_cmd = SMBSRV_CMD_TREE_CONNECT_DONE,
		.parse = smbsrv_tree_parse,
		.res = &res,
	};
	struct sk_buff *msg;
	void *hdr;

	*share = NULL;
	msg = smbsrv_upcall_msg(SMBSRV_CMD_TREE_CONNECT_REQ, 0, &hdr);
	if (!msg)
		return -ENOMEM;
	if (nla_put_u64_64bit(msg, SMBSRV_A_TREE_SESSION_ID, session_id, 0) ||
	    smbsrv_put_str(msg, SMBSRV_A_TREE_USER, user, 256) ||
	    nla_put_u32(msg, SMBSRV_A_TREE_UID,
			from_kuid_munged(&init_user_ns, uid)) ||
	    nla_put_u32(msg, SMBSRV_A_TREE_SESSION_FLAGS, session_flags) ||
	    smbsrv_put_str(msg, SMBSRV_A_TREE_CLIENT_ADDR, client_addr, 64) ||
	    smbsrv_put_str(msg, SMBSRV_A_TREE_SHARE_NAME, share_name, 256)) {
		nlmsg_free(msg);
		return -EINVAL;
	}
	return smbsrv_upcall_run(&up, msg, hdr, SMBSRV_A_TREE_HANDLE);
}
EXPORT_SYMBOL_NS_GPL(smbsrv_upcall_tree_connect, SMBSRV_TEST);

int smbsrv_nl_tree_connect_done_doit(struct sk_buff *skb,
				     struct genl_info *info)
{
	return smbsrv_upcall_answer(info, SMBSRV_A_TREE_HANDLE,
				    SMBSRV_CMD_TREE_CONNECT_DONE);
}

/* --- IPC$ pipes --------------------------------------------------------- */

struct smbsrv_rpc_res {
	u32 max_out;
	u32 *status;
	void **out;
	u32 *out_len;
};

static int smbsrv_rpc_parse(struct smbsrv_upcall *up, struct genl_info *info)
{
	struct smbsrv_rpc_res *res = up->res;
	struct nlattr *a = info->attrs[SMBSRV_A_RPC_DATA];

	*res->out = NULL;
	*res->out_len = 0;
	if (GENL_REQ_ATTR_CHECK(info, SMBSRV_A_RPC_STATUS))
		return -EINVAL;
	*res->status = nla_get_u32(info->attrs[SMBSRV_A_RPC_STATUS]);
	if (!a || !nla_len(a))
		return 0;
	if (nla_len(a) > res->max_out) {
		NL_SET_ERR_MSG_ATTR_FMT(info->extack, a,
					"%d bytes of pipe data, above max-out %u",
					nla_len(a), res->max_out);
		return -EINVAL;
	}
	*res->out = kvmemdup(nla_data(a), nla_len(a), GFP_KERNEL);
	if (!*res->out)
		return -ENOMEM;
	*res->out_len = nla_len(a);
	return 0;
}

int smbsrv_upcall_rpc(u64 session_id, const char *user, u32 pipe_id, u32 op,
		      const char *pipe_name, const void *data, u32 len,
		      u32 max_out, u32 *status, void **out, u32 *out_len)
{
	struct smbsrv_rpc_res res = {
		.max_out = max_out, .status = status,
		.out = out, .out_len = out_len,
	};
	struct smbsrv_upcall up = {
		.done_cmd = SMBSRV_CMD_RPC_DONE,
		.parse = smbsrv_rpc_parse,
		.res = &res,
	};
	struct sk_buff *msg;
	void *hdr;

	*out = NULL;
	*out_len = 0;
	if (len > SMBSRV_UPCALL_DATA_MAX || max_out > SMBSRV_UPCALL_DATA_MAX)
		return -EMSGSIZE;
	msg = smbsrv_upcall_msg(SMBSRV_CMD_RPC_REQ, len, &hdr);
	if (!msg)
		return -ENOMEM;
	if (nla_put_u64_64bit(msg, SMBSRV_A_RPC_SESSION_ID, session_id, 0) ||
	    nla_put_u32(msg, SMBSRV_A_RPC_PIPE_ID, pipe_id) ||
	    nla_put_u32(msg, SMBSRV_A_RPC_OP, op) ||
	    smbsrv_put_str(msg, SMBSRV_A_RPC_PIPE_NAME, pipe_name, 256) ||
	    smbsrv_put_str(msg, SMBSRV_A_RPC_USER, user, 256) ||
	    (len && nla_put(msg, SMBSRV_A_RPC_DATA, len, data)) ||
	    nla_put_u32(msg, SMBSRV_A_RPC_MAX_OUT, max_out)) {
		nlmsg_free(msg);
		return -EINVAL;
	}
	return smbsrv_upcall_run(&up, msg, hdr, SMBSRV_A_RPC_HANDLE);
}
EXPORT_SYMBOL_NS_GPL(smbsrv_upcall_rpc, SMBSRV_TEST);

int smbsrv_nl_rpc_done_doit(struct sk_buff *skb, struct genl_info *info)
{
	return smbsrv_upcall_answer(info, SMBSRV_A_RPC_HANDLE,
				    SMBSRV_CMD_RPC_DONE);
}
