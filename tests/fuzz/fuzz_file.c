// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the file-service decoders (kmod/wire/create.c, name.c,
 * rw.c, dosattr.c) the way the module runs them on a received PDU: the
 * CREATE request with its contexts, EA list and name (to a path, veto
 * check, a named stream's xattr name and back, stream.c),
 * CLOSE/FLUSH/READ/WRITE; a DOS attribute xattr value and a listxattr
 * result read for stream names, which come from a file an unprivileged
 * user may have written.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "create.h"
#include "dosattr.h"
#include "name.h"
#include "ntstatus.h"
#include "pdu.h"
#include "posix.h"
#include "rw.h"
#include "stream.h"

/*
 * A path below the root: plain components separated by single '/', none
 * of them "." or "..", no '\\', no separator first or last.
 */
static bool path_goes_down(const char *path)
{
	const char *comp = path, *end;
	size_t n;

	if (!*path)
		return true;
	if (strchr(path, '\\'))
		return false;
	for (;;) {
		end = strchr(comp, '/');
		n = end ? (size_t)(end - comp) : strlen(comp);
		if (!n || (n == 1 && comp[0] == '.') ||
		    (n == 2 && comp[0] == '.' && comp[1] == '.'))
			return false;
		if (!end)
			return true;
		comp = end + 1;
	}
}

static void create(const u8 *pdu, u32 len)
{
	static char path[4096];
	const struct smb2_create_ctx *x;
	struct smb2_create_req r;
	const char *stream;
	struct smb_ea ea;
	u32 pos = 0;

	if (smb2_create_req_decode(pdu, len, &r))
		return;
	if (smb2_create_has(&r, SMB2_CTX_POSIX) &&
	    smb2_posix_cc_decode(r.ctx[SMB2_CTX_POSIX].data,
				 r.ctx[SMB2_CTX_POSIX].data_len, &pos) > 0 &&
	    pos > 07777)
		abort();
	pos = 0;
	if (smb2_create_has(&r, SMB2_CTX_EA_BUFFER)) {
		x = &r.ctx[SMB2_CTX_EA_BUFFER];
		while (smb_ea_next(x->data, x->data_len, &pos, &ea) > 0)
			(void)memchr(ea.value, 0x42, ea.value_len);
	}
	if (smb_name_to_path(r.name, r.name_len, path, sizeof(path), &stream))
		return;
	/* Whatever the separators sent ('\\', '/'), the path only goes down. */
	if (!path_goes_down(path))
		abort();
	smb_veto_path("/*.tmp/.?ecret/a*b*c/", path);
	if (stream) {
		static char xattr[SMB_STREAM_XATTR_NAME_MAX + 1];
		const char *back;
		u32 blen = 0;
		int n;

		n = smb_stream_xattr_name(stream, (u32)strlen(stream), xattr,
					  sizeof(xattr));
		if (n < 0)
			return;
		back = smb_stream_of_xattr(xattr, (u32)n, &blen);
		/* What a name becomes comes back as that name. */
		if (!back || !smb_stream_name_eq(back, blen, stream,
						 (u32)strlen(stream)))
			abort();
	}
}

/* A listxattr result: NUL-separated names, the last one maybe unended. */
static void xattr_list(const u8 *buf, u32 len)
{
	const char *p = (const char *)buf, *end = p + len, *s, *z;
	u32 slen;

	while (p < end) {
		z = memchr(p, 0, (size_t)(end - p));
		s = smb_stream_of_xattr(p, z ? (u32)(z - p) : (u32)(end - p),
					&slen);
		if (s)
			(void)smb_stream_name_eq(s, slen, "Zone.Identifier", 15);
		if (!z)
			break;
		p = z + 1;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct smb2_close_req c;
	struct smb2_write_req w;
	struct smb2_read_req rd;
	struct smb_dosattr da;
	struct smb2_hdr h;
	const u8 *fid;
	u8 *buf;
	int n;

	/* A copy of exactly the input, so overreads are caught. */
	buf = malloc(size ? size : 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	smb_dosattr_decode(buf, (u32)size, &da);
	xattr_list(buf, (u32)size);
	n = smb2_hdr_decode(buf, (u32)size, &h);
	if (n > 0) {
		switch (h.command) {
		case SMB2_CREATE:
			create(buf, (u32)n);
			break;
		case SMB2_CLOSE:
			smb2_close_req_decode(buf, (u32)n, &c);
			break;
		case SMB2_FLUSH:
			smb2_flush_req_decode(buf, (u32)n, &fid);
			break;
		case SMB2_READ:
			smb2_read_req_decode(buf, (u32)n, &rd);
			break;
		case SMB2_WRITE:
			if (!smb2_write_req_decode(buf, (u32)n, &w) && w.length)
				(void)memchr(w.data, 0x42, w.length);
			/* As if the data had been received into pages. */
			if (!smb2_write_req_decode_ext(buf, (u32)n, (u32)size,
						       &w) && w.data)
				__builtin_trap();
			break;
		default:
			break;
		}
	}
	free(buf);
	return 0;
}
