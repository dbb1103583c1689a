// SPDX-License-Identifier: GPL-2.0-or-later
#include "audit.hpp"

#include <cctype>
#include <cstdio>
#include <cstring>
#include <linux/smbsrv.h>
#include <netlink/attr.h>
#include <syslog.h>

namespace smbsrv {

namespace {

struct OpName {
	const char *name;
	uint32_t op;
};

// Samba's current names first (what lines say), then older spellings.
const OpName op_names[] = {
	{"logon", SMBSRV_AUDIT_OP_LOGON},
	{"logoff", SMBSRV_AUDIT_OP_LOGOFF},
	{"connect", SMBSRV_AUDIT_OP_CONNECT},
	{"disconnect", SMBSRV_AUDIT_OP_DISCONNECT},
	{"create_file", SMBSRV_AUDIT_OP_CREATE_FILE},
	{"pwrite", SMBSRV_AUDIT_OP_PWRITE},
	{"renameat", SMBSRV_AUDIT_OP_RENAMEAT},
	{"unlinkat", SMBSRV_AUDIT_OP_UNLINKAT},
	{"fset_nt_acl", SMBSRV_AUDIT_OP_FSET_NT_ACL},
	{"open", SMBSRV_AUDIT_OP_CREATE_FILE},
	{"openat", SMBSRV_AUDIT_OP_CREATE_FILE},
	{"write", SMBSRV_AUDIT_OP_PWRITE},
	{"rename", SMBSRV_AUDIT_OP_RENAMEAT},
	{"unlink", SMBSRV_AUDIT_OP_UNLINKAT},
	{"set_nt_acl", SMBSRV_AUDIT_OP_FSET_NT_ACL},
};

constexpr uint32_t all_ops = (1U << (SMBSRV_AUDIT_OP_FSET_NT_ACL + 1)) - 1;

std::string lower(std::string s)
{
	for (auto &c : s)
		c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
	return s;
}

std::string nt_status_text(uint32_t st)
{
	switch (st) {
	case 0xc0000022: return "NT_STATUS_ACCESS_DENIED";
	case 0xc0000034: return "NT_STATUS_OBJECT_NAME_NOT_FOUND";
	case 0xc000003a: return "NT_STATUS_OBJECT_PATH_NOT_FOUND";
	case 0xc0000035: return "NT_STATUS_OBJECT_NAME_COLLISION";
	case 0xc0000043: return "NT_STATUS_SHARING_VIOLATION";
	case 0xc000006d: return "NT_STATUS_LOGON_FAILURE";
	case 0xc00000cc: return "NT_STATUS_BAD_NETWORK_NAME";
	case 0xc0000101: return "NT_STATUS_DIRECTORY_NOT_EMPTY";
	case 0xc0000121: return "NT_STATUS_CANNOT_DELETE";
	default: {
		char buf[16];
		std::snprintf(buf, sizeof(buf), "0x%08x", st);
		return buf;
	}
	}
}

} // namespace

uint32_t audit_mask(const std::vector<std::string> &names, std::vector<std::string> *unknown)
{
	uint32_t m = 0;
	for (const auto &raw : names) {
		std::string n = lower(raw);
		bool neg = !n.empty() && n[0] == '!';
		if (neg)
			n.erase(0, 1);
		uint32_t bits = 0;
		if (n == "all")
			bits = all_ops;
		else if (n == "none")
			bits = 0;
		else {
			bool found = false;
			for (const auto &o : op_names)
				if (n == o.name) {
					bits = 1U << o.op;
					found = true;
				}
			if (!found) {
				if (unknown)
					unknown->push_back(raw);
				continue;
			}
		}
		m = neg ? m & ~bits : m | bits;
	}
	return m;
}

std::string audit_op_name(uint32_t op)
{
	for (const auto &o : op_names)
		if (o.op == op)
			return o.name;
	return "op" + std::to_string(op);
}

AuditStyle audit_style(const ParamSet &p)
{
	AuditStyle s;
	for (const auto &m : p.list("vfs objects"))
		if (lower(m) == "full_audit")
			s.enabled = true;
	s.success = audit_mask(p.list("full_audit:success"), nullptr);
	s.failure = audit_mask(p.list("full_audit:failure"), nullptr);
	s.prefix = p.str("full_audit:prefix");
	static const struct {
		const char *name;
		int value;
	} facilities[] = {
		{"user", LOG_USER},	{"daemon", LOG_DAEMON}, {"auth", LOG_AUTH},
		{"authpriv", LOG_AUTHPRIV}, {"local0", LOG_LOCAL0}, {"local1", LOG_LOCAL1},
		{"local2", LOG_LOCAL2}, {"local3", LOG_LOCAL3}, {"local4", LOG_LOCAL4},
		{"local5", LOG_LOCAL5}, {"local6", LOG_LOCAL6}, {"local7", LOG_LOCAL7},
	};
	static const struct {
		const char *name;
		int value;
	} priorities[] = {
		{"emerg", LOG_EMERG},	{"alert", LOG_ALERT}, {"crit", LOG_CRIT},
		{"err", LOG_ERR},	{"warning", LOG_WARNING}, {"notice", LOG_NOTICE},
		{"info", LOG_INFO},	{"debug", LOG_DEBUG},
	};
	s.facility = LOG_USER;
	for (const auto &f : facilities)
		if (lower(p.str("full_audit:facility")) == f.name)
			s.facility = f.value;
	s.priority = LOG_NOTICE;
	for (const auto &x : priorities)
		if (lower(p.str("full_audit:priority")) == x.name)
			s.priority = x.value;
	return s;
}

bool audit_wants(const AuditStyle &s, uint32_t op, uint32_t status)
{
	if (!s.enabled || op > 31)
		return false;
	bool failed = (status >> 30) == 3;
	return ((failed ? s.failure : s.success) >> op) & 1;
}

std::string audit_line(const AuditStyle &s, const AuditRecord &r)
{
	std::string prefix;
	for (size_t i = 0; i < s.prefix.size(); i++) {
		char c = s.prefix[i];
		if (c != '%' || i + 1 == s.prefix.size()) {
			prefix += c;
			continue;
		}
		switch (s.prefix[++i]) {
		case 'u': prefix += r.user; break;
		case 'I':
		case 'm': prefix += r.client; break;
		case 'S': prefix += r.share; break;
		case 'D': prefix += r.domain; break;
		case '%': prefix += '%'; break;
		default:
			prefix += '%';
			prefix += s.prefix[i];
		}
	}
	bool failed = (r.status >> 30) == 3;
	std::string line = prefix + "|" + audit_op_name(r.op) + "|" +
			   (failed ? "fail (" + nt_status_text(r.status) + ")" : std::string("ok"));
	char access[16];
	std::snprintf(access, sizeof(access), "0x%08x", r.access);
	switch (r.op) {
	case SMBSRV_AUDIT_OP_LOGON:
	case SMBSRV_AUDIT_OP_LOGOFF:
		line += "|" + r.user;
		break;
	case SMBSRV_AUDIT_OP_CONNECT:
	case SMBSRV_AUDIT_OP_DISCONNECT:
		line += "|" + r.share;
		break;
	case SMBSRV_AUDIT_OP_CREATE_FILE:
		line += std::string("|") + access + "|" + r.path;
		break;
	case SMBSRV_AUDIT_OP_RENAMEAT:
		line += "|" + r.path + "|" + r.path2;
		break;
	default:
		line += "|" + r.path;
	}
	// One line: a name with a newline in it cannot start a record.
	for (auto &c : line)
		if (c == '\n' || c == '\r')
			c = ' ';
	return line;
}

void audit_syslog(const AuditStyle &s, const AuditRecord &r)
{
	syslog(s.facility | s.priority, "smbd_audit: %s", audit_line(s, r).c_str());
}

void audit_subscribe(GenlChannel &nl, uint32_t rate, uint32_t session_success)
{
	nl.request(SMBSRV_CMD_AUDIT_SUBSCRIBE, [&](nl_msg *m) {
		return nla_put_u32(m, SMBSRV_A_AUDIT_RATE, rate) == 0 &&
		       nla_put_u32(m, SMBSRV_A_AUDIT_SESSION_SUCCESS, session_success) == 0;
	});
}

} // namespace smbsrv
