// SPDX-License-Identifier: GPL-2.0-or-later
//
// SPNEGO (RFC 4178, MS-SPNG) as SMB carries it: the NegTokenInit2 the
// server offers in NEGOTIATE responses, the client's NegTokenInit and the
// NegTokenResp legs.  A small strict DER reader/writer underneath: definite
// lengths only, every length checked against what is left.
#pragma once

#include <optional>
#include <vector>

#include "bytes.hpp"

namespace smbsrv::spnego {

// DER-encoded contents of the object identifiers we care about.
extern const Bytes oid_spnego;	 // 1.3.6.1.5.5.2
extern const Bytes oid_ntlmssp;	 // 1.3.6.1.4.1.311.2.2.10
extern const Bytes oid_krb5;	 // 1.2.840.113554.1.2.2
extern const Bytes oid_ms_krb5;	 // 1.2.840.48018.1.2.2

// Dotted form of an OID's contents, for log messages ("?" if malformed).
std::string oid_str(ByteView oid);

namespace der {

struct Tlv {
	uint8_t tag = 0;   // identifier octet (class, constructed, number < 31)
	ByteView value;	   // contents
	ByteView encoding; // the whole TLV
};

// Reads consecutive TLVs from a buffer.
class Reader {
public:
	explicit Reader(ByteView b) : b_(b) {}
	// false at the end or on malformed input (check at_end() to tell).
	bool next(Tlv &out);
	[[nodiscard]] bool at_end() const { return pos_ == b_.size(); }

private:
	ByteView b_;
	size_t pos_ = 0;
};

// Exactly one TLV with the given tag spanning all of b.
std::optional<Tlv> only(ByteView b, uint8_t tag);

Bytes tlv(uint8_t tag, ByteView value);

} // namespace der

enum class NegState : uint8_t {
	accept_completed = 0,
	accept_incomplete = 1,
	reject = 2,
	request_mic = 3,
};

struct NegTokenInit {
	std::vector<ByteView> mech_types; // OID contents, client's preference order
	ByteView mech_types_der;	  // the MechTypeList as sent, for mechListMIC
	std::optional<ByteView> mech_token;
	std::optional<ByteView> mech_list_mic;
};

struct NegTokenResp {
	std::optional<NegState> state;
	std::optional<ByteView> supported_mech;
	std::optional<ByteView> response_token;
	std::optional<ByteView> mech_list_mic;
};

// The client's first token: GSS-API framed ([APPLICATION 0] with the
// SPNEGO OID) or a bare [0] NegTokenInit.  nullopt if malformed.
std::optional<NegTokenInit> parse_init(ByteView b);
// A [1] NegTokenResp.  nullopt if malformed.
std::optional<NegTokenResp> parse_resp(ByteView b);

// The server's NegTokenResp.
struct Response {
	std::optional<NegState> state;
	std::optional<Bytes> supported_mech;
	std::optional<Bytes> response_token;
	std::optional<Bytes> mech_list_mic;
};
Bytes build_resp(const Response &r);

// The GSS-API framed NegTokenInit2 a server sends in its NEGOTIATE
// response: mechTypes { MS-KRB5, KRB5 } when krb5, then { NTLMSSP } when
// ntlm (Windows' order), and the customary negHints.
Bytes negotiate_blob(bool krb5 = false, bool ntlm = true);

} // namespace smbsrv::spnego
