// SPDX-License-Identifier: GPL-2.0-or-later
//
// Session setup, daemon side: turns the security blobs the module passes
// up (raw NTLMSSP as the Linux cifs client sends them, SPNEGO as smbclient,
// cifs.upcall and Windows do, or a bare Kerberos AP-REQ) into the next blob
// and, at the end, a verdict with the session key and the Unix identity.
// Multi-leg exchanges are kept per SMB2 SessionId; a new NEGOTIATE on a
// live session starts a re-authentication.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "accounts.hpp"
#include "bytes.hpp"
#include "idmap.hpp"
#include "idmap_db.hpp"
#include "kerberos.hpp"
#include "ntlmssp.hpp"
#include "pac.hpp"
#include "sid.hpp"
#include "usermap.hpp"

namespace smbsrv {

struct Config;

enum class MapToGuest {
	never,	      // unknown users and bad passwords fail
	bad_user,     // unknown users become the guest account
	bad_password, // unknown users and bad passwords become the guest account
	bad_uid,      // authenticated users without a Unix account become guest
};

struct AuthPolicy {
	ntlm::ServerIdentity identity;
	MapToGuest map_to_guest = MapToGuest::never;
	std::string guest_account = "nobody";
	// ntlm auth = disabled: NTLMSSP only for null sessions.
	bool ntlm = true;
	// Kerberos logons; null when there is no usable keytab.
	std::shared_ptr<krb5::Acceptor> kerberos;
	// The server's own realm (upper case): its principals are local
	// users of the same name.  "" for none.
	std::string realm;
	// Principal -> local user, tried before the realm is stripped.
	std::shared_ptr<const UsernameMap> username_map;
	// Domain SIDs (of a PAC) -> Unix ids.
	Idmap idmap;
	// Where ids from the * range are kept (state directory/idmap.tdb);
	// null without a * range or when the file cannot be opened.
	std::shared_ptr<IdmapDb> idmap_db;

	// Reads the keytab and the username map; what is wrong with them is
	// logged (Kerberos is then off, or no name is mapped).
	static AuthPolicy from_config(const Config &cfg);
};

struct AuthResult {
	uint32_t status = 0;   // NTSTATUS of this leg
	Bytes blob;	       // security buffer for the response
	Bytes session_key;     // on success with a password logon
	uint32_t flags = 0;    // enum smbsrv_session_flags (uapi)
	std::string user;      // database spelling; the guest account for guests
	std::string domain;    // as the client sent it; the realm for Kerberos
	std::string principal; // Kerberos: the client principal
	uint32_t uid = 0, gid = 0;
	std::vector<uint32_t> groups;
	// A PAC's SIDs (user, groups, extra SIDs, resource groups), sorted
	// as the module wants them; empty without a PAC.
	std::vector<Sid> sids;
	std::string log;       // one line for the log when the leg ends a logon
	// A refused logon: the name and domain the client gave (the audit
	// trail's record of it); user and domain stay empty.
	std::string claimed_user, claimed_domain;
};

class Authenticator {
public:
	using Clock = std::function<std::chrono::steady_clock::time_point()>;

	Authenticator(AuthPolicy policy, ntlm::CredentialLookup lookup,
		      Accounts &accounts, ntlm::Entropy entropy = {},
		      Clock clock = std::chrono::steady_clock::now);
	~Authenticator();
	Authenticator(const Authenticator &) = delete;
	Authenticator &operator=(const Authenticator &) = delete;

	// One session setup leg.  Thread-safe: legs of different sessions
	// may run at once (each under the policy of its start); the legs of
	// one session must come one at a time (AuthPool orders them).
	AuthResult step(uint64_t session_id, const std::string &client_addr,
			ByteView blob);

	// New settings (after a reload) apply to legs started from now.
	void set_policy(AuthPolicy policy);
	// The settings now (a snapshot: a reload does not change it).
	[[nodiscard]] std::shared_ptr<const AuthPolicy> policy() const;
	// The SPNEGO NegTokenInit2 of NEGOTIATE responses: the mechanisms
	// the policy accepts.
	[[nodiscard]] Bytes negotiate_blob() const;
	[[nodiscard]] size_t pending() const;

	// Exchanges idle for longer than this are forgotten; at most
	// max_pending are kept (the oldest goes first).
	static constexpr std::chrono::seconds max_idle{120};
	static constexpr size_t max_pending = 4096;

private:
	struct Exchange;
	std::unique_ptr<Exchange> take(uint64_t session_id, const std::string &addr);
	void keep(uint64_t session_id, std::unique_ptr<Exchange> ex);
	void forget(uint64_t session_id);
	void expire();
	// The policy of the leg this thread runs (step() sets it).
	[[nodiscard]] const AuthPolicy &pol() const;
	AuthResult start_raw(uint64_t sid, const std::string &addr, ByteView blob);
	AuthResult start_spnego(uint64_t sid, const std::string &addr, ByteView blob);
	AuthResult continue_spnego(uint64_t sid, const std::string &addr, ByteView blob);
	AuthResult finish(Exchange &ex, ByteView authenticate, const std::string &addr);
	AuthResult start_krb5(uint64_t sid, const std::string &addr, ByteView blob);
	AuthResult krb5_token(uint64_t sid, std::unique_ptr<Exchange> ex, ByteView token,
			      std::optional<ByteView> client_mic, bool first);
	AuthResult krb5_user(const std::string &principal, const std::string &who,
			     const pac::LogonInfo *pac);
	std::optional<AuthResult> domain_user(const pac::LogonInfo &pac, const std::string &who);
	// The Unix id of @sid (of the PAC's logon domain): the rid backend's
	// for a domain with a rid line, else one from the * range.  nullopt
	// with *why when there is none.
	std::optional<uint32_t> sid_id(const pac::LogonInfo &pac, const Sid &sid, IdmapDb::Kind kind,
				       std::string *why);
	// The gids of the PAC's groups of its logon domain that map.
	void domain_groups(const pac::LogonInfo &pac, const std::vector<Sid> &sids,
			   std::vector<uint32_t> &groups, const std::string &who);
	[[nodiscard]] bool maps_domain(const pac::LogonInfo &pac) const
	{
		return pol().idmap.maps(pac.domain) || pol().idmap_db;
	}
	AuthResult guest(uint32_t flag, const std::string &who, const std::string &why,
			 const std::string &domain);

	mutable std::mutex mu_; // policy_ and pending_
	std::shared_ptr<const AuthPolicy> policy_;
	ntlm::CredentialLookup lookup_;
	Accounts &accounts_;
	ntlm::Entropy entropy_;
	Clock clock_;
	std::map<uint64_t, std::unique_ptr<Exchange>> pending_;
};

} // namespace smbsrv
