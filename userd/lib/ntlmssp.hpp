// SPDX-License-Identifier: GPL-2.0-or-later
//
// The server side of NTLMSSP (MS-NLMP): NEGOTIATE -> CHALLENGE ->
// AUTHENTICATE, NTLMv2 only.  Every field of a client message is bounds-
// checked before use; NTLMv1 and LM responses are refused; the MIC and
// the key exchange (KEY_EXCH) are checked and applied; after a logon the
// negotiated signing keys sign and verify SPNEGO's mechListMIC.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bytes.hpp"
#include "crypto.hpp"
#include "userdb.hpp"

namespace smbsrv::ntlm {

// NegotiateFlags (MS-NLMP 2.2.2.5).
enum : uint32_t {
	NEGOTIATE_UNICODE = 0x00000001,
	NEGOTIATE_OEM = 0x00000002,
	REQUEST_TARGET = 0x00000004,
	NEGOTIATE_SIGN = 0x00000010,
	NEGOTIATE_SEAL = 0x00000020,
	NEGOTIATE_LM_KEY = 0x00000080,
	NEGOTIATE_NTLM = 0x00000200,
	NEGOTIATE_ANONYMOUS = 0x00000800,
	NEGOTIATE_ALWAYS_SIGN = 0x00008000,
	TARGET_TYPE_DOMAIN = 0x00010000,
	TARGET_TYPE_SERVER = 0x00020000,
	NEGOTIATE_EXTENDED_SESSIONSECURITY = 0x00080000,
	NEGOTIATE_TARGET_INFO = 0x00800000,
	NEGOTIATE_VERSION = 0x02000000,
	NEGOTIATE_128 = 0x20000000,
	NEGOTIATE_KEY_EXCH = 0x40000000,
	NEGOTIATE_56 = 0x80000000,
};

// AV pair ids (MS-NLMP 2.2.2.1).
enum : uint16_t {
	AV_EOL = 0,
	AV_NB_COMPUTER_NAME = 1,
	AV_NB_DOMAIN_NAME = 2,
	AV_DNS_COMPUTER_NAME = 3,
	AV_DNS_DOMAIN_NAME = 4,
	AV_FLAGS = 6,
	AV_TIMESTAMP = 7,
};
constexpr uint32_t AV_FLAG_MIC_PRESENT = 0x2;

enum MessageType : uint32_t { NEGOTIATE = 1, CHALLENGE = 2, AUTHENTICATE = 3 };

// True when b starts with the "NTLMSSP\0" signature.
bool is_ntlmssp(ByteView b);
// The message type of an NTLMSSP message, 0 if b is not one.
uint32_t message_type(ByteView b);

struct AvPair {
	uint16_t id;
	ByteView value;
};
// The pairs up to MsvAvEOL; nullopt if a pair overruns b or EOL is missing.
std::optional<std::vector<AvPair>> parse_av_pairs(ByteView b);
void put_av_pair(Bytes &out, uint16_t id, ByteView value);

struct AuthenticateMessage {
	uint32_t flags = 0;
	ByteView lm_response, nt_response, domain, user, workstation;
	ByteView encrypted_session_key;
};
// Field descriptors checked against the message; nullopt if malformed.
std::optional<AuthenticateMessage> parse_authenticate(ByteView msg);

// MS-NLMP 3.3.2: HMAC_MD5(NT hash, UTF-16LE(Uppercase(user) + domain)).
crypto::Digest16 ntowfv2(const NtHash &nt, std::u16string_view user,
			 std::u16string_view domain);

// The current time as a FILETIME (100 ns units since 1601-01-01 UTC).
uint64_t filetime_now();

// What CHALLENGE messages say about this server.
struct ServerIdentity {
	std::string netbios_name = "SMBSRV";	  // MsvAvNbComputerName
	std::string netbios_domain = "WORKGROUP"; // MsvAvNbDomainName
	std::string dns_name;			  // MsvAvDnsComputerName
	std::string dns_domain;			  // MsvAvDnsDomainName
};

// Where the server gets randomness and time; tests make both fixed.
struct Entropy {
	std::function<void(std::span<uint8_t>)> random = crypto::random_bytes;
	std::function<uint64_t()> now = filetime_now;
};

// A user's credential: the name as the database spells it, and its hash.
struct Credential {
	std::string name;
	NtHash hash{};
};
using CredentialLookup =
	std::function<std::optional<Credential>(const std::string &user)>;

struct Verdict {
	enum class Kind {
		ok,		// user authenticated
		anonymous,	// null session: empty user and responses
		unknown_user,	// no such user in the database
		wrong_password, // the response does not verify
		refused,	// NTLMv1/LM, bad MIC, ...: never a logon
		malformed,	// not a valid AUTHENTICATE message
	};
	Kind kind = Kind::malformed;
	std::string user;	 // database spelling when known, else as sent
	std::string domain;	 // as sent
	std::string workstation; // as sent
	std::string reason;	 // for the log when not ok
	Bytes session_key;	 // ExportedSessionKey (ok only)
	bool mic_present = false;
};

// NTLM session security with extended session security (MS-NLMP 3.4):
// signing and sealing keys derived from the exported session key, one
// RC4 handle and sequence number per direction.
class SessionSecurity {
public:
	enum class Role { client, server };
	SessionSecurity(ByteView exported_key, uint32_t flags, Role role);

	// GSS_GetMIC over data in our direction.
	Bytes sign(ByteView data);
	// GSS_VerifyMIC of the peer's signature over data.
	bool verify(ByteView data, ByteView signature);
	// GSS_WrapEx: seal data in place and return its signature.
	Bytes seal(std::span<uint8_t> data);

private:
	Bytes signature(ByteView data, uint32_t seq, bool outgoing);

	uint32_t flags_;
	crypto::Digest16 out_sign_{}, in_sign_{};
	crypto::Rc4 out_seal_, in_seal_;
	uint32_t out_seq_ = 0, in_seq_ = 0;
};

// One NTLMSSP exchange, server side.
class Server {
public:
	Server(ServerIdentity id, Entropy entropy);

	// NEGOTIATE -> CHALLENGE; nullopt if the message is malformed or
	// comes out of order.
	std::optional<Bytes> challenge(ByteView negotiate);
	// AUTHENTICATE -> verdict.  lookup finds a user's credential.
	Verdict authenticate(ByteView msg, const CredentialLookup &lookup);

	// After an ok verdict, the negotiated session security (for SPNEGO's
	// mechListMIC); nullptr before, or when extended session security
	// was not negotiated.
	SessionSecurity *security() { return security_.get(); }
	[[nodiscard]] uint32_t negotiated_flags() const { return flags_; }

private:
	enum class State { initial, challenged, done };

	ServerIdentity id_;
	Entropy entropy_;
	State state_ = State::initial;
	uint32_t flags_ = 0; // CHALLENGE's, then the negotiated ones
	std::array<uint8_t, 8> server_challenge_{};
	Bytes negotiate_msg_, challenge_msg_;
	std::unique_ptr<SessionSecurity> security_;
};

} // namespace smbsrv::ntlm
