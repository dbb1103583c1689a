// SPDX-License-Identifier: GPL-2.0-or-later
#include "upcalls.hpp"

#include <cerrno>
#include <linux/smbsrv.h>

#include "log.hpp"
#include "ntstatus.hpp"
#include "tree.hpp"

namespace smbsrv {

Upcalls::Upcalls(Config cfg, UserDbFile &users, Accounts &accounts,
		 RpcEndpointFactory rpc, ntlm::Entropy entropy)
	: cfg_(std::move(cfg)), users_(users), accounts_(accounts),
	  auth_(AuthPolicy::from_config(cfg_),
		[this](const std::string &user) -> std::optional<ntlm::Credential> {
			// Looked up in the file as it is now: a removed or
			// re-passworded user fails at once.
			auto e = users_.find(user);
			if (!e)
				return std::nullopt;
			return ntlm::Credential{e->name, e->hash};
		},
		accounts, std::move(entropy)),
	  pipes_(std::move(rpc))
{
}

void Upcalls::reload(Config cfg)
{
	cfg_ = std::move(cfg);
	auth_.set_policy(AuthPolicy::from_config(cfg_));
}

namespace {

// Run @send, which answers the module.  A refused answer (the upcall timed
// out in the module meanwhile) is logged; ModuleNotLoaded and socket
// failures propagate.
void answer(const std::function<void()> &send)
{
	try {
		send();
	} catch (const ModuleNotLoaded &) {
		throw;
	} catch (const NlError &e) {
		if (e.err() == ENOENT)
			log::notice(std::string("an answer came too late for smbsrv.ko: ") + e.what());
		else if (e.err() == EINVAL || e.err() == EPROTO || e.err() == EMSGSIZE)
			log::error(std::string("smbsrv.ko refused an answer: ") + e.what());
		else
			throw;
	}
}

} // namespace

void Upcalls::start_pool(size_t threads, size_t max_queued)
{
	pool_ = std::make_unique<AuthPool>(threads, max_queued);
}

void Upcalls::run_replies()
{
	if (pool_)
		pool_->run_replies();
}

AuthPool::Reply Upcalls::session_setup(const SessionSetupReq &s, KernelChannel &kernel)
{
	AuthResult r = auth_.step(s.session_id, s.client_addr, s.blob);
	SessionSetupDone d;
	d.handle = s.handle;
	d.status = r.status;
	d.blob = std::move(r.blob);
	d.session_key = std::move(r.session_key);
	d.uid = r.uid;
	d.gid = r.gid;
	d.groups = std::move(r.groups);
	for (const Sid &sid : r.sids)
		d.sids.push_back(sid.wire());
	d.flags = r.flags;
	// A logon ends (either way) on a leg that asks for no more: the
	// audit trail's logon record.
	std::optional<AuditRecord> a;
	if (r.status != nt::MORE_PROCESSING_REQUIRED) {
		a.emplace();
		a->op = SMBSRV_AUDIT_OP_LOGON;
		a->status = r.status;
		a->session_id = s.session_id;
		a->user = r.user.empty() ? r.claimed_user : r.user;
		a->domain = r.domain.empty() ? r.claimed_domain : r.domain;
		a->client = s.client_addr;
	}
	d.user = std::move(r.user);
	d.domain = std::move(r.domain);
	d.principal = std::move(r.principal);
	// The audit style is the configuration's of the moment the answer
	// goes out (cfg_ is the main thread's).
	return [this, &kernel, d = std::move(d), a = std::move(a)] {
		if (a)
			audit(audit_style(cfg_.share_defaults), *a);
		answer([&] { kernel.session_setup_done(d); });
	};
}

void Upcalls::handle(const Upcall &u, KernelChannel &kernel)
{
	if (const auto *s = std::get_if<SessionSetupReq>(&u)) {
		if (!pool_) {
			session_setup(*s, kernel)();
			return;
		}
		if (pool_->submit(s->session_id,
				  [this, req = *s, k = &kernel] { return session_setup(req, *k); }))
			return;
		log::warning("session setup from " + s->client_addr +
			     " refused: too many logons in progress");
		SessionSetupDone d;
		d.handle = s->handle;
		d.status = nt::INSUFFICIENT_RESOURCES;
		answer([&] { kernel.session_setup_done(d); });
		return;
	}
	answer([&] {
		if (const auto *t = std::get_if<TreeConnectReq>(&u)) {
			TreeConnectDone d = decide_tree_connect(cfg_, *t, accounts_);
			AuditRecord a;
			a.op = SMBSRV_AUDIT_OP_CONNECT;
			a.status = d.status;
			a.session_id = t->session_id;
			a.user = t->user;
			a.client = t->client_addr;
			a.share = d.share ? d.share->name : t->share_name;
			const ShareConfig *sh = d.share ? cfg_.share(d.share->name) : nullptr;
			audit(audit_style(sh ? sh->params : cfg_.share_defaults), a);
			kernel.tree_connect_done(d);
		} else if (const auto *p = std::get_if<RpcReq>(&u)) {
			kernel.rpc_done(pipes_.handle(*p));
		}
	});
}

void Upcalls::audit(const AuditStyle &style, const AuditRecord &r)
{
	if (audit_wants(style, r.op, r.status) && audit_sink_)
		audit_sink_(style, r);
}

} // namespace smbsrv
