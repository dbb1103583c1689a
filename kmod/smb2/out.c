// SPDX-License-Identifier: GPL-2.0
/*
 * smbsrv: response bodies, the one output helper of the command handlers
 * (smb2.h): a response's fixed part and data in one buffer after the
 * SMB2 header, and the QUERY_INFO and IOCTL responses' own fixed parts.
 */
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "../splice.h"
#include "../wire/info.h"
#include "../wire/ioctl.h"
#include "smb2.h"

void *smbsrv_rsp_body_data(struct smbsrv_req *req, u32 fixed, u32 data)
{
	u32 size = fixed + data;
	u8 *p;

	if (fixed > SMB2_FRAME_MAX || data > SMB2_FRAME_MAX ||
	    size > SMB2_FRAME_MAX - SMB2_HDR_SIZE)
		return NULL;
	/*
	 * 8 more bytes: room to pad it inside a compound response.  A small
	 * response goes into the request itself (replacing one there, too).
	 */
	if (SMB2_HDR_SIZE + size + 8 <= sizeof(req->rsp_small))
		p = req->rsp_small;
	else
		p = kvmalloc(SMB2_HDR_SIZE + size + 8, GFP_KERNEL);
	if (!p)
		return NULL;
	memset(p, 0, SMB2_HDR_SIZE + fixed);
	smbsrv_rsp_free(req);
	req->rsp = p;
	req->rsp_len = SMB2_HDR_SIZE + size;
	return p + SMB2_HDR_SIZE;
}

void *smbsrv_rsp_body(struct smbsrv_req *req, u32 size)
{
	u8 *body = smbsrv_rsp_body_data(req, size, 0);

	if (body)
		memset(body + size, 0, 8);
	return body;
}

void smbsrv_rsp_free(struct smbsrv_req *req)
{
	smbsrv_pages_free(req->pages);
	req->pages = NULL;
	if (req->rsp != req->rsp_small)
		kvfree(req->rsp);
	req->rsp = NULL;
}

u8 *smbsrv_qinfo_out(struct smbsrv_req *req, u32 len)
{
	u8 *body = smbsrv_rsp_body(req, SMB2_QINFO_RSP_FIXED + max(len, 1u));

	if (!body)
		return NULL;
	smb2_query_info_rsp_encode(body, len);
	return body + SMB2_QINFO_RSP_FIXED;
}

u8 *smbsrv_ioctl_out(struct smbsrv_req *req, const struct smb2_ioctl_req *r,
		     u32 len)
{
	u8 *body = smbsrv_rsp_body(req, SMB2_IOCTL_RSP_FIXED + len);

	if (!body)
		return NULL;
	smb2_ioctl_rsp_encode(body, r, len);
	return body + SMB2_IOCTL_RSP_FIXED;
}
