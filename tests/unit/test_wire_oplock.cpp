// SPDX-License-Identifier: GPL-2.0-or-later
// kmod/wire/oplock.c: lease and durable handle contexts, OPLOCK_BREAK
// PDUs, and the grant/break/acknowledge rules of client caching.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "wire_util.hpp"

extern "C" {
#include "oplock.h"
}

using namespace wiretest;

namespace {

const uint32_t R = SMB2_LEASE_READ, H = SMB2_LEASE_HANDLE,
	       W = SMB2_LEASE_WRITE;

Bytes lease_v2(uint32_t state, uint32_t flags, uint16_t epoch)
{
	Bytes b(SMB2_LEASE_V2_SIZE, 0);
	for (int i = 0; i < 16; i++) {
		b[i] = uint8_t(0x10 + i);
		b[32 + i] = uint8_t(0xa0 + i);
	}
	put32(b, 16, state);
	put32(b, 20, flags);
	put64(b, 24, 0x1234);	// LeaseDuration: ignored
	put16(b, 48, epoch);
	return b;
}

} // namespace

TEST_CASE("RqLs create context", "[wire][oplock]")
{
	struct smb2_lease_ctx l;

	SECTION("v1: 32 bytes")
	{
		Bytes b = lease_v2(R | H, 0, 0);
		b.resize(SMB2_LEASE_V1_SIZE);
		REQUIRE(smb2_lease_ctx_decode(b.data(), b.size(), &l) ==
			STATUS_SUCCESS);
		CHECK(l.version == 1);
		CHECK(l.state == (R | H));
		CHECK(l.key[0] == 0x10);
		CHECK(l.key[15] == 0x1f);
		CHECK(l.flags == 0);
		CHECK(l.epoch == 0);
	}
	SECTION("v2: 52 bytes, parent key only with its flag")
	{
		Bytes b = lease_v2(R | W | H, SMB2_LEASE_FLAG_PARENT_LEASE_KEY_SET |
					      SMB2_LEASE_FLAG_BREAK_IN_PROGRESS,
				   7);
		REQUIRE(smb2_lease_ctx_decode(b.data(), b.size(), &l) ==
			STATUS_SUCCESS);
		CHECK(l.version == 2);
		CHECK(l.epoch == 7);
		CHECK(l.flags == SMB2_LEASE_FLAG_PARENT_LEASE_KEY_SET);
		CHECK(l.parent_key[0] == 0xa0);
		b = lease_v2(R, 0, 1);
		REQUIRE(smb2_lease_ctx_decode(b.data(), b.size(), &l) ==
			STATUS_SUCCESS);
		CHECK(l.parent_key[0] == 0);
	}
	SECTION("any other size is invalid")
	{
		Bytes b = lease_v2(R, 0, 0);
		for (uint32_t n : {0u, 1u, 31u, 33u, 51u})
			CHECK(smb2_lease_ctx_decode(b.data(), n, &l) ==
			      STATUS_INVALID_PARAMETER);
		b.push_back(0);
		CHECK(smb2_lease_ctx_decode(b.data(), b.size(), &l) ==
		      STATUS_INVALID_PARAMETER);
		CHECK(smb2_lease_ctx_decode(nullptr, 32, &l) ==
		      STATUS_INVALID_PARAMETER);
	}
	SECTION("encode: the response of either version")
	{
		Bytes b = lease_v2(R | H, SMB2_LEASE_FLAG_PARENT_LEASE_KEY_SET, 3);
		REQUIRE(smb2_lease_ctx_decode(b.data(), b.size(), &l) == 0);
		l.flags |= SMB2_LEASE_FLAG_BREAK_IN_PROGRESS;
		Bytes out(SMB2_LEASE_V2_SIZE, 0xee);
		CHECK(smb2_lease_ctx_encode(out.data(), &l) == SMB2_LEASE_V2_SIZE);
		CHECK(out[0] == 0x10);
		CHECK(get32(out, 16) == (R | H));
		CHECK(get32(out, 20) == (SMB2_LEASE_FLAG_PARENT_LEASE_KEY_SET |
					 SMB2_LEASE_FLAG_BREAK_IN_PROGRESS));
		CHECK(get64(out, 24) == 0);
		CHECK(out[32] == 0xa0);
		CHECK(get16(out, 48) == 3);
		CHECK(get16(out, 50) == 0);
		l.version = 1;
		Bytes v1(SMB2_LEASE_V1_SIZE, 0xee);
		CHECK(smb2_lease_ctx_encode(v1.data(), &l) == SMB2_LEASE_V1_SIZE);
		CHECK(get64(v1, 24) == 0);
	}
}

TEST_CASE("durable handle contexts", "[wire][oplock]")
{
	struct smb2_dh2q q;
	struct smb2_dh_reconnect r;
	Bytes b(64, 0);

	for (int i = 0; i < 64; i++)
		b[i] = uint8_t(i);
	CHECK(smb2_dhnq_decode(b.data(), 16) == STATUS_SUCCESS);
	CHECK(smb2_dhnq_decode(b.data(), 15) == STATUS_INVALID_PARAMETER);
	CHECK(smb2_dhnq_decode(nullptr, 0) == STATUS_INVALID_PARAMETER);

	REQUIRE(smb2_dh2q_decode(b.data(), 32, &q) == STATUS_SUCCESS);
	CHECK(q.timeout == 0x03020100);
	CHECK(q.flags == 0x07060504);
	CHECK(q.create_guid[0] == 16);
	CHECK(q.create_guid[15] == 31);
	CHECK(smb2_dh2q_decode(b.data(), 31, &q) == STATUS_INVALID_PARAMETER);
	CHECK(smb2_dh2q_decode(b.data(), 33, &q) == STATUS_INVALID_PARAMETER);

	REQUIRE(smb2_dhnc_decode(b.data(), 16, &r) == STATUS_SUCCESS);
	CHECK(r.persistent == 0x0706050403020100ull);
	CHECK(r.volatile_id == 0x0f0e0d0c0b0a0908ull);
	CHECK(smb2_dhnc_decode(b.data(), 17, &r) == STATUS_INVALID_PARAMETER);

	REQUIRE(smb2_dh2c_decode(b.data(), 36, &r) == STATUS_SUCCESS);
	CHECK(r.create_guid[0] == 16);
	CHECK(r.flags == 0x23222120);
	CHECK(smb2_dh2c_decode(b.data(), 35, &r) == STATUS_INVALID_PARAMETER);

	Bytes out(8, 0xee);
	smb2_dh2q_rsp_encode(out.data(), 60000, SMB2_DHANDLE_FLAG_PERSISTENT);
	CHECK(get32(out, 0) == 60000);
	CHECK(get32(out, 4) == SMB2_DHANDLE_FLAG_PERSISTENT);
}

TEST_CASE("OPLOCK_BREAK acknowledgments", "[wire][oplock]")
{
	struct smb2_break_ack a;

	SECTION("oplock: 24 bytes")
	{
		Bytes b(24, 0);
		put16(b, 0, 24);
		b[2] = SMB2_OPLOCK_LEVEL_II;
		put64(b, 8, 11);
		put64(b, 16, 22);
		REQUIRE(smb2_break_ack_decode(b.data(), b.size(), &a) == 0);
		CHECK(!a.lease);
		CHECK(a.oplock_level == SMB2_OPLOCK_LEVEL_II);
		CHECK(a.persistent == 11);
		CHECK(a.volatile_id == 22);
		CHECK(smb2_break_ack_decode(b.data(), 23, &a) ==
		      STATUS_INVALID_PARAMETER);
	}
	SECTION("lease: 36 bytes")
	{
		Bytes b(36, 0);
		put16(b, 0, 36);
		put32(b, 4, 0);
		b[8] = 0x42;
		put32(b, 24, R | H);
		REQUIRE(smb2_break_ack_decode(b.data(), b.size(), &a) == 0);
		CHECK(a.lease);
		CHECK(a.lease_key[0] == 0x42);
		CHECK(a.lease_state == (R | H));
		CHECK(smb2_break_ack_decode(b.data(), 35, &a) ==
		      STATUS_INVALID_PARAMETER);
	}
	SECTION("other sizes")
	{
		Bytes b(64, 0);
		for (uint16_t s : {0, 23, 25, 35, 44})
		{
			put16(b, 0, s);
			CHECK(smb2_break_ack_decode(b.data(), b.size(), &a) ==
			      STATUS_INVALID_PARAMETER);
		}
		CHECK(smb2_break_ack_decode(b.data(), 1, &a) ==
		      STATUS_INVALID_PARAMETER);
	}
}

TEST_CASE("notifications and responses", "[wire][oplock]")
{
	Bytes hdr(SMB2_HDR_SIZE, 0xee), body(64, 0xee);
	uint8_t key[16];

	for (int i = 0; i < 16; i++)
		key[i] = uint8_t(i + 1);
	smb2_hdr_encode_notify(hdr.data());
	CHECK(get32(hdr, SMB2_HDR_PROTOCOL) == SMB2_PROTO_NUMBER);
	CHECK(get16(hdr, SMB2_HDR_STRUCT_SIZE) == 64);
	CHECK(get16(hdr, SMB2_HDR_COMMAND) == SMB2_OPLOCK_BREAK);
	CHECK(get16(hdr, SMB2_HDR_CREDIT) == 0);
	CHECK(get32(hdr, SMB2_HDR_FLAGS) == SMB2_FLAGS_SERVER_TO_REDIR);
	CHECK(get64(hdr, SMB2_HDR_MESSAGE_ID) == ~0ull);
	CHECK(get64(hdr, SMB2_HDR_SESSION_ID) == 0);
	CHECK(get32(hdr, SMB2_HDR_TREE_ID) == 0);

	CHECK(smb2_oplock_break_encode(body.data(), SMB2_OPLOCK_LEVEL_II, 5, 6) ==
	      24);
	CHECK(get16(body, 0) == 24);
	CHECK(body[2] == SMB2_OPLOCK_LEVEL_II);
	CHECK(get64(body, 8) == 5);
	CHECK(get64(body, 16) == 6);

	CHECK(smb2_lease_break_notify_encode(body.data(), 9,
		SMB2_NOTIFY_BREAK_LEASE_FLAG_ACK_REQUIRED, key, R | W | H, R | H) ==
	      44);
	CHECK(get16(body, 0) == 44);
	CHECK(get16(body, 2) == 9);
	CHECK(get32(body, 4) == SMB2_NOTIFY_BREAK_LEASE_FLAG_ACK_REQUIRED);
	CHECK(body[8] == 1);
	CHECK(body[23] == 16);
	CHECK(get32(body, 24) == (R | W | H));
	CHECK(get32(body, 28) == (R | H));
	CHECK(get32(body, 32) == 0);
	CHECK(get32(body, 40) == 0);

	CHECK(smb2_lease_break_rsp_encode(body.data(), key, R) == 36);
	CHECK(get16(body, 0) == 36);
	CHECK(get32(body, 4) == 0);
	CHECK(body[8] == 1);
	CHECK(get32(body, 24) == R);
	CHECK(get64(body, 28) == 0);
}

TEST_CASE("oplock levels and stat opens", "[wire][oplock]")
{
	CHECK(smb2_oplock_to_lease(SMB2_OPLOCK_LEVEL_BATCH) == (R | W | H));
	CHECK(smb2_oplock_to_lease(SMB2_OPLOCK_LEVEL_EXCLUSIVE) == (R | W));
	CHECK(smb2_oplock_to_lease(SMB2_OPLOCK_LEVEL_II) == R);
	CHECK(smb2_oplock_to_lease(SMB2_OPLOCK_LEVEL_LEASE) == 0);
	CHECK(smb2_lease_to_oplock(R | H) == SMB2_OPLOCK_LEVEL_II);
	CHECK(smb2_lease_to_oplock(W | H) == SMB2_OPLOCK_LEVEL_NONE);
	CHECK(smb2_lease_to_oplock(R | W | H) == SMB2_OPLOCK_LEVEL_BATCH);

	CHECK(smb2_is_oplock_stat_open(0x80));		// READ_ATTRIBUTES
	CHECK(smb2_is_oplock_stat_open(0x100180));
	CHECK(!smb2_is_oplock_stat_open(0x20080));	// + READ_CONTROL
	CHECK(smb2_is_lease_stat_open(0x20080));
	CHECK(!smb2_is_lease_stat_open(0));
	CHECK(!smb2_is_lease_stat_open(0x81));		// + READ_DATA
}

TEST_CASE("what is granted", "[wire][oplock]")
{
	struct smb_grant_in in = {};

	in.level2 = true;
	SECTION("alone: what was asked, valid states only")
	{
		in.lease = true;
		for (uint32_t s : {R, R | H, R | W, R | W | H}) {
			in.requested = s;
			CHECK(smb_cache_grant(&in) == s);
		}
		for (uint32_t s : {0u, W, H, W | H}) {
			in.requested = s;
			CHECK(smb_cache_grant(&in) == 0);
		}
		in.lease = false;
		in.requested = R | W | H;
		CHECK(smb_cache_grant(&in) == (R | W | H));
	}
	SECTION("another open takes W; a non-lease one H from leases")
	{
		in.requested = R | W | H;
		in.other_open = true;
		in.lease = true;
		CHECK(smb_cache_grant(&in) == (R | H));
		in.other_nonlease = true;
		CHECK(smb_cache_grant(&in) == R);
		in.lease = false;	// batch asked: level II
		CHECK(smb_cache_grant(&in) == R);
		in.other_handle = true;	// oplocks yield to handle leases
		CHECK(smb_cache_grant(&in) == 0);
		in.stat_open = true;	// stat opens do not look
		CHECK(smb_cache_grant(&in) == (R | W | H));
	}
	SECTION("byte-range locks take R; no level II")
	{
		in.lease = false;
		in.requested = R | W | H;
		in.brlocks = true;
		CHECK(smb_cache_grant(&in) == 0);
		in.brlocks = false;
		in.level2 = false;
		in.other_open = true;
		CHECK(smb_cache_grant(&in) == 0);
	}
	SECTION("directories: leases R and H only")
	{
		in.dir = true;
		in.requested = R | W | H;
		CHECK(smb_cache_grant(&in) == 0);
		in.lease = true;
		CHECK(smb_cache_grant(&in) == (R | H));
	}
}

TEST_CASE("breaking on a new open", "[wire][oplock]")
{
	bool wait;

	// An ordinary open takes W, and waits for it.
	CHECK(smb_cache_open_break(R | W | H, true, false, false, &wait) ==
	      (R | H));
	CHECK(wait);
	// ... which an oplock cannot keep H of.
	CHECK(smb_cache_open_break(R | W | H, false, false, false, &wait) == R);
	CHECK(wait);
	// R and RH survive an ordinary open.
	CHECK(smb_cache_open_break(R | H, true, false, false, &wait) == (R | H));
	CHECK(!wait);
	CHECK(smb_cache_open_break(R, false, false, false, &wait) == R);
	// A sharing violation takes H, and waits only for H.
	CHECK(smb_cache_open_break(R | H, true, true, false, &wait) == R);
	CHECK(wait);
	CHECK(smb_cache_open_break(R | W, true, true, false, &wait) == (R | W));
	CHECK(!wait);
	// An overwrite takes everything, waiting for W.
	CHECK(smb_cache_open_break(R | W | H, true, false, true, &wait) == 0);
	CHECK(wait);
	CHECK(smb_cache_open_break(R, false, false, true, &wait) == 0);
	CHECK(!wait);
	CHECK(smb_cache_open_break(R | H, true, false, true, &wait) == 0);
	CHECK(!wait);
}

TEST_CASE("lease break state machine", "[wire][oplock]")
{
	struct smb_lease_sm l = {};
	struct smb_lease_note n;

	l.state = R | W | H;
	l.epoch = 1;
	SECTION("break, acknowledge, done")
	{
		smb_lease_sm_break(&l, R | H, &n);
		REQUIRE(n.send);
		CHECK(n.flags == SMB2_NOTIFY_BREAK_LEASE_FLAG_ACK_REQUIRED);
		CHECK(n.from == (R | W | H));
		CHECK(n.to == (R | H));
		CHECK(n.epoch == 2);
		CHECK(l.breaking);
		CHECK(smb_lease_sm_ack(&l, R | W | H, &n) ==
		      STATUS_REQUEST_NOT_ACCEPTED);
		CHECK(smb_lease_sm_ack(&l, R | H, &n) == STATUS_SUCCESS);
		CHECK(!n.send);
		CHECK(!l.breaking);
		CHECK(l.state == (R | H));
		CHECK(smb_lease_sm_ack(&l, R, &n) == STATUS_UNSUCCESSFUL);
	}
	SECTION("a lower requirement while breaking: steps, as Windows")
	{
		smb_lease_sm_break(&l, R | H, &n);
		smb_lease_sm_break(&l, 0, &n);
		CHECK(!n.send);
		CHECK(l.to_requested == (R | H));
		CHECK(l.to_required == 0);
		CHECK(smb_lease_sm_ack(&l, R | H, &n) == STATUS_SUCCESS);
		REQUIRE(n.send);
		CHECK(n.flags == SMB2_NOTIFY_BREAK_LEASE_FLAG_ACK_REQUIRED);
		CHECK(n.from == (R | H));
		CHECK(n.to == R);
		CHECK(l.breaking);
		CHECK(smb_lease_sm_ack(&l, R, &n) == STATUS_SUCCESS);
		REQUIRE(n.send);
		CHECK(n.flags == 0);
		CHECK(n.to == 0);
		CHECK(l.state == 0);
		CHECK(!l.breaking);
	}
	SECTION("acknowledging less than offered is fine")
	{
		smb_lease_sm_break(&l, R | H, &n);
		CHECK(smb_lease_sm_ack(&l, 0, &n) == STATUS_SUCCESS);
		CHECK(!n.send);
		CHECK(l.state == 0);
	}
	SECTION("R alone goes to none without an acknowledgment")
	{
		l.state = R;
		smb_lease_sm_break(&l, 0, &n);
		REQUIRE(n.send);
		CHECK(n.flags == 0);
		CHECK(l.state == 0);
		CHECK(!l.breaking);
		CHECK(l.epoch == 2);
		smb_lease_sm_break(&l, 0, &n);
		CHECK(!n.send);
	}
	SECTION("nothing to break")
	{
		l.state = R | H;
		smb_lease_sm_break(&l, R | W | H, &n);
		CHECK(!n.send);
		CHECK(l.epoch == 1);
	}
	SECTION("upgrades: strict supersets, all allowed, not breaking")
	{
		l.state = R;
		CHECK(smb_lease_sm_upgrade(&l, R | H, R | H));
		CHECK(l.state == (R | H));
		CHECK(l.epoch == 2);
		CHECK(!smb_lease_sm_upgrade(&l, R, R));		// no downgrade
		CHECK(!smb_lease_sm_upgrade(&l, R | W | H, R | H));	// W refused
		CHECK(!smb_lease_sm_upgrade(&l, R | W, R | W));	// not a superset
		CHECK(l.state == (R | H));
		smb_lease_sm_break(&l, R, &n);
		CHECK(!smb_lease_sm_upgrade(&l, R | W | H, R | W | H));
	}
}

TEST_CASE("oplock break state machine", "[wire][oplock]")
{
	struct smb_oplock_sm o = {SMB2_OPLOCK_LEVEL_BATCH, false, 0};
	uint8_t level = 0xee;

	CHECK(smb_oplock_sm_ack(&o, SMB2_OPLOCK_LEVEL_NONE) ==
	      STATUS_INVALID_OPLOCK_PROTOCOL);
	REQUIRE(smb_oplock_sm_break(&o, R | H, &level));
	CHECK(level == SMB2_OPLOCK_LEVEL_II);
	CHECK(o.breaking);
	CHECK(!smb_oplock_sm_break(&o, 0, &level));	// one at a time
	CHECK(smb_oplock_sm_ack(&o, SMB2_OPLOCK_LEVEL_BATCH) ==
	      STATUS_INVALID_PARAMETER);
	CHECK(smb_oplock_sm_ack(&o, SMB2_OPLOCK_LEVEL_II) == STATUS_SUCCESS);
	CHECK(o.level == SMB2_OPLOCK_LEVEL_II);
	CHECK(!o.breaking);
	// Level II to level II: nothing; to none: at once, no ack.
	CHECK(!smb_oplock_sm_break(&o, R, &level));
	REQUIRE(smb_oplock_sm_break(&o, 0, &level));
	CHECK(level == SMB2_OPLOCK_LEVEL_NONE);
	CHECK(o.level == SMB2_OPLOCK_LEVEL_NONE);
	CHECK(!o.breaking);
	// Broken to none: an ack of level II still ends it.
	o = {SMB2_OPLOCK_LEVEL_EXCLUSIVE, false, 0};
	REQUIRE(smb_oplock_sm_break(&o, 0, &level));
	CHECK(smb_oplock_sm_ack(&o, SMB2_OPLOCK_LEVEL_II) == STATUS_SUCCESS);
	CHECK(o.level == SMB2_OPLOCK_LEVEL_NONE);
}
