// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: Apple's extensions (kmod/wire/aapl.c).  The first
 * byte picks what the rest is: an AAPL create context, an AfpInfo write
 * (8 bytes of offset first), a stored AfpInfo, an AppleDouble blob (the
 * netatalk xattr, a "._" file with packed xattrs) with 4 bytes of file
 * size first, an Info.plist, a model string.  What parses must be what
 * was checked: every offset and length inside the bytes given.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "aapl.h"
#include "ntstatus.h"

static void check_adouble(const uint8_t *d, size_t n, int xattrs)
{
	struct smb_adouble ad;
	struct smb_ad_xattr x;
	u32 i = 0, pos, len, count = 0;
	char name[64];
	u64 size;
	int sn;

	if (n < 4)
		return;
	size = get_unaligned_le32(d);
	len = (u32)(n - 4);
	d += 4;
	if (size < len)
		size = len;
	if (smb_adouble_parse(d, len, size, xattrs, &ad))
		return;
	if (ad.finder_len && (ad.finder_off > len ||
			      ad.finder_len > len - ad.finder_off ||
			      ad.finder_len < SMB_AFP_FINDER_SIZE))
		abort();
	if (ad.rfork_off > size || ad.rfork_len > size - ad.rfork_off)
		abort();
	pos = ad.xattr_pos;
	while (smb_adouble_xattr(d, len, &ad, &i, &pos, &x) == 1) {
		if (x.off > len || x.len > len - x.off ||
		    (const uint8_t *)x.name < d ||
		    (const uint8_t *)x.name + x.name_len > d + len)
			abort();
		/* Its stream name stays within the room given. */
		sn = smb_adouble_stream_name(x.name, x.name_len, name,
					     sizeof(name));
		if (sn > (int)sizeof(name))
			abort();
		/* Touch what was found: ASan checks the bounds. */
		if (x.len && d[x.off + x.len - 1] == 0x5a && x.name_len &&
		    x.name[x.name_len - 1] == 0x5a)
			count++;
		count++;
	}
	if (count > 2 * SMB_AD_XATTR_MAX)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	u8 out[SMB_AFPINFO_SIZE], rsp[SMB2_AAPL_RSP_MAX];
	struct smb2_aapl_req q;
	struct smb2_aapl_rsp r = { .bitmap = 7 };
	const uint8_t *d = data + 1;
	size_t n = size ? size - 1 : 0;
	bool empty;
	u64 band;
	int k;

	if (!size)
		return 0;
	switch (data[0] % 7) {
	case 0:
		if (smb2_aapl_req_decode(d, (u32)n, &q) == STATUS_SUCCESS &&
		    (n != SMB2_AAPL_REQ_SIZE || q.command != 1))
			abort();
		break;
	case 1:
		if (n < 8)
			break;
		k = smb_afpinfo_write(d + 8, (u32)(n - 8),
				      get_unaligned_le64(d), out, &empty);
		if (k == 1 && (memcmp(out, "AFP", 3) ||
			       !smb_afpinfo_stored_valid(out, sizeof(out))))
			abort();
		if (smb_afpinfo_read_len(get_unaligned_le64(d), (u32)n) >
		    SMB_AFPINFO_SIZE)
			abort();
		break;
	case 2:
		if (smb_afpinfo_stored_valid(d, (u32)n) && n != 60 && n != 61)
			abort();
		smb_rfork_is_blank(d, (u32)n);
		break;
	case 3:
		check_adouble(d, n, 0);
		break;
	case 4:
		check_adouble(d, n, 1);
		break;
	case 5:
		smb_tm_band_size((const char *)d, (u32)n, &band);
		break;
	case 6:
		r.model = (const char *)d;
		r.model_len = (u32)n;
		k = smb2_aapl_rsp_encode(rsp, sizeof(rsp), &r);
		if (k > (int)sizeof(rsp) || (k >= 0 && k < 40))
			abort();
		break;
	}
	return 0;
}
