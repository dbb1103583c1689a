// SPDX-License-Identifier: GPL-2.0-or-later
// kmod/wire/info.c: QUERY_INFO and SET_INFO requests and responses, the
// file and file-system information classes, SET_INFO buffers, EA lists.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>

#include "wire_util.hpp"

extern "C" {
#include "fscc.h"
#include "info.h"
}

using namespace wiretest;

namespace {

Bytes qinfo(uint8_t type, uint8_t cls, uint32_t out_len, const Bytes &in)
{
	Bytes b = header(SMB2_QUERY_INFO);
	Bytes body(40, 0);
	put16(body, 0, SMB2_QINFO_REQ_SIZE);
	body[SMB2_QINFO_REQ_INFO_TYPE] = type;
	body[SMB2_QINFO_REQ_INFO_CLASS] = cls;
	put32(body, SMB2_QINFO_REQ_OUTPUT_LENGTH, out_len);
	put16(body, SMB2_QINFO_REQ_INPUT_OFFSET, in.empty() ? 0 : 104);
	put32(body, SMB2_QINFO_REQ_INPUT_LENGTH, in.size());
	put32(body, SMB2_QINFO_REQ_ADDITIONAL, 7);
	put32(body, SMB2_QINFO_REQ_FLAGS, SL_RESTART_SCAN);
	put64(body, SMB2_QINFO_REQ_FILE_ID, 3);
	put64(body, SMB2_QINFO_REQ_FILE_ID + 8, 4);
	append(b, body);
	append(b, in.empty() ? Bytes(1, 0) : in);
	return b;
}

Bytes sinfo(uint8_t type, uint8_t cls, const Bytes &buf)
{
	Bytes b = header(SMB2_SET_INFO);
	Bytes body(32, 0);
	put16(body, 0, SMB2_SINFO_REQ_SIZE);
	body[SMB2_SINFO_REQ_INFO_TYPE] = type;
	body[SMB2_SINFO_REQ_INFO_CLASS] = cls;
	put32(body, SMB2_SINFO_REQ_BUFFER_LENGTH, buf.size());
	put16(body, SMB2_SINFO_REQ_BUFFER_OFFSET, 96);
	put32(body, SMB2_SINFO_REQ_ADDITIONAL, 4);
	put64(body, SMB2_SINFO_REQ_FILE_ID, 5);
	append(b, body);
	append(b, buf.empty() ? Bytes(1, 0) : buf);
	return b;
}

struct smb_finfo sample()
{
	struct smb_finfo fi = {};
	fi.creation_time = 0x01d0000000000001ull;
	fi.access_time = 0x01d0000000000002ull;
	fi.write_time = 0x01d0000000000003ull;
	fi.change_time = 0x01d0000000000004ull;
	fi.allocation = 8192;
	fi.eof = 5000;
	fi.index = 0xabcdef;
	fi.volume = 0x1234;
	fi.position = 77;
	fi.attributes = FILE_ATTRIBUTE_ARCHIVE;
	fi.nlink = 2;
	fi.ea_size = 36;
	fi.access = 0x12019f;
	fi.mode = 0x20;
	fi.delete_pending = true;
	fi.name = "\\dir\\file.txt";
	fi.name_len = strlen(fi.name);
	return fi;
}

int encode(uint8_t cls, const struct smb_finfo &fi, Bytes &out)
{
	struct smb_out o = { out.data(), static_cast<uint32_t>(out.size()) };
	return smb_file_info_encode(cls, &fi, &o);
}

} // namespace

TEST_CASE("QUERY_INFO request", "[wire][info]")
{
	struct smb2_query_info_req r;
	Bytes in = { 8, 0, 0, 0, 3, 'a', 'b', 'c', 0, 0, 0, 0 };
	Bytes b = qinfo(SMB2_0_INFO_FILE, FILE_FULL_EA_INFORMATION, 4096, in);

	REQUIRE(smb2_query_info_req_decode(b.data(), b.size(), &r) == 0);
	CHECK(r.info_type == SMB2_0_INFO_FILE);
	CHECK(r.info_class == FILE_FULL_EA_INFORMATION);
	CHECK(r.out_len == 4096);
	CHECK(r.in == b.data() + 104);
	CHECK(r.in_len == in.size());
	CHECK(r.additional == 7);
	CHECK(r.flags == SL_RESTART_SCAN);
	CHECK(get_unaligned_le64(r.file_id) == 3);

	SECTION("no input")
	{
		Bytes t = qinfo(SMB2_0_INFO_FILESYSTEM, 1, 24, {});
		REQUIRE(smb2_query_info_req_decode(t.data(), t.size(), &r) == 0);
		CHECK(r.in == nullptr);
		CHECK(r.in_len == 0);
	}
	SECTION("every truncation")
	{
		for (size_t n = 0; n < b.size(); n++)
			CHECK(smb2_query_info_req_decode(b.data(), n, &r) ==
			      STATUS_INVALID_PARAMETER);
	}
	SECTION("input outside the PDU")
	{
		Bytes t = b;
		put32(t, 64 + SMB2_QINFO_REQ_INPUT_LENGTH, 0xffffffff);
		CHECK(smb2_query_info_req_decode(t.data(), t.size(), &r) ==
		      STATUS_INVALID_PARAMETER);
		t = b;
		put16(t, 64 + SMB2_QINFO_REQ_INPUT_OFFSET, 100);
		CHECK(smb2_query_info_req_decode(t.data(), t.size(), &r) ==
		      STATUS_INVALID_PARAMETER);
	}
}

TEST_CASE("SET_INFO request", "[wire][info]")
{
	struct smb2_set_info_req r;
	Bytes buf(40, 0x11);
	Bytes b = sinfo(SMB2_0_INFO_FILE, FILE_BASIC_INFORMATION, buf);

	REQUIRE(smb2_set_info_req_decode(b.data(), b.size(), &r) == 0);
	CHECK(r.info_type == SMB2_0_INFO_FILE);
	CHECK(r.info_class == FILE_BASIC_INFORMATION);
	CHECK(r.buf == b.data() + 96);
	CHECK(r.len == 40);
	CHECK(r.additional == 4);
	CHECK(get_unaligned_le64(r.file_id) == 5);

	for (size_t n = 0; n < b.size(); n++)
		CHECK(smb2_set_info_req_decode(b.data(), n, &r) ==
		      STATUS_INVALID_PARAMETER);
	Bytes t = b;
	put32(t, 64 + SMB2_SINFO_REQ_BUFFER_LENGTH, 41);
	CHECK(smb2_set_info_req_decode(t.data(), t.size(), &r) ==
	      STATUS_INVALID_PARAMETER);
	t = b;
	put16(t, 64 + SMB2_SINFO_REQ_BUFFER_OFFSET, 64);
	CHECK(smb2_set_info_req_decode(t.data(), t.size(), &r) ==
	      STATUS_INVALID_PARAMETER);
}

TEST_CASE("QUERY_INFO and SET_INFO responses", "[wire][info]")
{
	Bytes body(32, 0xff);

	CHECK(smb2_query_info_rsp_encode(body.data(), 24) == 32);
	CHECK(get16(body, 0) == 9);
	CHECK(get16(body, 2) == 72);
	CHECK(get32(body, 4) == 24);
	CHECK(smb2_query_info_rsp_encode(body.data(), 0) == 9);
	CHECK(get16(body, 2) == 0);
	CHECK(get32(body, 4) == 0);
	CHECK(body[8] == 0);
	CHECK(smb2_set_info_rsp_encode(body.data()) == 2);
	CHECK(get16(body, 0) == 2);
}

TEST_CASE("error data: plain, and as a 3.1.1 error context", "[wire][info]")
{
	uint8_t need[4] = { 0x90, 0, 0, 0 };
	Bytes body(smb2_error_data_size(4), 0xee);

	CHECK(smb2_error_data_encode(body.data(), false, need, 4) == 12);
	CHECK(get16(body, 0) == 9);
	CHECK(body[2] == 0);
	CHECK(get32(body, 4) == 4);
	CHECK(get32(body, 8) == 0x90);

	CHECK(smb2_error_data_encode(body.data(), true, need, 4) == 20);
	CHECK(body[2] == 1);		// ErrorContextCount
	CHECK(get32(body, 4) == 12);	// ByteCount
	CHECK(get32(body, 8) == 4);	// ErrorDataLength
	CHECK(get32(body, 12) == 0);	// ErrorId
	CHECK(get32(body, 16) == 0x90);

	CHECK(smb2_error_data_encode(body.data(), true, nullptr, 0) == 9);
	CHECK(body[2] == 0);
}

TEST_CASE("which classes are for what", "[wire][info]")
{
	CHECK(smb_file_class_uses(FILE_BASIC_INFORMATION) ==
	      (SMB_INFO_QUERY | SMB_INFO_SET));
	CHECK(smb_file_class_uses(FILE_ALL_INFORMATION) == SMB_INFO_QUERY);
	CHECK(smb_file_class_uses(FILE_RENAME_INFORMATION) == SMB_INFO_SET);
	CHECK(smb_file_class_uses(FILE_NAME_INFORMATION) == SMB_INFO_LOCAL);
	CHECK(smb_file_class_uses(0) == 0);
	CHECK(smb_file_class_uses(200) == 0);
	CHECK(smb_fs_class_uses(FILE_FS_VOLUME_INFORMATION) == SMB_INFO_QUERY);
	CHECK(smb_fs_class_uses(FILE_FS_LABEL_INFORMATION) == SMB_INFO_SET);
	CHECK(smb_fs_class_uses(0) == 0);
}

TEST_CASE("fixed-size file classes", "[wire][info]")
{
	struct smb_finfo fi = sample();
	Bytes out(128, 0);

	REQUIRE(encode(FILE_BASIC_INFORMATION, fi, out) == 40);
	CHECK(get64(out, 0) == fi.creation_time);
	CHECK(get64(out, 8) == fi.access_time);
	CHECK(get64(out, 16) == fi.write_time);
	CHECK(get64(out, 24) == fi.change_time);
	CHECK(get32(out, 32) == FILE_ATTRIBUTE_ARCHIVE);

	REQUIRE(encode(FILE_STANDARD_INFORMATION, fi, out) == 24);
	CHECK(get64(out, 0) == 8192);
	CHECK(get64(out, 8) == 5000);
	CHECK(get32(out, 16) == 2);
	CHECK(out[20] == 1);
	CHECK(out[21] == 0);

	REQUIRE(encode(FILE_INTERNAL_INFORMATION, fi, out) == 8);
	CHECK(get64(out, 0) == 0xabcdef);
	REQUIRE(encode(FILE_EA_INFORMATION, fi, out) == 4);
	CHECK(get32(out, 0) == 36);
	REQUIRE(encode(FILE_ACCESS_INFORMATION, fi, out) == 4);
	CHECK(get32(out, 0) == 0x12019f);
	REQUIRE(encode(FILE_POSITION_INFORMATION, fi, out) == 8);
	CHECK(get64(out, 0) == 77);
	REQUIRE(encode(FILE_MODE_INFORMATION, fi, out) == 4);
	CHECK(get32(out, 0) == 0x20);
	REQUIRE(encode(FILE_ALIGNMENT_INFORMATION, fi, out) == 4);
	CHECK(get32(out, 0) == 0);
	REQUIRE(encode(FILE_COMPRESSION_INFORMATION, fi, out) == 16);
	CHECK(get64(out, 0) == 5000);

	out.assign(128, 0);
	REQUIRE(encode(FILE_NETWORK_OPEN_INFORMATION, fi, out) == 56);
	CHECK(get64(out, 0) == fi.creation_time);
	CHECK(get64(out, 24) == fi.change_time);
	CHECK(get64(out, 32) == 8192);
	CHECK(get64(out, 40) == 5000);
	CHECK(get32(out, 48) == FILE_ATTRIBUTE_ARCHIVE);
	CHECK(get32(out, 52) == 0);

	fi.attributes = FILE_ATTRIBUTE_REPARSE_POINT;
	fi.reparse_tag = IO_REPARSE_TAG_SYMLINK;
	REQUIRE(encode(FILE_ATTRIBUTE_TAG_INFORMATION, fi, out) == 8);
	CHECK(get32(out, 0) == FILE_ATTRIBUTE_REPARSE_POINT);
	CHECK(get32(out, 4) == IO_REPARSE_TAG_SYMLINK);

	REQUIRE(encode(FILE_ID_INFORMATION, fi, out) == 24);
	CHECK(get64(out, 0) == 0x1234);
	CHECK(get64(out, 8) == 0xabcdef);
	CHECK(get64(out, 16) == 0);

	CHECK(smb_file_info_min(FILE_STREAM_INFORMATION) == 0);
	CHECK(encode(FILE_STREAM_INFORMATION, fi, out) == -EINVAL);
}

TEST_CASE("FILE_ALL_INFORMATION", "[wire][info]")
{
	struct smb_finfo fi = sample();
	Bytes name = utf16(u"\\dir\\file.txt");
	Bytes out(200, 0);

	REQUIRE(smb_file_info_min(FILE_ALL_INFORMATION) == 104);
	REQUIRE(encode(FILE_ALL_INFORMATION, fi, out) == int(100 + name.size()));
	CHECK(get64(out, 0) == fi.creation_time);
	CHECK(get32(out, 32) == FILE_ATTRIBUTE_ARCHIVE);
	CHECK(get64(out, 40) == 8192);	// standard
	CHECK(get64(out, 48) == 5000);
	CHECK(get32(out, 56) == 2);
	CHECK(out[60] == 1);
	CHECK(get64(out, 64) == 0xabcdef);	// internal
	CHECK(get32(out, 72) == 36);		// ea
	CHECK(get32(out, 76) == 0x12019f);	// access
	CHECK(get64(out, 80) == 77);		// position
	CHECK(get32(out, 88) == 0x20);		// mode
	CHECK(get32(out, 92) == 0);		// alignment
	CHECK(get32(out, 96) == name.size());
	CHECK(Bytes(out.begin() + 100, out.begin() + 100 + name.size()) == name);

	SECTION("an empty name still takes the whole structure")
	{
		fi.name = "";
		fi.name_len = 0;
		CHECK(encode(FILE_ALL_INFORMATION, fi, out) == 104);
	}
	SECTION("a short buffer gets the start, and the full length")
	{
		for (uint32_t cap = 0; cap < 100 + name.size(); cap++) {
			Bytes small(cap + 4, 0x5a);
			struct smb_out o = { small.data(), cap };
			REQUIRE(smb_file_info_encode(FILE_ALL_INFORMATION, &fi,
						     &o) ==
				int(100 + name.size()));
			for (uint32_t i = cap; i < cap + 4; i++)
				REQUIRE(small[i] == 0x5a);
			if (cap >= 100)
				CHECK(get32(small, 96) == name.size());
		}
	}
	SECTION("a name that is not UTF-8")
	{
		fi.name = "\xc3";
		fi.name_len = 1;
		CHECK(encode(FILE_ALL_INFORMATION, fi, out) == -EINVAL);
	}
}

TEST_CASE("name classes", "[wire][info]")
{
	struct smb_finfo fi = {};
	Bytes out(64, 0);

	fi.name = "dir\\F";
	fi.name_len = 5;
	REQUIRE(encode(FILE_NORMALIZED_NAME_INFORMATION, fi, out) == 14);
	CHECK(get32(out, 0) == 10);
	CHECK(Bytes(out.begin() + 4, out.begin() + 14) == utf16(u"dir\\F"));
	// The share root has an empty name: the structure's size still.
	fi.name_len = 0;
	REQUIRE(encode(FILE_NORMALIZED_NAME_INFORMATION, fi, out) == 8);
	CHECK(get32(out, 0) == 0);
	fi.name = "TORT~ABC.TXT";
	fi.name_len = 12;
	REQUIRE(encode(FILE_ALTERNATE_NAME_INFORMATION, fi, out) == 28);
	CHECK(get32(out, 0) == 24);
}

TEST_CASE("FILE_STREAM_INFORMATION", "[wire][info]")
{
	struct smb_stream_ent ents[2] = {
		{ "", 0, 5000, 8192 },
		{ "two", 3, 10, 4096 },
	};
	Bytes first = utf16(u"::$DATA");
	Bytes second = utf16(u":two:$DATA");
	Bytes out(200, 0);
	struct smb_out o = { out.data(), 200 };
	uint32_t fit;

	REQUIRE(smb_stream_info_encode(ents, 1, &o, &fit) == 24 + 14);
	CHECK(fit == 38);
	CHECK(get32(out, 0) == 0);
	CHECK(get32(out, 4) == 14);
	CHECK(get64(out, 8) == 5000);
	CHECK(get64(out, 16) == 8192);
	CHECK(Bytes(out.begin() + 24, out.begin() + 38) == first);

	out.assign(200, 0);
	REQUIRE(smb_stream_info_encode(ents, 2, &o, &fit) == 40 + 24 + 20);
	CHECK(fit == 84);
	CHECK(get32(out, 0) == 40);
	CHECK(get32(out, 40) == 0);
	CHECK(get32(out, 44) == 20);
	CHECK(Bytes(out.begin() + 64, out.begin() + 84) == second);

	SECTION("only whole entries when the buffer is short")
	{
		out.assign(200, 0);
		struct smb_out s = { out.data(), 60 };
		REQUIRE(smb_stream_info_encode(ents, 2, &s, &fit) == 84);
		CHECK(fit == 38);
		CHECK(get32(out, 0) == 0);	// the last one returned
		CHECK(get32(out, 40) == 0);
		struct smb_out z = { out.data(), 30 };
		REQUIRE(smb_stream_info_encode(ents, 2, &z, &fit) == 84);
		CHECK(fit == 0);
	}
	SECTION("no streams")
	{
		REQUIRE(smb_stream_info_encode(ents, 0, &o, &fit) == 0);
		CHECK(fit == 0);
	}
}

TEST_CASE("file-system classes", "[wire][info]")
{
	struct smb_fsinfo fs = {};
	Bytes out(128, 0);
	struct smb_out o = { out.data(), 128 };

	fs.total_units = 1000;
	fs.caller_avail_units = 400;
	fs.actual_avail_units = 500;
	fs.sectors_per_unit = 8;
	fs.bytes_per_sector = 512;
	fs.volume_created = 99;
	fs.serial = 0xcafe;
	fs.attributes = FILE_CASE_PRESERVED_NAMES | FILE_UNICODE_ON_DISK;
	fs.max_name_len = 255;
	fs.device_characteristics = FILE_DEVICE_IS_MOUNTED;
	memset(fs.object_id, 0x42, 16);
	fs.label = "demo";
	fs.label_len = 4;
	fs.fs_name = "NTFS";
	fs.fs_name_len = 4;

	REQUIRE(smb_fs_info_encode(FILE_FS_VOLUME_INFORMATION, &fs, &o) == 26);
	CHECK(get64(out, 0) == 99);
	CHECK(get32(out, 8) == 0xcafe);
	CHECK(get32(out, 12) == 8);
	CHECK(out[16] == 0);
	CHECK(Bytes(out.begin() + 18, out.begin() + 26) == utf16(u"demo"));
	fs.label_len = 1;
	CHECK(smb_fs_info_encode(FILE_FS_VOLUME_INFORMATION, &fs, &o) == 24);

	REQUIRE(smb_fs_info_encode(FILE_FS_SIZE_INFORMATION, &fs, &o) == 24);
	CHECK(get64(out, 0) == 1000);
	CHECK(get64(out, 8) == 400);
	CHECK(get32(out, 16) == 8);
	CHECK(get32(out, 20) == 512);

	REQUIRE(smb_fs_info_encode(FILE_FS_FULL_SIZE_INFORMATION, &fs, &o) == 32);
	CHECK(get64(out, 8) == 400);
	CHECK(get64(out, 16) == 500);
	CHECK(get32(out, 24) == 8);
	CHECK(get32(out, 28) == 512);

	REQUIRE(smb_fs_info_encode(FILE_FS_DEVICE_INFORMATION, &fs, &o) == 8);
	CHECK(get32(out, 0) == FILE_DEVICE_DISK);
	CHECK(get32(out, 4) == FILE_DEVICE_IS_MOUNTED);

	REQUIRE(smb_fs_info_encode(FILE_FS_ATTRIBUTE_INFORMATION, &fs, &o) == 20);
	CHECK(get32(out, 0) == fs.attributes);
	CHECK(get32(out, 4) == 255);
	CHECK(get32(out, 8) == 8);
	CHECK(Bytes(out.begin() + 12, out.begin() + 20) == utf16(u"NTFS"));

	out.assign(128, 0);
	REQUIRE(smb_fs_info_encode(FILE_FS_CONTROL_INFORMATION, &fs, &o) == 48);
	CHECK(get64(out, 24) == ~0ull);
	CHECK(get64(out, 32) == ~0ull);
	CHECK(get32(out, 40) == 0);

	REQUIRE(smb_fs_info_encode(FILE_FS_OBJECT_ID_INFORMATION, &fs, &o) == 64);
	CHECK(out[0] == 0x42);
	CHECK(out[15] == 0x42);
	CHECK(out[16] == 0);

	REQUIRE(smb_fs_info_encode(FILE_FS_SECTOR_SIZE_INFORMATION, &fs, &o) == 28);
	for (int i = 0; i < 16; i += 4)
		CHECK(get32(out, i) == 512);
	CHECK(get32(out, 16) == (SSINFO_FLAGS_ALIGNED_DEVICE |
				 SSINFO_FLAGS_PARTITION_ALIGNED_ON_DEVICE));

	CHECK(smb_fs_info_min(FILE_FS_LABEL_INFORMATION) == 0);
	CHECK(smb_fs_info_encode(FILE_FS_LABEL_INFORMATION, &fs, &o) == -EINVAL);
}

TEST_CASE("SET_INFO buffers", "[wire][info]")
{
	struct smb_set_basic b;
	Bytes basic(40, 0);
	put64(basic, 0, 1);
	put64(basic, 8, ~0ull);
	put64(basic, 16, ~1ull);
	put64(basic, 24, 0);
	put32(basic, 32, FILE_ATTRIBUTE_HIDDEN);

	REQUIRE(smb_set_basic_decode(basic.data(), 40, &b) == 0);
	CHECK(b.creation_time == 1);
	CHECK(b.access_time == ~0ull);
	CHECK(b.write_time == ~1ull);
	CHECK(b.change_time == 0);
	CHECK(b.attributes == FILE_ATTRIBUTE_HIDDEN);
	CHECK(smb_set_basic_decode(basic.data(), 36, &b) ==
	      STATUS_INFO_LENGTH_MISMATCH);

	uint8_t u8v;
	uint32_t u32v;
	u64 u64v;
	Bytes v = { 1, 2, 3, 4, 5, 6, 7, 8 };
	CHECK(smb_set_u8_decode(v.data(), 1, &u8v) == 0);
	CHECK(u8v == 1);
	CHECK(smb_set_u8_decode(v.data(), 0, &u8v) ==
	      STATUS_INFO_LENGTH_MISMATCH);
	CHECK(smb_set_u32_decode(v.data(), 4, &u32v) == 0);
	CHECK(u32v == 0x04030201);
	CHECK(smb_set_u32_decode(v.data(), 3, &u32v) ==
	      STATUS_INFO_LENGTH_MISMATCH);
	CHECK(smb_set_u64_decode(v.data(), 8, &u64v) == 0);
	CHECK(u64v == 0x0807060504030201ull);
	CHECK(smb_set_u64_decode(v.data(), 7, &u64v) ==
	      STATUS_INFO_LENGTH_MISMATCH);
}

TEST_CASE("NT times to Unix times", "[wire][info]")
{
	long long sec;
	uint32_t nsec;

	smb_nttime_to_unix(116444736000000000ull, &sec, &nsec);
	CHECK(sec == 0);
	CHECK(nsec == 0);
	// 2009-02-13 23:31:30.1234567 UTC.
	smb_nttime_to_unix(116444736000000000ull + 12345678901234567ull, &sec,
			   &nsec);
	CHECK(sec == 1234567890);
	CHECK(nsec == 123456700);
	// Before 1970: a negative second and a positive fraction.
	smb_nttime_to_unix(116444736000000000ull - 5, &sec, &nsec);
	CHECK(sec == -1);
	CHECK(nsec == 999999500);
	smb_nttime_to_unix(0, &sec, &nsec);
	CHECK(sec == -11644473600ll);
	CHECK(nsec == 0);
}

TEST_CASE("rename and link buffers", "[wire][info]")
{
	struct smb_set_rename r;
	Bytes name = utf16(u"dir\\new.txt");
	Bytes buf(20, 0);
	buf[0] = 1;
	put32(buf, 16, name.size());
	append(buf, name);

	REQUIRE(smb_set_rename_decode(FILE_RENAME_INFORMATION, buf.data(),
				      buf.size(), &r) == 0);
	CHECK(r.flags == FILE_RENAME_REPLACE_IF_EXISTS);
	CHECK(r.name == buf.data() + 20);
	CHECK(r.name_len == name.size());
	buf[0] = 0;
	REQUIRE(smb_set_rename_decode(FILE_LINK_INFORMATION, buf.data(),
				      buf.size(), &r) == 0);
	CHECK(r.flags == 0);
	put32(buf, 0, FILE_RENAME_REPLACE_IF_EXISTS |
		      FILE_RENAME_POSIX_SEMANTICS);
	REQUIRE(smb_set_rename_decode(FILE_RENAME_INFORMATION_EX, buf.data(),
				      buf.size(), &r) == 0);
	CHECK(r.flags == (FILE_RENAME_REPLACE_IF_EXISTS |
			  FILE_RENAME_POSIX_SEMANTICS));

	SECTION("shorter than the structure")
	{
		CHECK(smb_set_rename_decode(FILE_RENAME_INFORMATION, buf.data(),
					    23, &r) ==
		      STATUS_INFO_LENGTH_MISMATCH);
	}
	SECTION("a name past the buffer, odd or empty")
	{
		Bytes t = buf;
		put32(t, 16, name.size() + 2);
		CHECK(smb_set_rename_decode(FILE_RENAME_INFORMATION, t.data(),
					    t.size(), &r) ==
		      STATUS_INVALID_PARAMETER);
		put32(t, 16, 0xfffffff0);
		CHECK(smb_set_rename_decode(FILE_RENAME_INFORMATION, t.data(),
					    t.size(), &r) ==
		      STATUS_INVALID_PARAMETER);
		put32(t, 16, 3);
		CHECK(smb_set_rename_decode(FILE_RENAME_INFORMATION, t.data(),
					    t.size(), &r) ==
		      STATUS_INVALID_PARAMETER);
		put32(t, 16, 0);
		CHECK(smb_set_rename_decode(FILE_RENAME_INFORMATION, t.data(),
					    t.size(), &r) ==
		      STATUS_INVALID_PARAMETER);
	}
	SECTION("a RootDirectory")
	{
		Bytes t = buf;
		put64(t, 8, 1);
		CHECK(smb_set_rename_decode(FILE_RENAME_INFORMATION, t.data(),
					    t.size(), &r) ==
		      STATUS_INVALID_PARAMETER);
	}
}

TEST_CASE("EA lists", "[wire][info]")
{
	Bytes e(smb_ea_entry_size(5, 6), 0xee);
	smb_ea_entry_encode(e.data(), 0x80, "EAONE", 5,
			    reinterpret_cast<const uint8_t *>("VALUE1"), 6);
	CHECK(e.size() == 20);
	CHECK(smb_ea_entry_padded(5, 6) == 20);
	CHECK(smb_ea_entry_padded(5, 7) == 24);
	CHECK(get32(e, 0) == 0);
	CHECK(e[4] == 0x80);
	CHECK(e[5] == 5);
	CHECK(get16(e, 6) == 6);
	CHECK(std::string(e.begin() + 8, e.begin() + 13) == "EAONE");
	CHECK(e[13] == 0);
	CHECK(std::string(e.begin() + 14, e.end()) == "VALUE1");

	// FILE_GET_EA_INFORMATION: two names.
	Bytes g = { 12, 0, 0, 0, 5, 'E', 'A', 'O', 'N', 'E', 0, 0,
		    0, 0, 0, 0, 3, 'T', 'W', 'O', 0 };
	uint32_t pos = 0, len;
	const char *name;
	REQUIRE(smb_get_ea_next(g.data(), g.size(), &pos, &name, &len) == 1);
	CHECK(std::string(name, len) == "EAONE");
	REQUIRE(smb_get_ea_next(g.data(), g.size(), &pos, &name, &len) == 1);
	CHECK(std::string(name, len) == "TWO");
	CHECK(smb_get_ea_next(g.data(), g.size(), &pos, &name, &len) == 0);

	SECTION("malformed lists")
	{
		Bytes t = g;
		pos = 0;
		put32(t, 0, 6);	// not a multiple of 4
		CHECK(smb_get_ea_next(t.data(), t.size(), &pos, &name, &len) ==
		      -EINVAL);
		t = g;
		put32(t, 0, 8);	// inside the entry
		CHECK(smb_get_ea_next(t.data(), t.size(), &pos, &name, &len) ==
		      -EINVAL);
		t = g;
		put32(t, 0, 100);	// past the buffer
		CHECK(smb_get_ea_next(t.data(), t.size(), &pos, &name, &len) ==
		      -EINVAL);
		t = g;
		t[4] = 0;	// empty name
		CHECK(smb_get_ea_next(t.data(), t.size(), &pos, &name, &len) ==
		      -EINVAL);
		t = g;
		t[16] = 9;	// name past the buffer
		pos = 12;
		CHECK(smb_get_ea_next(t.data(), t.size(), &pos, &name, &len) ==
		      -EINVAL);
		for (size_t n = 1; n < 5; n++) {
			pos = 0;
			CHECK(smb_get_ea_next(g.data(), n, &pos, &name, &len) ==
			      -EINVAL);
		}
	}
}
