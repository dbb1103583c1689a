// SPDX-License-Identifier: GPL-2.0-or-later
#include "ntlmssp.hpp"

#include <algorithm>
#include <cstring>
#include <ctime>

#include "unicode.hpp"

namespace smbsrv::ntlm {

namespace {

constexpr uint8_t kSignature[8] = {'N', 'T', 'L', 'M', 'S', 'S', 'P', 0};

// Fixed part of each message, before its payload.
constexpr size_t kNegotiateMin = 32; // signature, type, flags, 2 fields
constexpr size_t kChallengeHeader = 48;
constexpr size_t kAuthenticateHeader = 64;
constexpr size_t kMicOffset = 72;
constexpr size_t kMicEnd = 88;

// An NTLMv2 response: NTProofStr (16) then NTLMv2_CLIENT_CHALLENGE, whose
// fixed part is 28 bytes before its AV pairs.
constexpr size_t kProofLen = 16;
constexpr size_t kClientChallengeFixed = 28;

// Our VERSION: 6.1, NTLMSSP_REVISION_W2K3.
constexpr uint8_t kVersion[8] = {6, 1, 0, 0, 0, 0, 0, 15};

const char kClientSign[] = "session key to client-to-server signing key magic constant";
const char kServerSign[] = "session key to server-to-client signing key magic constant";
const char kClientSeal[] = "session key to client-to-server sealing key magic constant";
const char kServerSeal[] = "session key to server-to-client sealing key magic constant";

// A payload field descriptor (Len, MaxLen, Offset) at desc within msg.
bool field(ByteView msg, size_t desc, ByteView &out)
{
	if (desc + 8 > msg.size())
		return false;
	uint16_t len = get_u16(msg, desc);
	uint32_t off = get_u32(msg, desc + 4);
	if (len == 0) {
		out = {};
		return true;
	}
	if (off > msg.size() || len > msg.size() - off)
		return false;
	out = msg.subspan(off, len);
	return true;
}

void put_field(Bytes &msg, size_t desc, size_t off, size_t len)
{
	auto l = static_cast<uint16_t>(len);
	auto o = static_cast<uint32_t>(off);
	msg[desc] = static_cast<uint8_t>(l);
	msg[desc + 1] = static_cast<uint8_t>(l >> 8);
	msg[desc + 2] = static_cast<uint8_t>(l);
	msg[desc + 3] = static_cast<uint8_t>(l >> 8);
	for (int i = 0; i < 4; i++)
		msg[desc + 4 + i] = static_cast<uint8_t>(o >> (8 * i));
}

Bytes utf16(const std::string &s)
{
	return utf8_to_utf16le(s).value_or(Bytes{});
}

// A name from a message: UTF-16LE when Unicode was negotiated, else OEM
// (taken as Latin-1).
std::optional<std::u16string> decode_name(ByteView b, bool unicode)
{
	std::u16string out;
	if (unicode) {
		if (b.size() % 2)
			return std::nullopt;
		for (size_t i = 0; i < b.size(); i += 2)
			out += static_cast<char16_t>(get_u16(b, i));
		if (!utf16le_to_utf8(b))
			return std::nullopt;
	} else {
		for (uint8_t c : b)
			out += static_cast<char16_t>(c);
	}
	return out;
}

ByteView view(const char *s)
{
	// The magic constants are hashed with their terminating NUL.
	return {reinterpret_cast<const uint8_t *>(s), std::strlen(s) + 1};
}

} // namespace

bool is_ntlmssp(ByteView b)
{
	return b.size() >= sizeof(kSignature) &&
	       std::memcmp(b.data(), kSignature, sizeof(kSignature)) == 0;
}

uint32_t message_type(ByteView b)
{
	if (!is_ntlmssp(b) || b.size() < 12)
		return 0;
	return get_u32(b, 8);
}

std::optional<std::vector<AvPair>> parse_av_pairs(ByteView b)
{
	std::vector<AvPair> out;
	Reader r(b);
	for (;;) {
		uint16_t id, len;
		ByteView value;
		if (!r.u16(id) || !r.u16(len) || !r.take(len, value))
			return std::nullopt;
		if (id == AV_EOL)
			return out;
		out.push_back({id, value});
	}
}

void put_av_pair(Bytes &out, uint16_t id, ByteView value)
{
	put_u16(out, id);
	put_u16(out, static_cast<uint16_t>(value.size()));
	append(out, value);
}

std::optional<AuthenticateMessage> parse_authenticate(ByteView msg)
{
	if (message_type(msg) != AUTHENTICATE || msg.size() < kAuthenticateHeader)
		return std::nullopt;
	AuthenticateMessage m;
	if (!field(msg, 12, m.lm_response) || !field(msg, 20, m.nt_response) ||
	    !field(msg, 28, m.domain) || !field(msg, 36, m.user) ||
	    !field(msg, 44, m.workstation) ||
	    !field(msg, 52, m.encrypted_session_key))
		return std::nullopt;
	m.flags = get_u32(msg, 60);
	return m;
}

crypto::Digest16 ntowfv2(const NtHash &nt, std::u16string_view user,
			 std::u16string_view domain)
{
	std::u16string s = utf16_upper(user);
	s += domain;
	return crypto::hmac_md5(nt, {utf16le_bytes(s)});
}

uint64_t filetime_now()
{
	timespec ts{};
	clock_gettime(CLOCK_REALTIME, &ts);
	constexpr uint64_t kEpochDelta = 11644473600ULL; // 1601 -> 1970, s
	return (static_cast<uint64_t>(ts.tv_sec) + kEpochDelta) * 10000000ULL +
	       static_cast<uint64_t>(ts.tv_nsec) / 100;
}

Server::Server(ServerIdentity id, Entropy entropy)
	: id_(std::move(id)), entropy_(std::move(entropy))
{
}

std::optional<Bytes> Server::challenge(ByteView negotiate)
{
	if (state_ != State::initial || message_type(negotiate) != NEGOTIATE ||
	    negotiate.size() < kNegotiateMin)
		return std::nullopt;
	uint32_t cf = get_u32(negotiate, 12);
	// Domain and workstation must lie inside the message, and a VERSION
	// announced must be there.
	ByteView unused;
	if (!field(negotiate, 16, unused) || !field(negotiate, 24, unused) ||
	    ((cf & NEGOTIATE_VERSION) && negotiate.size() < kNegotiateMin + 8))
		return std::nullopt;

	uint32_t f = NEGOTIATE_NTLM | NEGOTIATE_TARGET_INFO | REQUEST_TARGET |
		     TARGET_TYPE_SERVER;
	if (cf & NEGOTIATE_UNICODE)
		f |= NEGOTIATE_UNICODE;
	else
		f |= NEGOTIATE_OEM;
	f |= cf & (NEGOTIATE_EXTENDED_SESSIONSECURITY | NEGOTIATE_SIGN |
		   NEGOTIATE_SEAL | NEGOTIATE_ALWAYS_SIGN | NEGOTIATE_KEY_EXCH |
		   NEGOTIATE_128 | NEGOTIATE_56 | NEGOTIATE_VERSION);

	entropy_.random(server_challenge_);

	Bytes target = (f & NEGOTIATE_UNICODE)
			       ? utf16(id_.netbios_name)
			       : Bytes(id_.netbios_name.begin(), id_.netbios_name.end());
	Bytes info;
	put_av_pair(info, AV_NB_DOMAIN_NAME, utf16(id_.netbios_domain));
	put_av_pair(info, AV_NB_COMPUTER_NAME, utf16(id_.netbios_name));
	if (!id_.dns_domain.empty())
		put_av_pair(info, AV_DNS_DOMAIN_NAME, utf16(id_.dns_domain));
	if (!id_.dns_name.empty())
		put_av_pair(info, AV_DNS_COMPUTER_NAME, utf16(id_.dns_name));
	Bytes ts;
	put_u64(ts, entropy_.now());
	put_av_pair(info, AV_TIMESTAMP, ts);
	put_av_pair(info, AV_EOL, {});

	Bytes m(kSignature, kSignature + sizeof(kSignature));
	put_u32(m, CHALLENGE);
	m.resize(kChallengeHeader + sizeof(kVersion), 0);
	put_field(m, 12, m.size(), target.size());
	for (int i = 0; i < 4; i++)
		m[20 + i] = static_cast<uint8_t>(f >> (8 * i));
	std::copy(server_challenge_.begin(), server_challenge_.end(), m.begin() + 24);
	if (f & NEGOTIATE_VERSION)
		std::copy(std::begin(kVersion), std::end(kVersion),
			  m.begin() + kChallengeHeader);
	append(m, target);
	put_field(m, 40, m.size(), info.size());
	append(m, info);

	negotiate_msg_.assign(negotiate.begin(), negotiate.end());
	challenge_msg_ = m;
	flags_ = f;
	state_ = State::challenged;
	return m;
}

Verdict Server::authenticate(ByteView msg, const CredentialLookup &lookup)
{
	Verdict v;
	if (state_ != State::challenged) {
		v.reason = "AUTHENTICATE without a CHALLENGE";
		return v;
	}
	state_ = State::done;
	auto m = parse_authenticate(msg);
	if (!m) {
		v.reason = "malformed AUTHENTICATE message";
		return v;
	}
	bool unicode = (m->flags & NEGOTIATE_UNICODE) || !(m->flags & NEGOTIATE_OEM);
	auto user = decode_name(m->user, unicode);
	auto domain = decode_name(m->domain, unicode);
	auto ws = decode_name(m->workstation, unicode);
	if (!user || !domain || !ws) {
		v.reason = "AUTHENTICATE carries names that are not valid UTF-16";
		return v;
	}
	v.user = utf16_to_utf8(*user);
	v.domain = utf16_to_utf8(*domain);
	v.workstation = utf16_to_utf8(*ws);

	// MS-NLMP 3.2.5.1.2: an empty user with empty responses (or an LM
	// response of one zero byte) is the anonymous user.
	bool lm_empty = m->lm_response.empty() ||
			(m->lm_response.size() == 1 && m->lm_response[0] == 0);
	if (user->empty() && m->nt_response.empty() && lm_empty) {
		v.kind = Verdict::Kind::anonymous;
		return v;
	}
	// Who it is first: an unknown user is unknown whatever it sent (and
	// may become a guest), as in Samba.
	auto cred = lookup(v.user);
	if (!cred) {
		v.kind = Verdict::Kind::unknown_user;
		v.reason = "no such user";
		return v;
	}
	v.user = cred->name;
	if (m->nt_response.size() == 24 || m->nt_response.empty()) {
		v.kind = Verdict::Kind::refused;
		v.reason = m->nt_response.empty() ? "LM authentication is refused"
						  : "NTLMv1 authentication is refused";
		return v;
	}
	if (m->nt_response.size() < kProofLen + kClientChallengeFixed) {
		v.reason = "NTLMv2 response too short";
		return v;
	}
	ByteView proof = m->nt_response.first(kProofLen);
	ByteView temp = m->nt_response.subspan(kProofLen);
	auto pairs = parse_av_pairs(temp.subspan(kClientChallengeFixed));
	if (!pairs) {
		v.reason = "NTLMv2 response with malformed AV pairs";
		return v;
	}
	for (const auto &p : *pairs)
		if (p.id == AV_FLAGS && p.value.size() == 4 &&
		    (get_u32(p.value, 0) & AV_FLAG_MIC_PRESENT))
			v.mic_present = true;
	if (v.mic_present && msg.size() < kMicEnd) {
		v.reason = "MIC announced but the message has no room for it";
		return v;
	}
	uint32_t neg = m->flags & flags_;
	bool key_exch = neg & NEGOTIATE_KEY_EXCH;
	if (key_exch && m->encrypted_session_key.size() != 16) {
		v.reason = "KEY_EXCH with a session key that is not 16 bytes";
		return v;
	}

	// Clients compute NTOWFv2 with the domain they send; some upper-case
	// it, some leave it empty.
	std::vector<std::u16string> domains{*domain};
	if (utf16_upper(*domain) != *domain)
		domains.push_back(utf16_upper(*domain));
	if (!domain->empty())
		domains.emplace_back();
	std::optional<crypto::Digest16> key;
	for (const auto &d : domains) {
		auto k = ntowfv2(cred->hash, *user, d);
		auto p = crypto::hmac_md5(k, {server_challenge_, temp});
		if (crypto::equal_ct(p, proof)) {
			key = k;
			break;
		}
	}
	if (!key) {
		v.kind = Verdict::Kind::wrong_password;
		v.reason = "wrong password";
		return v;
	}
	// KeyExchangeKey is the SessionBaseKey for NTLMv2 (MS-NLMP 3.4.5.1).
	crypto::Digest16 base = crypto::hmac_md5(*key, {proof});
	Bytes exported(base.begin(), base.end());
	if (key_exch)
		exported = crypto::rc4_once(base, m->encrypted_session_key);

	if (v.mic_present) {
		Bytes copy(msg.begin(), msg.end());
		std::fill(copy.begin() + kMicOffset, copy.begin() + kMicEnd, 0);
		auto mic = crypto::hmac_md5(exported,
					    {negotiate_msg_, challenge_msg_, copy});
		if (!crypto::equal_ct(mic, msg.subspan(kMicOffset, 16))) {
			v.kind = Verdict::Kind::refused;
			v.reason = "the message integrity code (MIC) does not verify";
			return v;
		}
	}
	flags_ = neg;
	if (neg & NEGOTIATE_EXTENDED_SESSIONSECURITY)
		security_ = std::make_unique<SessionSecurity>(
			exported, neg, SessionSecurity::Role::server);
	v.kind = Verdict::Kind::ok;
	v.session_key = std::move(exported);
	return v;
}

SessionSecurity::SessionSecurity(ByteView exported, uint32_t flags, Role role)
	: flags_(flags)
{
	auto client_sign = crypto::md5({exported, view(kClientSign)});
	auto server_sign = crypto::md5({exported, view(kServerSign)});
	size_t n = (flags & NEGOTIATE_128) ? 16 : (flags & NEGOTIATE_56) ? 7 : 5;
	ByteView base = exported.first(std::min(n, exported.size()));
	auto client_seal = crypto::md5({base, view(kClientSeal)});
	auto server_seal = crypto::md5({base, view(kServerSeal)});
	bool server = role == Role::server;
	out_sign_ = server ? server_sign : client_sign;
	in_sign_ = server ? client_sign : server_sign;
	out_seal_ = crypto::Rc4(server ? server_seal : client_seal);
	in_seal_ = crypto::Rc4(server ? client_seal : server_seal);
}

Bytes SessionSecurity::signature(ByteView data, uint32_t seq, bool outgoing)
{
	Bytes s;
	put_u32(s, seq);
	auto h = crypto::hmac_md5(outgoing ? out_sign_ : in_sign_, {s, data});
	Bytes checksum(h.begin(), h.begin() + 8);
	if (flags_ & NEGOTIATE_KEY_EXCH)
		(outgoing ? out_seal_ : in_seal_).crypt(checksum);
	Bytes sig;
	put_u32(sig, 1); // NTLMSSP_MESSAGE_SIGNATURE version
	append(sig, checksum);
	put_u32(sig, seq);
	return sig;
}

Bytes SessionSecurity::sign(ByteView data)
{
	return signature(data, out_seq_++, true);
}

bool SessionSecurity::verify(ByteView data, ByteView sig)
{
	return crypto::equal_ct(signature(data, in_seq_++, false), sig);
}

Bytes SessionSecurity::seal(std::span<uint8_t> data)
{
	Bytes plain(data.begin(), data.end());
	out_seal_.crypt(data);
	return signature(plain, out_seq_++, true);
}

} // namespace smbsrv::ntlm
