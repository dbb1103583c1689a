// SPDX-License-Identifier: GPL-2.0-or-later
// kmod/wire/lock.c: LOCK requests and the byte-range lock rules.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "wire_util.hpp"

extern "C" {
#include "lock.h"
}

using namespace wiretest;

namespace {

struct El {
	uint64_t off, len;
	uint32_t flags;
};

Bytes lock_req(const std::vector<El> &els, uint16_t count = 0xffff)
{
	Bytes b = header(SMB2_LOCK);
	Bytes body(24, 0);
	put16(body, 0, SMB2_LOCK_REQ_SIZE);
	put16(body, SMB2_LOCK_REQ_COUNT,
	      count == 0xffff ? uint16_t(els.size()) : count);
	put32(body, SMB2_LOCK_REQ_SEQUENCE, 0x123ab1);
	put64(body, SMB2_LOCK_REQ_FILE_ID, 7);
	put64(body, SMB2_LOCK_REQ_FILE_ID + 8, 8);
	for (const El &e : els) {
		size_t at = body.size();
		body.resize(at + SMB2_LOCK_ELEM_SIZE);
		put64(body, at, e.off);
		put64(body, at + 8, e.len);
		put32(body, at + 16, e.flags);
		put32(body, at + 20, 0x87654321);	// Reserved: ignored
	}
	append(b, body);
	return b;
}

// Does a lock {o2, l2} conflict with a held exclusive lock {o1, l1} of
// another open?  (smbtorture smb2.lock.zerobytelength's table.)
bool excl_conflict(uint64_t o1, uint64_t l1, uint64_t o2, uint64_t l2)
{
	return smb2_lock_conflicts(o1, l1, true, false, o2, l2, true, true);
}

} // namespace

TEST_CASE("LOCK request", "[wire][lock]")
{
	struct smb2_lock_req r;
	struct smb2_lock_elem e;
	const uint32_t X = SMB2_LOCKFLAG_EXCLUSIVE_LOCK;
	Bytes b = lock_req({{100, 50, X}, {1ull << 63, 1, SMB2_LOCKFLAG_UNLOCK}});

	REQUIRE(smb2_lock_req_decode(b.data(), b.size(), &r) == 0);
	CHECK(r.count == 2);
	CHECK(r.sequence == 0x123ab1);
	CHECK(get_unaligned_le64(r.file_id) == 7);
	CHECK(get_unaligned_le64(r.file_id + 8) == 8);
	smb2_lock_req_elem(&r, 0, &e);
	CHECK(e.offset == 100);
	CHECK(e.length == 50);
	CHECK(e.flags == X);
	smb2_lock_req_elem(&r, 1, &e);
	CHECK(e.offset == 1ull << 63);
	CHECK(e.length == 1);
	CHECK(e.flags == SMB2_LOCKFLAG_UNLOCK);

	SECTION("LockCount 0 is invalid")
	{
		Bytes t = lock_req({{0, 0, X}}, 0);
		CHECK(smb2_lock_req_decode(t.data(), t.size(), &r) ==
		      STATUS_INVALID_PARAMETER);
	}
	SECTION("every element must be in the PDU")
	{
		Bytes t = lock_req({{0, 1, X}}, 2);
		CHECK(smb2_lock_req_decode(t.data(), t.size(), &r) ==
		      STATUS_INVALID_PARAMETER);
		t = lock_req({{0, 1, X}}, 0xfffe);
		CHECK(smb2_lock_req_decode(t.data(), t.size(), &r) ==
		      STATUS_INVALID_PARAMETER);
	}
	SECTION("StructureSize must be 48")
	{
		Bytes t = b;
		put16(t, 64, 49);
		CHECK(smb2_lock_req_decode(t.data(), t.size(), &r) ==
		      STATUS_INVALID_PARAMETER);
	}
	SECTION("truncations")
	{
		for (size_t n = 0; n < b.size(); n++)
			CHECK(smb2_lock_req_decode(b.data(), n, &r) ==
			      STATUS_INVALID_PARAMETER);
	}
	SECTION("response")
	{
		uint8_t body[4] = {0xff, 0xff, 0xff, 0xff};
		CHECK(smb2_lock_rsp_encode(body) == 4);
		CHECK(body[0] == 4);
		CHECK(body[1] == 0);
		CHECK(body[2] == 0);
		CHECK(body[3] == 0);
	}
}

TEST_CASE("lock flags: only the valid combinations", "[wire][lock]")
{
	const uint32_t S = SMB2_LOCKFLAG_SHARED_LOCK;
	const uint32_t X = SMB2_LOCKFLAG_EXCLUSIVE_LOCK;
	const uint32_t U = SMB2_LOCKFLAG_UNLOCK;
	const uint32_t F = SMB2_LOCKFLAG_FAIL_IMMEDIATELY;

	CHECK(smb2_lock_kind(S) == SMB2_LOCK_KIND_SHARED);
	CHECK(smb2_lock_kind(S | F) == SMB2_LOCK_KIND_SHARED);
	CHECK(smb2_lock_kind(X) == SMB2_LOCK_KIND_EXCLUSIVE);
	CHECK(smb2_lock_kind(X | F) == SMB2_LOCK_KIND_EXCLUSIVE);
	CHECK(smb2_lock_kind(U) == SMB2_LOCK_KIND_UNLOCK);
	for (uint32_t bad : {0u, F, S | X, S | U, X | U, U | F, S | X | F,
			     S | 0x20, X | 0x8, ~0u, ~(S | X | U | F)})
		CHECK(smb2_lock_kind(bad) == SMB2_LOCK_KIND_INVALID);
}

TEST_CASE("lock ranges past 2^64 - 1 are invalid", "[wire][lock]")
{
	CHECK(smb2_lock_range_valid(0, 0));
	CHECK(smb2_lock_range_valid(~0ull, 0));
	CHECK(smb2_lock_range_valid(~0ull, 1));
	CHECK(smb2_lock_range_valid(1, ~0ull));
	CHECK(smb2_lock_range_valid(0, ~0ull));
	CHECK_FALSE(smb2_lock_range_valid(~0ull, 2));
	CHECK_FALSE(smb2_lock_range_valid(2, ~0ull));
	CHECK_FALSE(smb2_lock_range_valid(~0ull, ~0ull));
}

TEST_CASE("zero-byte locks (smbtorture smb2.lock.zerobytelength)",
	  "[wire][lock]")
{
	// A 0-byte lock at 10, then another lock of another open.
	CHECK_FALSE(excl_conflict(10, 0, 10, 0));
	CHECK_FALSE(excl_conflict(10, 0, 9, 1));
	CHECK_FALSE(excl_conflict(10, 0, 10, 1));
	CHECK_FALSE(excl_conflict(10, 0, 11, 1));
	CHECK(excl_conflict(10, 0, 9, 2));
	CHECK_FALSE(excl_conflict(10, 0, 10, 2));
	CHECK(excl_conflict(10, 0, 9, 3));
	// The other way round.
	CHECK_FALSE(excl_conflict(9, 1, 10, 0));
	CHECK_FALSE(excl_conflict(10, 1, 10, 0));
	CHECK_FALSE(excl_conflict(11, 1, 10, 0));
	CHECK(excl_conflict(9, 2, 10, 0));
	CHECK_FALSE(excl_conflict(10, 2, 10, 0));
	CHECK(excl_conflict(9, 3, 10, 0));
	// {0, 0} never conflicts; neither do locks at the very end.
	CHECK_FALSE(excl_conflict(0, 0, 0, 0));
	CHECK_FALSE(excl_conflict(0, 10, 0, 0));
	CHECK_FALSE(excl_conflict(0, 0, 0, 10));
	CHECK_FALSE(excl_conflict(~0ull, 0, ~0ull, 0));
	CHECK(excl_conflict(~0ull, 1, ~0ull, 1));
	CHECK(excl_conflict(~0ull, 1, ~0ull - 1, 2));
	// A 0-byte lock inside a locked range (smb2.lock.errorcode).
	CHECK(excl_conflict(100, 10, 102, 0));
}

TEST_CASE("who conflicts with whom (MS-FSA 2.1.4.10)", "[wire][lock]")
{
	auto c = [](bool held_x, bool same, bool x, bool lock) {
		return smb2_lock_conflicts(0, 10, held_x, same, 5, 10, x,
					   lock);
	};
	// Held exclusive by another open: everything conflicts.
	CHECK(c(true, false, true, true));
	CHECK(c(true, false, false, true));
	CHECK(c(true, false, true, false));	// write
	CHECK(c(true, false, false, false));	// read
	// Held exclusive by this open: only another exclusive lock.
	CHECK(c(true, true, true, true));
	CHECK_FALSE(c(true, true, false, true));
	CHECK_FALSE(c(true, true, true, false));
	CHECK_FALSE(c(true, true, false, false));
	// Held shared, by anyone: exclusive locks and writes conflict.
	for (bool same : {false, true}) {
		CHECK(c(false, same, true, true));
		CHECK_FALSE(c(false, same, false, true));
		CHECK(c(false, same, true, false));
		CHECK_FALSE(c(false, same, false, false));
	}
	// Adjacent ranges do not overlap.
	CHECK_FALSE(smb2_lock_conflicts(0, 10, true, false, 10, 10, true,
					true));
	CHECK(smb2_lock_conflicts(0, 10, true, false, 9, 10, true, true));
}
