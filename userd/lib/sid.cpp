// SPDX-License-Identifier: GPL-2.0-or-later
#include "sid.hpp"

#include <cctype>
#include <charconv>
#include <cstring>

namespace smbsrv {

namespace {

std::optional<uint64_t> number(std::string_view s, uint64_t max)
{
	uint64_t v = 0;
	if (s.empty() || !std::isdigit(static_cast<unsigned char>(s[0])))
		return std::nullopt;
	auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
	if (ec != std::errc() || end != s.data() + s.size() || v > max)
		return std::nullopt;
	return v;
}

} // namespace

std::optional<Sid> Sid::parse(std::string_view text)
{
	if (text.size() < 4 || (text[0] != 'S' && text[0] != 's') || text[1] != '-')
		return std::nullopt;
	std::string_view rest = text.substr(2);
	smb_sid s{};
	int part = 0;
	while (true) {
		size_t dash = rest.find('-');
		std::string_view p = rest.substr(0, dash);
		if (part == 0) {
			if (number(p, 255) != 1u)
				return std::nullopt;
			s.revision = 1;
		} else if (part == 1) {
			auto a = number(p, (1ULL << 48) - 1);
			if (!a)
				return std::nullopt;
			for (int i = 0; i < 6; i++)
				s.auth[i] = static_cast<uint8_t>(*a >> (8 * (5 - i)));
		} else {
			auto v = number(p, 0xffffffffULL);
			if (!v || s.count >= SMB_SID_MAX_SUB)
				return std::nullopt;
			s.sub[s.count++] = static_cast<uint32_t>(*v);
		}
		part++;
		if (dash == std::string_view::npos)
			break;
		rest = rest.substr(dash + 1);
	}
	if (part < 2)
		return std::nullopt;
	return Sid(s);
}

std::optional<Sid> Sid::decode(ByteView wire)
{
	smb_sid s{};
	if (wire.size() > 0xffffffffU ||
	    smb_sid_decode(wire.data(), static_cast<uint32_t>(wire.size()), &s) !=
		    static_cast<int>(wire.size()))
		return std::nullopt;
	return Sid(s);
}

std::string Sid::str() const
{
	uint64_t auth = 0;
	for (uint8_t b : s_.auth)
		auth = auth << 8 | b;
	std::string out = "S-" + std::to_string(s_.revision) + "-" + std::to_string(auth);
	for (unsigned i = 0; i < s_.count; i++)
		out += "-" + std::to_string(s_.sub[i]);
	return out;
}

Bytes Sid::wire() const
{
	Bytes out(smb_sid_size(&s_));
	smb_sid_encode(out.data(), &s_);
	return out;
}

std::optional<Sid> Sid::with_rid(uint32_t rid) const
{
	if (s_.count >= SMB_SID_MAX_SUB)
		return std::nullopt;
	smb_sid s = s_;
	s.sub[s.count++] = rid;
	return Sid(s);
}

bool Sid::in_domain(const Sid &domain, uint32_t *rid) const
{
	const smb_sid &d = domain.s_;
	if (s_.count != d.count + 1 || s_.revision != d.revision ||
	    std::memcmp(s_.auth, d.auth, 6) != 0 ||
	    std::memcmp(s_.sub, d.sub, sizeof(uint32_t) * d.count) != 0)
		return false;
	*rid = s_.sub[d.count];
	return true;
}

} // namespace smbsrv
