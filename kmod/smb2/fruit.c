// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: Apple's AAPL create context on fruit shares (vfs objects =
 * fruit), answered as Samba's vfs_fruit answers it: every CREATE that
 * carries a server query gets the server's capabilities, the volume's
 * and the model string, as far as its bitmap asks; the first marks the
 * connection a Mac's (conn->aapl), which turns on what Macs get from
 * then on (fruit.h): streams without the empty ones, zero file IDs,
 * ReadDirAttr in listings when the client asked for it.
 */
#include <linux/string.h>

#include "../conn.h"
#include "../fruit.h"
#include "../wire/aapl.h"
#include "../wire/ntstatus.h"
#include "create.h"
#include "smb2.h"

u32 smbsrv_fruit_create_ctx(struct smbsrv_req *req, struct smbsrv_create *c)
{
	const struct smb2_create_ctx *x = &c->r.ctx[SMB2_CTX_AAPL];
	u32 status;

	if (!smb2_create_has(&c->r, SMB2_CTX_AAPL) ||
	    !smbsrv_fruit_has(req->tree, SMBSRV_FRUIT_FLAGS_AAPL))
		return STATUS_SUCCESS;
	status = smb2_aapl_req_decode(x->data, x->data_len, &c->aapl_req);
	if (status)
		return status;
	c->aapl = true;
	/* ReadDirAttr needs named streams (FILE_NAMED_STREAMS), as Samba. */
	if ((c->aapl_req.bitmap & SMB2_AAPL_SERVER_CAPS) &&
	    (c->aapl_req.client_caps & SMB2_AAPL_SUPPORTS_READ_DIR_ATTR) &&
	    (req->tree->share_flags & SMBSRV_SHARE_FLAGS_STREAMS))
		WRITE_ONCE(req->conn->aapl_readdir, true);
	WRITE_ONCE(req->conn->aapl, true);
	return STATUS_SUCCESS;
}

int smbsrv_fruit_answer(struct smbsrv_req *req, struct smbsrv_create *c,
			u8 *buf, u32 cap)
{
	const struct smbsrv_tree *tree = req->tree;
	struct smb2_aapl_rsp r = {
		.bitmap = c->aapl_req.bitmap,
		.server_caps = SMB2_AAPL_UNIX_BASED,
		.model = tree->share->fruit_model ?: "",
	};

	r.model_len = strlen(r.model);
	if (READ_ONCE(req->conn->aapl_readdir) &&
	    (c->aapl_req.client_caps & SMB2_AAPL_SUPPORTS_READ_DIR_ATTR))
		r.server_caps |= SMB2_AAPL_SUPPORTS_READ_DIR_ATTR;
	if (smbsrv_fruit_has(tree, SMBSRV_FRUIT_FLAGS_COPYFILE))
		r.server_caps |= SMB2_AAPL_SUPPORTS_OSX_COPYFILE;
	/* The client does not ask for it: Samba sets it when it has it. */
	if (smbsrv_fruit_has(tree, SMBSRV_FRUIT_FLAGS_NFS_ACES))
		r.server_caps |= SMB2_AAPL_SUPPORTS_NFS_ACE;
	if (tree->share_flags & SMBSRV_SHARE_FLAGS_CASE_SENSITIVE)
		r.volume_caps |= SMB2_AAPL_CASE_SENSITIVE;
	if (smbsrv_fruit_has(tree, SMBSRV_FRUIT_FLAGS_TIME_MACHINE))
		r.volume_caps |= SMB2_AAPL_FULL_SYNC;
	return smb2_aapl_rsp_encode(buf, cap, &r);
}
