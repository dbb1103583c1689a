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
			const UserEntry *e = users_.current().find(user);
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

void Upcalls::handle(const Upcall &u, KernelChannel &kernel)
{
	try {
		if (const auto *s = std::get_if<SessionSetupReq>(&u)) {
			AuthResult r = auth_.step(s->session_id, s->client_addr, s->blob);
			SessionSetupDone d;
			d.handle = s->handle;
			d.status = r.status;
			d.blob = std::move(r.blob);
			d.session_key = std::move(r.session_key);
			d.uid = r.uid;
			d.gid = r.gid;
			d.groups = std::move(r.groups);
			for (const Sid &sid : r.sids)
				d.sids.push_back(sid.wire());
			d.flags = r.flags;
			// A logon ends (either way) on a leg that asks for no
			// more: the audit trail's logon record.
			if (r.status != nt::MORE_PROCESSING_REQUIRED) {
				AuditRecord a;
				a.op = SMBSRV_AUDIT_OP_LOGON;
				a.status = r.status;
				a.session_id = s->session_id;
				a.user = r.user.empty() ? r.claimed_user : r.user;
				a.domain = r.domain.empty() ? r.claimed_domain : r.domain;
				a.client = s->client_addr;
				audit(audit_style(cfg_.share_defaults), a);
			}
			d.user = std::move(r.user);
			d.domain = std::move(r.domain);
			d.principal = std::move(r.principal);
			kernel.session_setup_done(d);
		} else if (const auto *t = std::get_if<TreeConnectReq>(&u)) {
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

void Upcalls::audit(const AuditStyle &style, const AuditRecord &r)
{
	if (audit_wants(style, r.op, r.status) && audit_sink_)
		audit_sink_(style, r);
}

} // namespace smbsrv
