// SPDX-License-Identifier: GPL-2.0-or-later
//
// Kerberos 5 logons, acceptor side, through MIT Kerberos' GSSAPI: the
// keytab's keys decrypt the client's AP-REQ, GSSAPI checks the ticket's
// times, the authenticator and the replay cache and makes the AP-REP of
// mutual authentication.  No ticket is parsed here: the only bytes looked
// at are the GSS-API framing (RFC 2743 3.1) that says which mechanism a
// token is for.
//
// Acceptor is an interface: the Authenticator is tested with a fake one,
// the daemon uses make_gss_acceptor().
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "bytes.hpp"

namespace smbsrv::krb5 {

// A GSS-API InitialContextToken: [APPLICATION 0] { thisMech OID,
// innerToken }.  The krb5 mechanism's innerToken starts with a two-byte
// TOK_ID (01 00 for an AP-REQ, RFC 4121 4.1).
struct Framed {
	ByteView mech; // OID contents
	ByteView inner;
};
std::optional<Framed> parse_framed(ByteView token);
// Whether token is a GSS-framed krb5 AP-REQ (either krb5 OID).
bool is_ap_req(ByteView token);

// Tokens larger than this are refused before GSSAPI sees them (a ticket
// with a large PAC is some 12 KiB; SMB2 caps a security buffer at 64 KiB).
constexpr size_t max_token = 65535;

// A context GSSAPI established: for the SPNEGO mechListMIC.
class Context {
public:
	virtual ~Context() = default;
	virtual std::optional<Bytes> get_mic(ByteView msg) = 0;
	virtual bool verify_mic(ByteView msg, ByteView mic) = 0;
};

struct Accepted {
	enum class Kind {
		ok,	   // the ticket verified
		refused,   // a well-formed token that does not verify
		malformed, // not a token GSSAPI could parse
	};
	Kind kind = Kind::refused;
	Bytes output;		  // for the client: the AP-REP (may be empty)
	Bytes session_key;	  // the acceptor subkey, else the ticket's key
	std::string client;	  // the client principal, "name@REALM"
	std::string service;	  // the principal the ticket was for
	std::string reason;	  // why it was refused, for the log
	// The PAC's KERB_VALIDATION_INFO (NDR, undecoded) when the ticket
	// carries a PAC with one; only a PAC whose server signature verified
	// with the keytab's key gets here (a PAC that does not verify makes
	// the ticket refused).
	std::optional<Bytes> logon_info;
	std::unique_ptr<Context> context;
};

class Acceptor {
public:
	virtual ~Acceptor() = default;
	// One AP-REQ (GSS-framed, from SPNEGO or bare).
	virtual Accepted accept(ByteView token) = 0;
};

struct AcceptorConfig {
	std::string keytab;  // "" for the default keytab (KRB5_KTNAME, krb5.conf)
	// "" accepts any cifs/ principal in the keytab, "svc" any svc/
	// principal, "svc/host" or "svc/host@REALM" that principal only.
	std::string service;
};

// The MIT GSSAPI acceptor; nullptr with *why set when the keytab has no
// key for the configured service (or cannot be read).
std::unique_ptr<Acceptor> make_gss_acceptor(const AcceptorConfig &cfg, std::string *why);

// The default realm of krb5.conf; "" when none is configured.
std::string default_realm();

// "name@REALM" split at the realm separator (the last '@' not escaped
// with a backslash); the realm is empty when there is none.
std::pair<std::string, std::string> split_principal(const std::string &p);

} // namespace smbsrv::krb5
