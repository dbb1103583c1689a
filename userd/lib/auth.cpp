// SPDX-License-Identifier: GPL-2.0-or-later
#include "auth.hpp"

#include <algorithm>
#include <cctype>
#include <linux/smbsrv.h>
#include <unistd.h>

#include "log.hpp"
#include "ntstatus.hpp"
#include "params.hpp"
#include "spnego.hpp"

namespace smbsrv {

namespace {

std::string upper_ascii(std::string s)
{
	for (auto &c : s)
		c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
	return s;
}

std::string lower_ascii(std::string s)
{
	for (auto &c : s)
		c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
	return s;
}

std::string sid_str(uint64_t sid)
{
	char buf[24];
	std::snprintf(buf, sizeof(buf), "0x%llx", static_cast<unsigned long long>(sid));
	return buf;
}

AuthResult failure(uint32_t status)
{
	AuthResult r;
	r.status = status;
	return r;
}

bool same(ByteView a, ByteView b)
{
	return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

} // namespace

AuthPolicy AuthPolicy::from_config(const Config &cfg)
{
	AuthPolicy p;
	const ParamSet &g = cfg.global;
	p.identity.netbios_name = upper_ascii(g.str("netbios name"));
	p.identity.netbios_domain = upper_ascii(g.str("workgroup"));
	char host[256] = {};
	if (gethostname(host, sizeof(host) - 1) == 0 && host[0]) {
		std::string h = lower_ascii(host);
		p.identity.dns_name = h;
		size_t dot = h.find('.');
		if (dot != std::string::npos && dot + 1 < h.size())
			p.identity.dns_domain = h.substr(dot + 1);
	}
	const std::string &m = g.str("map to guest");
	std::string lm = lower_ascii(m);
	p.map_to_guest = lm == "bad user"     ? MapToGuest::bad_user :
			 lm == "bad password" ? MapToGuest::bad_password :
			 lm == "bad uid"      ? MapToGuest::bad_uid :
						MapToGuest::never;
	// "guest account" is a share parameter whose [global] value is the
	// server's; IPC$ always carries the [global] defaults.
	if (g.has("guest account"))
		p.guest_account = g.str("guest account");
	else if (const ShareConfig *ipc = cfg.share("IPC$"))
		p.guest_account = ipc->params.str("guest account");
	if (p.guest_account.empty())
		p.guest_account = "nobody";

	p.ntlm = lower_ascii(g.str("ntlm auth")) != "disabled";
	if (!g.str("username map").empty()) {
		Diagnostics diags;
		auto map = std::make_shared<UsernameMap>(
			UsernameMap::load(g.str("username map"), diags));
		for (const auto &d : diags.all())
			log::warning(d.str());
		p.username_map = std::move(map);
	}
	std::string why;
	krb5::AcceptorConfig kc{g.str("kerberos keytab file"), g.str("kerberos service name")};
	p.kerberos = krb5::make_gss_acceptor(kc, &why);
	if (!p.kerberos) {
		// No keytab at all is the usual state of a server without a
		// realm: not worth a warning.
		std::string msg = "Kerberos logons off: " + why;
		if (kc.keytab.empty())
			log::info(msg);
		else
			log::warning(msg);
	}
	p.idmap = Idmap::from_params(g);
	if (p.idmap.default_range()) {
		std::string path = g.str("state directory") + "/idmap.tdb";
		std::string why_db;
		p.idmap_db = IdmapDb::open(path, &why_db);
		if (!p.idmap_db)
			log::error("idmap config * : range: " + why_db +
				   "; SIDs of domains without a rid line map to no id");
	}
	p.realm = upper_ascii(g.str("realm"));
	if (p.realm.empty() && p.kerberos)
		p.realm = upper_ascii(krb5::default_realm());
	if (!p.ntlm && !p.kerberos)
		log::warning("ntlm auth = disabled and no Kerberos: only null sessions can log on");
	return p;
}

struct Authenticator::Exchange {
	enum class Wrap { raw, spnego };
	enum class Stage { want_negotiate, want_authenticate, want_ap_req, want_mic };
	Exchange(Wrap w, std::string a, const AuthPolicy &p, const ntlm::Entropy &e)
		: wrap(w), addr(std::move(a)), ntlm(p.identity, e)
	{
	}
	Wrap wrap;
	Stage stage = Stage::want_negotiate;
	std::string addr;
	ntlm::Server ntlm;
	Bytes mech_types_der; // SPNEGO: the client's MechTypeList
	bool mic_required = false;
	// Kerberos: the acceptor of the policy the exchange started under,
	// the mechanism OID to answer with, and after the AP-REQ, while the
	// client's mechListMIC is awaited, the context and the verdict.
	std::shared_ptr<krb5::Acceptor> kerberos;
	Bytes krb5_oid;
	std::unique_ptr<krb5::Context> krb5_ctx;
	AuthResult done;
	std::chrono::steady_clock::time_point last{};
};

Authenticator::Authenticator(AuthPolicy policy, ntlm::CredentialLookup lookup,
			     Accounts &accounts, ntlm::Entropy entropy, Clock clock)
	: policy_(std::make_shared<const AuthPolicy>(std::move(policy))), lookup_(std::move(lookup)),
	  accounts_(accounts), entropy_(std::move(entropy)), clock_(std::move(clock))
{
}

Authenticator::~Authenticator() = default;

namespace {
// The policy snapshot of the leg running on this thread.
thread_local const AuthPolicy *leg_policy = nullptr;
} // namespace

void Authenticator::set_policy(AuthPolicy policy)
{
	auto p = std::make_shared<const AuthPolicy>(std::move(policy));
	std::lock_guard lock(mu_);
	policy_ = std::move(p);
}

std::shared_ptr<const AuthPolicy> Authenticator::policy() const
{
	std::lock_guard lock(mu_);
	return policy_;
}

const AuthPolicy &Authenticator::pol() const
{
	return *leg_policy;
}

size_t Authenticator::pending() const
{
	std::lock_guard lock(mu_);
	return pending_.size();
}

void Authenticator::forget(uint64_t sid)
{
	std::lock_guard lock(mu_);
	pending_.erase(sid);
}

void Authenticator::expire()
{
	std::lock_guard lock(mu_);
	auto now = clock_();
	std::erase_if(pending_, [&](const auto &kv) {
		return now - kv.second->last > max_idle;
	});
}

std::unique_ptr<Authenticator::Exchange>
Authenticator::take(uint64_t sid, const std::string &addr)
{
	std::lock_guard lock(mu_);
	auto it = pending_.find(sid);
	if (it == pending_.end() || it->second->addr != addr)
		return nullptr;
	auto ex = std::move(it->second);
	pending_.erase(it);
	return ex;
}

void Authenticator::keep(uint64_t sid, std::unique_ptr<Exchange> ex)
{
	ex->last = clock_();
	std::lock_guard lock(mu_);
	pending_.erase(sid);
	if (pending_.size() >= max_pending) {
		auto oldest = std::min_element(
			pending_.begin(), pending_.end(), [](const auto &a, const auto &b) {
				return a.second->last < b.second->last;
			});
		log::warning("too many unfinished logons; forgetting session " +
			     sid_str(oldest->first) + "'s");
		pending_.erase(oldest);
	}
	pending_.emplace(sid, std::move(ex));
}

AuthResult Authenticator::step(uint64_t sid, const std::string &addr, ByteView blob)
{
	// The leg runs under the policy of its start, whatever a reload does
	// meanwhile; pol() is it for the functions below.
	std::shared_ptr<const AuthPolicy> snapshot = policy();
	struct Leg {
		explicit Leg(const AuthPolicy *p) { leg_policy = p; }
		~Leg() { leg_policy = nullptr; }
		Leg(const Leg &) = delete;
		Leg &operator=(const Leg &) = delete;
	} leg(snapshot.get());
	expire();
	if (blob.empty()) {
		// No token yet: offer our mechanisms, as in NEGOTIATE.
		AuthResult r = failure(nt::MORE_PROCESSING_REQUIRED);
		r.blob = negotiate_blob();
		return r;
	}
	if (ntlm::is_ntlmssp(blob)) {
		switch (ntlm::message_type(blob)) {
		case ntlm::NEGOTIATE:
			return start_raw(sid, addr, blob);
		case ntlm::AUTHENTICATE: {
			auto ex = take(sid, addr);
			if (!ex || ex->wrap != Exchange::Wrap::raw ||
			    ex->stage != Exchange::Stage::want_authenticate) {
				log::notice("session " + sid_str(sid) + " from " + addr +
					    ": NTLMSSP AUTHENTICATE without a NEGOTIATE");
				return failure(nt::INVALID_PARAMETER);
			}
			return finish(*ex, blob, addr);
		}
		default:
			log::notice("session " + sid_str(sid) + " from " + addr +
				    ": unexpected NTLMSSP message");
			return failure(nt::INVALID_PARAMETER);
		}
	}
	if (blob[0] == 0x60 && krb5::is_ap_req(blob))
		return start_krb5(sid, addr, blob);
	if (blob[0] == 0x60 || blob[0] == 0xa0)
		return start_spnego(sid, addr, blob);
	if (blob[0] == 0xa1)
		return continue_spnego(sid, addr, blob);
	log::notice("session " + sid_str(sid) + " from " + addr +
		    ": security blob is neither SPNEGO nor NTLMSSP");
	return failure(nt::INVALID_PARAMETER);
}

AuthResult Authenticator::start_raw(uint64_t sid, const std::string &addr, ByteView blob)
{
	auto ex = std::make_unique<Exchange>(Exchange::Wrap::raw, addr, pol(), entropy_);
	auto challenge = ex->ntlm.challenge(blob);
	if (!challenge) {
		forget(sid);
		log::notice("session " + sid_str(sid) + " from " + addr +
			    ": malformed NTLMSSP NEGOTIATE");
		return failure(nt::INVALID_PARAMETER);
	}
	ex->stage = Exchange::Stage::want_authenticate;
	AuthResult r = failure(nt::MORE_PROCESSING_REQUIRED);
	r.blob = std::move(*challenge);
	keep(sid, std::move(ex));
	return r;
}

AuthResult Authenticator::start_spnego(uint64_t sid, const std::string &addr, ByteView blob)
{
	auto init = spnego::parse_init(blob);
	if (!init) {
		forget(sid);
		log::notice("session " + sid_str(sid) + " from " + addr +
			    ": malformed SPNEGO NegTokenInit");
		return failure(nt::INVALID_PARAMETER);
	}
	auto usable = [&](ByteView m) {
		return same(m, spnego::oid_ntlmssp) ||
		       (pol().kerberos &&
			(same(m, spnego::oid_krb5) || same(m, spnego::oid_ms_krb5)));
	};
	auto it = std::find_if(init->mech_types.begin(), init->mech_types.end(), usable);
	if (it == init->mech_types.end()) {
		forget(sid);
		std::string offered;
		for (ByteView m : init->mech_types)
			offered += " " + spnego::oid_str(m);
		log::notice("session " + sid_str(sid) + " from " + addr +
			    ": client offers no mechanism this server accepts (mechanisms:" +
			    offered + (pol().kerberos ? "" : "; Kerberos is off") + ")");
		return failure(nt::LOGON_FAILURE);
	}
	// Not the client's first choice: its optimistic token (if any) is
	// for another mechanism, and RFC 4178 wants the mechanism list
	// protected by a MIC.
	bool first = it == init->mech_types.begin();
	auto ex = std::make_unique<Exchange>(Exchange::Wrap::spnego, addr, pol(), entropy_);
	ex->mech_types_der.assign(init->mech_types_der.begin(), init->mech_types_der.end());
	ex->mic_required = !first;
	spnego::Response resp;
	resp.state = first ? spnego::NegState::accept_incomplete : spnego::NegState::request_mic;
	if (!same(*it, spnego::oid_ntlmssp)) {
		ex->kerberos = pol().kerberos;
		ex->krb5_oid.assign(it->begin(), it->end());
		ex->stage = Exchange::Stage::want_ap_req;
		forget(sid);
		if (first && init->mech_token)
			return krb5_token(sid, std::move(ex), *init->mech_token,
					  init->mech_list_mic, true);
		resp.supported_mech = ex->krb5_oid;
	} else {
		resp.supported_mech = spnego::oid_ntlmssp;
		if (first && init->mech_token) {
			auto challenge = ex->ntlm.challenge(*init->mech_token);
			if (!challenge) {
				forget(sid);
				log::notice("session " + sid_str(sid) + " from " + addr +
					    ": malformed NTLMSSP NEGOTIATE in SPNEGO");
				return failure(nt::INVALID_PARAMETER);
			}
			resp.response_token = std::move(*challenge);
			ex->stage = Exchange::Stage::want_authenticate;
		}
	}
	AuthResult r = failure(nt::MORE_PROCESSING_REQUIRED);
	r.blob = spnego::build_resp(resp);
	keep(sid, std::move(ex));
	return r;
}

AuthResult Authenticator::start_krb5(uint64_t sid, const std::string &addr, ByteView blob)
{
	forget(sid);
	if (!pol().kerberos) {
		log::notice("Kerberos logon from " + addr + " refused: Kerberos is off (no keytab)");
		return failure(nt::LOGON_FAILURE);
	}
	auto ex = std::make_unique<Exchange>(Exchange::Wrap::raw, addr, pol(), entropy_);
	ex->kerberos = pol().kerberos;
	return krb5_token(sid, std::move(ex), blob, std::nullopt, true);
}

AuthResult Authenticator::krb5_token(uint64_t sid, std::unique_ptr<Exchange> ex, ByteView token,
				     std::optional<ByteView> client_mic, bool first)
{
	std::string who = "Kerberos logon from " + ex->addr;
	// GSSAPI runs in the daemon's one upcall thread: its time is logged
	// (keytab read, decryption, replay cache; no KDC is contacted).
	auto t0 = std::chrono::steady_clock::now();
	krb5::Accepted acc = ex->kerberos->accept(token);
	auto us = std::chrono::duration_cast<std::chrono::microseconds>(
			  std::chrono::steady_clock::now() - t0)
			  .count();
	if (acc.kind != krb5::Accepted::Kind::ok) {
		log::notice(who + " refused: " + acc.reason);
		return failure(acc.kind == krb5::Accepted::Kind::malformed ? nt::INVALID_PARAMETER
									    : nt::LOGON_FAILURE);
	}
	who = "Kerberos logon of " + acc.client + " from " + ex->addr;
	// The module takes at most 512 bytes of principal and 256 of realm
	// (the netlink spec's max-len).
	if (acc.client.size() > 512 || krb5::split_principal(acc.client).second.size() > 256) {
		log::notice("Kerberos logon from " + ex->addr + " refused: principal longer than 512 "
			    "bytes or realm longer than 256");
		return failure(nt::LOGON_FAILURE);
	}
	std::optional<pac::LogonInfo> pac;
	if (acc.logon_info) {
		std::string why;
		pac = pac::decode_logon_info(*acc.logon_info, &why);
		if (!pac) {
			log::notice(who + " refused: " + why);
			return failure(nt::LOGON_FAILURE);
		}
	}
	AuthResult r = krb5_user(acc.client, who, pac ? &*pac : nullptr);
	if (r.status != nt::SUCCESS)
		return r;
	r.principal = acc.client;
	r.flags |= SMBSRV_SESSION_FLAGS_KERBEROS;
	if (!(r.flags & SMBSRV_SESSION_FLAGS_GUEST))
		r.session_key = std::move(acc.session_key);
	std::string done = who + ": authenticated as " + r.user + " (uid " + std::to_string(r.uid) +
			   (pac && !(r.flags & SMBSRV_SESSION_FLAGS_GUEST)
				    ? "; " + pac->user_sid().str() + " with " +
					      std::to_string(r.sids.size()) + " SIDs from the PAC"
				    : std::string()) +
			   "; ticket checked in " + std::to_string(us) + " us)";
	if (ex->wrap == Exchange::Wrap::raw) {
		r.blob = std::move(acc.output);
		log::info(done);
		return r;
	}
	if (client_mic && !acc.context->verify_mic(ex->mech_types_der, *client_mic)) {
		log::notice(who + " refused: mechListMIC does not verify");
		return failure(nt::LOGON_FAILURE);
	}
	// Mutual authentication: the AP-REP, and our MIC over the client's
	// mechanism list, as Windows sends them.
	spnego::Response out;
	out.state = spnego::NegState::accept_completed;
	if (first)
		out.supported_mech = ex->krb5_oid;
	if (!acc.output.empty())
		out.response_token = std::move(acc.output);
	out.mech_list_mic = acc.context->get_mic(ex->mech_types_der);
	if (ex->mic_required && !client_mic) {
		// Krb5 was not the client's first choice: its MIC must come
		// in one more leg before the logon completes.
		out.state = spnego::NegState::accept_incomplete;
		ex->stage = Exchange::Stage::want_mic;
		ex->krb5_ctx = std::move(acc.context);
		ex->done = std::move(r);
		AuthResult more = failure(nt::MORE_PROCESSING_REQUIRED);
		more.blob = spnego::build_resp(out);
		keep(sid, std::move(ex));
		return more;
	}
	r.blob = spnego::build_resp(out);
	log::info(done);
	return r;
}

AuthResult Authenticator::krb5_user(const std::string &principal, const std::string &who,
				     const pac::LogonInfo *pac)
{
	auto [name, realm] = krb5::split_principal(principal);
	std::optional<std::string> local;
	if (pol().username_map)
		local = pol().username_map->map(principal);
	if (!local && !pol().realm.empty() && upper_ascii(realm) == pol().realm &&
	    !name.empty() && name.find('/') == std::string::npos)
		local = name;
	std::optional<Account> acct;
	if (local)
		acct = accounts_.user(*local);
	if (!acct && pac && maps_domain(*pac)) {
		// A domain user without a local account: ids from idmap.
		auto r = domain_user(*pac, who);
		if (!r)
			return failure(nt::LOGON_FAILURE);
		r->domain = realm;
		return *r;
	}
	std::string no_idmap = pac ? "; the PAC's domain " + pac->domain + " has no 'idmap config " +
					     pac->domain + " : backend = rid' and there is no " +
					     "'idmap config * : range'"
				   : std::string();
	if (!local) {
		if (pol().map_to_guest == MapToGuest::bad_user ||
		    pol().map_to_guest == MapToGuest::bad_password)
			return guest(SMBSRV_SESSION_FLAGS_GUEST | SMBSRV_SESSION_FLAGS_KERBEROS, who,
				     "no local user for the principal", realm);
		log::notice(who + " refused: the principal maps to no local user (no username map line" +
			    (pol().realm.empty() ? std::string(", no realm set")
						   : ", not of realm " + pol().realm) +
			    no_idmap + ")");
		return failure(nt::LOGON_FAILURE);
	}
	if (!acct) {
		if (pol().map_to_guest == MapToGuest::bad_uid)
			return guest(SMBSRV_SESSION_FLAGS_GUEST | SMBSRV_SESSION_FLAGS_KERBEROS, who,
				     "no Unix account '" + *local + "'", realm);
		log::warning(who + " refused: it maps to '" + *local +
			     "', which has no Unix account" + no_idmap);
		return failure(nt::LOGON_FAILURE);
	}
	AuthResult r;
	r.status = nt::SUCCESS;
	r.user = acct->name;
	r.domain = realm;
	r.uid = acct->uid;
	r.gid = acct->gid;
	r.groups = acct->groups;
	if (pac) {
		// The PAC's groups of mapped domains join the Unix groups.
		r.sids = pac->token_sids();
		domain_groups(*pac, r.sids, r.groups, who);
	}
	return r;
}

std::optional<uint32_t> Authenticator::sid_id(const pac::LogonInfo &pac, const Sid &sid,
					      IdmapDb::Kind kind, std::string *why)
{
	uint32_t rid = 0;
	if (!sid.in_domain(pac.domain_sid, &rid)) {
		*why = sid.str() + " is not of the logon domain " + pac.domain;
		return std::nullopt;
	}
	if (pol().idmap.maps(pac.domain)) {
		auto id = pol().idmap.id(pac.domain, rid);
		if (!id)
			*why = sid.str() + " is beyond 'idmap config " + pac.domain + " : range'";
		return id;
	}
	const auto &range = pol().idmap.default_range();
	if (!pol().idmap_db || !range) {
		*why = "the domain " + pac.domain + " maps to no ids";
		return std::nullopt;
	}
	IdmapDb::Answer a = pol().idmap_db->id(sid, kind, range->first, range->second);
	if (a.id)
		return a.id;
	std::string what = kind == IdmapDb::Kind::uid ? "uid" : "gid";
	std::string span = std::to_string(range->first) + "-" + std::to_string(range->second);
	if (a.exhausted) {
		*why = "no free " + what + " for " + sid.str() + " in 'idmap config * : range' " + span;
		// Said once (until an allocation succeeds again): every
		// logon that needs a new id is refused meanwhile.
		if (pol().idmap_db->first_exhaustion(kind))
			log::error("idmap config * : range = " + span + " is exhausted: every " + what +
				   " is taken (" + pol().idmap_db->path() +
				   "); domain users and groups without an id are refused until "
				   "the range is widened");
	} else {
		*why = "no " + what + " for " + sid.str() + ": " + a.error;
		log::error("idmap: " + a.error);
	}
	return std::nullopt;
}

void Authenticator::domain_groups(const pac::LogonInfo &pac, const std::vector<Sid> &sids,
				  std::vector<uint32_t> &groups, const std::string &who)
{
	// Every group SID of the logon domain that maps is a Unix group too
	// (extra SIDs and resource groups of other domains stay SIDs only:
	// their domains' names are not in the PAC).  A group without an id
	// is left out of the Unix groups, as Samba does.
	for (const Sid &s : maps_domain(pac) ? sids : std::vector<Sid>{}) {
		uint32_t rid = 0;
		if (!s.in_domain(pac.domain_sid, &rid) || rid == pac.user_rid)
			continue;
		std::string why;
		if (auto g = sid_id(pac, s, IdmapDb::Kind::gid, &why))
			groups.push_back(*g);
		else
			log::debug(std::string(who).append(": group ").append(s.str())
					   .append(" has no gid: ").append(why));
	}
	std::sort(groups.begin(), groups.end());
	groups.erase(std::unique(groups.begin(), groups.end()), groups.end());
}

std::optional<AuthResult> Authenticator::domain_user(const pac::LogonInfo &pac,
						      const std::string &who)
{
	std::string why;
	auto uid = sid_id(pac, pac.user_sid(), IdmapDb::Kind::uid, &why);
	auto gid = uid ? sid_id(pac, pac.group_sid(), IdmapDb::Kind::gid, &why) : std::nullopt;
	if (!uid || !gid) {
		log::notice(who + " refused: " + why);
		return std::nullopt;
	}
	AuthResult r;
	r.status = nt::SUCCESS;
	r.user = pac.domain + "\\" + pac.user;
	r.uid = *uid;
	r.gid = *gid;
	r.sids = pac.token_sids();
	domain_groups(pac, r.sids, r.groups, who);
	return r;
}

AuthResult Authenticator::guest(uint32_t flag, const std::string &who, const std::string &why,
				const std::string &domain)
{
	auto acct = accounts_.user(pol().guest_account);
	if (!acct) {
		log::warning(who + " refused: " + why + ", and the guest account '" +
			     pol().guest_account + "' does not exist");
		return failure(nt::LOGON_FAILURE);
	}
	AuthResult r;
	r.status = nt::SUCCESS;
	r.flags = flag;
	r.user = acct->name;
	r.domain = domain;
	r.uid = acct->uid;
	r.gid = acct->gid;
	r.groups = acct->groups;
	log::info(who + ": " + why + "; mapped to the guest account '" + acct->name + "'");
	return r;
}

Bytes Authenticator::negotiate_blob() const
{
	// Without Kerberos NTLMSSP stays offered: null sessions use it.
	auto p = policy();
	return spnego::negotiate_blob(p->kerberos != nullptr, p->ntlm || !p->kerberos);
}

AuthResult Authenticator::continue_spnego(uint64_t sid, const std::string &addr, ByteView blob)
{
	auto resp = spnego::parse_resp(blob);
	auto ex = take(sid, addr);
	std::string who = "session " + sid_str(sid) + " from " + addr + ": ";
	if (!resp) {
		log::notice(who + "malformed SPNEGO NegTokenResp");
		return failure(nt::INVALID_PARAMETER);
	}
	if (!ex || ex->wrap != Exchange::Wrap::spnego) {
		log::notice(who + "SPNEGO NegTokenResp without a NegTokenInit");
		return failure(nt::INVALID_PARAMETER);
	}
	if (resp->state == spnego::NegState::reject) {
		log::notice(who + "the client gave up the logon");
		return failure(nt::LOGON_FAILURE);
	}
	if (ex->kerberos) {
		if (ex->stage == Exchange::Stage::want_ap_req && resp->response_token)
			return krb5_token(sid, std::move(ex), *resp->response_token,
					  resp->mech_list_mic, false);
		if (ex->stage == Exchange::Stage::want_mic && resp->mech_list_mic) {
			AuthResult r = std::move(ex->done);
			std::string krb_who = "Kerberos logon of " + r.principal + " from " + addr;
			if (!ex->krb5_ctx->verify_mic(ex->mech_types_der, *resp->mech_list_mic)) {
				log::notice(krb_who + " refused: mechListMIC does not verify");
				return failure(nt::LOGON_FAILURE);
			}
			spnego::Response out;
			out.state = spnego::NegState::accept_completed;
			r.blob = spnego::build_resp(out);
			log::info(krb_who + ": authenticated as " + r.user + " (uid " +
				  std::to_string(r.uid) + ")");
			return r;
		}
		log::notice(who + "unexpected SPNEGO NegTokenResp in a Kerberos logon");
		return failure(nt::INVALID_PARAMETER);
	}
	if (!resp->response_token) {
		log::notice(who + "SPNEGO NegTokenResp without a token");
		return failure(nt::INVALID_PARAMETER);
	}
	ByteView token = *resp->response_token;
	uint32_t type = ntlm::message_type(token);
	if (ex->stage == Exchange::Stage::want_negotiate && type == ntlm::NEGOTIATE) {
		auto challenge = ex->ntlm.challenge(token);
		if (!challenge) {
			log::notice(who + "malformed NTLMSSP NEGOTIATE in SPNEGO");
			return failure(nt::INVALID_PARAMETER);
		}
		spnego::Response out;
		out.state = spnego::NegState::accept_incomplete;
		out.response_token = std::move(*challenge);
		ex->stage = Exchange::Stage::want_authenticate;
		AuthResult r = failure(nt::MORE_PROCESSING_REQUIRED);
		r.blob = spnego::build_resp(out);
		keep(sid, std::move(ex));
		return r;
	}
	if (ex->stage != Exchange::Stage::want_authenticate || type != ntlm::AUTHENTICATE) {
		log::notice(who + "unexpected NTLMSSP message in SPNEGO");
		return failure(nt::INVALID_PARAMETER);
	}
	AuthResult r = finish(*ex, token, addr);
	if (r.status != nt::SUCCESS)
		return r;

	// mechListMIC (RFC 4178 5): verify the client's over its mechanism
	// list and answer with ours.  Guests and null sessions have no keys.
	ntlm::SessionSecurity *sec = ex->ntlm.security();
	bool keyed = !r.session_key.empty() && sec;
	spnego::Response out;
	out.state = spnego::NegState::accept_completed;
	if (keyed && (resp->mech_list_mic || ex->mic_required)) {
		if (!resp->mech_list_mic) {
			log::notice(who + "logon of " + r.user + " refused: no mechListMIC");
			return failure(nt::LOGON_FAILURE);
		}
		if (!sec->verify(ex->mech_types_der, *resp->mech_list_mic)) {
			log::notice(who + "logon of " + r.user +
				    " refused: mechListMIC does not verify");
			return failure(nt::LOGON_FAILURE);
		}
		out.mech_list_mic = sec->sign(ex->mech_types_der);
	}
	r.blob = spnego::build_resp(out);
	return r;
}

AuthResult Authenticator::finish(Exchange &ex, ByteView authenticate, const std::string &addr)
{
	using K = ntlm::Verdict::Kind;
	ntlm::Verdict v = ex.ntlm.authenticate(authenticate, lookup_);
	std::string who = "logon of '" + v.user + "' (domain '" + v.domain +
			  "', workstation '" + v.workstation + "') from " + addr;

	// A refusal names who was refused (the audit trail's logon record).
	auto refused = [&](uint32_t status) {
		AuthResult f = failure(status);
		f.claimed_user = v.user;
		f.claimed_domain = v.domain;
		return f;
	};
	auto as_guest = [&](uint32_t flag, const std::string &why) {
		AuthResult r = guest(flag, who, why, v.domain);
		if (r.status != nt::SUCCESS) {
			r.claimed_user = v.user;
			r.claimed_domain = v.domain;
		}
		return r;
	};
	if (!pol().ntlm && v.kind != K::anonymous && v.kind != K::malformed) {
		log::notice(who + " refused: NTLM logons are disabled (ntlm auth = disabled)");
		return failure(nt::NTLM_BLOCKED);
	}

	switch (v.kind) {
	case K::ok: {
		auto acct = accounts_.user(v.user);
		if (!acct) {
			if (pol().map_to_guest == MapToGuest::bad_uid)
				return as_guest(SMBSRV_SESSION_FLAGS_GUEST,
						"no Unix account of that name");
			log::warning(who + " refused: the user has no Unix account of that name");
			return refused(nt::LOGON_FAILURE);
		}
		AuthResult r;
		r.status = nt::SUCCESS;
		r.session_key = std::move(v.session_key);
		r.user = v.user;
		r.domain = v.domain;
		r.uid = acct->uid;
		r.gid = acct->gid;
		r.groups = acct->groups;
		log::info(who + ": authenticated (uid " + std::to_string(r.uid) + ")");
		return r;
	}
	case K::anonymous:
		return as_guest(SMBSRV_SESSION_FLAGS_ANONYMOUS, "anonymous (null session)");
	case K::unknown_user:
		if (pol().map_to_guest == MapToGuest::bad_user ||
		    pol().map_to_guest == MapToGuest::bad_password)
			return as_guest(SMBSRV_SESSION_FLAGS_GUEST, "unknown user");
		log::notice(who + " failed: unknown user");
		return refused(nt::LOGON_FAILURE);
	case K::wrong_password:
		if (pol().map_to_guest == MapToGuest::bad_password)
			return as_guest(SMBSRV_SESSION_FLAGS_GUEST, "wrong password");
		log::notice(who + " failed: wrong password");
		return refused(nt::LOGON_FAILURE);
	case K::refused:
		log::notice(who + " refused: " + v.reason);
		return refused(nt::LOGON_FAILURE);
	case K::malformed:
		break;
	}
	log::notice("logon from " + addr + " refused: " + v.reason);
	return refused(nt::INVALID_PARAMETER);
}

} // namespace smbsrv
