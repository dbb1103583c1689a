// SPDX-License-Identifier: GPL-2.0
/*
 * The command sequence window.
 */
#include "compat.h"
#include "credits.h"

static bool bit_test(const struct smb2_seqwin *w, u64 id)
{
	u32 b = (u32)(id % w->cap);

	return w->bits[b / 8] & (1u << (b % 8));
}

static void bit_set(struct smb2_seqwin *w, u64 id)
{
	u32 b = (u32)(id % w->cap);

	w->bits[b / 8] |= (u8)(1u << (b % 8));
}

static void bit_clear(struct smb2_seqwin *w, u64 id)
{
	u32 b = (u32)(id % w->cap);

	w->bits[b / 8] &= (u8)~(1u << (b % 8));
}

void smb2_seqwin_init(struct smb2_seqwin *w, u8 *bits, u32 cap)
{
	w->low = 0;
	w->size = 1;
	w->avail = 1;
	w->cap = cap;
	w->bits = bits;
	memset(bits, 0, (cap + 7) / 8);
}

int smb2_seqwin_consume(struct smb2_seqwin *w, u64 mid, u32 charge)
{
	u64 i;

	if (!charge || mid < w->low || mid - w->low >= w->size ||
	    charge > w->size - (mid - w->low))
		return -EINVAL;
	for (i = mid; i < mid + charge; i++)
		if (bit_test(w, i))
			return -EINVAL;
	for (i = mid; i < mid + charge; i++)
		bit_set(w, i);
	w->avail -= charge;
	/* Slide past the consumed ids at the bottom of the window. */
	while (w->size && bit_test(w, w->low)) {
		bit_clear(w, w->low);
		w->low++;
		w->size--;
	}
	return 0;
}

u32 smb2_seqwin_grant(struct smb2_seqwin *w, u32 n)
{
	if (n > w->cap - w->size)
		n = w->cap - w->size;
	w->size += n;
	w->avail += n;
	return n;
}
