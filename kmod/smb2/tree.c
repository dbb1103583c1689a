// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: TREE_CONNECT and TREE_DISCONNECT (MS-SMB2 3.3.5.7, 3.3.5.8).
 *
 * Whether a session may connect to a share, and what the share is, is
 * the daemon's decision (upcall.h); the module enforces the share's
 * `max connections` (share.h), resolves the share root with the user's
 * credentials and keeps the tree.
 */
#include <linux/cred.h>
#include <linux/namei.h>
#include <linux/slab.h>

#include "../audit.h"
#include "../cluster.h"
#include "../conn.h"
#include "../session.h"
#include "../share.h"
#include "../smbsrv.h"
#include "../trace.h"
#include "../upcall.h"
#include "../vfs.h"
#include "../wire/logon.h"
#include "smb2.h"

/* Share names as the spec's tree-connect-req carries them. */
#define SMBSRV_SHARE_NAME_MAX	256

/* MaximalAccess of a tree (2.2.10): all, read-only, and IPC$. */
#define SMBSRV_ACCESS_ALL	0x001f01ff
#define SMBSRV_ACCESS_READ	0x001200a9
#define SMBSRV_ACCESS_IPC	0x001f00a9

static u32 smbsrv_tree_open_root(struct smbsrv_session *sess,
				 struct smbsrv_tree *tree)
{
	const struct cred *old;
	int err;

	if (!tree->share->path)
		return STATUS_BAD_NETWORK_NAME;
	/* force user / force group: the tree's own credentials. */
	tree->cred = smbsrv_vfs_tree_cred(sess->cred, tree->share);
	if (!tree->cred)
		return STATUS_INSUFFICIENT_RESOURCES;
	if (!uid_valid(tree->share->force_uid))
		tree->sids = smbsrv_sids_get(sess->sids);
	old = override_creds(tree->cred);
	err = kern_path(tree->share->path, LOOKUP_FOLLOW | LOOKUP_DIRECTORY,
			&tree->root);
	revert_creds(old);
	if (err) {
		pr_info_ratelimited("smbsrv: share %s: path %s: error %d\n",
				    tree->share->name, tree->share->path, err);
		memset(&tree->root, 0, sizeof(tree->root));
		return err == -EACCES ? STATUS_ACCESS_DENIED :
					STATUS_BAD_NETWORK_NAME;
	}
	return STATUS_SUCCESS;
}

u32 smbsrv_smb2_tree_connect(struct smbsrv_req *req)
{
	struct smbsrv_conn *conn = req->conn;
	struct smbsrv_session *sess = req->sess;
	struct smbsrv_share_info *share = NULL;
	struct smbsrv_share_use *use;
	struct smbsrv_tree *tree;
	struct smb2_tcon_req r;
	u32 status, flags = 0, access;
	bool ipc, encrypt;
	char *name;
	u8 *body;
	int err;

	status = smb2_tcon_req_decode(req->pdu, req->pdu_len, &r);
	if (status)
		return status;
	name = kmalloc(SMBSRV_SHARE_NAME_MAX + 1, GFP_KERNEL);
	if (!name)
		return STATUS_INSUFFICIENT_RESOURCES;
	status = smb2_tcon_share_name(r.path, r.path_len, name,
				      SMBSRV_SHARE_NAME_MAX + 1);
	if (status)
		goto out;

	trace_smbsrv_upcall_sent(conn->id, req->hdr.message_id,
				 "tree-connect", 0);
	err = smbsrv_upcall_tree_connect(sess->id, sess->user,
					 sess->cred->fsuid, sess->flags,
					 conn->addr, name, &status, &share);
	trace_smbsrv_upcall_answered(conn->id, req->hdr.message_id,
				     "tree-connect", err);
	if (err) {
		pr_info_ratelimited("smbsrv: tree connect: the daemon did not answer (%d)\n",
				    err);
		status = STATUS_INSUFFICIENT_RESOURCES;
		goto out;
	}
	if (status)
		goto out;

	ipc = share->flags & SMBSRV_SHARE_FLAGS_IPC;
	encrypt = share->flags & SMBSRV_SHARE_FLAGS_ENCRYPT;
	/* Cluster mode: a fenced node serves no share (cluster.h). */
	if (!ipc && smbsrv_cluster_fenced()) {
		status = STATUS_BAD_NETWORK_NAME;
		goto out;
	}
	/* A share that must be encrypted needs a client that can. */
	if (encrypt && (conn->dialect < SMB2_DIALECT_300 ||
			conn->cipher == SMB2_CIPHER_NONE ||
			!smbsrv_session_has_keys(sess))) {
		status = STATUS_ACCESS_DENIED;
		goto out;
	}

	/* The share's `max connections` (Share.MaxUses): trees, not users. */
	use = smbsrv_share_use_get(share->name, share->max_connections);
	if (IS_ERR(use)) {
		if (PTR_ERR(use) == -EUSERS)
			pr_info_ratelimited("smbsrv: share %s: %u connections (max connections)\n",
					    share->name, share->max_connections);
		status = PTR_ERR(use) == -EUSERS ?
			STATUS_REQUEST_NOT_ACCEPTED :
			STATUS_INSUFFICIENT_RESOURCES;
		goto out;
	}
	tree = smbsrv_tree_new(sess, share);
	if (IS_ERR(tree)) {
		smbsrv_share_use_put(use);
		status = PTR_ERR(tree) == -ENOENT ?
			STATUS_USER_SESSION_DELETED :
			STATUS_INSUFFICIENT_RESOURCES;
		goto out;
	}
	/* Given back with the tree's last reference. */
	tree->use = use;
	if (!ipc) {
		status = smbsrv_tree_open_root(sess, tree);
		if (status) {
			smbsrv_tree_end(tree);
			smbsrv_tree_put(tree);
			goto out;
		}
		if (smbsrv_cluster_on())
			smbsrv_cluster_mount(tree->root.mnt);
	}

	if (ipc)
		access = SMBSRV_ACCESS_IPC;
	else if (share->flags & SMBSRV_SHARE_FLAGS_READ_ONLY)
		access = SMBSRV_ACCESS_READ;
	else
		access = SMBSRV_ACCESS_ALL;
	tree->maximal_access = access;
	if (encrypt)
		flags |= SMB2_SHAREFLAG_ENCRYPT_DATA;
	if (ipc)
		flags |= SMB2_SHAREFLAG_NO_CACHING;
	if (share->flags & SMBSRV_SHARE_FLAGS_HIDE_UNREADABLE)
		flags |= SMB2_SHAREFLAG_ACCESS_BASED_DIRECTORY_ENUM;

	body = smbsrv_rsp_body(req, SMB2_TCON_RSP_SIZE);
	if (!body) {
		smbsrv_tree_end(tree);
		smbsrv_tree_put(tree);
		status = STATUS_INSUFFICIENT_RESOURCES;
		goto out;
	}
	smb2_tcon_rsp_encode(body, ipc ? SMB2_SHARE_TYPE_PIPE :
				   SMB2_SHARE_TYPE_DISK, flags, 0, access);
	req->hdr.tree_id = tree->id;
	/* Requests related to this one use the new tree. */
	req->tree = tree;
out:
	if (share)
		smbsrv_share_info_put(share);
	kfree(name);
	return status;
}

u32 smbsrv_smb2_tree_disconnect(struct smbsrv_req *req)
{
	if (!smbsrv_rsp_body(req, SMB2_SIMPLE_SIZE))
		return STATUS_INSUFFICIENT_RESOURCES;
	smb2_simple_rsp_encode(req->rsp + SMB2_HDR_SIZE);
	if (smbsrv_audit_wants(req->tree, SMBSRV_AUDIT_OP_DISCONNECT, 0))
		smbsrv_audit_tree(req->tree, SMBSRV_AUDIT_OP_DISCONNECT, 0,
				  NULL, NULL, 0);
	smbsrv_tree_end(req->tree);
	return STATUS_SUCCESS;
}
