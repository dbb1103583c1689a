// SPDX-License-Identifier: GPL-2.0-or-later
// kmod/wire/credits.c: the command sequence window (MS-SMB2 3.3.1.1).
#include <catch2/catch.hpp>

#include <vector>

extern "C" {
#include "credits.h"
}

namespace {

struct Window {
	std::vector<uint8_t> bits;
	struct smb2_seqwin w;

	explicit Window(uint32_t cap) : bits((cap + 7) / 8, 0xff)
	{
		smb2_seqwin_init(&w, bits.data(), cap);
	}
};

} // namespace

TEST_CASE("a new connection may use MessageId 0 once", "[wire]")
{
	Window win(64);

	CHECK(win.w.avail == 1);
	CHECK(smb2_seqwin_consume(&win.w, 1, 1) == -EINVAL);
	CHECK(smb2_seqwin_consume(&win.w, 0, 2) == -EINVAL);
	REQUIRE(smb2_seqwin_consume(&win.w, 0, 1) == 0);
	CHECK(win.w.avail == 0);
	CHECK(win.w.low == 1);
	CHECK(smb2_seqwin_consume(&win.w, 0, 1) == -EINVAL);
	CHECK(smb2_seqwin_consume(&win.w, 1, 1) == -EINVAL);
}

TEST_CASE("grants extend the window; ids are used once", "[wire]")
{
	Window win(64);
	REQUIRE(smb2_seqwin_consume(&win.w, 0, 1) == 0);
	CHECK(smb2_seqwin_grant(&win.w, 10) == 10);
	CHECK(win.w.avail == 10);

	/* Out of order, multi-credit, then the hole is filled. */
	REQUIRE(smb2_seqwin_consume(&win.w, 5, 4) == 0);	/* 5..8 */
	CHECK(win.w.low == 1);
	CHECK(win.w.avail == 6);
	CHECK(smb2_seqwin_consume(&win.w, 8, 1) == -EINVAL);	/* reused */
	CHECK(smb2_seqwin_consume(&win.w, 4, 2) == -EINVAL);	/* overlaps */
	CHECK(smb2_seqwin_consume(&win.w, 10, 2) == -EINVAL);	/* past end */
	REQUIRE(smb2_seqwin_consume(&win.w, 1, 4) == 0);	/* 1..4 */
	CHECK(win.w.low == 9);
	CHECK(win.w.size == 2);
	REQUIRE(smb2_seqwin_consume(&win.w, 10, 1) == 0);
	REQUIRE(smb2_seqwin_consume(&win.w, 9, 1) == 0);
	CHECK(win.w.low == 11);
	CHECK(win.w.size == 0);
	CHECK(win.w.avail == 0);
	CHECK(smb2_seqwin_consume(&win.w, 11, 1) == -EINVAL);
	CHECK(smb2_seqwin_consume(&win.w, 0xffffffffffffffffULL, 1) ==
	      -EINVAL);
}

TEST_CASE("the window never spans more than its capacity", "[wire]")
{
	Window win(16);
	REQUIRE(smb2_seqwin_consume(&win.w, 0, 1) == 0);
	CHECK(smb2_seqwin_grant(&win.w, 100) == 16);
	CHECK(smb2_seqwin_grant(&win.w, 1) == 0);

	/* A client that skips id 1 forever: its window cannot slide. */
	for (uint64_t id = 2; id <= 16; id++)
		REQUIRE(smb2_seqwin_consume(&win.w, id, 1) == 0);
	CHECK(win.w.avail == 1);
	CHECK(smb2_seqwin_grant(&win.w, 5) == 0);
	REQUIRE(smb2_seqwin_consume(&win.w, 1, 1) == 0);
	CHECK(win.w.low == 17);
	CHECK(smb2_seqwin_grant(&win.w, 5) == 5);
	/* Bits of ids left behind were cleared: the same slots work. */
	for (uint64_t id = 17; id < 22; id++)
		REQUIRE(smb2_seqwin_consume(&win.w, id, 1) == 0);
}

TEST_CASE("charge 0 is refused; a charge larger than the window too", "[wire]")
{
	Window win(8);
	CHECK(smb2_seqwin_consume(&win.w, 0, 0) == -EINVAL);
	REQUIRE(smb2_seqwin_consume(&win.w, 0, 1) == 0);
	smb2_seqwin_grant(&win.w, 8);
	CHECK(smb2_seqwin_consume(&win.w, 1, 9) == -EINVAL);
	CHECK(smb2_seqwin_consume(&win.w, 1, 8) == 0);
}
