// SPDX-License-Identifier: GPL-2.0-or-later
//
// The daemon's answers to the module's upcalls: session setup through the
// Authenticator, tree connects from the configuration, named pipes through
// the PipeTable.  Independent of the socket the upcalls come from, so the
// whole of it runs in unit tests against a fake KernelChannel.
#pragma once

#include <functional>
#include <memory>

#include "accounts.hpp"
#include "audit.hpp"
#include "auth_pool.hpp"
#include "auth.hpp"
#include "netlink.hpp"
#include "params.hpp"
#include "pipes.hpp"
#include "userdb.hpp"

namespace smbsrv {

class Upcalls {
public:
	Upcalls(Config cfg, UserDbFile &users, Accounts &accounts,
		RpcEndpointFactory rpc = {}, ntlm::Entropy entropy = {});

	// A reloaded configuration: applies to tree connects and logons that
	// start from now on; sessions and open pipes are kept.
	void reload(Config cfg);

	// Answer one upcall through kernel.  A refused answer (the upcall
	// timed out in the module meanwhile) is logged; ModuleNotLoaded and
	// socket failures propagate.
	void handle(const Upcall &u, KernelChannel &kernel);

	// Session setups from now on run on @threads worker threads, at most
	// @max_queued at once (more are refused with
	// STATUS_INSUFFICIENT_RESOURCES); their answers go out when the
	// caller, seeing pool_fd() readable, calls run_replies().  Without
	// it, handle() answers them itself.
	void start_pool(size_t threads, size_t max_queued);
	[[nodiscard]] int pool_fd() const { return pool_ ? pool_->fd() : -1; }
	void run_replies();

	[[nodiscard]] const Config &config() const { return cfg_; }
	[[nodiscard]] Authenticator &auth() { return auth_; }
	[[nodiscard]] PipeTable &pipes() { return pipes_; }

	// Where the audit records of logons and tree connects (decided here)
	// go: syslog unless told otherwise (tests).
	using AuditSink = std::function<void(const AuditStyle &, const AuditRecord &)>;
	void set_audit_sink(AuditSink sink) { audit_sink_ = std::move(sink); }

private:
	// One leg, worked out (on a worker with the pool); what answers the
	// module, to run on the main thread.
	AuthPool::Reply session_setup(const SessionSetupReq &s, KernelChannel &kernel);
	void audit(const AuditStyle &style, const AuditRecord &r);
	AuditSink audit_sink_ = audit_syslog;
	Config cfg_;
	UserDbFile &users_;
	Accounts &accounts_;
	Authenticator auth_;
	PipeTable pipes_;
	// Last: destroyed first, its workers joined before what they use.
	std::unique_ptr<AuthPool> pool_;
};

} // namespace smbsrv
