// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the decoders of file service III (kmod/wire/lock.c,
 * notify.c, fsctl.c, utf16.c) the way the module runs them on a received
 * PDU: LOCK with every element checked against a held lock, CHANGE_NOTIFY,
 * and IOCTL with its input as each FSCTL payload the module parses (copy
 * chunk and its resume key, offset/length pairs, reparse points and
 * symbolic links, duplicate extents, compression state); the
 * bytes also go through the UTF-8 encoders that turn names (from files an
 * unprivileged user may have created) into notify records and reparse data.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fsctl.h"
#include "ioctl.h"
#include "lock.h"
#include "notify.h"
#include "ntstatus.h"
#include "pdu.h"
#include "posix.h"
#include "utf16.h"

static void lock(const u8 *pdu, u32 len)
{
	struct smb2_lock_req r;
	struct smb2_lock_elem e, held = { 100, 50, 0 };
	u32 i;

	if (smb2_lock_req_decode(pdu, len, &r))
		return;
	for (i = 0; i < r.count; i++) {
		smb2_lock_req_elem(&r, (u16)i, &e);
		if (smb2_lock_kind(e.flags) == SMB2_LOCK_KIND_INVALID ||
		    !smb2_lock_range_valid(e.offset, e.length))
			continue;
		smb2_lock_conflicts(held.offset, held.length, i & 1, i & 2,
				    e.offset, e.length, i & 4, i & 8);
		held = e;
	}
}

static void ioctl(const u8 *pdu, u32 len)
{
	struct smb_symlink_reparse s;
	struct smb2_copychunk_req cc;
	struct smb2_resume_key key;
	struct smb_dup_extents d;
	struct smb2_copychunk c;
	struct smb2_ioctl_req r;
	struct smb_nfs_special ns;
	struct smb_reparse rp;
	u8 nfs[32];
	u64 a, b;
	u16 fmt;
	u32 i;
	int n;

	if (smb2_ioctl_req_decode(pdu, len, &r))
		return;
	if (!smb2_copychunk_decode(r.in, r.in_len, &cc)) {
		smb2_resume_key_decode(cc.key, &key);
		for (i = 0; i < cc.count; i++)
			smb2_copychunk_get(&cc, i, &c);
	}
	smb_dup_extents_decode(r.in, r.in_len, &d);
	smb_compression_decode(r.in, r.in_len, &fmt);
	smb_range_decode(r.in, r.in_len, &a, &b);
	if (!smb_reparse_decode(r.in, r.in_len, &rp) &&
	    !smb_symlink_reparse_decode(&rp, &s)) {
		(void)memchr(s.subst, 0x42, s.subst_len);
		(void)memchr(s.print, 0x42, s.print_len);
	}
	/* An NFS special file decoded encodes back (but Reserved, 6-7). */
	if (!smb_reparse_decode(r.in, r.in_len, &rp) &&
	    rp.tag == IO_REPARSE_TAG_NFS &&
	    !smb_nfs_reparse_decode(rp.data, rp.data_len, &ns)) {
		n = smb_nfs_reparse_encode(nfs, sizeof(nfs), &ns);
		if (n != (int)r.in_len || memcmp(nfs, r.in, 6) ||
		    memcmp(nfs + 8, r.in + 8, n - 8))
			abort();
	}
}

/* Names from the file system: UTF-8 or not, to the wire encodings. */
static void names(const u8 *data, u32 size)
{
	static u8 out[SMB_REPARSE_MAX + 64];
	u32 pos = 0, last = 0, n = size > 4096 ? 4096 : size;

	smb_utf8_to_utf16le((const char *)data, n, out, 512, 0);
	smb_notify_info_append(out, 300, &pos, &last, FILE_ACTION_ADDED,
			       (const char *)data, n);
	smb_notify_info_append(out, 300, &pos, &last, FILE_ACTION_REMOVED,
			       (const char *)data, n / 2);
	smb_symlink_reparse_encode(out, sizeof(out), (const char *)data, n,
				   true, n & 1);
	smb_symlink_error_encode(out, 256, (const char *)data, n, false,
				 n & 1, 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct smb2_notify_req nr;
	struct smb2_hdr h;
	u8 *buf;
	int n;

	/* A copy of exactly the input, so overreads are caught. */
	buf = malloc(size ? size : 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	names(buf, (u32)size);
	n = smb2_hdr_decode(buf, (u32)size, &h);
	if (n > 0) {
		switch (h.command) {
		case SMB2_LOCK:
			lock(buf, (u32)n);
			break;
		case SMB2_CHANGE_NOTIFY:
			smb2_notify_req_decode(buf, (u32)n, &nr);
			break;
		case SMB2_IOCTL:
			ioctl(buf, (u32)n);
			break;
		default:
			break;
		}
	}
	free(buf);
	return 0;
}
