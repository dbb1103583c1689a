// SPDX-License-Identifier: GPL-2.0
/*
 * The ChannelSequence of an open (MS-SMB2 3.3.5.2.10; see chseq.h).
 */
#include "compat.h"
#include "chseq.h"
#include "smb2.h"

void smb2_chseq_init(struct smb2_chseq *s, u16 seq)
{
	s->seq = seq;
	s->outstanding = 0;
	s->pre = 0;
}

/* One more outstanding request, unless the count would wrap. */
static enum smb2_chseq_verdict smb2_chseq_count(struct smb2_chseq *s)
{
	if (s->outstanding == 0xffffffffu)
		return SMB2_CHSEQ_UNCOUNTED;
	s->outstanding++;
	return SMB2_CHSEQ_COUNTED;
}

/* A newer sequence: what was outstanding is of the sequences before it. */
static void smb2_chseq_advance(struct smb2_chseq *s, u16 csn)
{
	s->pre = s->pre + s->outstanding < s->pre ? 0xffffffffu :
		 s->pre + s->outstanding;
	s->outstanding = 0;
	s->seq = csn;
}

enum smb2_chseq_verdict smb2_chseq_admit(struct smb2_chseq *s, u16 csn,
					 bool replay)
{
	/* 16-bit arithmetic: at most 0x7fff ahead is newer, else older. */
	bool newer = (u16)(csn - s->seq) <= 0x7fff;

	if (csn == s->seq) {
		/* A replay while older requests still run may overtake them. */
		if (replay && s->pre)
			return SMB2_CHSEQ_STALE;
		return smb2_chseq_count(s);
	}
	if (!newer)
		return SMB2_CHSEQ_STALE;
	smb2_chseq_advance(s, csn);
	if (replay && s->pre)
		return SMB2_CHSEQ_STALE;
	return smb2_chseq_count(s);
}

void smb2_chseq_done(struct smb2_chseq *s, u16 csn)
{
	/*
	 * Counted under the current sequence, or under one before it; a
	 * count already zero stays so (smbtorture's replay7 completes a
	 * request whose count moved to the older sequences meanwhile).
	 */
	if (csn == s->seq) {
		if (s->outstanding)
			s->outstanding--;
	} else if (s->pre) {
		s->pre--;
	}
}

bool smb2_chseq_guarded(u16 command)
{
	return command == SMB2_WRITE || command == SMB2_SET_INFO ||
	       command == SMB2_IOCTL || command == SMB2_LOCK;
}
