// SPDX-License-Identifier: GPL-2.0-or-later
#include "bytes.hpp"

namespace smbsrv {

std::string to_hex(ByteView b)
{
	static const char digits[] = "0123456789abcdef";
	std::string s;
	s.reserve(b.size() * 2);
	for (uint8_t c : b) {
		s += digits[c >> 4];
		s += digits[c & 15];
	}
	return s;
}

bool from_hex(std::string_view hex, Bytes &out)
{
	out.clear();
	int hi = -1;
	for (char c : hex) {
		int v;
		if (c >= '0' && c <= '9')
			v = c - '0';
		else if (c >= 'a' && c <= 'f')
			v = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v = c - 'A' + 10;
		else if (c == ' ' || c == '\n' || c == '\t')
			continue;
		else
			return false;
		if (hi < 0) {
			hi = v;
		} else {
			out.push_back(static_cast<uint8_t>(hi << 4 | v));
			hi = -1;
		}
	}
	return hi < 0;
}

} // namespace smbsrv
