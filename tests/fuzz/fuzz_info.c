// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the metadata decoders (kmod/wire/info.c, dir.c,
 * secdesc.c, unicode.c) the way the module runs them on a received PDU:
 * QUERY_INFO with its FILE_GET_EA_INFORMATION list, SET_INFO with every
 * buffer it carries (basic, rename/link, EA list, security descriptor and
 * its mapping to a mode), QUERY_DIRECTORY with its search pattern matched
 * against names; and the encoders fed with names taken from the input
 * (directory entries, 8.3 names, UTF-16) into buffers of any size.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "create.h"
#include "dir.h"
#include "info.h"
#include "name.h"
#include "ntstatus.h"
#include "pdu.h"
#include "posix.h"
#include "secdesc.h"
#include "unicode.h"

static struct smb_pattern pattern;

static void security(const u8 *buf, u32 len)
{
	static const struct smb_posix_owner po = { 1000, 100, 0640, false, 0 };
	struct smb_sd sd;
	struct smb_ace ace;
	u32 mode, pos = 0;
	u8 out[256];

	if (smb_sd_decode(buf, len, &sd))
		return;
	smb_sd_to_mode(&sd, &po, &mode);
	if (sd.dacl)
		while (smb_acl_next(sd.dacl, sd.dacl_len, &pos, &ace) > 0)
			;
	smb_sd_from_posix(out, len < sizeof(out) ? len : sizeof(out),
			  len & 7, &po);
}

static void set_info(const u8 *pdu, u32 len)
{
	struct smb2_set_info_req r;
	struct smb_set_basic b;
	struct smb_set_rename rn;
	struct smb_ea ea;
	u32 pos = 0;
	char path[1024];
	const char *stream;

	if (smb2_set_info_req_decode(pdu, len, &r))
		return;
	if (r.info_type == SMB2_0_INFO_SECURITY) {
		security(r.buf, r.len);
		return;
	}
	switch (r.info_class) {
	case FILE_BASIC_INFORMATION:
		smb_set_basic_decode(r.buf, r.len, &b);
		break;
	case FILE_RENAME_INFORMATION:
	case FILE_LINK_INFORMATION:
	case FILE_RENAME_INFORMATION_EX:
		if (!smb_set_rename_decode(r.info_class, r.buf, r.len, &rn))
			smb_name_to_path(rn.name, rn.name_len, path,
					 sizeof(path), &stream);
		break;
	case FILE_FULL_EA_INFORMATION:
		while (smb_ea_next(r.buf, r.len, &pos, &ea) > 0)
			(void)memchr(ea.value, 0, ea.value_len);
		break;
	default:
		break;
	}
}

static void query_dir(const u8 *pdu, u32 len)
{
	static const char *const names[] = {
		".", "..", "a.txt", "README", "x.y.z", "\xc3\xa4\xc3\xb6.doc",
		"no_dot_name", "trailing.", "\xf0\x9f\x98\x80",
	};
	struct smb2_query_dir_req r;
	struct smb_dirent e = {};
	struct smb_out o;
	u8 out[300], sn[24];
	u32 i;

	if (smb2_query_dir_req_decode(pdu, len, &r))
		return;
	if (smb_pattern_compile(r.name, r.name_len, &pattern))
		return;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		smb_pattern_match(&pattern, names[i], (u32)strlen(names[i]));
	e.name = names[r.flags % (sizeof(names) / sizeof(names[0]))];
	e.name_len = (u32)strlen(e.name);
	e.short_len = smb_short_name(e.name, e.name_len, sn);
	e.short_name = sn;
	o.buf = out;
	o.cap = r.out_len < sizeof(out) ? r.out_len : sizeof(out);
	smb_dirent_encode(r.info_class, &e, &o, r.file_index % 64);
}

/* The input's bytes as a name: UTF-8 that may not be. */
static void names(const u8 *buf, u32 len)
{
	struct smb_posix_fsinfo fs = {};
	struct smb_posix_info pi = {};
	struct smb_finfo fi = {};
	struct smb_dirent e = {};
	struct smb_out o;
	u8 out[160], sn[24];
	u32 n = len < 255 ? len : 255, pos = 0;

	while (pos < n)
		smb_utf8_next((const char *)buf, n, &pos);
	smb_utf8_ieq((const char *)buf, n / 2, (const char *)buf + n / 2,
		     n - n / 2);
	smb_short_name((const char *)buf, n, sn);
	o.buf = out;
	o.cap = len % sizeof(out);
	fi.name = (const char *)buf;
	fi.name_len = n;
	smb_file_info_encode(FILE_ALL_INFORMATION, &fi, &o);
	e.name = (const char *)buf;
	e.name_len = n;
	smb_dirent_encode(FILE_ID_BOTH_DIRECTORY_INFORMATION, &e, &o, 8);
	/* The POSIX classes, written only up to the capacity. */
	e.mode = len * 2654435761u;
	smb_dirent_encode(SMB_FIND_FILE_POSIX_INFO, &e, &o, len % 64);
	pi.mode = e.mode;
	pi.uid = len;
	smb_posix_info_encode(&pi, &o, len % 32);
	smb_posix_fsinfo_encode(&fs, &o);
	if (!smb_pattern_compile(buf, n & ~1u, &pattern))
		smb_pattern_match(&pattern, (const char *)buf, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct smb2_query_info_req q;
	struct smb2_hdr h;
	const char *name;
	u32 pos = 0, nlen;
	u8 *buf;
	int n;

	/* A copy of exactly the input, so overreads are caught. */
	buf = malloc(size ? size : 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	security(buf, (u32)size);
	names(buf, (u32)size);
	n = smb2_hdr_decode(buf, (u32)size, &h);
	if (n > 0) {
		switch (h.command) {
		case SMB2_QUERY_INFO:
			if (!smb2_query_info_req_decode(buf, (u32)n, &q))
				while (smb_get_ea_next(q.in, q.in_len, &pos,
						       &name, &nlen) > 0)
					(void)memchr(name, 0, nlen);
			break;
		case SMB2_SET_INFO:
			set_info(buf, (u32)n);
			break;
		case SMB2_QUERY_DIRECTORY:
			query_dir(buf, (u32)n);
			break;
		default:
			break;
		}
	}
	free(buf);
	return 0;
}
