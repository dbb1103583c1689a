// SPDX-License-Identifier: GPL-2.0-or-later
// kmod/wire/pdu.c: transport framing, SMB2 headers, bounds of fields.
#include <catch2/catch.hpp>

#include "wire_util.hpp"

using namespace wiretest;

TEST_CASE("frame header: Direct TCP length, keep-alive, garbage", "[wire]")
{
	uint8_t h[4] = { 0, 0x01, 0x02, 0x03 };
	uint32_t len = 0;

	CHECK(smb2_frame_decode(h, &len) == SMB2_FRAME_MESSAGE);
	CHECK(len == 0x010203);

	uint8_t ka[4] = { 0x85, 0, 0, 0 };
	CHECK(smb2_frame_decode(ka, &len) == SMB2_FRAME_KEEPALIVE);

	uint8_t ka_len[4] = { 0x85, 0, 0, 1 };
	CHECK(smb2_frame_decode(ka_len, &len) == SMB2_FRAME_BAD);
	uint8_t req[4] = { 0x81, 0, 0, 0x44 };	/* NetBIOS session request */
	CHECK(smb2_frame_decode(req, &len) == SMB2_FRAME_BAD);

	uint8_t out[4];
	smb2_frame_encode(out, 0xabcdef);
	CHECK(out[0] == 0);
	CHECK(smb2_frame_decode(out, &len) == SMB2_FRAME_MESSAGE);
	CHECK(len == 0xabcdef);
}

TEST_CASE("SMB2 header: decode and reject", "[wire]")
{
	struct smb2_hdr h;
	Bytes b = header(SMB2_ECHO, 7);
	put32(b, SMB2_HDR_TREE_ID, 0x11223344);
	put64(b, SMB2_HDR_SESSION_ID, 0x5566778899aabbccULL);
	b.resize(68);

	REQUIRE(smb2_hdr_decode(b.data(), b.size(), &h) == 68);
	CHECK(h.command == SMB2_ECHO);
	CHECK(h.message_id == 7);
	CHECK(h.tree_id == 0x11223344);
	CHECK(h.session_id == 0x5566778899aabbccULL);
	CHECK(h.async_id == 0);

	SECTION("too short")
	{
		CHECK(smb2_hdr_decode(b.data(), 63, &h) == -EPROTO);
	}
	SECTION("wrong protocol id")
	{
		b[0] = 0xff;
		CHECK(smb2_hdr_decode(b.data(), b.size(), &h) == -EPROTO);
	}
	SECTION("wrong StructureSize")
	{
		put16(b, SMB2_HDR_STRUCT_SIZE, 65);
		CHECK(smb2_hdr_decode(b.data(), b.size(), &h) == -EPROTO);
	}
	SECTION("async header carries the AsyncId")
	{
		put32(b, SMB2_HDR_FLAGS, SMB2_FLAGS_ASYNC_COMMAND);
		put64(b, SMB2_HDR_ASYNC_ID, 0x42);
		REQUIRE(smb2_hdr_decode(b.data(), b.size(), &h) == 68);
		CHECK(h.async_id == 0x42);
		CHECK(h.tree_id == 0);
	}
}

TEST_CASE("SMB2 header: NextCommand of a compound", "[wire]")
{
	struct smb2_hdr h;
	Bytes b = header(SMB2_ECHO, 1, 0, 72);
	b.resize(72 + 68);

	CHECK(smb2_hdr_decode(b.data(), b.size(), &h) == 72);
	for (uint32_t bad : { 71u, 8u, 60u, 80u + 68u, 0xfffffff8u, 136u }) {
		put32(b, SMB2_HDR_NEXT_COMMAND, bad);
		INFO("NextCommand " << bad);
		CHECK(smb2_hdr_decode(b.data(), b.size(), &h) == -EPROTO);
	}
	/* Exactly room for the next header. */
	put32(b, SMB2_HDR_NEXT_COMMAND, 72);
	CHECK(smb2_hdr_decode(b.data(), 72 + 64, &h) == 72);
	CHECK(smb2_hdr_decode(b.data(), 72 + 63, &h) == -EPROTO);
}

TEST_CASE("response header mirrors the request", "[wire]")
{
	struct smb2_hdr req, rsp;
	Bytes b = header(SMB2_TREE_CONNECT, 99);
	put32(b, SMB2_HDR_PROCESS_ID, 0xfeff);
	put32(b, SMB2_HDR_TREE_ID, 5);
	put64(b, SMB2_HDR_SESSION_ID, 6);
	REQUIRE(smb2_hdr_decode(b.data(), b.size(), &req) == 64);

	Bytes out(64, 0xee);
	smb2_hdr_encode_rsp(out.data(), &req, STATUS_ACCESS_DENIED, 17,
			    SMB2_FLAGS_RELATED_OPERATIONS, 0);
	REQUIRE(smb2_hdr_decode(out.data(), out.size(), &rsp) == 64);
	CHECK(rsp.status == STATUS_ACCESS_DENIED);
	CHECK(rsp.credits == 17);
	CHECK(rsp.flags == (SMB2_FLAGS_SERVER_TO_REDIR |
			    SMB2_FLAGS_RELATED_OPERATIONS));
	CHECK(rsp.message_id == 99);
	CHECK(rsp.process_id == 0xfeff);
	CHECK(rsp.tree_id == 5);
	CHECK(rsp.session_id == 6);
	CHECK(rsp.command == SMB2_TREE_CONNECT);
	for (int i = 0; i < 16; i++)
		CHECK(out[SMB2_HDR_SIGNATURE + i] == 0);

	smb2_hdr_encode_rsp(out.data(), &req, STATUS_PENDING, 1,
			    SMB2_FLAGS_ASYNC_COMMAND, 0x1234);
	REQUIRE(smb2_hdr_decode(out.data(), out.size(), &rsp) == 64);
	CHECK(rsp.async_id == 0x1234);
}

TEST_CASE("body StructureSize check", "[wire]")
{
	Bytes body(24, 0);
	put16(body, 0, 25);
	CHECK(smb2_body_check(body.data(), 24, 25) == STATUS_SUCCESS);
	CHECK(smb2_body_check(body.data(), 23, 25) == STATUS_INVALID_PARAMETER);
	CHECK(smb2_body_check(body.data(), 24, 24) == STATUS_INVALID_PARAMETER);
	CHECK(smb2_body_check(body.data(), 1, 25) == STATUS_INVALID_PARAMETER);
	CHECK(smb2_body_check(body.data(), 0, 4) == STATUS_INVALID_PARAMETER);
	put16(body, 0, 4);
	CHECK(smb2_body_check(body.data(), 4, 4) == STATUS_SUCCESS);
}

TEST_CASE("variable fields stay inside the PDU", "[wire]")
{
	Bytes pdu(200, 0);
	const uint8_t *f = nullptr;

	CHECK(smb2_field(pdu.data(), 200, 88, 112, 88, &f) == 0);
	CHECK(f == pdu.data() + 88);
	CHECK(smb2_field(pdu.data(), 200, 88, 113, 88, &f) == -EINVAL);
	CHECK(smb2_field(pdu.data(), 200, 87, 1, 88, &f) == -EINVAL);
	CHECK(smb2_field(pdu.data(), 200, 201, 1, 88, &f) == -EINVAL);
	CHECK(smb2_field(pdu.data(), 200, 100, 0xffffffffu, 88, &f) == -EINVAL);
	CHECK(smb2_field(pdu.data(), 200, 0xffffffffu, 2, 88, &f) == -EINVAL);
	/* An empty field is valid wherever it points. */
	CHECK(smb2_field(pdu.data(), 200, 0xffff, 0, 88, &f) == 0);
	CHECK(f == nullptr);
}

TEST_CASE("error response body", "[wire]")
{
	Bytes body(16, 0xaa);
	CHECK(smb2_error_encode(body.data()) == 9);
	CHECK(get16(body, 0) == 9);
	for (int i = 2; i < 9; i++)
		CHECK(body[i] == 0);
}

TEST_CASE("MessageId and Command peeked for tracing", "[wire]")
{
	u64 mid = 1;
	u16 cmd = 1;
	Bytes b = header(SMB2_READ, 0x1122334455667788ULL);
	append(b, Bytes(49, 0));

	CHECK(smb2_msg_peek_id(b.data(), static_cast<uint32_t>(b.size()), &mid, &cmd));
	CHECK(mid == 0x1122334455667788ULL);
	CHECK(cmd == SMB2_READ);
	// The header alone is enough (a frame still arriving).
	CHECK(smb2_msg_peek_id(b.data(), SMB2_HDR_SIZE, &mid, &cmd));
	CHECK(mid == 0x1122334455667788ULL);

	// One byte short of a header, SMB1, TRANSFORM, COMPRESSION: nothing.
	for (uint32_t proto : { 0x424d53ffU, (uint32_t)SMB2_TRANSFORM_PROTO_NUMBER,
				(uint32_t)SMB2_COMPRESSION_PROTO_NUMBER }) {
		Bytes o = b;
		put32(o, SMB2_HDR_PROTOCOL, proto);
		mid = 1;
		cmd = 1;
		CHECK_FALSE(smb2_msg_peek_id(o.data(), static_cast<uint32_t>(o.size()), &mid, &cmd));
		CHECK(mid == 0);
		CHECK(cmd == 0);
	}
	mid = 1;
	CHECK_FALSE(smb2_msg_peek_id(b.data(), SMB2_HDR_SIZE - 1, &mid, &cmd));
	CHECK(mid == 0);
	CHECK_FALSE(smb2_msg_peek_id(b.data(), 0, &mid, &cmd));
}

TEST_CASE("TRANSFORM header", "[wire]")
{
	struct smb2_transform t;
	Bytes b(SMB2_TRANSFORM_HDR_SIZE + 80, 0);
	put32(b, 0, SMB2_TRANSFORM_PROTO_NUMBER);
	put32(b, SMB2_TF_ORIG_SIZE, 80);
	put16(b, SMB2_TF_FLAGS, SMB2_TRANSFORM_FLAG_ENCRYPTED);
	put64(b, SMB2_TF_SESSION_ID, 0x77);

	REQUIRE(smb2_transform_decode(b.data(), b.size(), &t) == 0);
	CHECK(t.session_id == 0x77);
	CHECK(t.orig_size == 80);
	CHECK(t.nonce == b.data() + 20);

	CHECK(smb2_transform_decode(b.data(), b.size() - 1, &t) == -EPROTO);
	CHECK(smb2_transform_decode(b.data(), 51, &t) == -EPROTO);
	put16(b, SMB2_TF_FLAGS, 0);
	CHECK(smb2_transform_decode(b.data(), b.size(), &t) == -EPROTO);
	put16(b, SMB2_TF_FLAGS, 1);
	put32(b, SMB2_TF_ORIG_SIZE, 0xffffffffu);
	CHECK(smb2_transform_decode(b.data(), b.size(), &t) == -EPROTO);
	/* Smaller than an SMB2 header inside: not a message. */
	Bytes s(SMB2_TRANSFORM_HDR_SIZE + 10, 0);
	put32(s, 0, SMB2_TRANSFORM_PROTO_NUMBER);
	put32(s, SMB2_TF_ORIG_SIZE, 10);
	put16(s, SMB2_TF_FLAGS, 1);
	CHECK(smb2_transform_decode(s.data(), s.size(), &t) == -EPROTO);
}

TEST_CASE("payload sizes and credit charges (3.1.5.2)", "[wire]")
{
	Bytes read(48, 0);
	put32(read, 4, 1 << 20);
	CHECK(smb2_payload_size(SMB2_READ, read.data(), 48) == 1u << 20);
	CHECK(smb2_credits_for(1 << 20) == 16);
	CHECK(smb2_credits_for(65536) == 1);
	CHECK(smb2_credits_for(65537) == 2);
	CHECK(smb2_credits_for(0) == 1);

	Bytes ioctl(56, 0);
	put32(ioctl, 28, 100);		/* InputCount */
	put32(ioctl, 44, 200000);	/* MaxOutputResponse */
	CHECK(smb2_payload_size(SMB2_IOCTL, ioctl.data(), 56) == 200000);
	put32(ioctl, 28, 0xffffffffu);
	put32(ioctl, 40, 0xffffffffu);
	CHECK(smb2_payload_size(SMB2_IOCTL, ioctl.data(), 56) == 0xffffffffu);

	/* Too short to say: 0, the handler rejects the body itself. */
	CHECK(smb2_payload_size(SMB2_WRITE, read.data(), 6) == 0);
	CHECK(smb2_payload_size(SMB2_ECHO, read.data(), 48) == 0);
}
