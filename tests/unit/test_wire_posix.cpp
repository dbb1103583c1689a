// SPDX-License-Identifier: GPL-2.0-or-later
// kmod/wire/posix.c: the SMB3.1.1 POSIX extensions' negotiate and create
// contexts, information classes and NFS-style reparse points.
#include <catch2/catch.hpp>

#include <cstring>

#include "wire_util.hpp"

extern "C" {
#include "create.h"
#include "dir.h"
#include "fsctl.h"
#include "negotiate.h"
#include "posix.h"
}

using namespace wiretest;

namespace {

const uint8_t tag[16] = { 0x93, 0xad, 0x25, 0x50, 0x9c, 0xb4, 0x11, 0xe7,
			  0xb4, 0x23, 0x83, 0xde, 0x96, 0x8b, 0xcd, 0x7c };

Bytes tag_bytes()
{
	return {tag, tag + 16};
}

/* A 3.1.1 NEGOTIATE with a preauth context and @extra after it. */
Bytes negotiate(uint16_t type, const Bytes &data)
{
	Bytes b = header(SMB2_NEGOTIATE);
	Bytes body(36, 0);
	put16(body, 0, 36);
	put16(body, SMB2_NEG_REQ_DIALECT_COUNT, 1);
	put16(body, 36, 0x0311);
	append(b, body);
	while (b.size() % 8)
		b.push_back(0);
	put32(b, 64 + SMB2_NEG_REQ_CTX_OFFSET, b.size());
	put16(b, 64 + SMB2_NEG_REQ_CTX_COUNT, 2);
	size_t at = b.size();
	put16(b, at, SMB2_PREAUTH_INTEGRITY_CAPABILITIES);
	put16(b, at + 2, 38);
	put32(b, at + 4, 0);
	Bytes pre(38, 0x5a);
	put16(pre, 0, 1);
	put16(pre, 2, 32);
	put16(pre, 4, SMB2_PREAUTH_HASH_SHA512);
	append(b, pre);
	while (b.size() % 8)
		b.push_back(0);
	at = b.size();
	put16(b, at, type);
	put16(b, at + 2, data.size());
	put32(b, at + 4, 0);
	append(b, data);
	return b;
}

/* A CREATE request whose create contexts are @ctxs. */
Bytes create_with(const Bytes &ctxs)
{
	Bytes b = header(SMB2_CREATE);
	Bytes body(56, 0);
	put16(body, 0, SMB2_CREATE_REQ_SIZE);
	put32(body, SMB2_CREATE_REQ_ACCESS, 0x80);
	put32(body, SMB2_CREATE_REQ_DISPOSITION, 1);
	put16(body, SMB2_CREATE_REQ_NAME_OFFSET, 120);
	append(b, body);
	b.push_back(0);
	while (b.size() % 8)
		b.push_back(0);
	put32(b, 64 + SMB2_CREATE_REQ_CTX_OFFSET, b.size());
	put32(b, 64 + SMB2_CREATE_REQ_CTX_LENGTH, ctxs.size());
	append(b, ctxs);
	return b;
}

/* One create context named @name with @data (no Next). */
Bytes ctx(const Bytes &name, const Bytes &data)
{
	Bytes c(16, 0);
	put16(c, SMB2_CREATE_CTX_NAME_OFFSET, 16);
	put16(c, SMB2_CREATE_CTX_NAME_LENGTH, name.size());
	append(c, name);
	while (c.size() % 8)
		c.push_back(0);
	put16(c, SMB2_CREATE_CTX_DATA_OFFSET, c.size());
	put32(c, SMB2_CREATE_CTX_DATA_LENGTH, data.size());
	append(c, data);
	return c;
}

Bytes le32(uint32_t v)
{
	Bytes b;
	put32(b, 0, v);
	return b;
}

/* S-1-22-@kind-@id as 16 bytes. */
Bytes unix_sid(uint32_t kind, uint32_t id)
{
	Bytes s = { 1, 2, 0, 0, 0, 0, 0, 22 };
	put32(s, 8, kind);
	put32(s, 12, id);
	return s;
}

struct smb_posix_info sample()
{
	struct smb_posix_info pi = {};
	pi.creation_time = 0x0101010101010101ULL;
	pi.access_time = 0x0202020202020202ULL;
	pi.write_time = 0x0303030303030303ULL;
	pi.change_time = 0x0404040404040404ULL;
	pi.eof = 12345;
	pi.allocation = 16384;
	pi.attributes = 0x20;
	pi.ino = 0x1122334455667788ULL;
	pi.dev = 0x803;
	pi.nlink = 3;
	pi.reparse_tag = 0;
	pi.mode = SMB_S_IFREG | 04751;
	pi.uid = 1001;
	pi.gid = 1100;
	return pi;
}

} // namespace

TEST_CASE("POSIX negotiate context", "[wire][posix]")
{
	CHECK(smb2_posix_neg_ctx_decode(tag, 16) == 1);
	Bytes two(16, 0x11);
	append(two, tag_bytes());
	CHECK(smb2_posix_neg_ctx_decode(two.data(), two.size()) == 1);
	CHECK(smb2_posix_neg_ctx_decode(two.data(), 16) == 0);
	CHECK(smb2_posix_neg_ctx_decode(two.data(), 17) == -EINVAL);
	CHECK(smb2_posix_neg_ctx_decode(tag, 15) == -EINVAL);
	CHECK(smb2_posix_neg_ctx_decode(nullptr, 0) == 0);

	SECTION("found in a NEGOTIATE request, the first one kept")
	{
		Bytes pdu = negotiate(SMB2_POSIX_EXTENSIONS_AVAILABLE, two);
		struct smb2_negotiate_req r;
		struct smb2_neg_ctxs c;
		REQUIRE(smb2_negotiate_req_decode(pdu.data(), pdu.size(), &r) ==
			STATUS_SUCCESS);
		REQUIRE(smb2_neg_ctxs_decode(pdu.data(), pdu.size(), &r, &c) ==
			STATUS_SUCCESS);
		REQUIRE(c.posix);
		CHECK(c.posix_len == 32);
		CHECK(smb2_posix_neg_ctx_decode(c.posix_data, c.posix_len) == 1);
	}
	SECTION("a context running past the PDU is refused")
	{
		Bytes pdu = negotiate(SMB2_POSIX_EXTENSIONS_AVAILABLE, two);
		pdu.resize(pdu.size() - 1);
		struct smb2_negotiate_req r;
		struct smb2_neg_ctxs c;
		REQUIRE(smb2_negotiate_req_decode(pdu.data(), pdu.size(), &r) ==
			STATUS_SUCCESS);
		CHECK(smb2_neg_ctxs_decode(pdu.data(), pdu.size(), &r, &c) ==
		      STATUS_INVALID_PARAMETER);
	}
	SECTION("answered last in the response")
	{
		uint8_t guid[16] = {}, salt[32] = {};
		struct smb2_negotiate_rsp a = {};
		a.dialect = 0x0311;
		a.server_guid = guid;
		a.salt = salt;
		a.signing = true;
		a.signing_alg = SMB2_SIGNING_AES_CMAC;
		a.posix = true;
		uint32_t size = smb2_negotiate_rsp_size(&a);
		Bytes pdu(64 + size, 0xee);
		REQUIRE(smb2_negotiate_rsp_encode(pdu.data() + 64, &a) == size);
		CHECK(get16(pdu, 64 + SMB2_NEG_RSP_CTX_COUNT) == 3);
		uint32_t off = get32(pdu, 64 + SMB2_NEG_RSP_CTX_OFFSET);
		for (int i = 0; i < 2; i++)
			off = (off + 8 + get16(pdu, off + 2) + 7) & ~7u;
		REQUIRE(off + 8 + 16 == pdu.size());
		CHECK(get16(pdu, off) == SMB2_POSIX_EXTENSIONS_AVAILABLE);
		CHECK(get16(pdu, off + 2) == 16);
		CHECK(memcmp(pdu.data() + off + 8, tag, 16) == 0);
	}
}

TEST_CASE("POSIX create context", "[wire][posix]")
{
	struct smb2_create_req r;

	SECTION("found by its 16-byte name, its mode decoded")
	{
		Bytes b = create_with(ctx(tag_bytes(), le32(0100644)));
		REQUIRE(smb2_create_req_decode(b.data(), b.size(), &r) ==
			STATUS_SUCCESS);
		REQUIRE(smb2_create_has(&r, SMB2_CTX_POSIX));
		uint32_t perms = 0;
		CHECK(smb2_posix_cc_decode(r.ctx[SMB2_CTX_POSIX].data,
					   r.ctx[SMB2_CTX_POSIX].data_len,
					   &perms) == 1);
		CHECK(perms == 0644);
	}
	SECTION("another 16-byte name is not it")
	{
		Bytes other = tag_bytes();
		other[15] ^= 1;
		Bytes b = create_with(ctx(other, le32(0644)));
		REQUIRE(smb2_create_req_decode(b.data(), b.size(), &r) ==
			STATUS_SUCCESS);
		CHECK_FALSE(smb2_create_has(&r, SMB2_CTX_POSIX));
		CHECK(r.ctx_count == 1);
	}
	SECTION("twice is STATUS_INVALID_PARAMETER")
	{
		Bytes c1 = ctx(tag_bytes(), le32(0644));
		while (c1.size() % 8)
			c1.push_back(0);
		put32(c1, SMB2_CREATE_CTX_NEXT, c1.size());
		append(c1, ctx(tag_bytes(), le32(0600)));
		Bytes b = create_with(c1);
		CHECK(smb2_create_req_decode(b.data(), b.size(), &r) ==
		      STATUS_INVALID_PARAMETER);
	}
	uint32_t perms = 0;
	Bytes m = le32(SMB_POSIX_NO_MODE);
	CHECK(smb2_posix_cc_decode(m.data(), 4, &perms) == 0);
	m = le32(07777);
	CHECK(smb2_posix_cc_decode(m.data(), 4, &perms) == 1);
	CHECK(perms == 07777);
	CHECK(smb2_posix_cc_decode(m.data(), 3, &perms) == -EINVAL);
	CHECK(smb2_posix_cc_decode(m.data(), 5, &perms) == -EINVAL);
	CHECK(smb2_posix_cc_decode(nullptr, 4, &perms) == -EINVAL);
}

TEST_CASE("POSIX modes on the wire", "[wire][posix]")
{
	CHECK(smb_posix_mode_to_wire(SMB_S_IFREG | 0644) == 0644);
	CHECK(smb_posix_mode_to_wire(SMB_S_IFDIR | 01777) == (1u << 12 | 01777));
	CHECK(smb_posix_mode_to_wire(SMB_S_IFLNK | 0777) == (2u << 12 | 0777));
	CHECK(smb_posix_mode_to_wire(SMB_S_IFCHR | 0620) == (3u << 12 | 0620));
	CHECK(smb_posix_mode_to_wire(SMB_S_IFBLK | 0660) == (4u << 12 | 0660));
	CHECK(smb_posix_mode_to_wire(SMB_S_IFIFO | 04755) == (5u << 12 | 04755));
	CHECK(smb_posix_mode_to_wire(SMB_S_IFSOCK | 0755) == (6u << 12 | 0755));
	for (uint32_t t : { SMB_S_IFREG, SMB_S_IFDIR, SMB_S_IFLNK, SMB_S_IFCHR,
			    SMB_S_IFBLK, SMB_S_IFIFO, SMB_S_IFSOCK })
		CHECK(smb_posix_wire_to_mode(smb_posix_mode_to_wire(t | 06543)) ==
		      (t | 06543));
	CHECK(smb_posix_wire_to_mode(7u << 12) == 0);
}

TEST_CASE("POSIX create context response and FILE_POSIX_INFORMATION", "[wire][posix]")
{
	struct smb_posix_info pi = sample();
	uint8_t cc[SMB_POSIX_CC_SIZE];
	REQUIRE(smb_posix_cc_encode(cc, &pi) == 44);
	Bytes c(cc, cc + sizeof(cc));
	CHECK(get32(c, 0) == 3);
	CHECK(get32(c, 4) == 0);
	CHECK(get32(c, 8) == 04751);
	CHECK(Bytes(c.begin() + 12, c.begin() + 28) == unix_sid(1, 1001));
	CHECK(Bytes(c.begin() + 28, c.end()) == unix_sid(2, 1100));

	Bytes full(SMB_POSIX_INFO_SIZE, 0xee);
	struct smb_out o = { full.data(), (uint32_t)full.size() };
	REQUIRE(smb_posix_info_encode(&pi, &o, 0) == 112);
	CHECK(get64(full, 0) == pi.creation_time);
	CHECK(get64(full, 8) == pi.access_time);
	CHECK(get64(full, 16) == pi.write_time);
	CHECK(get64(full, 24) == pi.change_time);
	CHECK(get64(full, 32) == 12345);
	CHECK(get64(full, 40) == 16384);
	CHECK(get32(full, 48) == 0x20);
	CHECK(get64(full, 52) == pi.ino);
	CHECK(get32(full, 60) == 0x803);
	CHECK(get32(full, 64) == 0);
	CHECK(Bytes(full.begin() + 68, full.end()) == c);

	SECTION("a short buffer gets what fits, nothing past it")
	{
		Bytes part(50, 0xee);
		part.resize(60, 0x77);
		struct smb_out s = { part.data(), 50 };
		CHECK(smb_posix_info_encode(&pi, &s, 0) == 112);
		CHECK(Bytes(part.begin(), part.begin() + 50) ==
		      Bytes(full.begin(), full.begin() + 50));
		CHECK(part[50] == 0x77);
		CHECK(part[59] == 0x77);
	}
}

TEST_CASE("SMB_FIND_FILE_POSIX_INFO entries", "[wire][posix]")
{
	struct smb_dirent e = {};
	e.name = "Caf\xc3\xa9";
	e.name_len = 5;
	e.file_index = 77;
	e.creation_time = 1;
	e.eof = 9;
	e.attributes = 0x400;
	e.reparse_tag = IO_REPARSE_TAG_NFS;
	e.file_id = 42;
	e.nlink = 2;
	e.mode = SMB_S_IFIFO | 0640;
	e.uid = 1000;
	e.gid = 1000;

	REQUIRE(smb_dirent_fixed(SMB_FIND_FILE_POSIX_INFO) == 124);
	Bytes out(256, 0);
	struct smb_out o = { out.data(), (uint32_t)out.size() };
	REQUIRE(smb_dirent_encode(SMB_FIND_FILE_POSIX_INFO, &e, &o, 8) ==
		124 + 8);
	const size_t B = 8;
	CHECK(get32(out, B) == 0);
	CHECK(get32(out, B + 4) == 77);
	CHECK(get64(out, B + 8) == 1);
	CHECK(get64(out, B + 40) == 9);
	CHECK(get32(out, B + 56) == 0x400);
	CHECK(get64(out, B + 60) == 42);
	CHECK(get32(out, B + 76) == 2);
	CHECK(get32(out, B + 80) == IO_REPARSE_TAG_NFS);
	CHECK(get32(out, B + 84) == (5u << 12 | 0640));
	CHECK(Bytes(out.begin() + B + 88, out.begin() + B + 104) ==
	      unix_sid(1, 1000));
	CHECK(get32(out, B + 120) == 8);
	CHECK(Bytes(out.begin() + B + 124, out.begin() + B + 132) ==
	      utf16(u"Caf\u00e9"));
	smb_dirent_set_name_len(SMB_FIND_FILE_POSIX_INFO, &o, B, 5);
	CHECK(get32(out, B + 120) == 4);

	SECTION("a name that is not UTF-8 is refused")
	{
		e.name = "\xff";
		e.name_len = 1;
		CHECK(smb_dirent_encode(SMB_FIND_FILE_POSIX_INFO, &e, &o, 0) < 0);
	}
}

TEST_CASE("FS_POSIX_INFORMATION", "[wire][posix]")
{
	struct smb_posix_fsinfo fs = { 4096, 4096, 1000, 600, 500, 77, 33,
				       0x0102030405060708ULL };
	Bytes out(64, 0xee);
	struct smb_out o = { out.data(), 56 };
	REQUIRE(smb_posix_fsinfo_encode(&fs, &o) == 56);
	CHECK(get32(out, 0) == 4096);
	CHECK(get32(out, 4) == 4096);
	CHECK(get64(out, 8) == 1000);
	CHECK(get64(out, 16) == 600);
	CHECK(get64(out, 24) == 500);
	CHECK(get64(out, 32) == 77);
	CHECK(get64(out, 40) == 33);
	CHECK(get64(out, 48) == 0x0102030405060708ULL);
	CHECK(out[56] == 0xee);
}

TEST_CASE("NFS-style reparse points of special files", "[wire][posix]")
{
	struct smb_nfs_special s = { SMB_S_IFCHR, 1, 3 }, d;
	uint8_t buf[32];
	int n = smb_nfs_reparse_encode(buf, sizeof(buf), &s);
	REQUIRE(n == 24);
	CHECK(smb_nfs_reparse_encode(nullptr, 0, &s) == 24);
	CHECK(smb_nfs_reparse_encode(buf, 23, &s) == -ENOSPC);
	struct smb_reparse rp;
	REQUIRE(smb_reparse_decode(buf, n, &rp) == 0);
	CHECK(rp.tag == IO_REPARSE_TAG_NFS);
	REQUIRE(smb_nfs_reparse_decode(rp.data, rp.data_len, &d) == 0);
	CHECK(d.type == SMB_S_IFCHR);
	CHECK(d.major == 1);
	CHECK(d.minor == 3);

	for (uint32_t t : { SMB_S_IFIFO, SMB_S_IFSOCK }) {
		s = { t, 9, 9 };
		n = smb_nfs_reparse_encode(buf, sizeof(buf), &s);
		REQUIRE(n == 16);
		REQUIRE(smb_reparse_decode(buf, n, &rp) == 0);
		REQUIRE(smb_nfs_reparse_decode(rp.data, rp.data_len, &d) == 0);
		CHECK(d.type == t);
		CHECK(d.major == 0);
	}
	s = { SMB_S_IFREG, 0, 0 };
	CHECK(smb_nfs_reparse_encode(buf, sizeof(buf), &s) == -EINVAL);

	Bytes lnk;
	put64(lnk, 0, NFS_SPECFILE_LNK);
	append(lnk, utf16(u"target"));
	CHECK(smb_nfs_reparse_decode(lnk.data(), lnk.size(), &d) == -EOPNOTSUPP);
	Bytes fifo;
	put64(fifo, 0, NFS_SPECFILE_FIFO);
	CHECK(smb_nfs_reparse_decode(fifo.data(), 7, &d) == -EINVAL);
	fifo.push_back(0);
	CHECK(smb_nfs_reparse_decode(fifo.data(), 9, &d) == -EINVAL);
	Bytes blk;
	put64(blk, 0, NFS_SPECFILE_BLK);
	put32(blk, 8, 8);
	CHECK(smb_nfs_reparse_decode(blk.data(), 12, &d) == -EINVAL);
	put32(blk, 12, 1);
	REQUIRE(smb_nfs_reparse_decode(blk.data(), 16, &d) == 0);
	CHECK(d.type == SMB_S_IFBLK);
	CHECK(d.minor == 1);
}
