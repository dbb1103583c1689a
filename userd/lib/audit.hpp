// SPDX-License-Identifier: GPL-2.0-or-later
//
// The audit trail (Samba's vfs_full_audit names): which operations a
// share audits (full_audit:success, full_audit:failure), the records the
// module sends (audit-record) and the daemon's own (logon, connect), and
// the syslog line each becomes:
//
//     smbd_audit: PREFIX|OPERATION|ok|ARGS
//     smbd_audit: PREFIX|OPERATION|fail (STATUS)|ARGS
//
// PREFIX is full_audit:prefix with %u (user), %I (client address), %m
// (client address: smbsrv knows no NetBIOS name), %S (share), %D
// (domain) and %% substituted.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bytes.hpp"
#include "netlink.hpp"
#include "params.hpp"

namespace smbsrv {

// Operation names -> bits 1 << SMBSRV_AUDIT_OP_* ("all", "none", and
// "!name" to take one away; Samba's older names too: open, write,
// rename, unlink, set_nt_acl).  Unknown names go to *unknown.
uint32_t audit_mask(const std::vector<std::string> &names, std::vector<std::string> *unknown);
// The name syslog lines use for an operation.
std::string audit_op_name(uint32_t op);

struct AuditRecord {
	uint32_t op = 0;
	uint32_t status = 0; // NTSTATUS
	uint64_t session_id = 0;
	std::string user, domain, client, share, path, path2;
	uint32_t access = 0;
	uint64_t dropped = 0; // records the module dropped before this one
};

// One audit-record message; nullopt if it is not one (ctl_netlink.cpp,
// with the module's other messages).
std::optional<AuditRecord> parse_audit_record(ByteView msg);

// Where a share's (or [global]'s) records go and how they start.
struct AuditStyle {
	bool enabled = false; // vfs objects has full_audit
	uint32_t success = 0, failure = 0;
	std::string prefix = "%u|%I|%m|%S";
	int facility = 0; // LOG_USER ...
	int priority = 0; // LOG_NOTICE ...
};

// A section's full_audit parameters.
AuditStyle audit_style(const ParamSet &p);

// Does the style audit op ending with status?
bool audit_wants(const AuditStyle &s, uint32_t op, uint32_t status);

// The syslog message (without the "smbd_audit: " tag).
std::string audit_line(const AuditStyle &s, const AuditRecord &r);

// Send it to syslog with the style's facility and priority.
void audit_syslog(const AuditStyle &s, const AuditRecord &r);

// audit-subscribe on nl's socket: it gets the records from now on.
void audit_subscribe(GenlChannel &nl, uint32_t rate, uint32_t session_success);

} // namespace smbsrv
