// SPDX-License-Identifier: GPL-2.0-or-later
#include "spnego.hpp"

#include <string>

namespace smbsrv::spnego {

const Bytes oid_spnego{0x2b, 0x06, 0x01, 0x05, 0x05, 0x02};
const Bytes oid_ntlmssp{0x2b, 0x06, 0x01, 0x04, 0x01, 0x82, 0x37, 0x02, 0x02, 0x0a};
const Bytes oid_krb5{0x2a, 0x86, 0x48, 0x86, 0xf7, 0x12, 0x01, 0x02, 0x02};
const Bytes oid_ms_krb5{0x2a, 0x86, 0x48, 0x82, 0xf7, 0x12, 0x01, 0x02, 0x02};

namespace {

// Identifier octets.
constexpr uint8_t kOid = 0x06;
constexpr uint8_t kOctetString = 0x04;
constexpr uint8_t kEnumerated = 0x0a;
constexpr uint8_t kBitString = 0x03;
constexpr uint8_t kGeneralString = 0x1b;
constexpr uint8_t kSequence = 0x30;
constexpr uint8_t kApplication0 = 0x60;
constexpr uint8_t ctx(int n) { return static_cast<uint8_t>(0xa0 + n); }

const char kHint[] = "not_defined_in_RFC4178@please_ignore";

bool equal(ByteView a, ByteView b)
{
	return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

// The contents of a context tag [n] that wraps exactly one TLV of tag inner.
std::optional<der::Tlv> explicit_tagged(const der::Tlv &t, uint8_t inner)
{
	return der::only(t.value, inner);
}

} // namespace

std::string oid_str(ByteView oid)
{
	if (oid.empty())
		return "?";
	std::string s = std::to_string(oid[0] / 40) + "." + std::to_string(oid[0] % 40);
	uint64_t v = 0;
	size_t digits = 0;
	for (size_t i = 1; i < oid.size(); i++) {
		if (++digits > 9)
			return "?";
		v = (v << 7) | (oid[i] & 0x7f);
		if (!(oid[i] & 0x80)) {
			s += "." + std::to_string(v);
			v = 0;
			digits = 0;
		}
	}
	return digits ? "?" : s;
}

namespace der {

bool Reader::next(Tlv &out)
{
	size_t p = pos_;
	if (b_.size() - p < 2)
		return false;
	uint8_t tag = b_[p++];
	if ((tag & 0x1f) == 0x1f)
		return false; // multi-byte tag numbers: never in SPNEGO
	uint8_t l0 = b_[p++];
	size_t len;
	if (l0 < 0x80) {
		len = l0;
	} else {
		size_t n = l0 & 0x7f;
		// 0x80 is BER's indefinite length; more than 4 octets is absurd.
		if (n == 0 || n > 4 || b_.size() - p < n)
			return false;
		len = 0;
		for (size_t i = 0; i < n; i++)
			len = (len << 8) | b_[p++];
	}
	if (len > b_.size() - p)
		return false;
	out.tag = tag;
	out.value = b_.subspan(p, len);
	out.encoding = b_.subspan(pos_, p + len - pos_);
	pos_ = p + len;
	return true;
}

std::optional<Tlv> only(ByteView b, uint8_t tag)
{
	Reader r(b);
	Tlv t;
	if (!r.next(t) || t.tag != tag || !r.at_end())
		return std::nullopt;
	return t;
}

Bytes tlv(uint8_t tag, ByteView value)
{
	Bytes out{tag};
	size_t n = value.size();
	if (n < 0x80) {
		out.push_back(static_cast<uint8_t>(n));
	} else {
		Bytes len;
		for (size_t v = n; v; v >>= 8)
			len.insert(len.begin(), static_cast<uint8_t>(v));
		out.push_back(static_cast<uint8_t>(0x80 | len.size()));
		append(out, len);
	}
	append(out, value);
	return out;
}

} // namespace der

namespace {

// The NegTokenInit SEQUENCE, inside the [0] tag.
std::optional<NegTokenInit> parse_init_seq(ByteView b)
{
	auto seq = der::only(b, kSequence);
	if (!seq)
		return std::nullopt;
	NegTokenInit out;
	der::Reader r(seq->value);
	der::Tlv t;
	int last = -1;
	bool have_mechs = false;
	while (r.next(t)) {
		int n = t.tag - 0xa0;
		if (n < 0 || n > 4 || n <= last)
			return std::nullopt; // unknown, repeated or out of order
		last = n;
		switch (n) {
		case 0: { // mechTypes: SEQUENCE OF OBJECT IDENTIFIER
			auto list = explicit_tagged(t, kSequence);
			if (!list)
				return std::nullopt;
			out.mech_types_der = list->encoding;
			der::Reader lr(list->value);
			der::Tlv oid;
			while (lr.next(oid)) {
				if (oid.tag != kOid || oid.value.empty())
					return std::nullopt;
				out.mech_types.push_back(oid.value);
			}
			if (!lr.at_end() || out.mech_types.empty())
				return std::nullopt;
			have_mechs = true;
			break;
		}
		case 1: // reqFlags: ignored, but must be a BIT STRING
			if (!explicit_tagged(t, kBitString))
				return std::nullopt;
			break;
		case 2: {
			auto tok = explicit_tagged(t, kOctetString);
			if (!tok)
				return std::nullopt;
			out.mech_token = tok->value;
			break;
		}
		case 3: {
			// RFC 4178: mechListMIC.  MS-SPNG's NegTokenInit2 puts
			// negHints (a SEQUENCE, ignored) here.
			if (explicit_tagged(t, kSequence))
				break;
			auto mic = explicit_tagged(t, kOctetString);
			if (!mic)
				return std::nullopt;
			out.mech_list_mic = mic->value;
			break;
		}
		case 4: { // NegTokenInit2's mechListMIC
			auto mic = explicit_tagged(t, kOctetString);
			if (!mic)
				return std::nullopt;
			out.mech_list_mic = mic->value;
			break;
		}
		}
	}
	if (!r.at_end() || !have_mechs)
		return std::nullopt;
	return out;
}

} // namespace

std::optional<NegTokenInit> parse_init(ByteView b)
{
	if (!b.empty() && b[0] == ctx(0)) {
		auto t = der::only(b, ctx(0));
		return t ? parse_init_seq(t->value) : std::nullopt;
	}
	auto app = der::only(b, kApplication0);
	if (!app)
		return std::nullopt;
	der::Reader r(app->value);
	der::Tlv oid, inner;
	if (!r.next(oid) || oid.tag != kOid || !equal(oid.value, oid_spnego) ||
	    !r.next(inner) || inner.tag != ctx(0) || !r.at_end())
		return std::nullopt;
	return parse_init_seq(inner.value);
}

std::optional<NegTokenResp> parse_resp(ByteView b)
{
	auto outer = der::only(b, ctx(1));
	if (!outer)
		return std::nullopt;
	auto seq = der::only(outer->value, kSequence);
	if (!seq)
		return std::nullopt;
	NegTokenResp out;
	der::Reader r(seq->value);
	der::Tlv t;
	int last = -1;
	while (r.next(t)) {
		int n = t.tag - 0xa0;
		if (n < 0 || n > 3 || n <= last)
			return std::nullopt;
		last = n;
		switch (n) {
		case 0: {
			auto e = explicit_tagged(t, kEnumerated);
			if (!e || e->value.size() != 1 || e->value[0] > 3)
				return std::nullopt;
			out.state = static_cast<NegState>(e->value[0]);
			break;
		}
		case 1: {
			auto o = explicit_tagged(t, kOid);
			if (!o || o->value.empty())
				return std::nullopt;
			out.supported_mech = o->value;
			break;
		}
		case 2: {
			auto o = explicit_tagged(t, kOctetString);
			if (!o)
				return std::nullopt;
			out.response_token = o->value;
			break;
		}
		case 3: {
			auto o = explicit_tagged(t, kOctetString);
			if (!o)
				return std::nullopt;
			out.mech_list_mic = o->value;
			break;
		}
		}
	}
	if (!r.at_end())
		return std::nullopt;
	return out;
}

Bytes build_resp(const Response &r)
{
	Bytes seq;
	if (r.state) {
		Bytes e = der::tlv(kEnumerated, Bytes{static_cast<uint8_t>(*r.state)});
		append(seq, der::tlv(ctx(0), e));
	}
	if (r.supported_mech)
		append(seq, der::tlv(ctx(1), der::tlv(kOid, *r.supported_mech)));
	if (r.response_token)
		append(seq, der::tlv(ctx(2), der::tlv(kOctetString, *r.response_token)));
	if (r.mech_list_mic)
		append(seq, der::tlv(ctx(3), der::tlv(kOctetString, *r.mech_list_mic)));
	return der::tlv(ctx(1), der::tlv(kSequence, seq));
}

Bytes negotiate_blob(bool krb5, bool ntlm)
{
	Bytes list;
	if (krb5) {
		append(list, der::tlv(kOid, oid_ms_krb5));
		append(list, der::tlv(kOid, oid_krb5));
	}
	if (ntlm)
		append(list, der::tlv(kOid, oid_ntlmssp));
	Bytes mechs = der::tlv(kSequence, list);
	Bytes hint = der::tlv(kGeneralString, as_bytes(kHint));
	Bytes hints = der::tlv(kSequence, der::tlv(ctx(0), hint));
	Bytes init = der::tlv(ctx(0), mechs);
	append(init, der::tlv(ctx(3), hints));
	Bytes body = der::tlv(kOid, oid_spnego);
	append(body, der::tlv(ctx(0), der::tlv(kSequence, init)));
	return der::tlv(kApplication0, body);
}

} // namespace smbsrv::spnego
