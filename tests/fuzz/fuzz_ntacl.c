// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: NT ACLs (kmod/wire/ntacl.c, ntacl_blob.c) the way the
 * module runs them on what a client sends or a file system holds: the
 * security.NTACL blob decoded and its descriptor re-encoded as a blob;
 * a descriptor from a SET_INFO or a CREATE's SecD context checked against
 * a token, queried part by part, merged into the blob's, and used as the
 * parent and as the creator of a new object; the POSIX ACL wrapper.
 *
 * The first byte picks the split of the rest into a blob and a
 * descriptor, and the SecurityInformation flags.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ntacl.h"
#include "ntacl_blob.h"
#include "secdesc.h"

static bool in_group(const void *ctx, u32 gid)
{
	(void)ctx;
	return gid & 1;
}

/* Build with a size query first, then into exactly that much memory. */
static u8 *out_buf(u32 n)
{
	return malloc(n ? n : 1);
}

static void use_sd(const struct smb_sd *sd, const struct smb_sd *other,
		   u32 info, bool dir)
{
	struct smb_token tok = { 1000, 100, SMB_TOKEN_AUTHENTICATED,
				 in_group, NULL, NULL, 0 };
	struct smb_sid owner, group;
	struct smb_sd back;
	u32 n, size;
	u8 *b;
	int r;

	smb_sd_maximal(sd, &tok);
	tok.flags = SMB_TOKEN_GUEST;
	smb_sd_maximal(sd, &tok);

	n = smb_sd_select(NULL, 0, sd, info);
	b = out_buf(n);
	if (smb_sd_select(b, n, sd, info) != n ||
	    smb_sd_decode(b, n, &back))
		abort();
	free(b);

	n = smb_sd_merge(NULL, 0, other, sd, info);
	b = out_buf(n);
	if (smb_sd_merge(b, n, other, sd, info) != n ||
	    smb_sd_decode(b, n, &back))
		abort();
	free(b);

	smb_sid_unix_user(&owner, 1000);
	smb_sid_unix_group(&group, 100);
	r = smb_sd_create(NULL, 0, other, sd, dir, &owner, &group);
	if (r > 0) {
		b = out_buf(r);
		if (smb_sd_create(b, r, other, sd, dir, &owner, &group) != r ||
		    smb_sd_decode(b, r, &back))
			abort();
		free(b);
	}
	r = smb_sd_create(NULL, 0, sd, NULL, dir, &owner, &group);
	if (r > 0) {
		b = out_buf(r);
		if (smb_sd_create(b, r, sd, NULL, dir, &owner, &group) != r ||
		    smb_sd_decode(b, r, &back))
			abort();
		free(b);
	}
	if (sd->dacl && smb_acl_inherit(NULL, 0, &size, sd->dacl,
					sd->dacl_len, dir, true, &owner,
					&group) >= 0) {
		b = out_buf(size);
		smb_acl_inherit(b, size, &size, sd->dacl, sd->dacl_len, dir,
				true, &owner, &group);
		free(b);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const u8 hash[SMB_NTACL_HASH_SIZE];
	struct smb_posix_ace aces[8];
	struct smb_posix_acl acl = { aces, 0 };
	struct smb_ntacl_blob blob;
	struct smb_sd sd, empty;
	u32 split, info, n, i;
	bool have_blob;
	u8 *b;

	if (size < 1 || size > 70000)
		return 0;
	split = (size - 1) * data[0] / 255;
	info = data[0] & 0xf;
	data++;
	size--;

	memset(&empty, 0, sizeof(empty));
	empty.control = SE_SELF_RELATIVE;
	have_blob = !smb_ntacl_blob_decode(data, split, &blob);
	if (have_blob) {
		n = smb_ntacl_blob_encode(NULL, 0, &blob.sd, hash);
		b = out_buf(n);
		if (smb_ntacl_blob_encode(b, n, &blob.sd, hash) != n ||
		    smb_ntacl_blob_decode(b, n, &blob))
			abort();
		free(b);
		/* The blob's descriptor decoded again from its own bytes. */
		have_blob = !smb_ntacl_blob_decode(data, split, &blob);
	}
	if (!smb_sd_decode(data + split, size - split, &sd))
		use_sd(&sd, have_blob ? &blob.sd : &empty, info, info & 1);
	if (have_blob)
		use_sd(&blob.sd, &empty, info, info & 2);

	/* The POSIX ACL wrapper from bytes of the input. */
	for (i = 0; i < 8 && 8 * i + 8 <= size; i++) {
		aces[i].tag = data[8 * i] % 8;
		aces[i].perm = data[8 * i + 1] & 7;
		memcpy(&aces[i].id, data + 8 * i + 4, 4);
		acl.count = i + 1;
	}
	n = smb_sys_acl_blob_encode(NULL, 0, 1, 2, 0100644, &acl, NULL);
	b = out_buf(n);
	if (smb_sys_acl_blob_encode(b, n, 1, 2, 0100644, &acl, NULL) != n)
		abort();
	free(b);
	return 0;
}
