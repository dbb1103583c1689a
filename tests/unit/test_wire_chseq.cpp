// SPDX-License-Identifier: GPL-2.0-or-later
// kmod/wire/chseq.c: the ChannelSequence of an open (MS-SMB2 3.3.5.2.10).
#include <catch2/catch.hpp>

extern "C" {
#include "chseq.h"
#include "smb2.h"
}

namespace {

// One request that runs to its end before the next comes (as smbtorture
// sends them): the verdict, and the count is gone again afterwards.
smb2_chseq_verdict one(struct smb2_chseq *s, uint16_t csn, bool replay)
{
	smb2_chseq_verdict v = smb2_chseq_admit(s, csn, replay);

	if (v == SMB2_CHSEQ_COUNTED)
		smb2_chseq_done(s, csn);
	return v;
}

} // namespace

TEST_CASE("ChannelSequence: smbtorture's channel-sequence table", "[wire]")
{
	// smb2.replay.channel-sequence: the open made with sequence 0, then
	// WRITE/IOCTL/SET_INFO with these sequences, with and without the
	// replay flag (its random rows taken at their ends).
	struct row {
		uint16_t csn;
		bool ok;
	};
	const row rows[] = {
		{ 0, true },	   { 0x8000, false }, { 0x8001, false },
		{ 0xfffe, false }, { 0xffff, false }, { 0x7fff, true },
		{ 0x7ffe, false }, { 0, false },      { 0x7ffe, false },
		{ 0x8000, true },  { 0xffff, true },  { 0, true },
		{ 1, true },	   { 0, false },      { 1, true },
		{ 0xffff, false },
	};

	for (bool replay : { false, true }) {
		struct smb2_chseq s;

		smb2_chseq_init(&s, 0);
		for (const row &r : rows) {
			INFO("replay " << replay << " csn " << r.csn);
			CHECK((one(&s, r.csn, replay) == SMB2_CHSEQ_COUNTED) ==
			      r.ok);
			CHECK(s.outstanding == 0);
			CHECK(s.pre == 0);
		}
	}
}

TEST_CASE("ChannelSequence: smbtorture's replay4", "[wire]")
{
	struct smb2_chseq s;

	smb2_chseq_init(&s, 0);
	CHECK(one(&s, 0, false) == SMB2_CHSEQ_COUNTED);	// WRITE
	CHECK(one(&s, 1, false) == SMB2_CHSEQ_COUNTED);	// READ, bumped
	CHECK(s.seq == 1);
	CHECK(one(&s, 0, false) == SMB2_CHSEQ_STALE);	// WRITE, stale
	CHECK(one(&s, 0, true) == SMB2_CHSEQ_STALE);	// its replay
	CHECK(one(&s, 1, true) == SMB2_CHSEQ_COUNTED);	// replay, 2nd channel
	CHECK(one(&s, 1, true) == SMB2_CHSEQ_COUNTED);
}

TEST_CASE("ChannelSequence: a replay does not overtake older requests",
	  "[wire]")
{
	struct smb2_chseq s;

	smb2_chseq_init(&s, 5);
	// Two WRITEs of sequence 5 still running when the client moves on.
	REQUIRE(smb2_chseq_admit(&s, 5, false) == SMB2_CHSEQ_COUNTED);
	REQUIRE(smb2_chseq_admit(&s, 5, false) == SMB2_CHSEQ_COUNTED);
	// Their replays under sequence 6: refused while they run.
	CHECK(smb2_chseq_admit(&s, 6, true) == SMB2_CHSEQ_STALE);
	CHECK(s.seq == 6);
	CHECK(s.pre == 2);
	CHECK(s.outstanding == 0);
	CHECK(smb2_chseq_admit(&s, 6, true) == SMB2_CHSEQ_STALE);
	// A new request of sequence 6 is no replay: it goes.
	CHECK(smb2_chseq_admit(&s, 6, false) == SMB2_CHSEQ_COUNTED);
	smb2_chseq_done(&s, 6);
	// The old ones end; the replay goes now.
	smb2_chseq_done(&s, 5);
	smb2_chseq_done(&s, 5);
	CHECK(s.pre == 0);
	CHECK(smb2_chseq_admit(&s, 6, true) == SMB2_CHSEQ_COUNTED);
}

TEST_CASE("ChannelSequence: smbtorture's replay7 never underflows", "[wire]")
{
	struct smb2_chseq s;

	smb2_chseq_init(&s, 0);
	// CHANGE_NOTIFY with sequence 0 stays outstanding.
	REQUIRE(smb2_chseq_admit(&s, 0, false) == SMB2_CHSEQ_COUNTED);
	CHECK(one(&s, 30000, false) == SMB2_CHSEQ_COUNTED);
	CHECK(s.pre == 1);
	CHECK(one(&s, 60000, false) == SMB2_CHSEQ_COUNTED);
	CHECK(one(&s, 0, false) == SMB2_CHSEQ_COUNTED);
	// The NOTIFY, cancelled, ends under a sequence equal to the open's.
	smb2_chseq_done(&s, 0);
	CHECK(s.outstanding == 0);
	CHECK(s.pre == 1);
	smb2_chseq_done(&s, 7);
	smb2_chseq_done(&s, 7);
	CHECK(s.pre == 0);
}

TEST_CASE("ChannelSequence: counts saturate", "[wire]")
{
	struct smb2_chseq s;

	smb2_chseq_init(&s, 0);
	s.outstanding = 0xffffffffu;
	CHECK(smb2_chseq_admit(&s, 0, false) == SMB2_CHSEQ_UNCOUNTED);
	s.pre = 0xfffffff0u;
	CHECK(smb2_chseq_admit(&s, 1, false) == SMB2_CHSEQ_COUNTED);
	CHECK(s.pre == 0xffffffffu);
	CHECK(s.outstanding == 1);
}

TEST_CASE("ChannelSequence guards WRITE, SET_INFO, IOCTL and LOCK", "[wire]")
{
	CHECK(smb2_chseq_guarded(SMB2_WRITE));
	CHECK(smb2_chseq_guarded(SMB2_SET_INFO));
	CHECK(smb2_chseq_guarded(SMB2_IOCTL));
	CHECK(smb2_chseq_guarded(SMB2_LOCK));
	CHECK_FALSE(smb2_chseq_guarded(SMB2_READ));
	CHECK_FALSE(smb2_chseq_guarded(SMB2_QUERY_INFO));
	CHECK_FALSE(smb2_chseq_guarded(SMB2_CLOSE));
	CHECK_FALSE(smb2_chseq_guarded(SMB2_FLUSH));
}
