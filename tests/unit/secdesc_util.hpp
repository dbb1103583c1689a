// SPDX-License-Identifier: GPL-2.0-or-later
// Security descriptors built byte by byte for the kmod/wire/ tests.
#pragma once

#include <vector>

#include "wire_util.hpp"

extern "C" {
#include "secdesc.h"
}

namespace wiretest {

inline Bytes sid_bytes(uint8_t auth, const std::vector<uint32_t> &subs)
{
	Bytes b = { 1, static_cast<uint8_t>(subs.size()), 0, 0, 0, 0, 0, auth };
	for (uint32_t s : subs) {
		size_t o = b.size();
		put32(b, o, s);
	}
	return b;
}

inline Bytes ace(uint8_t type, uint8_t flags, uint32_t mask, const Bytes &sid)
{
	Bytes a = { type, flags, 0, 0 };
	put16(a, 2, 8 + sid.size());
	put32(a, 4, mask);
	append(a, sid);
	return a;
}

inline Bytes acl(const std::vector<Bytes> &aces)
{
	Bytes a(8, 0);
	a[0] = 2;
	for (const Bytes &x : aces)
		append(a, x);
	put16(a, 2, a.size());
	put16(a, 4, aces.size());
	return a;
}

// A self-relative SD: owner, group, DACL (each optional).
inline Bytes sd(const Bytes &owner, const Bytes &group, const Bytes *dacl)
{
	Bytes b(20, 0);
	uint16_t control = SE_SELF_RELATIVE;
	b[0] = 1;
	if (!owner.empty()) {
		put32(b, 4, b.size());
		append(b, owner);
	}
	if (!group.empty()) {
		put32(b, 8, b.size());
		append(b, group);
	}
	if (dacl) {
		control |= SE_DACL_PRESENT;
		if (!dacl->empty()) {
			put32(b, 16, b.size());
			append(b, *dacl);
		}
	}
	put16(b, 2, control);
	return b;
}

} // namespace wiretest
