// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the sequence window under arbitrary MessageIds,
 * charges and grants; its invariants must hold after every step.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "credits.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct smb2_seqwin w;
	u8 bits[(512 + 7) / 8];
	u32 cap;
	size_t i;

	if (size < 1)
		return 0;
	cap = 1 + data[0] % 512;
	smb2_seqwin_init(&w, bits, cap);
	for (i = 1; i + 3 <= size; i += 3) {
		u8 op = data[i];
		u32 arg = (u32)data[i + 1] | (u32)data[i + 2] << 8;

		if (op & 1) {
			smb2_seqwin_grant(&w, arg);
		} else {
			/* An id near the window, or anywhere. */
			u64 mid = (op & 2) ? w.low + (arg & 0x3ff) :
					     (u64)arg << (op >> 2);

			smb2_seqwin_consume(&w, mid, (op >> 3) & 0x1f);
		}
		if (w.size > w.cap || w.avail > w.size)
			abort();
	}
	return 0;
}
