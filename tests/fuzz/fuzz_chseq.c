// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the ChannelSequence of an open (chseq.c) under
 * arbitrary sequences, replay flags and completions: a counted request
 * adds one to what is outstanding, anything else nothing, an end at most
 * one less, and the counts never wrap.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "chseq.h"

#define MAX_OUT	64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct smb2_chseq s;
	u16 out[MAX_OUT];	/* sequences of the counted, still running */
	u32 n = 0, before;
	size_t i;

	if (size < 2)
		return 0;
	smb2_chseq_init(&s, (u16)(data[0] | data[1] << 8));
	for (i = 2; i + 3 <= size; i += 3) {
		u8 op = data[i];
		u16 csn = (u16)(data[i + 1] | data[i + 2] << 8);

		if ((op & 1) && n) {
			/* One of the running requests ends. */
			u32 k = (op >> 1) % n;

			before = s.outstanding + s.pre;
			smb2_chseq_done(&s, out[k]);
			out[k] = out[--n];
			if (s.outstanding + s.pre > before ||
			    s.outstanding + s.pre + 1 < before)
				abort();
		} else if (n < MAX_OUT) {
			before = s.outstanding + s.pre;
			switch (smb2_chseq_admit(&s, csn, op & 2)) {
			case SMB2_CHSEQ_COUNTED:
				out[n++] = csn;
				if (s.outstanding + s.pre != before + 1)
					abort();
				break;
			case SMB2_CHSEQ_STALE:
			case SMB2_CHSEQ_UNCOUNTED:
				if (s.outstanding + s.pre != before)
					abort();
				break;
			}
		}
	}
	return 0;
}
